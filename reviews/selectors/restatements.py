"""Which of an author's reflections say the same as one of theirs: similarities read from the
stored vectors (reflections.models.ReflectionVector), judged against the author's own spread.

An author who writes the same kind of task every day writes lessons that all look alike to a
text model: how alike depends on the corpus and the model (on the demo, any two lessons of one
agent share most of their template; in an independent corpus a restatement in other words sits
at half the cosine). So a lesson restates another when it is both at least the backend's
`restated` cosine and an outlier among the author's lessons: at least RESTATED_Z standard
deviations above the mean similarity of the reviewed lesson to all the author's others.
Without stored vectors (the word baseline), the echo facts fall back to the stored neighbours
and the backend's cosine alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from reflections.models import Reflection, ReflectionVector, State

# Chosen on the development corpora (docs/signals.md): at 2 sd an independent corpus's
# restatements in other words count (seed-1: 11 of its 19 chamber links, against 6 at 3 sd),
# while the demo's natural repeats of a lesson, which its authors write all year, are kept
# from borrowing a chamber's record by echo_facts.FAMILY_MIN_TASKS.
RESTATED_Z = 2.0
MIN_SPREAD = 5  # the author's other lessons needed to speak of a spread at all


@dataclass(frozen=True)
class AuthorLessons:
    """One author's lessons written before a window's end, with their vectors (rows)."""

    ids: list[int]
    rows: dict[int, tuple]  # id → (source path, created_at, task_id)
    matrix: np.ndarray
    index: dict[int, int]  # id → row of `matrix`


@dataclass
class LessonCache:
    """Authors' lessons read once per cycle (a cycle's items come from a few authors)."""

    authors: dict[tuple[int, datetime], AuthorLessons | None] = field(default_factory=dict)

    def lessons(self, agent_id: int, until: datetime) -> AuthorLessons | None:
        key = (agent_id, until)
        if key not in self.authors:
            self.authors[key] = _author_lessons(agent_id, until)
        return self.authors[key]


def _author_lessons(agent_id: int, until: datetime) -> AuthorLessons | None:
    """Two queries: the author's lessons, then the vectors of the one model most were made
    by. None when none has a vector."""
    found = {
        pk: (path, created, task_id)
        for pk, path, created, task_id in Reflection.objects.filter(
            agent_id=agent_id, created_at__lt=until
        )
        .exclude(state=State.QUARANTINED)
        .values_list("id", "source_path", "created_at", "task_id")
    }
    vectors = list(
        ReflectionVector.objects.filter(reflection__agent_id=agent_id, reflection_id__in=found)
        .values_list("reflection_id", "backend", "vector")
        .order_by("reflection_id")
    )
    if not vectors:
        return None
    names = [name for _, name, _ in vectors]
    model = max(set(names), key=names.count)
    kept = [(pk, data) for pk, name, data in vectors if name == model]
    ids = [pk for pk, _ in kept]
    matrix = np.vstack([ReflectionVector.unpack(data) for _, data in kept])
    index = {pk: i for i, pk in enumerate(ids)}
    return AuthorLessons(ids, {pk: found[pk] for pk in ids}, matrix, index)


@dataclass(frozen=True)
class Restating:
    """The author's lessons that say the same as the reviewed one, and the bar they passed."""

    rows: list[tuple]  # (id, source path, agent id, created_at, task id, similarity)
    threshold: float


def restating(
    reflection: Reflection, until: datetime, *, floor: float, cache: LessonCache | None = None
) -> Restating | None:
    """The author's other lessons at or above max(floor, mean + RESTATED_Z sd of the reviewed
    lesson's similarity to all of them), most similar first; None without stored vectors."""
    if reflection.agent_id is None:
        return None
    cache = cache if cache is not None else LessonCache()
    lessons = cache.lessons(reflection.agent_id, until)
    if lessons is None or reflection.pk not in lessons.index:
        return None
    own = lessons.matrix[lessons.index[reflection.pk]]
    sims = lessons.matrix @ own
    others = np.array([pk != reflection.pk for pk in lessons.ids])
    threshold = floor
    if others.sum() >= MIN_SPREAD:
        spread = sims[others]
        threshold = max(floor, float(spread.mean() + RESTATED_Z * spread.std()))
    rows = []
    for i in np.flatnonzero(others & (sims >= threshold)):
        pk = lessons.ids[i]
        path, created, task_id = lessons.rows[pk]
        rows.append((pk, path, reflection.agent_id, created, task_id, round(float(sims[i]), 4)))
    rows.sort(key=lambda r: (-r[5], r[0]))
    return Restating(rows, threshold)
