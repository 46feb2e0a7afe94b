"""Writing a review's deprecation back into a reflection's source text: one pure function per
format, text in, text out, so the agent runtime that reads the files honours the verdict.

Every writer edits the text in place rather than re-serialising it: other keys, their order,
comments and the file's indentation stay as the author wrote them. Each result is parsed again
and compared with what it must hold before it is returned, and writing back twice gives the
same text as writing back once.

Restoring (a verdict undone or changed to keep) is the inverse: `restore_text` removes the keys
write-back adds and nothing else, and restoring twice gives the same text as restoring once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

import yaml

from reflections.importers.base import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
)

# The verdicts that deprecate (reviews.models.Verdict without "keep"); the file carries the value.
DEPRECATION_REASONS = ("echo_chamber", "outdated", "duplicate")
KEYS = ("deprecated_reason", "archived", "duplicate_of")

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_JSON_WHITESPACE = " \t\n\r"


class WriteBackUnsupported(Exception):
    """This text cannot be written back safely; `reason` says why, for a person."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class Deprecation:
    reason: str  # echo_chamber | outdated | duplicate
    duplicate_of: str = ""  # the original's source path; duplicates only

    def __post_init__(self) -> None:
        if self.reason not in DEPRECATION_REASONS:
            raise ValueError(
                f"unknown deprecation reason {self.reason!r}; expected one of "
                + ", ".join(DEPRECATION_REASONS)
            )
        if (self.reason == "duplicate") != bool(self.duplicate_of):
            raise ValueError("duplicate_of is required for a duplicate and only for a duplicate")

    def keys(self) -> dict[str, object]:
        """What the file must say, in the order new keys are added."""
        wanted: dict[str, object] = {"deprecated_reason": self.reason, "archived": True}
        if self.duplicate_of:
            wanted["duplicate_of"] = self.duplicate_of
        return wanted

    def describe(self) -> str:
        return ", ".join(f"{k}: {_yaml_scalar(v)}" for k, v in self.keys().items())


def _expected(current: dict, deprecation: Deprecation) -> dict:
    """`current` with the deprecation applied: a stale duplicate_of goes when the verdict is not
    a duplicate (the reviewer changed their mind after an earlier write-back)."""
    expected = dict(current)
    expected.update(deprecation.keys())
    if not deprecation.duplicate_of:
        expected.pop("duplicate_of", None)
    return expected


def _equal(a: object, b: object) -> bool:
    """Equal and of the same type: in Python `1 == True`, but `archived: 1` is not a boolean."""
    return type(a) is type(b) and a == b


def _same(a: dict, b: dict) -> bool:
    return a == b and all(_equal(a.get(k), b.get(k)) for k in KEYS)


# --------------------------------------------------------------------------- Markdown


def write_back_markdown(text: str, deprecation: Deprecation) -> str:
    """Front-matter Markdown: set the keys in the YAML front matter, touching no other line.

    Markdown without front matter (Reflexion-protocol files) gains a front matter block holding
    only the deprecation, above the H1.
    """
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        block = [f"{k}: {_yaml_scalar(v)}" for k, v in deprecation.keys().items()]
        result = "\n".join(["---", *block, "---", text])
        _check_front_matter(block, {}, deprecation)
        return result

    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        raise WriteBackUnsupported("the front matter opened on line 1 is never closed")
    front = lines[1:end]
    current = _load_front_matter(front)
    if _same(current, _expected(current, deprecation)):
        return text

    wanted = deprecation.keys()
    # line index -> (end of the span it starts, the lines that replace the span)
    replace: dict[int, tuple[int, list[str]]] = {}
    for key in KEYS:
        entries = _entries(front, key)
        if not entries:
            continue
        (start, stop), *repeats = entries
        for repeat in repeats:  # YAML reads the last of repeated keys: keep one
            replace[repeat[0]] = (repeat[1], [])
        if key not in wanted:
            replace[start] = (stop, [])
        elif stop - start > 1 or not _equal(_line_value(front[start], key), wanted[key]):
            replace[start] = (stop, [_replacement_line(front[start], key, wanted[key])])
    edited: list[str] = []
    i = 0
    while i < len(front):
        if i in replace:
            i, new_lines = replace[i]
            edited.extend(new_lines)
        else:
            edited.append(front[i])
            i += 1
    edited.extend(f"{k}: {_yaml_scalar(v)}" for k, v in wanted.items() if not _entries(front, k))

    _check_front_matter(edited, current, deprecation)
    return "\n".join(["---", *edited, *lines[end:]])


