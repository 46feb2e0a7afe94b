"""Reflexion-protocol Markdown: `# Reflection|Procedure|Decision: <date> - <agent> - <summary>`.

Real files vary: headings carry qualifiers ("## Principle (Normative)"), `---` lines separate
blocks, a second H1 (`# MARS Extraction`) opens the MARS block, a failure reflection may skip
"Why did it go wrong?". Sections the protocol does not define are kept, with a warning."""

from __future__ import annotations

import functools
import re
from datetime import UTC, date, datetime

from reflections.importers.base import (
    FORMAT_PROTOCOL,
    MAX_FIELD_CHARS,
    Notice,
    ParsedReflection,
    ParseError,
    RawSection,
    check_not_future,
    clean_bool,
    clean_str,
    content_hash,
    lines_and_fences,
    show,
    split_sections,
)
from reflections.importers.decoding import load_yaml_mapping
from reflections.importers.tools import extract_tools

FULL_REFLECTION = (
    "What happened?",
    "What went wrong?",
    "Why did it go wrong?",
    "What should I do differently?",
    "Tactical rule candidate",
)
SHORT_REFLECTION = ("What happened?", "What went wrong?", "What should I do differently?")
# The failure template many kits write: the short one plus an IF/THEN tactical rule.
FOUR_SECTION_REFLECTION = (*SHORT_REFLECTION, "Tactical rule candidate")
PROCEDURE = ("Strategy", "Why it worked")
DECISION = ("What was the decision?", "What alternatives existed?", "Why was this option chosen?")
# MARS sections some important reflections carry after the required ones.
OPTIONAL_SECTIONS = ("Principle", "Procedure")

H1_EXAMPLE = "# Reflection: YYYY-MM-DD - <agent> - <summary>"
_H1 = re.compile(r"#\s+([A-Za-z]+)\s*:\s*(.*)")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Titles of a further H1 block the protocol defines (its sections are Principle, Procedure).
MARS_BLOCKS = frozenset({"mars extraction", "mars"})
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")
_NUMBERING = re.compile(r"^\s*\d{1,2}[.)]\s+")
# A thematic break: three or more -, * or _ on a line of their own.
_RULE = re.compile(r" {0,3}([-*_])(?: *\1){2,} *")


@functools.lru_cache(maxsize=1024)  # headings repeat from file to file
def _key(heading: str) -> str:
    """What a heading means, whatever its dress: case, a missing "?", bold markers, a leading
    "1.", and qualifiers in parentheses ("Principle (Normative)") do not change the section."""
    text = _NUMBERING.sub("", heading.replace("**", "").replace("`", ""))
    while True:
        stripped = _QUALIFIER.sub("", text)
        if stripped == text or not stripped.strip():
            break
        text = stripped
    return " ".join(text.replace("?", " ").replace(":", " ").lower().split())


_CANONICAL = {_key(h): h for h in (*FULL_REFLECTION, *PROCEDURE, *DECISION, *OPTIONAL_SECTIONS)}


def _without_rules(text: str) -> str:
    """A section body without the `---` separators that open or close it."""
    lines = text.split("\n")
    while lines and (not lines[0].strip() or _RULE.fullmatch(lines[0])):
        lines.pop(0)
    while lines and (not lines[-1].strip() or _RULE.fullmatch(lines[-1])):
        lines.pop()
    return "\n".join(lines)


def _blocks(lines: list[str], *, first_line: int) -> list[tuple[str, int, list[str], int]]:
    """The lines after the first H1, split at every further H1 outside code fences:
    (title, line of its H1, its lines, line of its first line). The first block has no title."""
    blocks: list[tuple[str, int, list[str], int]] = [("", first_line - 1, [], first_line)]
    for offset, line, outside in lines_and_fences(lines):
        if outside and line.startswith("# "):
            number = first_line + offset
            blocks.append((line[2:].strip().rstrip("#").strip(), number, [], number + 1))
            continue
        blocks[-1][2].append(line)
    return blocks


def _sections(
    lines: list[str], *, first_line: int, source_path: str, warnings: list[Notice]
) -> list[RawSection]:
    """Every '## ' section of the file in order, the MARS block's (and any other H1 block's)
    included; the text between the H1 and the first section is an error."""
    found: list[RawSection] = []
    for title, h1_line, block, start in _blocks(lines, first_line=first_line):
        preamble, preamble_line, raw = split_sections(block, first_line=start)
        preamble = _without_rules(preamble)
        if not title:
            if preamble:
                raise ParseError(
                    "text between the H1 and the first '## ' section; move it under a section",
                    line=preamble_line,
                    field="sections",
                )
        else:
            if _key(title) not in MARS_BLOCKS:
                warnings.append(
                    Notice(
                        source_path,
                        h1_line,
                        f"a further H1 {show('# ' + title)} is not a block the protocol "
                        "defines ('# MARS Extraction' is); its sections are kept as extra "
                        "sections",
                    )
                )
            if preamble:  # kept as a section named after its H1, with a warning below
                found.append(RawSection(title, preamble_line or h1_line, preamble))
        found.extend(RawSection(s.heading, s.line, _without_rules(s.body)) for s in raw)
    return found


