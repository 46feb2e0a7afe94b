"""Duplicate keys in JSON and YAML, refused with their line and field: a parser keeps the last of
two equal keys, so a value written first (a token spelled in \\u escapes) would reach the raw
text's reader but not the decoded data's, nor the scanner that reads the decoded data."""

from __future__ import annotations

import contextlib
import json
import re
from json.decoder import scanstring

import yaml

from reflections.importers.base import ParseError

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_PLAIN_DECODER = json.JSONDecoder()


class DuplicateKey(ValueError):
    """Raised by `unique_pairs` mid-decode; `load_json` turns it into a ParseError."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_pairs(pairs: list[tuple[str, object]]) -> dict:
    """json's object_pairs_hook: the object as a dict, refusing a key given twice."""
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return mapping


def shown_key(key: object) -> str:
    """A key as an error quotes it: JSON-quoted (escapes visible), cut short."""
    quoted = json.dumps(str(key), ensure_ascii=True)
    return quoted if len(quoted) <= 60 else quoted[:57] + '…"'


def json_duplicate_error(text: str, key: str, *, line: int | None, field: str | None) -> ParseError:
    """The ParseError for a duplicate key of `text`: the line it is written on (for a JSONL
    record, the record's line) and the path of the field that holds it."""
    where = None
    # When the rest of the text does not decode, the key alone is named.
    with contextlib.suppress(ValueError, IndexError, RecursionError):
        where, _ = _duplicate_in(text, 0, "")
    path, position = where if where else (key, None)
    if line is None and position is not None:
        line = text.count("\n", 0, position) + 1
    prefix = f"{field}." if field else ""
    return ParseError(
        f"duplicate key {shown_key(key)}: every key may appear once in an object "
        "(the value written first would be hidden by the last)",
        line=line,
        field=f"{prefix}{path}",
    )


def _duplicate_in(text: str, index: int, path: str):
    """((field path, position) of the first repeated key in the value at `index`, or None;
    the index after the value). Called only once a decode has found a duplicate."""
    index = _WHITESPACE.match(text, index).end()
    opening = text[index]
    if opening == "{":
        seen: set[str] = set()
        index = _WHITESPACE.match(text, index + 1).end()
        if text[index] == "}":
            return None, index + 1
        while True:
            key_at = index
            key, index = scanstring(text, index + 1)
            inner = f"{path}.{key}" if path else key
            if key in seen:
                return (inner, key_at), index
            seen.add(key)
            index = _WHITESPACE.match(text, index).end() + 1  # the ":"
            found, index = _duplicate_in(text, index, inner)
            if found:
                return found, index
            index = _WHITESPACE.match(text, index).end()
            if text[index] == "}":
                return None, index + 1
            index = _WHITESPACE.match(text, index + 1).end()  # past the ","
    if opening == "[":
        position = 0
        index = _WHITESPACE.match(text, index + 1).end()
        if text[index] == "]":
            return None, index + 1
        while True:
            found, index = _duplicate_in(text, index, f"{path}[{position}]")
            if found:
                return found, index
            index = _WHITESPACE.match(text, index).end()
            if text[index] == "]":
                return None, index + 1
            index += 1
            position += 1
    _, end = _PLAIN_DECODER.raw_decode(text, index)
    return None, end


def yaml_duplicate_error(key: object, line: int) -> ParseError:
    """The ParseError for a front matter key given twice; `line` is the file's line."""
    return ParseError(
        f"duplicate key {shown_key(key)}: every key may appear once "
        "(the value written first would be hidden by the last)",
        line=line,
        field=f"front matter: {key}"[:80],
    )


def check_unique_keys(node: yaml.MappingNode) -> None:
    """Refuse a mapping node that gives a scalar key twice (file line: front matter line + 2)."""
    seen: set[object] = set()
    for key_node, _ in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            key = (key_node.tag, key_node.value)
            if key in seen:
                raise yaml_duplicate_error(key_node.value, key_node.start_mark.line + 2)
            seen.add(key)


def unique_keys_loader(base: type) -> type:
    """A safe loader class refusing duplicate mapping keys, built on `base`."""

    class UniqueKeysLoader(base):
        def construct_mapping(self, node, deep=False):
            check_unique_keys(node)
            return super().construct_mapping(node, deep=deep)

    return UniqueKeysLoader