def write_back_protocol(text: str, deprecation: Deprecation) -> str:
    """Reflexion-protocol Markdown has no front matter: it gains one (or, written back before,
    has its block edited like any front matter)."""
    return write_back_markdown(text, deprecation)


def write_back_frontmatter(text: str, deprecation: Deprecation) -> str:
    return write_back_markdown(text, deprecation)


def _yaml_load(source: str) -> object:
    # A safe loader only builds plain data, like the importer's (libyaml when available).
    return yaml.load(source, Loader=_SAFE_LOADER)  # noqa: S506 - a SafeLoader


def _load_front_matter(front: list[str]) -> dict:
    try:
        meta = _yaml_load("\n".join(front))
    except yaml.YAMLError as exc:
        raise WriteBackUnsupported(f"the front matter is not valid YAML ({exc})") from None
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise WriteBackUnsupported("the front matter is not a mapping of keys to values")
    return meta


def _check_front_matter(front: list[str], before: dict, deprecation: Deprecation) -> None:
    try:
        after = _load_front_matter(front)
    except WriteBackUnsupported:
        after = None
    expected = _expected(before, deprecation)
    if after is None or not _same(after, expected) or list(after) != list(expected):
        raise WriteBackUnsupported(
            "the front matter is laid out in a way this edit cannot change safely "
            "(a flow mapping or a multi-line value); add the keys by hand: "
            + deprecation.describe()
        )


def _key_pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"""^(?:{key}|"{key}"|'{key}')[ \t]*:(?:[ \t]|$)""")


def _entries(front: list[str], key: str) -> list[tuple[int, int]]:
    """The line spans [start, stop) of the top-level entries for `key`: the key's line and the
    indented or list lines that continue its value."""
    pattern = _key_pattern(key)
    spans = []
    for i, line in enumerate(front):
        if pattern.match(line):
            stop = i + 1
            while stop < len(front) and front[stop][:1] in (" ", "\t", "-") and front[stop].strip():
                stop += 1
            spans.append((i, stop))
    return spans


def _line_value(line: str, key: str) -> object:
    try:
        loaded = _yaml_load(line)
    except yaml.YAMLError:
        return None
    if not isinstance(loaded, dict) or len(loaded) != 1 or key not in loaded:
        return None
    return loaded[key]


def _replacement_line(line: str, key: str, value: object) -> str:
    """`key: value`, keeping a trailing comment of the line it replaces when that is safe."""
    plain = f"{key}: {_yaml_scalar(value)}"
    comment = re.search(r"[ \t]+#[^'\"]*$", line)
    if comment:
        candidate = plain + comment.group(0)
        if _equal(_line_value(candidate, key), value):
            return candidate
    return plain


def _yaml_scalar(value: object) -> str:
    """A YAML scalar that reads back as exactly `value`: plain when it can be, else quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    for candidate in (text, json.dumps(text, ensure_ascii=False)):
        if "\n" in candidate:
            continue
        try:
            if _yaml_load(f"k: {candidate}") == {"k": text}:
                return candidate
        except yaml.YAMLError:
            continue
    raise WriteBackUnsupported(f"cannot write {text!r} as a YAML value")


# --------------------------------------------------------------------------- JSON


@dataclass(frozen=True)
class _Member:
    key: str
    key_start: int
    key_end: int
    value_start: int
    value_end: int


def write_back_episodic(text: str, deprecation: Deprecation) -> str:
    """Episodic-memory JSON: the keys at the top level of the reflection object, added after
    the last member with the file's own indentation and `:` spacing; nothing else moves."""
    try:
        current = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise WriteBackUnsupported(f"the file is not valid JSON ({exc})") from None
    if not isinstance(current, dict):
        raise WriteBackUnsupported("the file does not hold one JSON object")
    expected = _expected(current, deprecation)
    if _same(current, expected):
        return text

    members, opening, closing = _top_level_members(text)
    for key in KEYS:
        if sum(m.key == key for m in members) > 1:
            raise WriteBackUnsupported(f"the key {key!r} appears more than once")
    wanted = deprecation.keys()
    by_key = {m.key: m for m in members}
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement), applied right to left
    for key in KEYS:
        member = by_key.get(key)
        if member is None:
            continue
        if key not in wanted:
            index = members.index(member)
            if index > 0:  # from the end of the previous value, so its comma goes too
                edits.append((members[index - 1].value_end, member.value_end, ""))
            elif len(members) > 1:
                edits.append((member.key_start, members[1].key_start, ""))
            else:
                edits.append((member.key_start, member.value_end, ""))
        elif not _equal(current[key], wanted[key]):
            edits.append((member.value_start, member.value_end, _json_value(wanted[key])))
    pieces = [k for k in wanted if k not in by_key]
    if pieces and members:
        first = members[0]
        indent = text[opening + 1 : first.key_start]  # "\n  ", or "" on one line
        if len(members) > 1:  # the text between members after the comma: "\n  " or " "
            comma = text.index(",", first.value_end)
            indent = text[comma + 1 : members[1].key_start]
        colon = text[first.key_end : first.value_start]  # ": " or ":"
        added = "".join(f",{indent}{json.dumps(k)}{colon}{_json_value(wanted[k])}" for k in pieces)
        edits.append((members[-1].value_end, members[-1].value_end, added))
    elif pieces:
        added = ",\n  ".join(f"{json.dumps(k)}: {_json_value(wanted[k])}" for k in pieces)
        edits.append((opening + 1, closing, f"\n  {added}\n"))

    result = text
    for start, end, replacement in sorted(edits, reverse=True):
        result = result[:start] + replacement + result[end:]

    after = json.loads(result)
    if not _same(after, expected) or list(after) != list(expected):
        raise WriteBackUnsupported("the JSON could not be edited safely; add the keys by hand")
    return result


