"""The facts the echo-chamber signal is scored from (reviews.signals.echo, DOMAIN §1): who
retrieves the lesson, the author's later reflections that restate it, and how the author's
own tasks of the same kind fared with and without it. Seven or eight aggregate queries per
item, whatever the volume of events.

Everything is read as of the cycle's window end: a signal says what a reviewer could have
known when the window closed, so reopening an old cycle gives the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.db.models.functions import TruncWeek

from reflections.lift import DEFAULT_MIN_TASKS
from reflections.models import (
    Neighbour,
    Outcome,
    Reflection,
    RetrievalEvent,
    TaskInjection,
    TaskRun,
)
from reflections.similarity import longest_shared_run
from reviews.models import ReviewItem
from reviews.selectors.evidence import injection_lift, pooled_lift
from reviews.selectors.restatements import LessonCache, restating

# How far back the author's own tasks are read for the fed/unfed comparison.
OWN_TASK_HISTORY_DAYS = 365
# Tasks that retrieved the lesson itself in the window before it is judged with its family
# (it and the author's restatements written under injection). A lesson retrieved a handful of
# times is not the author's habit; pooled with a chamber's lesson it looks alike to, it would
# borrow the chamber's whole record (demo 7: 45 more items flagged that way with restatements
# found at 2 sd). Anywhere from 5 to 8 gives the same flags on the development corpora.
FAMILY_MIN_TASKS = 8


@dataclass(frozen=True)
class Restatement:
    """A later reflection by the same author that says the same thing."""

    reflection_id: int
    source_path: str
    similarity: float
    created_at: datetime
    under_injection: bool  # its source task had the reviewed reflection injected
    shared_words: int = 0  # the longest run of words it repeats from the other, verbatim


# Fed and unfed tasks are compared within blocks of this many ISO weeks, counted from the
# family's first week: close enough in time to keep the learning curve's climb (DOMAIN §7) out
# of the comparison, wide enough that most blocks hold both kinds of task.
BLOCK_WEEKS = 4


@dataclass(frozen=True)
class WeekSplit:
    """The author's tasks of the lesson's kind in one ISO week (or block of weeks), fed and
    unfed."""

    week: date  # the Monday (of the block's first week)
    fed: int
    fed_successes: int
    unfed: int
    unfed_successes: int


@dataclass(frozen=True)
class Sureness:
    """The author's confidence at the start of tasks of one outcome, fed and unfed (sums over
    the tasks that logged it)."""

    outcome: str
    fed: int
    fed_confidence: float
    unfed: int
    unfed_confidence: float


@dataclass(frozen=True)
class OwnTasks:
    """The author's tasks of the lesson's task type(s), from the day the lesson's family was
    first written (at most a year back) to the window's end, split by whether the lesson or
    one of its restatements was injected ("fed"). Same agent, same kind of task, same weeks:
    a sound lesson that merely sits in the same prompts as a flawed one is fed and unfed
    alike, so a difference points at the lesson itself."""

    task_types: tuple[str, ...] = ()
    weeks: tuple[WeekSplit, ...] = ()
    confidence: tuple[Sureness, ...] = ()

    @property
    def fed(self) -> int:
        return sum(w.fed for w in self.weeks)

    @property
    def unfed(self) -> int:
        return sum(w.unfed for w in self.weeks)

    @property
    def total(self) -> int:
        return self.fed + self.unfed

    @property
    def coverage(self) -> float:
        """Share of the author's tasks of that kind it was handed."""
        return self.fed / self.total if self.total else 0.0

    @property
    def blocks(self) -> list[WeekSplit]:
        """The weeks in blocks of BLOCK_WEEKS from the first one; only blocks with both fed
        and unfed tasks."""
        if not self.weeks:
            return []
        first = self.weeks[0].week
        merged: dict[int, list] = {}
        for w in self.weeks:
            key = (w.week - first).days // (7 * BLOCK_WEEKS)
            row = merged.setdefault(key, [first + timedelta(weeks=key * BLOCK_WEEKS), 0, 0, 0, 0])
            for i, n in enumerate((w.fed, w.fed_successes, w.unfed, w.unfed_successes), 1):
                row[i] += n
        return [WeekSplit(*row) for _, row in sorted(merged.items()) if row[1] and row[3]]

    @property
    def compared(self) -> WeekSplit | None:
        """The blocks that had both fed and unfed tasks, summed (week: the first of them)."""
        both = self.blocks
        if not both:
            return None
        return WeekSplit(
            both[0].week,
            sum(w.fed for w in both),
            sum(w.fed_successes for w in both),
            sum(w.unfed for w in both),
            sum(w.unfed_successes for w in both),
        )

    def contrast(self, min_tasks: int = DEFAULT_MIN_TASKS) -> float | None:
        """Success rate of the fed tasks minus the unfed tasks' rate in the same blocks of
        weeks (each block weighted by its fed tasks, as injection_lift weighs the department's
        weeks), in rate points; None when either side has fewer than `min_tasks` tasks."""
        both = self.compared
        if both is None or both.fed < min_tasks or both.unfed < min_tasks:
            return None
        baseline = sum(w.fed * w.unfed_successes / w.unfed for w in self.blocks)
        return (both.fed_successes - baseline) / both.fed

    def sureness(self, min_tasks: int = 2) -> float | None:
        """How much more confident the author started the fed tasks than unfed tasks with the
        same outcome (an echo chamber makes the agent surer, not better: DOMAIN §1); outcomes
        weighted by fed * unfed / (fed + unfed). None when no outcome has `min_tasks` of each
        with a logged confidence."""
        parts = [
            (
                c.fed * c.unfed / (c.fed + c.unfed),
                c.fed_confidence / c.fed - c.unfed_confidence / c.unfed,
            )
            for c in self.confidence
            if c.fed >= min_tasks and c.unfed >= min_tasks
        ]
        weight = sum(w for w, _ in parts)
        return sum(w * d for w, d in parts) / weight if weight else None