# Keys a protocol file may carry in a front matter block: only what write-back puts there.
WRITE_BACK_KEYS = ("deprecated_reason", "archived", "duplicate_of")


def split_write_back_block(lines: list[str]) -> tuple[dict, int]:
    """A leading `---` block written back by a review (DOMAIN §5): its keys, and the index of
    the first line after it. Protocol Markdown has no front matter of its own, so any other key
    is refused rather than silently ignored."""
    if not lines or lines[0].rstrip() != "---":
        return {}, 0
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        raise ParseError(
            "the front matter opened on line 1 is never closed with a '---' line",
            line=1,
            field="front matter",
        )
    meta = load_yaml_mapping("\n".join(lines[1:end]))
    unknown = [k for k in meta if k not in WRITE_BACK_KEYS]
    if unknown:
        raise ParseError(
            f"protocol Markdown front matter may hold only {', '.join(WRITE_BACK_KEYS)} "
            f"(written back by a review); found {', '.join(show(str(k)) for k in unknown)}",
            line=1,
            field="front matter",
        )
    return meta, end + 1


def parse_protocol(text: str, *, source_path: str, now: datetime) -> ParsedReflection:
    lines = text.split("\n")
    meta, start = split_write_back_block(lines)
    h1_index = next((i for i in range(start, len(lines)) if lines[i].strip()), None)
    if h1_index is None:
        raise ParseError("the file is empty" if not start else "nothing after the front matter")
    h1_line = h1_index + 1
    h1 = lines[h1_index].strip()
    match = _H1.fullmatch(h1)
    if not h1.startswith("# ") or not match:
        raise ParseError(
            f"the first line must be an H1 like '{H1_EXAMPLE}', found {show(h1)}",
            line=h1_line,
            field="H1",
        )
    label = match.group(1).capitalize()
    templates = {"Reflection": None, "Procedure": PROCEDURE, "Decision": DECISION}
    if label not in templates:
        raise ParseError(
            f"unknown reflection kind {show(match.group(1))}; expected Reflection, Procedure "
            "or Decision",
            line=h1_line,
            field="H1",
        )
    created_at, agent, summary = _parse_h1_fields(match.group(2), line=h1_line)

    _check_path(source_path, agent=agent, created=created_at.date(), line=h1_line)
    check_not_future(created_at, now=now, field="date", line=h1_line)

    warnings: list[Notice] = []
    raw_sections = _sections(
        lines[h1_index + 1 :], first_line=h1_line + 1, source_path=source_path, warnings=warnings
    )
    sections = [(_CANONICAL.get(_key(s.heading), s.heading), s) for s in raw_sections]
    headings = [h for h, _ in sections]

    if label == "Reflection":
        if "Why did it go wrong?" in headings:
            template, kind = FULL_REFLECTION, "failure"
        elif "Tactical rule candidate" in headings:
            template, kind = FOUR_SECTION_REFLECTION, "failure"
        else:
            template, kind = SHORT_REFLECTION, "partial"
        outcome = kind
    elif label == "Procedure":
        template, kind, outcome = PROCEDURE, "success", "success"
    else:
        template, kind, outcome = DECISION, "decision", None
    sections = _check_sections(
        sections, template=template, label=label, source_path=source_path, warnings=warnings
    )

    parsed = [{"heading": h, "body": s.body} for h, s in sections]
    return ParsedReflection(
        source_path=source_path,
        format=FORMAT_PROTOCOL,
        original_text=text,
        content_hash=content_hash(text),
        kind=kind,
        outcome=outcome,
        created_at=created_at,
        title=summary,
        sections=parsed,
        agent=agent,
        tools=extract_tools("\n\n".join(s["body"] for s in parsed)),
        archived=clean_bool(meta.get("archived"), field="archived", line=1),
        deprecated_reason=clean_str(
            meta.get("deprecated_reason"), field="deprecated_reason", line=1
        ),
        warnings=warnings,
    )


