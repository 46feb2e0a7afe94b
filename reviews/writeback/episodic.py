"""Write-back into episodic JSON: top-level members added or replaced in place, the rest of
the text byte for byte; and its inverse."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from reviews.writeback.deprecation import (
    JSON_WHITESPACE,
    KEYS,
    Deprecation,
    WriteBackUnsupported,
    equal,
    expected_values,
    same,
)

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
    expected = expected_values(current, deprecation)
    if same(current, expected):
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
        elif not equal(current[key], wanted[key]):
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
    if not same(after, expected) or list(after) != list(expected):
        raise WriteBackUnsupported("the JSON could not be edited safely; add the keys by hand")
    return result


def _json_value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _skip_whitespace(text: str, i: int) -> int:
    while i < len(text) and text[i] in JSON_WHITESPACE:
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


def restore_episodic(text: str, keep: Iterable[str] = ()) -> str:
    """Episodic-memory JSON: the write-back members (but those in `keep`) leave the top-level
    object with the separator before them; every other byte stays where it was."""
    current = load_json_object(text)
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
    if not same(after, expected) or list(after) != list(expected):
        raise WriteBackUnsupported("the JSON could not be edited safely; remove the keys by hand")
    return result


def load_json_object(text: str) -> dict:
    try:
        current = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise WriteBackUnsupported(f"the file is not valid JSON ({exc})") from None
    if not isinstance(current, dict):
        raise WriteBackUnsupported("the file does not hold one JSON object")
    return current