@dataclass(frozen=True)
class EchoFacts:
    retrievals: int  # in the window
    self_retrievals: int  # of those, by the author
    retrieving_agents: int
    retrieving_tasks: int
    lift: float | None  # rate points, None when too few injected tasks
    injected_tasks: int
    later_by_author: int  # the author's reflections written after it, up to the window's end
    restatements: list[Restatement] = field(default_factory=list)  # later, by the author
    restates: list[Restatement] = field(default_factory=list)  # earlier ones it repeats
    independent_agents: int = 0  # other agents whose reflections say the same thing
    similar: int = 0  # reflections of any author saying the same thing
    # The lesson's family (it and the author's restatements written under injection, either
    # way): lift of the tasks any of them was injected into, and how many tasks that is.
    family_lift: float | None = None
    family_tasks: int = 0
    # Retrievals of the family in the window, and how many of them by the author.
    family_retrievals: int = 0
    family_self_retrievals: int = 0
    own_tasks: OwnTasks = field(default_factory=OwnTasks)
    # The same split for the lesson alone, read when it has restatements (its family is
    # larger than itself): how the author's tasks fared when handed this very text.
    alone_tasks: OwnTasks | None = None


def _injections(reflection_ids, agent_id, since, until) -> dict[int, tuple[set, set]]:
    """Per reflection: the author's task ids and UTC days it was injected into (one query)."""
    found: dict[int, tuple[set, set]] = {pk: (set(), set()) for pk in reflection_ids}
    rows = TaskInjection.objects.filter(
        reflection_id__in=list(reflection_ids),
        task_run__agent_id=agent_id,
        task_run__finished_at__gte=since,
        task_run__finished_at__lt=until,
    ).values_list("reflection_id", "task_run__task_id", "task_run__finished_at")
    for pk, task_id, finished in rows:
        found[pk][0].add(task_id)
        found[pk][1].add(finished.astimezone(UTC).date())
    return found


