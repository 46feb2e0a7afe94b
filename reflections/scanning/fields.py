"""A reflection's fields scanned with its text, and the masked values a quarantine stores.

A field usually repeats the text verbatim (a front matter tag, an H1 title) and the text scan
covers it. What the text does not hold as written is scanned too: the file's path, a
department given on the command line, and values a JSON or YAML escape (``\\u0067hp_…``)
hid from the scan of the raw text. A finding in a field names the field, never the value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace

from reflections.importers.base import FIELD_LIMITS
from reflections.scanning.findings import CATEGORIES, PERSONAL, SECRET, Finding
from reflections.scanning.masking import mask, strict_findings
from reflections.scanning.scan import scan_text

# The text fields of a reflection, and those that hold lists of text.
TEXT_FIELDS = (
    "source_path",
    "department",
    "agent",
    "title",
    "task_type",
    "task_id",
    "external_id",
    "model_used",
    "deprecated_reason",
)
LIST_FIELDS = ("tags", "skills", "tools")
# Between the text and the field values scanned with it: a blank line ends every rule's
# context (values, sentences, key = value lines).
_SEPARATOR = "\n\n"
# Escapes that can spell a value differently from the way the raw text shows it.
_HIDING_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|/)")
_ESCAPED_BREAK = re.compile(r"(?<!\\)\\([nrt])")
# A double-quoted JSON or YAML string holding such an escape.
_ESCAPED_LITERAL = re.compile(
    r'"(?:[^"\\\n]|\\.)*?\\(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|/)(?:[^"\\\n]|\\.)*"'
)
# A short field's value as a JSON member or a front-matter line: (lead, value, tail).
_SHORT_VALUES = {
    name: re.compile(
        rf'("{name}"[ \t]*:[ \t]*")((?:[^"\\\n]|\\.)*)(")'
        rf"|^({name}[ \t]*:[ \t]*)(.*?)([ \t]*)$",
        re.M,
    )
    for name in FIELD_LIMITS
}
_MARKER = re.compile(r"\[REDACTED:([a-z+]+)\]")
# Substrings shorter than this are not hunted for in other fields: too many false hits.
_MIN_UNSAFE = 4
# A run of a field value that may be a piece of a secret or personal value found in the text;
# one of letters only must be this long (shorter ones are words).
_PIECE = re.compile(r"(?<![\w+/=-])[\w+/=-]{6,}(?![\w+/=-])")
_MIN_PLAIN_PIECE = 10


def field_items(values: Mapping[str, object]) -> Iterator[tuple[str, str]]:
    """(field, value) for every non-empty text value: list items as ``tags[2]``, sections as
    ``sections[0].heading`` and ``sections[0].body``."""
    for name in TEXT_FIELDS:
        if value := values.get(name):
            yield name, str(value)
    for name in LIST_FIELDS:
        for index, item in enumerate(values.get(name) or ()):
            if item:
                yield f"{name}[{index}]", str(item)
    for index, section in enumerate(values.get("sections") or ()):
        for part in ("heading", "body"):
            if section.get(part):
                yield f"sections[{index}].{part}", str(section[part])


def scan_reflection(text: str, values: Mapping[str, object]) -> list[Finding]:
    """The findings in the text (offsets into it) and in every field value the text does not
    hold verbatim (offsets into the value, `field` naming it)."""
    written = plain = text
    if "\\" in text and text.lstrip().startswith(("{", "[")):
        # JSON shows line breaks, tabs and quotes escaped. The scan reads an escaped break as
        # a break (same length, so offsets still point into the text), and a value differing
        # from the text only by those escapes holds nothing that scan misses.
        plain = _common_unescaped(text)
        text = _ESCAPED_BREAK.sub(_as_break, text)
    # A heading the text does not hold is the parser's own word ("Reflection", "Task").
    extras: list[tuple[str, str]] = []
    for name, value in field_items(values):
        if name.endswith(".heading") or _covered(value, text, plain):
            continue
        if name in _IDENTIFIERS and _plain_identifier(value, text):
            continue
        if any(value in other for _, other in extras):
            continue  # a task id that is part of the path
        extras.append((name, value))
    if _HIDING_ESCAPE.search(written):
        extras += [(name, value) for name, value in decoded_leaves(written) if value not in plain]
    found = scan_text(text)
    if not extras:
        return found
    # The extras are scanned together, apart from the text: one more fixed cost, where
    # scanning each value alone would pay it per field, and appending them to the text would
    # let a path's digits wake the number rules over the whole text.
    starts, parts, position = [], [], 0
    for _, value in extras:
        starts.append(position)
        parts += [value, _SEPARATOR]
        position += len(value) + len(_SEPARATOR)
    for finding in scan_text("".join(parts)):
        index = _field_at(starts, finding.start)
        name, value = extras[index]
        start = finding.start - starts[index]
        if start >= len(value):
            continue  # a span of separator only
        end = min(finding.end - starts[index], len(value))
        found.append(replace(finding, start=start, end=end, field=name))
    return found


def _covered(value: str, text: str, plain: str) -> bool:
    """The text holds the value as written: whole, or line by line (a list the parser joined
    into bullets), or cut short with "…" (a title)."""
    value = value.removesuffix("…")
    if value in text or value in plain:
        return True
    lines = [line.strip().removeprefix("- ").rstrip(".") for line in value.split("\n")]
    return len(lines) > 1 and all(line in plain for line in lines if line)


# Paths and ids: scanned unless every segment is plainly harmless (see _plain_segment).
_IDENTIFIERS = frozenset(("source_path", "task_id", "external_id"))
_PATH_PARTS = re.compile(r"[/#]")
_PATH_SPLIT = re.compile(r"([/#])")
_EXTENSION = re.compile(r"\.(?:md|json|jsonl|txt|ya?ml)$")
_DATE = re.compile(r"(?:19|20)\d\d(?:[01]\d(?:[0-3]\d)?)?")


def _plain_identifier(value: str, text: str) -> bool:
    """Whether nothing the scanner looks for fits in this path or id. A segment the text
    holds (a heuristic's scenario id) was scanned with it."""
    return all(_plain_segment(part) or part in text for part in _PATH_PARTS.split(value) if part)


@functools.lru_cache(maxsize=4096)  # directories repeat: memory, reflexions, 2026-05
def _plain_segment(segment: str) -> bool:
    """Lowercase words, dates, short codes ("gaia2", "2025q4") and at most one counter of
    three or four digits: no token (a long or mixed-case run), no address (@, a dotted name or
    number), no phone or id number (those need several groups of digits)."""
    pieces = re.split(r"[-_]", _EXTENSION.sub("", segment.removeprefix(".")))
    counters = 0
    for piece in pieces:
        if not piece:
            continue
        if not (piece.isascii() and piece.isalnum() and piece == piece.lower()):
            return False
        if piece.isalpha():
            if len(piece) > 24:
                return False
        elif piece.isdigit():
            if len(piece) in (3, 4) and not _DATE.fullmatch(piece):
                counters += 1
            elif len(piece) > 2 and not _DATE.fullmatch(piece):
                return False
        elif len(piece) > 8 or sum(c.isdigit() for c in piece) > 6:
            return False
    return counters <= 1


def _as_break(match: re.Match[str]) -> str:
    return {"n": "\n ", "r": "\r ", "t": "\t "}[match.group(1)]


def _common_unescaped(text: str) -> str:
    return text.replace("\\n", "\n").replace('\\"', '"').replace("\\t", "\t").replace("\\\\", "\\")


def _field_at(starts: list[int], offset: int) -> int:
    index = 0
    for i, start in enumerate(starts):
        if start > offset:
            break
        index = i
    return index


def decoded_leaves(text: str) -> Iterator[tuple[str, str]]:
    """Every key and string of the text's JSON document or YAML front matter, decoded, named
    by its path (``json:evaluator_output.errors[0].message``); nothing when it does not load."""
    from reflections.importers.base import ParseError
    from reflections.importers.decoding import load_json, load_yaml_mapping

    try:
        if text.lstrip().startswith(("{", "[")):
            yield from _leaves(load_json(text), "json:")
        elif text.startswith("---\n") and (end := text.find("\n---", 4)) > 0:
            yield from _leaves(load_yaml_mapping(text[4:end]), "yaml:")
    except ParseError:
        return


def _leaves(value: object, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path.rstrip("."), value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}{key}(key)", str(key)
            yield from _leaves(item, f"{path}{key}.")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path.rstrip('.')}[{index}].")