def _json_value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _skip_whitespace(text: str, i: int) -> int:
    while i < len(text) and text[i] in _JSON_WHITESPACE:
        i += 1
    return i


def _top_level_members(text: str) -> tuple[list[_Member], int, int]:
    """Where each top-level key and value of the object starts and ends, and the indexes of
    the object's braces. The text is known to be valid JSON holding one object."""
    decoder = json.JSONDecoder()
    opening = _skip_whitespace(text, 0)
    i = _skip_whitespace(text, opening + 1)
    members: list[_Member] = []
    if text[i] == "}":
        return members, opening, i
    while True:
        key_start = i
        key, key_end = decoder.raw_decode(text, i)
        i = _skip_whitespace(text, key_end)
        value_start = _skip_whitespace(text, i + 1)  # past ":"
        _, i = decoder.raw_decode(text, value_start)
        members.append(_Member(key, key_start, key_end, value_start, i))
        i = _skip_whitespace(text, i)
        if text[i] == "}":
            return members, opening, i
        i = _skip_whitespace(text, i + 1)  # past ","


# --------------------------------------------------------------------------- restoring


def written_back_keys(text: str, *, fmt: str) -> dict[str, object]:
    """The write-back keys (deprecated_reason, archived, duplicate_of) the text holds now, with
    their values: what `restore_text` would remove."""
    if fmt == FORMAT_EPISODIC:
        current = _load_json_object(text)
    elif fmt in (FORMAT_FRONTMATTER, FORMAT_PROTOCOL):
        lines = text.split("\n")
        end = _front_matter_end(lines, protocol=fmt == FORMAT_PROTOCOL)
        current = _load_front_matter(lines[1:end]) if end else {}
    else:
        raise WriteBackUnsupported(unsupported_reason(fmt))
    return {key: current[key] for key in KEYS if key in current}


def restore_markdown(text: str, keep: Iterable[str] = ()) -> str:
    """Front-matter Markdown: delete the lines of the write-back keys (but those in `keep`) from
    the front matter, every other line as it is. The inverse of `write_back_markdown` when the
    keys were added by it rather than edited in place."""
    lines = text.split("\n")
    end = _front_matter_end(lines, protocol=False)
    if not end:
        return text
    edited = _without_keys(lines[1:end], keep)
    return text if edited is None else "\n".join(["---", *edited, *lines[end:]])


def restore_protocol(text: str, keep: Iterable[str] = ()) -> str:
    """Reflexion-protocol Markdown: the leading block write-back added goes as a whole once it
    would hold nothing else; the file is again the plain protocol file it was."""
    lines = text.split("\n")
    end = _front_matter_end(lines, protocol=True)
    if not end:
        return text
    current = _load_front_matter(lines[1:end])
    unknown = [str(k) for k in current if k not in KEYS]
    if unknown:
        raise WriteBackUnsupported(
            "the front matter of a protocol file holds keys write-back never writes ("
            + ", ".join(unknown)
            + "); remove the deprecation by hand"
        )
    edited = _without_keys(lines[1:end], keep)
    if edited is None:
        return text
    if not _load_front_matter(edited):
        return "\n".join(lines[end + 1 :])
    return "\n".join(["---", *edited, *lines[end:]])


def restore_frontmatter(text: str, keep: Iterable[str] = ()) -> str:
    return restore_markdown(text, keep)