def _parse_h1_fields(rest: str, *, line: int) -> tuple[datetime, str, str]:
    parts = [p.strip() for p in rest.split(" - ", 2)]
    if len(parts) < 3 or not all(parts):
        raise ParseError(
            f"expected '<date> - <agent> - <summary>' after the colon, found {show(rest)} "
            f"(example: '{H1_EXAMPLE}')",
            line=line,
            field="H1",
        )
    raw_date, agent, summary = parts
    try:
        if not _DATE.fullmatch(raw_date):
            raise ValueError
        day = date.fromisoformat(raw_date)
    except ValueError:
        raise ParseError(
            f"{show(raw_date)} is not a date in the form YYYY-MM-DD", line=line, field="date"
        ) from None
    if len(summary) > MAX_FIELD_CHARS:
        raise ParseError(
            f"is longer than {MAX_FIELD_CHARS:,} characters", line=line, field="summary"
        )
    return datetime(day.year, day.month, day.day, tzinfo=UTC), agent, summary


def _check_path(source_path: str, *, agent: str, created: date, line: int) -> None:
    """The path repeats the agent (directory) and the date (file name prefix): they must agree."""
    # A source path is relative, POSIX and normalised (workspace.check_source_path).
    parts = tuple(part for part in source_path.split("/") if part)
    name = parts[-1] if parts else ""
    for i in range(len(parts) - 4, -1, -1):
        if parts[i : i + 2] == ("memory", "reflections"):
            directory = parts[i + 2]
            if directory != agent:
                raise ParseError(
                    f"the H1 names agent {show(agent)} but the file is in the folder of agent "
                    f"{show(directory)} (memory/reflections/<agent-name>/)",
                    line=line,
                    field="agent",
                )
            break
    prefix = name[:10]
    if _DATE.fullmatch(prefix) and prefix != created.isoformat():
        raise ParseError(
            f"the H1 date {created.isoformat()} does not match the date {prefix} in the file "
            f"name {name}",
            line=line,
            field="date",
        )


def _check_sections(
    sections: list[tuple[str, RawSection]],
    *,
    template: tuple[str, ...],
    label: str,
    source_path: str,
    warnings: list[Notice],
) -> list[tuple[str, RawSection]]:
    """The sections to keep: the template's in order, the optional ones after them, and any
    other section where it stands (with a warning; an empty one is dropped, with a warning)."""
    expected = " · ".join(template)
    seen: dict[str, int] = {}
    kept: list[tuple[str, RawSection]] = []
    for heading, section in sections:
        if heading in seen:
            raise ParseError(
                f"section '## {heading}' appears twice (lines {seen[heading]} and {section.line})",
                line=section.line,
                field="sections",
            )
        seen[heading] = section.line
        if heading not in template and heading not in OPTIONAL_SECTIONS:
            if not section.body.strip():
                warnings.append(
                    Notice(
                        source_path,
                        section.line,
                        f"extra section {show('## ' + section.heading)} is empty and was left out",
                    )
                )
                continue
            warnings.append(
                Notice(
                    source_path,
                    section.line,
                    f"extra section {show('## ' + section.heading)} is not in the {label} "
                    f"template ({expected}, then {' · '.join(OPTIONAL_SECTIONS)}); it is kept "
                    "as an extra section",
                )
            )
        kept.append((heading, section))
    sections = kept

    required = [(h, s) for h, s in sections if h in template]
    found = [h for h, _ in required]
    problems = []
    missing = [h for h in template if h not in found]
    if missing:
        problems.append("missing " + ", ".join(f"'## {h}'" for h in missing))
    in_order = [h for h in template if h in found]
    bad_line = None
    if found != in_order:
        bad_line = next(
            s.line for (h, s), want in zip(required, in_order, strict=True) if h != want
        )
        problems.append(f"sections out of order: found {' · '.join(found)}")
    if problems:
        raise ParseError(
            f"{'; '.join(problems)} (a {label} needs, in order: {expected})",
            line=bad_line,
            field="sections",
        )

    last_required = max(s.line for _, s in required)
    for heading, section in sections:
        if heading in OPTIONAL_SECTIONS and section.line < last_required:
            raise ParseError(
                f"optional section '## {heading}' must come after the required sections",
                line=section.line,
                field="sections",
            )
        if not section.body.strip():
            raise ParseError(
                f"section '## {heading}' is empty", line=section.line, field="sections"
            )
        if len(section.body) > MAX_FIELD_CHARS:
            raise ParseError(
                f"section '## {heading}' is {len(section.body):,} characters; the limit is "
                f"{MAX_FIELD_CHARS:,}",
                line=section.line,
                field="sections",
            )
    return sections