def unsafe_substrings(text: str, findings: list[Finding]) -> list[tuple[str, str]]:
    """(value, category) of everything the strict mask hides in the text, longest first: a
    field repeating one of them is masked even when the value alone scans clean."""
    spans = strict_findings(text, [f for f in findings if not f.field])
    seen: dict[str, str] = {}
    for f in spans:
        value = text[f.start : f.end].strip()
        if len(value) >= _MIN_UNSAFE:
            seen.setdefault(value, f.category)
    return sorted(seen.items(), key=lambda item: -len(item[0]))


def mask_value(value: str, unsafe: list[tuple[str, str]]) -> str:
    """A field value with its own findings masked, every unsafe substring of the text (in any
    case: a tool name is stored lower-cased), and every piece of a secret or personal value
    (a tool name cut out of a key: "miieowibaakcaqea7bq9x")."""
    masked = mask(value)
    for substring, category in unsafe:
        if substring.lower() in masked.lower():
            masked = re.sub(re.escape(substring), f"[REDACTED:{category}]", masked, flags=re.I)
    values = [(s.lower(), c) for s, c in unsafe if c in (SECRET, PERSONAL)]
    if not values:
        return masked

    def piece(match: re.Match[str]) -> str:
        token = match.group().lower()
        # A short plain word ("connect", "invoice") may be part of anything.
        if token.isalpha() and len(token) < _MIN_PLAIN_PIECE:
            return match.group()
        category = next((c for s, c in values if token in s), None)
        return f"[REDACTED:{category}]" if category else match.group()

    return _PIECE.sub(piece, masked)


