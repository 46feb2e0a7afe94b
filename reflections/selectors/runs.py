"""Reads about imported Reflexion runs: which problem a reflection belongs to, the earlier
reflections of that problem it restates, and each run's repetition rate.

A run's reflection is stored as `<run label>#<problem>/<n>` (reflections.services.
reflexion_run_import). A later reflection *restates* an earlier one of the same problem when
their vectors (the configured similarity backend's, reflections.models.ReflectionVector) are
at least the backend's `restated` cosine alike: the agent tells itself the same thing again
after another failed attempt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from reflections.models import Format, Reflection, ReflexionRun
from reflections.services.vectors import vectors_of
from reflections.similarity.backends import configured_backend

_RUN_PATH = re.compile(r"^(?P<run>.+)#(?P<problem>.+)/(?P<n>\d+)$")


@dataclass(frozen=True)
class RunPlace:
    run: str  # the run's label
    problem: str
    number: int  # 1 for the problem's first reflection


def place_of(reflection: Reflection) -> RunPlace | None:
    """Where a run's reflection sits; None for any other reflection."""
    if reflection.format != Format.REFLEXION_RUN:
        return None
    match = _RUN_PATH.match(reflection.source_path)
    return RunPlace(match["run"], match["problem"], int(match["n"])) if match else None


@dataclass(frozen=True)
class Restated:
    reflection: Reflection  # the earlier one
    number: int
    similarity: float


def restated_by(reflection: Reflection) -> list[Restated]:
    """The earlier reflections of the same problem this one restates, most alike first (two
    queries); [] when it is no run's reflection or has no stored vector."""
    place = place_of(reflection)
    if place is None or place.number == 1:
        return []
    prefix = f"{place.run}#{place.problem}/"
    earlier = [
        r
        for r in Reflection.objects.filter(
            source_path__startswith=prefix, format=Format.REFLEXION_RUN
        ).only("id", "source_path", "title", "state", "created_at")
        if (p := _number(r.source_path, prefix)) is not None and p < place.number
    ]
    vectors = vectors_of([reflection.pk, *(r.pk for r in earlier)])
    own = vectors.get(reflection.pk)
    if own is None:
        return []
    bar = configured_backend().calibration.restated
    found = []
    for other in earlier:
        if other.pk in vectors:
            similarity = float(vectors[other.pk] @ own)
            if similarity >= bar:
                found.append(Restated(other, _number(other.source_path, prefix), similarity))
    return sorted(found, key=lambda r: (-r.similarity, r.number))


def _number(path: str, prefix: str) -> int | None:
    tail = path[len(prefix) :]
    return int(tail) if tail.isdigit() else None


@dataclass(frozen=True)
class Repetition:
    later: int  # reflections after a problem's first
    restating: int  # of those, the ones that restate an earlier one of their problem
    measured: bool  # False until the run's reflections have vectors (compute_neighbours)

    @property
    def rate(self) -> float | None:
        return self.restating / self.later if (self.later and self.measured) else None


def repetition(run: ReflexionRun) -> Repetition:
    """The run's repetition rate: the share of its later reflections (each problem's second
    and after) that restate an earlier one of the same problem (two queries)."""
    rows = list(
        Reflection.objects.filter(
            source_path__startswith=f"{run.label}#", format=Format.REFLEXION_RUN
        ).values_list("id", "source_path")
    )
    problems: dict[str, list[tuple[int, int]]] = {}
    for pk, path in rows:
        match = _RUN_PATH.match(path)
        if match:
            problems.setdefault(match["problem"], []).append((int(match["n"]), pk))
    vectors = vectors_of([pk for pk, _ in rows])
    later = sum(max(0, len(items) - 1) for items in problems.values())
    if rows and not vectors:
        return Repetition(later, 0, measured=False)
    bar = configured_backend().calibration.restated
    restating = 0
    for items in problems.values():
        ordered = [vectors[pk] for _, pk in sorted(items) if pk in vectors]
        for i in range(1, len(ordered)):
            sims = np.stack(ordered[:i]) @ ordered[i]
            restating += bool((sims >= bar).any())
    return Repetition(later, restating, measured=True)
