"""The generator's working state: retrieval pools, tasks, reflection stubs, failure modes."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from demo.library import Department, Entry, TaskType


class Pool:
    """Reflections an agent can retrieve, with Zipf-like weights; cumulative for O(log n) draws.

    Each keeps its own weight (`base`); what the retriever draws by is that weight times a
    factor of the reflection's age and state, recomputed once a week (`reweigh`)."""

    __slots__ = ("base", "cum", "items", "total")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.base: list[float] = []
        self.cum: list[float] = []
        self.total = 0.0

    def add(self, idx: int, weight: float) -> None:
        self.total += weight
        self.items.append(idx)
        self.base.append(weight)
        self.cum.append(self.total)

    def reweigh(self, factor: list[float]) -> None:
        """Draw by base weight * factor[idx] from now on."""
        total, cum = 0.0, self.cum
        for i, (idx, weight) in enumerate(zip(self.items, self.base, strict=True)):
            total += weight * factor[idx]
            cum[i] = total
        self.total = total

    def draw(self, u: float) -> int:
        i = bisect.bisect_right(self.cum, u * self.total)
        return self.items[min(i, len(self.items) - 1)]


class Task:
    __slots__ = (
        "agent",
        "conf",
        "dept",
        "echo",
        "eligible",
        "has_stub",
        "helped",
        "id",
        "mode",
        "outcome",
        "refs",
        "sec",
        "start",
        "tools",
        "tt",
    )  # fmt: skip

    def __init__(self, dept: Department, tt: TaskType, agent: str, sec: int, start: int):
        self.dept, self.tt, self.agent, self.sec, self.start = dept, tt, agent, sec, start
        self.id = ""
        self.outcome = "success"
        self.mode = ""
        self.conf = 0.0
        self.refs: list[str] = []
        self.tools: list[str] = []
        self.echo = False
        self.helped = False  # fed a lesson learnt from a failure of its own task type
        self.eligible = False
        self.has_stub = False


class Stub:
    """A reflection decided for today, rendered once the day's failure modes are known."""

    __slots__ = ("created", "entry", "fmt", "iteration", "kind", "loop", "plant", "qual", "task")

    def __init__(self, task: Task, kind: str, fmt: str, iteration: int = 0, loop: str = ""):
        self.task, self.kind, self.fmt = task, kind, fmt
        self.iteration, self.loop = iteration, loop
        self.created = 0
        self.entry: Entry | None = None
        self.qual = ""
        self.plant: tuple | None = None


class Refl:
    __slots__ = (
        "agent", "alt", "day", "dept", "entry", "flawed", "fmt", "idx", "kind", "planted",
        "qual", "ref", "rseed", "tt",
    )  # fmt: skip


@dataclass
class ModeState:
    sequence: list[str]  # the order in which new failure modes appear
    mode_entry: dict[str, tuple[Entry, str]]  # mode → (lesson, qualifier phrase)
    bases: list[str]
    variants: dict[str, list[str]]
    next_new: int = 0
    history: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