def masked_values(text: str, findings: list[Finding], values: Mapping[str, object]) -> dict:
    """Every text, list and section field of `values`, masked for showing and storing."""
    unsafe = unsafe_substrings(text, findings)
    out: dict = {}
    for name in TEXT_FIELDS:
        if name in values:
            value = values[name]
            out[name] = mask_value(value, unsafe) if value else value
    for name in LIST_FIELDS:
        if name in values:
            out[name] = [mask_value(item, unsafe) for item in values[name] or ()]
    if "sections" in values:
        out["sections"] = [
            {key: mask_value(part, unsafe) if part else part for key, part in section.items()}
            for section in values["sections"] or ()
        ]
    return out


def masked_path(path: str) -> str:
    """A path as a message or page shows it once something in it looks unsafe: every segment
    that is not plainly harmless (a lowercase word, a date, a counter) hidden whole, for a
    path's parts are not masked well one token at a time (a share name after a host)."""
    findings = scan_text(path)
    if not findings and mask(path) == path:
        return path
    category = findings[0].category if findings else "secret"
    return "".join(
        part if part in ("/", "#", "") or _plain_segment(part) else f"[REDACTED:{category}]"
        for part in _PATH_SPLIT.split(path)
    )


def masked_source(text: str, findings: list[Finding]) -> str:
    """The text as the quarantine shows it: masked strictly; when a field finding came from a
    decoded escape, every escaped string literal (and any other line with one) hidden whole."""
    masked = mask(text, [f for f in findings if not f.field])
    if any(f.field.startswith(("json:", "yaml:")) for f in findings) or (
        any(f.field for f in findings) and _HIDING_ESCAPE.search(masked)
    ):
        category = next((c for c in CATEGORIES if any(f.category == c for f in findings)), "secret")
        marker = f'"[REDACTED:{category}]"'
        masked = _ESCAPED_LITERAL.sub(marker, masked)
        masked = "\n".join(
            f"[REDACTED:{category}]" if _HIDING_ESCAPE.search(line) else line
            for line in masked.split("\n")
        )
    return _short_values_fitted(masked)


def fitted_value(value: str, limit: int) -> str:
    """A masked value that fits where it is stored. Markers can make a short value outgrow its
    column ("Customer Care (escalations: [REDACTED:personal], [REDACTED:personal])" is over a
    department's 64 characters): such a value becomes its markers alone; one without a marker
    is cut."""
    if len(value) <= limit:
        return value
    found = {c for m in _MARKER.finditer(value) for c in m.group(1).split("+")}
    if not found:
        return value[:limit]
    return f"[REDACTED:{'+'.join(c for c in CATEGORIES if c in found)}]"[:limit]


def _short_values_fitted(masked: str) -> str:
    """Each short field's value in the masked text fitted to its column (fitted_value), so the
    masked text still imports as its redaction."""

    def fitted(match: re.Match, limit: int) -> str:
        json_member = match.group(1) is not None
        lead, value, tail = match.group(1, 2, 3) if json_member else match.group(4, 5, 6)
        if len(value) <= limit or not _MARKER.search(value):
            return match.group(0)
        marker = fitted_value(value, limit)
        return lead + (marker if json_member else f'"{marker}"') + tail

    for name, limit in FIELD_LIMITS.items():
        masked = _SHORT_VALUES[name].sub(lambda m, limit=limit: fitted(m, limit), masked)
    return masked
