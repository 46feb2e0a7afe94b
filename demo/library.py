"""The content library: one text file per department (content/), parsed into dataclasses."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources

from demo.wording import DERIVED_STRATEGY, DERIVED_WHY

# ---------------------------------------------------------------------------------------------
# One file per department, content/<department>.txt, read in CONTENT_FILES order; parsed once
# at import; indented lines continue.
#   F mode | title | cause | what went wrong | why | rule trigger | rule action   (failure)
#   P mode | title | what went wrong | rule trigger | rule action                  (partial)
#   S title | strategy | why it worked | rule trigger | rule action                (success)
#   D title | decision | alternatives | why                                         (decision)
#   x / xp: failure / partial modes of routine task types (they never get failure reflections)
#   echo: a flawed lesson planted as an echo chamber; outdated: a lesson naming a retired tool
# Text avoids personal names, addresses, URLs and long digit runs: the security scanner must
# find only the planted findings. Normal text names tools only as `tool-id`, the ids tasks log.
# ---------------------------------------------------------------------------------------------
CONTENT_FILES = (
    "finance",
    "sales",
    "lead-generation",
    "setting",
    "delivery",
    "organization",
    "content",
    "voice-channel",
)  # the library's order: departments, scales and every random draw follow it

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
GLOBAL_SLOTS = frozenset(
    (
        "cp", "cp2", "cur", "amt", "n_total", "n_done", "n", "k", "days", "hours", "mins", "pct",
        "step", "month", "weekday", "daypart", "unit",
    )
)  # fmt: skip


@dataclass(frozen=True)
class Entry:
    """One lesson of the library: a failure mode, partial mode, success, decision or plant."""

    code: str  # F P S D, E (echo chamber), O (outdated)
    mode: str
    title: str
    cause: str = "knowledge"
    wrong: str = ""
    why: str = ""
    trigger: str = ""
    action: str = ""
    strategy: str = ""
    decision: str = ""
    alternatives: str = ""
    slot: str = ""  # O: the tool slot whose retired tool it names
    task_type: str = ""  # E: the task type the flawed lesson belongs to


@dataclass
class Tool:
    slot: str
    id: str
    generic: str
    old_id: str = ""
    old_phrase: str = ""
    retire_frac: float = 0.0


@dataclass
class TaskType:
    name: str
    learning: bool  # learning types get failure reflections; routine ones never do
    weight: float
    unit: str
    tech: float  # propensity for the episodic (ralph loop) format
    tools: list[str]
    by: dict[str, float]
    skills: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    fails: list[Entry] = field(default_factory=list)
    partials: list[Entry] = field(default_factory=list)
    successes: list[Entry] = field(default_factory=list)
    decisions: list[Entry] = field(default_factory=list)
    routine_fail: list[str] = field(default_factory=list)
    routine_partial: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Department:
    name: str
    abbr: str
    agents: list[str]
    cps: list[str] = field(default_factory=list)
    quals: list[tuple[str, str]] = field(default_factory=list)
    tools: dict[str, Tool] = field(default_factory=dict)
    vocab: dict[str, list[str]] = field(default_factory=dict)
    echoes: list[Entry] = field(default_factory=list)
    outdated: list[Entry] = field(default_factory=list)
    types: list[TaskType] = field(default_factory=list)


def _split(value: str, sep: str) -> list[str]:
    return [part.strip() for part in value.split(sep) if part.strip()]


def _parse_content(text: str) -> dict[str, Department]:
    depts: dict[str, Department] = {}
    dept: Department | None = None
    tt: TaskType | None = None
    logical: list[str] = []
    for raw in text.splitlines():
        if raw.startswith(" ") and raw.strip() and logical:  # an indented line continues the last
            logical[-1] += " " + raw.strip()
        else:
            logical.append(raw.strip())
    for line in logical:
        if not line:
            continue
        head, _, rest = line.partition(" ")
        if head == "@dept":
            name, abbr = rest.split()
            dept = depts[name] = Department(name, abbr, [])
            tt = None
            continue
        assert dept is not None, line
        if head == "@type":
            name, kind, weight, *options = rest.split()
            opts = dict(o.split("=", 1) for o in options)
            by = {}
            for item in _split(opts.get("by", ""), ","):
                agent, _, w = item.partition(":")
                by[agent] = float(w or 1)
            tt = TaskType(
                name=name,
                learning=kind == "L",
                weight=float(weight),
                unit=opts.get("unit", "items"),
                tech=float(opts.get("tech", 0.03)),
                tools=_split(opts.get("tools", ""), ","),
                by=by,
            )
            dept.types.append(tt)
            continue
        key, colon, value = line.partition(":")
        if colon and " " not in key:
            if key == "agents":
                dept.agents = _split(value, ",")
            elif key == "cp":
                dept.cps = _split(value, "|")
            elif key == "qual":
                dept.quals = [tuple(_split(q, "=")) for q in _split(value, "|")]  # type: ignore[misc]
            elif key in ("skills", "tags") and tt is not None:
                setattr(tt, key, _split(value, ","))
            elif key == "task" and tt is not None:
                tt.tasks.append(value.strip())
            else:
                raise ValueError(f"unknown content line: {line}")
            continue
        if key.startswith("vocab "):
            dept.vocab[key.split()[1]] = _split(value, "|")
            continue
        parts = _split(rest, "|")
        if head == "tool":
            slot, _, ident = parts[0].partition("=")
            tool = Tool(slot.strip(), ident.strip(), parts[1])
            if len(parts) == 5:
                tool.old_id, tool.old_phrase, tool.retire_frac = parts[2], parts[3], float(parts[4])
            dept.tools[tool.slot] = tool
        elif head == "echo":
            type_name, title, trigger, action, why = parts
            dept.echoes.append(
                Entry("E", "", title, trigger=trigger, action=action, why=why, task_type=type_name)
            )
        elif head == "outdated":
            slot, title, wrong, why, trigger, action = parts
            dept.outdated.append(
                Entry(
                    "O", "", title, wrong=wrong, why=why, trigger=trigger, action=action, slot=slot
                )
            )
        elif tt is None:
            raise ValueError(f"content line outside a task type: {line}")
        elif head == "F":
            mode, title, cause, wrong, why, trigger, action = parts
            tt.fails.append(Entry("F", mode, title, cause, wrong, why, trigger, action))
        elif head == "P":
            mode, title, wrong, trigger, action = parts
            tt.partials.append(Entry("P", mode, title, wrong=wrong, trigger=trigger, action=action))
        elif head == "S":
            title, strategy, why, trigger, action = parts
            tt.successes.append(
                Entry("S", "", title, why=why, trigger=trigger, action=action, strategy=strategy)
            )
        elif head == "D":
            title, decision, alternatives, why = parts
            tt.decisions.append(
                Entry("D", "", title, why=why, decision=decision, alternatives=alternatives)
            )
        elif head == "x":
            tt.routine_fail = _split(rest, ",")
        elif head == "xp":
            tt.routine_partial = _split(rest, ",")
        elif head == "err":
            tt.errors.append((parts[0], parts[1]))
        else:
            raise ValueError(f"unknown content line: {line}")
    for dept in depts.values():
        for tt in dept.types:
            # A success that avoided a known failure mode: more success lessons per learning type.
            for i, f in enumerate(tt.fails):
                tt.successes.append(
                    Entry(
                        "S", "", f"{f.title} avoided",
                        why=DERIVED_WHY[i % len(DERIVED_WHY)].replace("{title}", f.title),
                        trigger=f.trigger,
                        action=f.action,
                        strategy=DERIVED_STRATEGY[i % len(DERIVED_STRATEGY)]
                        .replace("{trigger}", f.trigger)
                        .replace("{action}", f.action),
                    )
                )  # fmt: skip
    return depts


def _content_folder():  # a Traversable: a directory, or a folder inside an installed archive
    return resources.files("demo") / "content"


def _read_content() -> str:
    """The departments' files in CONTENT_FILES order, a blank line between two departments."""
    folder = _content_folder()
    return "\n".join((folder / f"{name}.txt").read_text(encoding="utf-8") for name in CONTENT_FILES)


