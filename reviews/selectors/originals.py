"""What the duplicate guard reads (DOMAIN §5): each candidate original's retrievals, lift and
state in the cycle window, the cluster an item belongs to, and a search for any reflection of
the department to name as the original.

Facts for any number of reflections cost three queries: retrievals from the daily rollup, the
injected tasks per reflection and ISO week, and the department's tasks per week (shared)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db.models import Q, Sum

from reflections.access import visible_reflections
from reflections.caching import EVENTS, cached
from reflections.lift import DEFAULT_MIN_TASKS
from reflections.models import (
    Neighbour,
    Reflection,
    RetrievalDay,
    State,
)
from reflections.similarity.backends import configured_backend
from reviews.models import ReviewCycle, ReviewItem
from reviews.policies import DuplicateSide, duplicate_warnings, preferred_original
from reviews.selectors.evidence import lifts_by_reflection


def cluster_threshold() -> float:
    """Neighbours at least this similar to an item form its cluster ("these N duplicate X"):
    the configured backend's `cluster` cosine, above its duplicate candidates and restatements,
    so a cluster holds rewordings of one lesson, not lessons on the same topic."""
    return configured_backend().calibration.cluster


SEARCH_LIMIT = 10


@dataclass(frozen=True)
class Facts:
    """One reflection as the guard and the neighbour rows show it."""

    reflection: Reflection
    retrievals: int  # in the cycle window
    lift: float | None  # difference of success rates; None: too few injected tasks

    # What preferred_original reads.
    @property
    def key(self) -> int:
        return self.reflection.pk

    @property
    def state(self) -> str:
        return self.reflection.state

    @property
    def created_at(self) -> datetime:
        return self.reflection.created_at

    def side(self) -> DuplicateSide:
        return DuplicateSide(
            label=self.reflection.shown_path,
            state=self.reflection.state,
            retrievals=self.retrievals,
            lift=self.lift,
        )


def _as_date(value) -> date:
    return value.date() if isinstance(value, datetime) else value


Figures = dict[int, tuple[int, float | None]]  # retrievals in the window and lift, by id


def reflection_facts(
    cycle: ReviewCycle,
    reflections: list[Reflection],
    *,
    min_tasks: int = DEFAULT_MIN_TASKS,
    prepared: Figures | None = None,
) -> dict[int, Facts]:
    """Retrievals and lift in the cycle window for each reflection, by id. Both are bound to
    the window (in the past): taken from `prepared` (what the cycle's opening stored with its
    items, at the default min_tasks) for the reflections it holds, the others read and cached
    under the events' version, which only imports and recounts bump; the reflections
    themselves (their state) stay live."""
    ids = sorted(r.pk for r in reflections)
    if not ids:
        return {}
    figures = dict(prepared or {}) if min_tasks == DEFAULT_MIN_TASKS else {}
    if missing := [pk for pk in ids if pk not in figures]:
        figures |= cached(
            "window-facts",
            (cycle.pk, cycle.window_start, cycle.window_end, tuple(missing), min_tasks),
            lambda: window_figures(cycle, missing, min_tasks),
            name=EVENTS,
        )
    return {
        r.pk: Facts(reflection=r, retrievals=figures[r.pk][0], lift=figures[r.pk][1])
        for r in reflections
    }


def window_figures(
    cycle: ReviewCycle, ids: list[int], min_tasks: int = DEFAULT_MIN_TASKS
) -> Figures:
    """Each reflection's retrievals and lift in the cycle window (three queries)."""
    first, last = cycle.window_start.astimezone(UTC), cycle.window_end.astimezone(UTC)
    retrievals = dict(
        RetrievalDay.objects.filter(
            reflection_id__in=ids, day__gte=first.date(), day__lt=last.date()
        )
        .values("reflection_id")
        .annotate(n=Sum("retrievals"))
        .values_list("reflection_id", "n")
        .order_by()
    )
    lifts = lifts_by_reflection(cycle, ids, min_tasks=min_tasks)
    return {pk: (retrievals.get(pk) or 0, lifts[pk].lift) for pk in ids}


def item_side(item: ReviewItem, facts: Facts | None = None) -> DuplicateSide:
    """The item as the guard reads it: its frozen window retrievals, its lift when known."""
    reflection = item.reflection
    return DuplicateSide(
        label=reflection.shown_path,
        state=reflection.state,
        retrievals=item.retrievals,
        lift=facts.lift if facts else None,
    )


def guard_warnings(item: ReviewItem, original: Reflection) -> list[str]:
    """What must be confirmed before `item` is marked a duplicate of `original`."""
    return guard_warnings_of([item], original)[item.pk]


