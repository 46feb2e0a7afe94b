"""Reads about imported Reflexion runs: which problem a reflection belongs to, the earlier
reflections of that problem it restates, and each run's repetition rate.

A run's reflection is stored as `<run label>#<problem>/<n>` (reflections.services.
reflexion_run_import). A later reflection *restates* an earlier one of the same problem when
their stored neighbour similarity (reflections.models.Neighbour) is at least the backend's
`repeats` cosine (reflections.similarity.backends.Calibration). Those similarities are the
department's own: a department the installation's fit cannot tell apart, as a run's usually
is, has its neighbours found in a fit of its own texts (reflections.similarity.background), so
the bar means the same whether the run was imported alone or beside other memory. The bar was
chosen on the demo's LeetCode run, where it gives the repetition rate two independent readers
marked (0.31 against 0.33); on four held-out runs it comes within 0.00-0.12 of theirs
(corpora/real-runs, docs/signals.md). The rule before, "more alike than to 95 % of the run's
other problems", counted nearly every later pass (0.81-0.98 where the readers marked
0.33-0.77): a problem's own vocabulary puts all its passes above other problems'. A backend
without a measured `repeats` (embedding) keeps that rule on its stored vectors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from reflections.models import Format, Neighbour, Reflection, ReflectionVector, ReflexionRun
from reflections.services.vectors import vectors_of
from reflections.similarity.backends import configured_backend

_RUN_PATH = re.compile(r"^(?P<run>.+)#(?P<problem>.+)/(?P<n>\d+)$")
# A reflection restates an earlier one of its problem when they are more alike than it is to
# 95 % of the reflections on the run's other problems.
RESTATED_QUANTILE = 0.95


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
class RunVectors:
    """A run's reflections with stored vectors: (problem, number, id) and their rows."""

    places: list[tuple[str, int, int]]
    matrix: np.ndarray

    def restated(self, row: int) -> list[tuple[int, float]]:
        """(row, similarity) of the earlier reflections of row's problem it restates."""
        problem, number, _ = self.places[row]
        sims = self.matrix @ self.matrix[row]
        others = [i for i, p in enumerate(self.places) if p[0] != problem]
        bar = configured_backend().calibration.restated
        if others:
            bar = max(bar, float(np.quantile(sims[others], RESTATED_QUANTILE)))
        return [
            (i, float(sims[i]))
            for i, (p, n, _) in enumerate(self.places)
            if p == problem and n < number and sims[i] >= bar
        ]


def run_vectors(label: str) -> tuple[RunVectors | None, int]:
    """The run's reflections' vectors (two queries), and how many reflections it has."""
    rows = list(_run_reflections(label).values_list("id", "source_path"))
    vectors = vectors_of([pk for pk, _ in rows])
    places = [place for place in _places(rows) if place[2] in vectors]
    if not places:
        return None, len(rows)
    return RunVectors(places, np.vstack([vectors[pk] for _, _, pk in places])), len(rows)


@dataclass(frozen=True)
class Restated:
    reflection: Reflection  # the earlier one
    number: int
    similarity: float


@dataclass(frozen=True)
class RunRestatements:
    """A run's reflections (problem, number, id) and, for each later one, the earlier
    reflections of its problem it restates: id → [(earlier id, similarity)]."""

    places: list[tuple[str, int, int]]
    earlier: dict[int, list[tuple[int, float]]]


def run_restatements(label: str) -> tuple[RunRestatements | None, int]:
    """What a run's reflections restate (three queries), and how many reflections it has; None
    until compute_neighbours has given them vectors."""
    bar = configured_backend().calibration.repeats
    if bar is None:
        return _restatements_by_vectors(label)
    rows = list(_run_reflections(label).values_list("id", "source_path"))
    places = _places(rows)
    ids = {pk for _, _, pk in places}
    if not ids or not ReflectionVector.objects.filter(reflection_id__in=ids).exists():
        return None, len(rows)
    where = {pk: (problem, number) for problem, number, pk in places}
    earlier: dict[int, list[tuple[int, float]]] = {}
    pairs = Neighbour.objects.filter(
        reflection__source_path__startswith=f"{label}#",
        neighbour__source_path__startswith=f"{label}#",
        similarity__gte=bar,
    ).values_list("reflection_id", "neighbour_id", "similarity")
    for pk, other, similarity in pairs:
        if pk in where and other in where:
            (problem, number), (their_problem, their_number) = where[pk], where[other]
            if problem == their_problem and their_number < number:
                earlier.setdefault(pk, []).append((other, float(similarity)))
    return RunRestatements(places, earlier), len(rows)


def _run_reflections(label: str):
    return Reflection.objects.filter(
        source_path__startswith=f"{label}#", format=Format.REFLEXION_RUN
    )


def _places(rows) -> list[tuple[str, int, int]]:
    places = []
    for pk, path in rows:
        match = _RUN_PATH.match(path)
        if match:
            places.append((match["problem"], int(match["n"]), pk))
    return sorted(places)


def _restatements_by_vectors(label: str) -> tuple[RunRestatements | None, int]:
    found, total = run_vectors(label)
    if found is None:
        return None, total
    earlier = {}
    for row, (_, _, pk) in enumerate(found.places):
        if said := found.restated(row):
            earlier[pk] = [(found.places[i][2], similarity) for i, similarity in said]
    return RunRestatements(found.places, earlier), total


def restated_by(reflection: Reflection) -> list[Restated]:
    """The earlier reflections of the same problem this one restates, most alike first
    (four queries); [] when it is no run's reflection or has no stored vector."""
    place = place_of(reflection)
    if place is None or place.number == 1:
        return []
    found, _ = run_restatements(place.run)
    if found is None:
        return []
    numbers = {pk: number for _, number, pk in found.places}
    earlier = found.earlier.get(reflection.pk, [])
    shown = Reflection.objects.in_bulk([pk for pk, _ in earlier])
    return sorted(
        (Restated(shown[pk], numbers[pk], similarity) for pk, similarity in earlier if pk in shown),
        key=lambda r: (-r.similarity, r.number),
    )


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
    and after) that restate an earlier one of the same problem (three queries)."""
    found, total = run_restatements(run.label)
    if found is None:
        return Repetition(0, 0, measured=total == 0)
    later = sum(1 for _, number, _ in found.places if number > 1)
    restating = sum(1 for _, number, pk in found.places if number > 1 and pk in found.earlier)
    return Repetition(later, restating, measured=True)