def _written_under(task_id: str, created: datetime, tasks: set, days: set) -> bool:
    """Three of the four formats carry no task id: for them a reflection written on a day one
    of the author's tasks was handed the lesson counts as written under its injection."""
    return task_id in tasks if task_id else created.astimezone(UTC).date() in days


def own_tasks(reflection: Reflection, family: list[int], since, until) -> OwnTasks:
    """The author's tasks of the lesson's task type fed and unfed with its family, by ISO week
    (one query, two when the reflection names no task type and the types it was injected
    into are read)."""
    if reflection.agent_id is None:
        return OwnTasks()
    types = [reflection.task_type] if reflection.task_type else []
    if not types:
        types = sorted(
            set(
                TaskInjection.objects.filter(
                    reflection_id__in=family, task_run__agent_id=reflection.agent_id
                ).values_list("task_run__task_type", flat=True)
            )
        )
    if not types:
        return OwnTasks()
    rows = (
        TaskRun.objects.filter(
            agent_id=reflection.agent_id,
            task_type__in=types,
            finished_at__gte=max(since, until - timedelta(days=OWN_TASK_HISTORY_DAYS)),
            finished_at__lt=until,
        )
        .annotate(
            week=TruncWeek("finished_at", tzinfo=UTC),
            fed=Exists(
                TaskInjection.objects.filter(task_run=OuterRef("pk"), reflection_id__in=family)
            ),
        )
        .values("week", "fed", "outcome")
        .annotate(
            n=Count("id"),
            sure=Count("confidence_at_start"),
            confidence=Sum("confidence_at_start"),
        )
        .order_by()
    )
    weeks: dict[date, list[int]] = {}
    sure: dict[str, list] = {}
    for row in rows:
        week = row["week"].date() if isinstance(row["week"], datetime) else row["week"]
        at = 0 if row["fed"] else 2
        counts = weeks.setdefault(week, [0, 0, 0, 0])
        counts[at] += row["n"]
        counts[at + 1] += row["n"] if row["outcome"] == Outcome.SUCCESS else 0
        if row["sure"]:
            by_outcome = sure.setdefault(row["outcome"], [0, 0.0, 0, 0.0])
            by_outcome[at] += row["sure"]
            by_outcome[at + 1] += row["confidence"]
    return OwnTasks(
        tuple(types),
        tuple(WeekSplit(week, *counts) for week, counts in sorted(weeks.items())),
        tuple(Sureness(outcome, *sums) for outcome, sums in sorted(sure.items())),
    )


def _retrievals(ids: list[int], author, cycle) -> dict:
    return RetrievalEvent.objects.filter(
        reflection_id__in=ids,
        retrieved_at__gte=cycle.window_start,
        retrieved_at__lt=cycle.window_end,
    ).aggregate(
        n=Count("id"),
        own=Count("id", filter=Q(agent_id=author)),
        agents=Count("agent_id", distinct=True),
        tasks=Count("task_id", distinct=True),
    )


