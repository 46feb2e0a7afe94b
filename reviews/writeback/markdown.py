"""Write-back into Markdown front matter (front-matter and protocol files), edited line by
line so other keys, their order and comments stay as written; and its inverse."""

from __future__ import annotations

import re
from collections.abc import Iterable

import yaml

from reviews.writeback.deprecation import (
    KEYS,
    Deprecation,
    WriteBackUnsupported,
    equal,
    expected_values,
    same,
    yaml_load,
    yaml_scalar,
)

# --------------------------------------------------------------------------- Markdown


def write_back_markdown(text: str, deprecation: Deprecation) -> str:
    """Front-matter Markdown: set the keys in the YAML front matter, touching no other line.

    Markdown without front matter (Reflexion-protocol files) gains a front matter block holding
    only the deprecation, above the H1.
    """
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        block = [f"{k}: {yaml_scalar(v)}" for k, v in deprecation.keys().items()]
        result = "\n".join(["---", *block, "---", text])
        _check_front_matter(block, {}, deprecation)
        return result

    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        raise WriteBackUnsupported("the front matter opened on line 1 is never closed")
    front = lines[1:end]
    current = load_front_matter(front)
    if same(current, expected_values(current, deprecation)):
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
        elif stop - start > 1 or not equal(_line_value(front[start], key), wanted[key]):
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
    edited.extend(f"{k}: {yaml_scalar(v)}" for k, v in wanted.items() if not _entries(front, k))

    _check_front_matter(edited, current, deprecation)
    return "\n".join(["---", *edited, *lines[end:]])


def write_back_protocol(text: str, deprecation: Deprecation) -> str:
    """Reflexion-protocol Markdown has no front matter: it gains one (or, written back before,
    has its block edited like any front matter)."""
    return write_back_markdown(text, deprecation)


def write_back_frontmatter(text: str, deprecation: Deprecation) -> str:
    return write_back_markdown(text, deprecation)


def load_front_matter(front: list[str]) -> dict:
    try:
        meta = yaml_load("\n".join(front))
    except yaml.YAMLError as exc:
        raise WriteBackUnsupported(f"the front matter is not valid YAML ({exc})") from None
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise WriteBackUnsupported("the front matter is not a mapping of keys to values")
    return meta


def _check_front_matter(front: list[str], before: dict, deprecation: Deprecation) -> None:
    try:
        after = load_front_matter(front)
    except WriteBackUnsupported:
        after = None
    expected = expected_values(before, deprecation)
    if after is None or not same(after, expected) or list(after) != list(expected):
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
        loaded = yaml_load(line)
    except yaml.YAMLError:
        return None
    if not isinstance(loaded, dict) or len(loaded) != 1 or key not in loaded:
        return None
    return loaded[key]


def _replacement_line(line: str, key: str, value: object) -> str:
    """`key: value`, keeping a trailing comment of the line it replaces when that is safe."""
    plain = f"{key}: {yaml_scalar(value)}"
    comment = re.search(r"[ \t]+#[^'\"]*$", line)
    if comment:
        candidate = plain + comment.group(0)
        if equal(_line_value(candidate, key), value):
            return candidate
    return plain


def restore_markdown(text: str, keep: Iterable[str] = ()) -> str:
    """Front-matter Markdown: delete the lines of the write-back keys (but those in `keep`) from
    the front matter, every other line as it is. The inverse of `write_back_markdown` when the
    keys were added by it rather than edited in place."""
    lines = text.split("\n")
    end = front_matter_end(lines, protocol=False)
    if not end:
        return text
    edited = _without_keys(lines[1:end], keep)
    return text if edited is None else "\n".join(["---", *edited, *lines[end:]])


def restore_protocol(text: str, keep: Iterable[str] = ()) -> str:
    """Reflexion-protocol Markdown: the leading block write-back added goes as a whole once it
    would hold nothing else; the file is again the plain protocol file it was."""
    lines = text.split("\n")
    end = front_matter_end(lines, protocol=True)
    if not end:
        return text
    current = load_front_matter(lines[1:end])
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
    if not load_front_matter(edited):
        return "\n".join(lines[end + 1 :])
    return "\n".join(["---", *edited, *lines[end:]])


def restore_frontmatter(text: str, keep: Iterable[str] = ()) -> str:
    return restore_markdown(text, keep)


def front_matter_end(lines: list[str], *, protocol: bool) -> int:
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
    current = load_front_matter(front)
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
        after = load_front_matter(edited)
    except WriteBackUnsupported:
        after = None
    if after is None or not same(after, expected) or list(after) != list(expected):
        raise WriteBackUnsupported(
            "the front matter is laid out in a way this edit cannot change safely "
            "(a flow mapping or a multi-line value); remove these keys by hand: "
            + ", ".join(remove)
        )
    return edited