def guard_warnings_of(
    items: list[ReviewItem], original: Reflection, *, prepared: Figures | None = None
) -> dict[int, list[str]]:
    """guard_warnings of each of one cycle's items, by item id. The original's facts first;
    an item's lift is only read when the guard shows it, for the items more used than the
    original (all of them at once). `prepared`: the window figures stored with the items'
    evidence (reviews.services.evidence.prepared_figures), read instead of recounted."""
    if not items:
        return {}
    cycle = items[0].cycle
    theirs = reflection_facts(cycle, [original], prepared=prepared)[original.pk]
    more_used = [i.reflection for i in items if i.retrievals > theirs.retrievals]
    facts = reflection_facts(cycle, more_used, prepared=prepared)
    return {
        item.pk: duplicate_warnings(
            item_side(item, facts.get(item.reflection_id)),
            theirs.side(),
            item_is_top=item.rank == 1,
        )
        for item in items
    }


# ------------------------------------------------------------------ cluster


@dataclass(frozen=True)
class ClusterMember:
    facts: Facts
    similarity: float | None  # to the item; None for the item itself
    item: ReviewItem | None  # its review item in this cycle, if it is one
    selectable: bool  # the acting reviewer may give it a verdict here
    why_not: str = ""


@dataclass(frozen=True)
class Cluster:
    threshold: float
    keep: Facts  # preferred_original of the members
    members: list[ClusterMember]  # the item first, then by similarity

    @property
    def duplicates(self) -> list[ClusterMember]:
        """Every member but the one to keep."""
        return [m for m in self.members if m.facts.key != self.keep.key]


def item_cluster(
    item: ReviewItem,
    user,
    *,
    threshold: float | None = None,
    neighbours: list[tuple[Reflection, float]] | None = None,
    facts: dict[int, Facts] | None = None,
) -> Cluster | None:
    """The item and its stored neighbours at least `threshold` similar (quarantined ones left
    out), the one to keep among them, and which members are items of this cycle that `user`
    may mark duplicates of it. None when the item has no such neighbour.

    The queue page passes the (reflection, similarity) neighbours and the facts it has read
    already, so the cluster costs it one more query."""
    reflection = item.reflection
    if reflection.state == State.QUARANTINED:
        return None
    threshold = cluster_threshold() if threshold is None else threshold
    if neighbours is None:
        rows = (
            Neighbour.objects.filter(reflection_id=reflection.pk)
            .exclude(neighbour_id=reflection.pk)
            .select_related("neighbour")
            .order_by("-similarity", "neighbour_id")
        )
        neighbours = [(row.neighbour, row.similarity) for row in rows]
    close = sorted(
        (
            (other, sim)
            for other, sim in neighbours
            if sim >= threshold
            and other.state != State.QUARANTINED
            and other.department_id == item.cycle.department_id
        ),
        key=lambda pair: (-pair[1], pair[0].pk),
    )
    if not close:
        return None
    similarity = {other.pk: sim for other, sim in close}
    reflections = [reflection] + [other for other, _ in close]
    if facts is None or any(r.pk not in facts for r in reflections):
        facts = reflection_facts(item.cycle, reflections)
    facts = {r.pk: facts[r.pk] for r in reflections}
    keep = preferred_original(facts.values())
    items = {
        i.reflection_id: i
        for i in ReviewItem.objects.filter(
            cycle_id=item.cycle_id, reflection_id__in=list(facts)
        ).select_related("reviewer")
    }
    members = []
    for r in reflections:
        review_item = items.get(r.pk)
        why_not = ""
        if r.pk == keep.key:
            why_not = "the one to keep"
        elif review_item is None:
            why_not = "not an item of this cycle"
        elif review_item.reviewer_id != user.pk:
            owner = review_item.reviewer.get_username() if review_item.reviewer else "nobody"
            why_not = f"assigned to {owner}"
        elif not item.cycle.is_open:
            why_not = "the cycle is closed"
        members.append(
            ClusterMember(
                facts=facts[r.pk],
                similarity=similarity.get(r.pk),
                item=review_item,
                selectable=not why_not,
                why_not=why_not,
            )
        )
    return Cluster(threshold=threshold, keep=keep, members=members)


# ------------------------------------------------------------------ search


def search_originals(user, item: ReviewItem, query: str, *, limit: int = SEARCH_LIMIT):
    """Reflections of the cycle's department the user may see whose title or path holds
    `query`, most retrieved first, the item itself left out. Quarantined ones (admins only)
    are listed by their masked path and cannot be chosen."""
    query = query.strip()
    if len(query) < 2:
        return []
    found = (
        visible_reflections(user)
        .filter(department_id=item.cycle.department_id)
        .exclude(pk=item.reflection_id)
        .filter(Q(title__icontains=query) | Q(source_path__icontains=query))
        .order_by("-retrieval_count", "id")[:limit]
    )
    found = list(found)
    facts = reflection_facts(item.cycle, found)
    return [facts[r.pk] for r in found]