def echo_facts(
    item: ReviewItem,
    *,
    similarity: float,
    restated: tuple[float, int] | None = None,
    min_tasks: int = DEFAULT_MIN_TASKS,
    cache: LessonCache | None = None,
):
    """What the echo-chamber signal weighs for one item (seven to ten queries).

    With stored vectors, the author's reflection restates this one when it is at least
    `floor` alike (below) and an outlier among the author's lessons (restatements.py); without,
    when their texts are at least `similarity` alike, or — `restated` = (floor, words) — at
    least `floor` alike and sharing a run of `words` words verbatim (the lesson repeated word
    for word inside another task's story). Another agent's reflection as alike as that is
    independent support. `cache` keeps the authors' lessons across a cycle's items."""
    reflection, cycle = item.reflection, item.cycle
    author = reflection.agent_id
    retrieved = _retrievals([reflection.pk], author, cycle)
    lift = injection_lift(item, min_tasks=min_tasks)
    floor, run = restated if restated is not None else (similarity, 0)
    found = restating(reflection, cycle.window_end, floor=floor, cache=cache)
    # Another agent's lesson as alike as the author's restatements must be: independent support.
    support = found.threshold if found is not None else similarity
    rows = list(
        Neighbour.objects.filter(
            reflection_id=reflection.pk, similarity__gte=min(floor, similarity, support)
        )
        .exclude(neighbour__created_at__gte=cycle.window_end)
        .values_list(
            "neighbour_id",
            "neighbour__source_path",
            "neighbour__agent_id",
            "neighbour__created_at",
            "neighbour__task_id",
            "similarity",
            "neighbour__body",
        )
    )
    similar = [row for row in rows if row[5] >= support]
    if found is not None:
        # The author's lessons judged against the author's own spread (restatements.py).
        own = found.rows
        shared = dict.fromkeys((row[0] for row in own), 0)
    else:
        shared = {
            row[0]: longest_shared_run(reflection.body, row[6]) if run else 0
            for row in rows
            if row[2] == author
        }
        own = [
            row
            for row in rows
            if row[2] == author and (row[5] >= similarity or (run and shared[row[0]] >= run))
        ]
    later = [row for row in own if row[3] > reflection.created_at]
    earlier = [row for row in own if row[3] <= reflection.created_at]
    injected = _injections(
        [reflection.pk] + [row[0] for row in earlier],
        author,
        min([reflection.created_at] + [row[3] for row in earlier]),
        cycle.window_end,
    )
    mine_tasks, mine_days = injected[reflection.pk]

    def restatement(row, under: bool) -> Restatement:
        return Restatement(row[0], row[1], row[5], row[3], under, shared[row[0]])

    restatements = [
        restatement(row, _written_under(row[4], row[3], mine_tasks, mine_days))
        for row in sorted(later, key=lambda r: (r[3], r[0]))
    ]
    restates = [
        restatement(
            row, _written_under(reflection.task_id, reflection.created_at, *injected[row[0]])
        )
        for row in sorted(earlier, key=lambda r: (r[3], r[0]))
    ]
    later_by_author = Reflection.objects.filter(
        agent_id=author,
        created_at__gt=reflection.created_at,
        created_at__lt=cycle.window_end,
    ).count()
    kin = [r for r in restatements + restates if r.under_injection]
    if retrieved["tasks"] < FAMILY_MIN_TASKS:
        kin = []  # judged on its own record: too seldom retrieved to be part of the habit
    family = [reflection.pk] + [r.reflection_id for r in kin]
    pooled = pooled_lift(family, cycle, min_tasks=min_tasks) if len(family) > 1 else lift
    family_retrieved = _retrievals(family, author, cycle) if len(family) > 1 else retrieved
    since = min([reflection.created_at] + [r.created_at for r in kin])
    return EchoFacts(
        retrievals=retrieved["n"],
        self_retrievals=retrieved["own"],
        retrieving_agents=retrieved["agents"],
        retrieving_tasks=retrieved["tasks"],
        lift=lift.lift,
        injected_tasks=lift.injected_tasks,
        later_by_author=later_by_author,
        restatements=restatements,
        restates=restates,
        independent_agents=len({row[2] for row in similar if row[2] != author}),
        similar=len(similar),
        family_lift=pooled.lift,
        family_tasks=pooled.injected_tasks,
        family_retrievals=family_retrieved["n"],
        family_self_retrievals=family_retrieved["own"],
        own_tasks=own_tasks(reflection, family, since, cycle.window_end),
        alone_tasks=(
            own_tasks(reflection, [reflection.pk], reflection.created_at, cycle.window_end)
            if len(family) > 1
            else None
        ),
    )
