"""Decoding untrusted JSON and YAML safely: bounded sizes, numbers and nesting, no aliases."""

from __future__ import annotations

import json
import re

import yaml

from reflections.importers.base import ParseError
from reflections.importers.duplicates import (
    DuplicateKey,
    check_unique_keys,
    json_duplicate_error,
    unique_keys_loader,
    unique_pairs,
)

# Safe loaders (a reflection file never runs code on import) that refuse a key given twice.
_SAFE_LOADER = unique_keys_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
# Anchors and aliases let a kilobyte of YAML expand into gigabytes ("billion laughs"); a
# reflection's front matter never needs them.
_ANCHOR_OR_ALIAS = re.compile(r"(?:^|[\s:\[{,-])[&*][A-Za-z0-9_-]")

# Limits on decoded data: what a reflection or a log line can reasonably hold.
MAX_NESTING = 32
MAX_INT_DIGITS = 30


class _NoAliasLoader(unique_keys_loader(yaml.SafeLoader)):
    """The pure-Python safe loader, refusing aliases: used when the text holds & or *."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise ParseError(
                "aliases (*name) are not allowed in front matter",
                line=event.start_mark.line + 2,
                field="front matter",
            )
        return super().compose_node(parent, index)


def check_decoded(value: object, *, field: str, line: int | None = None, depth: int = 0) -> None:
    """Decoded JSON or YAML a database can hold: nested at most MAX_NESTING deep, no text with
    NUL or unpaired surrogate characters, no number of absurd size."""
    if depth > MAX_NESTING:
        raise ParseError(f"nested more than {MAX_NESTING} levels deep", line=line, field=field)
    if isinstance(value, str):
        if "\x00" in value:
            raise ParseError("holds a NUL character", line=line, field=field)
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError(
                    "holds an unpaired surrogate (\\ud800-\\udfff); re-save the text as UTF-8",
                    line=line,
                    field=field,
                ) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            check_decoded(key, field=field, line=line, depth=depth + 1)
            check_decoded(item, field=f"{field}.{key}" if field else str(key), line=line,
                          depth=depth + 1)  # fmt: skip
    elif isinstance(value, list | tuple):
        for item in value:
            check_decoded(item, field=field, line=line, depth=depth + 1)


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a number with {len(digits):,} digits")
    return int(digits)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def load_json(text: str, *, line: int | None = None, field: str | None = None) -> object:
    """JSON decoded safely: bounded numbers and nesting, no NaN, no NUL or lone surrogates, no
    key given twice in an object. Every problem is a ParseError naming the line (for a JSONL
    line, the record's) and the field."""
    try:
        data = json.loads(
            text,
            parse_int=_bounded_int,
            parse_constant=_no_constant,
            object_pairs_hook=unique_pairs,
        )
    except DuplicateKey as exc:
        raise json_duplicate_error(text, exc.key, line=line, field=field) from None
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
            line=line or exc.lineno,
            field=field,
        ) from None
    except ValueError as exc:
        raise ParseError(f"invalid JSON: {str(exc)[:80]}", line=line, field=field) from None
    except RecursionError:
        raise ParseError("invalid JSON: nested too deeply", line=line, field=field) from None
    check_decoded(data, field=field or "", line=line)
    return data


_STR, _MAP, _SEQ = (f"tag:yaml.org,2002:{name}" for name in ("str", "map", "seq"))
# Scalars whose safe constructor is a plain function of the node (no nested nodes).
_SCALAR_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("bool", "float", "int", "null", "timestamp")
)


class _NotPlain(Exception):
    """A document the plain construction leaves to PyYAML's constructor."""


# The front matter agents write: one `key: value` or `key: [a, b]` a line, plain words only.
_PLAIN_WORD = r"[A-Za-z0-9_.](?:[A-Za-z0-9 _./+-]*[A-Za-z0-9_./+-])?"
_SIMPLE_LINE = re.compile(
    rf"([A-Za-z_][A-Za-z0-9_]*): "
    rf"(?:({_PLAIN_WORD})|\[ *({_PLAIN_WORD}(?: *, *{_PLAIN_WORD})*)? *\])"
)
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _simple_mapping(source: str) -> dict | None:
    """The mapping of a front matter written as simple lines, as PyYAML builds it (its own
    resolver and constructors type each word: 0.68, true, 2026-05-10); None for anything
    else, left to libyaml. Skips the parser for the common case."""
    mapping: dict = {}
    for line in source.split("\n"):
        match = _SIMPLE_LINE.fullmatch(line)
        if match is None:
            return None
        key, word, items = match.groups()
        if key in mapping:
            return None  # a duplicate: the loader says where
        if _RESOLVER.resolve(yaml.ScalarNode, key, (True, False)) != _STR:
            return None  # yes:, null:, on: are not strings
        if word is not None:
            mapping[key] = _plain_scalar(word)
        else:
            mapping[key] = [_plain_scalar(i.strip()) for i in items.split(",")] if items else []
    return mapping