def restore_episodic(text: str, keep: Iterable[str] = ()) -> str:
    """Episodic-memory JSON: the write-back members (but those in `keep`) leave the top-level
    object with the separator before them; every other byte stays where it was."""
    current = _load_json_object(text)
    remove = [k for k in KEYS if k in current and k not in keep]
    if not remove:
        return text
    members, _, _ = _top_level_members(text)
    for key in KEYS:
        if sum(m.key == key for m in members) > 1:
            raise WriteBackUnsupported(f"the key {key!r} appears more than once")
    result = text
    for key in remove:  # one at a time: each removal moves the members after it
        members, opening, closing = _top_level_members(result)
        index = next(i for i, m in enumerate(members) if m.key == key)
        member = members[index]
        if index > 0:  # from the end of the previous value, so its comma goes too
            start, end = members[index - 1].value_end, member.value_end
        elif len(members) > 1:
            start, end = member.key_start, members[1].key_start
        else:
            start, end = opening + 1, closing
        result = result[:start] + result[end:]

    expected = {k: v for k, v in current.items() if k not in remove}
    after = json.loads(result)
    if not _same(after, expected) or list(after) != list(expected):
        raise WriteBackUnsupported("the JSON could not be edited safely; remove the keys by hand")
    return result


def _front_matter_end(lines: list[str], *, protocol: bool) -> int:
    """The index of the line closing a front matter opened on line 1, or 0 when there is none.
    A protocol file's block closes on `---` only, like the importer reads it."""
    if lines[0].rstrip() != "---":
        return 0
    closing = ("---",) if protocol else ("---", "...")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in closing), None)
    if end is None:
        raise WriteBackUnsupported("the front matter opened on line 1 is never closed")
    return end


def _without_keys(front: list[str], keep: Iterable[str]) -> list[str] | None:
    """The front matter lines without the entries of the write-back keys not in `keep`, checked
    by parsing them again; None when there is nothing to remove."""
    current = _load_front_matter(front)
    kept = set(keep)
    remove = [k for k in KEYS if k in current and k not in kept]
    if not remove:
        return None
    dropped: set[int] = set()
    for key in remove:
        for start, stop in _entries(front, key):
            dropped.update(range(start, stop))
    edited = [line for i, line in enumerate(front) if i not in dropped]
    expected = {k: v for k, v in current.items() if k not in remove}
    try:
        after = _load_front_matter(edited)
    except WriteBackUnsupported:
        after = None
    if after is None or not _same(after, expected) or list(after) != list(expected):
        raise WriteBackUnsupported(
            "the front matter is laid out in a way this edit cannot change safely "
            "(a flow mapping or a multi-line value); remove these keys by hand: "
            + ", ".join(remove)
        )
    return edited


def _load_json_object(text: str) -> dict:
    try:
        current = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise WriteBackUnsupported(f"the file is not valid JSON ({exc})") from None
    if not isinstance(current, dict):
        raise WriteBackUnsupported("the file does not hold one JSON object")
    return current


# --------------------------------------------------------------------------- dispatch

WRITERS = {
    FORMAT_PROTOCOL: write_back_protocol,
    FORMAT_FRONTMATTER: write_back_frontmatter,
    FORMAT_EPISODIC: write_back_episodic,
}
UNSUPPORTED_REASONS = {
    FORMAT_HEURISTIC: (
        "a heuristic JSONL file holds many lessons, one per line, and its format has no field "
        "for a deprecation; the export (export_deprecations) lists it instead"
    ),
}


def unsupported_reason(fmt: str) -> str:
    return UNSUPPORTED_REASONS.get(fmt, f"write-back does not know the format {fmt!r}")


def write_back_text(text: str, *, fmt: str, deprecation: Deprecation) -> str:
    """The text of a reflection file of format `fmt` with the deprecation written into it."""
    writer = WRITERS.get(fmt)
    if writer is None:
        raise WriteBackUnsupported(unsupported_reason(fmt))
    return writer(text, deprecation)


RESTORERS = {
    FORMAT_PROTOCOL: restore_protocol,
    FORMAT_FRONTMATTER: restore_frontmatter,
    FORMAT_EPISODIC: restore_episodic,
}


def restore_text(text: str, *, fmt: str, keep: Iterable[str] = ()) -> str:
    """The text of a reflection file of format `fmt` without the keys write-back adds
    (deprecated_reason, archived, duplicate_of; those named in `keep` stay): what the file said
    before a deprecation was written back, when write-back added the keys rather than edited
    them. Text holding none of them comes back unchanged, so restoring twice is restoring once.
    """
    restorer = RESTORERS.get(fmt)
    if restorer is None:
        raise WriteBackUnsupported(unsupported_reason(fmt))
    return restorer(text, keep)