DEPARTMENTS = _parse_content(_read_content())


def content_problems() -> list[str]:
    """Unfillable placeholders and missing pieces in the library: empty when it is sound."""
    problems = []
    files = sorted(
        f.name.removesuffix(".txt") for f in _content_folder().iterdir() if f.name.endswith(".txt")
    )
    if files != sorted(CONTENT_FILES):
        problems.append(f"content/ holds {files} but CONTENT_FILES lists {sorted(CONTENT_FILES)}")
    for dept in DEPARTMENTS.values():
        known = GLOBAL_SLOTS | set(dept.tools) | set(dept.vocab)
        texts: list[str] = []
        for entry in (*dept.echoes, *dept.outdated):
            texts += [entry.wrong, entry.why, entry.trigger, entry.action]
        for tt in dept.types:
            texts += tt.tasks + [m for _, m in tt.errors]
            for entry in (*tt.fails, *tt.partials, *tt.successes, *tt.decisions):
                texts += [entry.wrong, entry.why, entry.trigger, entry.action, entry.strategy]
                texts += [entry.decision, entry.alternatives]
            if not tt.tasks or not tt.successes or not tt.decisions:
                problems.append(f"{dept.name}/{tt.name}: needs tasks, successes and decisions")
            if tt.learning and not (tt.fails and tt.partials):
                problems.append(f"{dept.name}/{tt.name}: a learning type needs F and P lines")
            if not tt.learning and not (tt.routine_fail and tt.routine_partial):
                problems.append(f"{dept.name}/{tt.name}: a routine type needs x and xp lines")
            for slot in tt.tools:
                if slot not in dept.tools:
                    problems.append(f"{dept.name}/{tt.name}: unknown tool slot {slot}")
        for text in texts:
            for name in _PLACEHOLDER.findall(text):
                if name not in known:
                    problems.append(f"{dept.name}: unknown placeholder {{{name}}} in {text!r}")
        for entry in dept.echoes:
            if not any(t.name == entry.task_type and t.learning for t in dept.types):
                problems.append(f"{dept.name}: echo lesson for unknown type {entry.task_type}")
        for entry in dept.outdated:
            tool = dept.tools.get(entry.slot)
            if tool is None or not tool.old_id or f"`{tool.old_id}`" not in entry.trigger:
                problems.append(f"{dept.name}: outdated lesson {entry.title!r} must name its tool")
    return problems