def _plain_scalar(word: str) -> object:
    tag = _RESOLVER.resolve(yaml.ScalarNode, word, (True, False))
    if tag == _STR:
        return word
    return _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, word))


def _load(source: str, loader_class: type) -> object:
    """What ``yaml.load(source, Loader=loader_class)`` returns, built faster for plain data.

    PyYAML's constructor is pure Python even behind the libyaml parser, and costs more than
    the parse (dispatch, state generators, an ABC check per key). A front matter is a tree of
    strings, numbers, dates, lists and mappings: `_plain` builds that directly from the parsed
    nodes; anything else (aliases, merge keys, other tags, unhashable keys, deep nesting) goes
    to PyYAML's constructor (as does any failure), so the result and every error are the
    same."""
    if loader_class is _SAFE_LOADER:
        try:
            simple = _simple_mapping(source)
        except Exception:  # a word PyYAML refuses: it says how
            simple = None
        if simple is not None:
            return simple
    loader = loader_class(source)  # a safe loader: a reflection file never runs code on import
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        try:
            return _plain(node, loader, set(), 0)
        except ParseError:
            raise  # a duplicate key
        except Exception:  # _NotPlain, or a scalar PyYAML refuses: it says how, in its order
            return loader.construct_document(node)
    finally:
        loader.dispose()


def _plain(node: yaml.Node, loader, seen: set[int], depth: int) -> object:
    if id(node) in seen or depth > MAX_NESTING + 1:
        raise _NotPlain  # an alias (the same node twice), or too deep for plain recursion
    seen.add(id(node))
    kind, tag = type(node), node.tag
    if kind is yaml.ScalarNode:
        if tag == _STR:
            return node.value
        if tag in _SCALAR_TAGS:
            return loader.yaml_constructors[tag](loader, node)
    elif kind is yaml.MappingNode and tag == _MAP:
        check_unique_keys(node)
        mapping = {}
        for key_node, value_node in node.value:
            key = _plain(key_node, loader, seen, depth + 1)
            if isinstance(key, dict | list):
                raise _NotPlain  # unhashable: PyYAML says so (a merge key << is not plain)
            mapping[key] = _plain(value_node, loader, seen, depth + 1)
        return mapping
    elif kind is yaml.SequenceNode and tag == _SEQ:
        return [_plain(item, loader, seen, depth + 1) for item in node.value]
    raise _NotPlain


def load_yaml_mapping(source: str) -> dict:
    """A front matter block (the lines between the `---`s, file line 2 on) as a dict."""
    try:
        # A safe loader only builds plain data: a reflection file must never run code on
        # import. The libyaml one is ~10x faster, which matters at 100,000 files.
        loader = _NoAliasLoader if _ANCHOR_OR_ALIAS.search(source) else _SAFE_LOADER
        meta = _load(source, loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        raise ParseError(
            f"invalid YAML: {problem}" + (f" ({context})" if context else ""),
            # The mark counts from 0 inside the front matter, which starts on file line 2.
            # libyaml marks an unexpected end of input one line past the end: clamp it.
            line=min(mark.line, source.count("\n")) + 2 if mark is not None else None,
            field="front matter",
        ) from None
    except RecursionError:
        raise ParseError("invalid YAML: nested too deeply", field="front matter") from None
    except ValueError as exc:  # an integer beyond Python's conversion limit
        raise ParseError(f"invalid YAML: {str(exc)[:80]}", field="front matter") from None
    if meta is None:
        return {}
    check_decoded(meta, field="front matter")
    if not isinstance(meta, dict):
        raise ParseError(
            f"must be a mapping of keys to values (task_type: …, outcome: …), "
            f"found a {type(meta).__name__}",
            line=2,
            field="front matter",
        )
    return meta
