"""Reads about imported Reflexion runs: which problem a reflection belongs to, the earlier
reflections of that problem it restates, and each run's repetition rate.

A run's reflection is stored as `<run label>#<problem>/<n>` (reflections.services.
reflexion_run_import). A later reflection *restates* an earlier one of the same problem when
their vectors (the configured similarity backend's, reflections.models.ReflectionVector) are
more alike than it is to nearly any reflection on another problem of the run: at least the
RESTATED_QUANTILE of its similarities to those, and at least the backend's `restated` cosine.
A fixed cosine alone cannot say it: fitted among an installation's sales lessons, every
programming reflection sits close to every other, and fitted on one small run the latent model
has almost no room to tell them apart. What stands out within the run is what the agent told
itself again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from reflections.models import Format, Reflection, ReflexionRun
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
    rows = list(
        Reflection.objects.filter(
            source_path__startswith=f"{label}#", format=Format.REFLEXION_RUN
        ).values_list("id", "source_path")
    )
    vectors = vectors_of([pk for pk, _ in rows])
    places = []
    for pk, path in rows:
        match = _RUN_PATH.match(path)
        if match and pk in vectors:
            places.append((match["problem"], int(match["n"]), pk))
    places.sort()
    if not places:
        return None, len(rows)
    return RunVectors(places, np.vstack([vectors[pk] for _, _, pk in places])), len(rows)


@dataclass(frozen=True)
class Restated:
    reflection: Reflection  # the earlier one
    number: int
    similarity: float


def restated_by(reflection: Reflection) -> list[Restated]:
    """The earlier reflections of the same problem this one restates, most alike first
    (three queries); [] when it is no run's reflection or has no stored vector."""
    place = place_of(reflection)
    if place is None or place.number == 1:
        return []
    found, _ = run_vectors(place.run)
    if found is None:
        return []
    ids = [pk for _, _, pk in found.places]
    if reflection.pk not in ids:
        return []
    earlier = found.restated(ids.index(reflection.pk))
    shown = Reflection.objects.in_bulk([ids[i] for i, _ in earlier])
    return sorted(
        (
            Restated(shown[ids[i]], found.places[i][1], similarity)
            for i, similarity in earlier
            if ids[i] in shown
        ),
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
    and after) that restate an earlier one of the same problem (two queries)."""
    found, total = run_vectors(run.label)
    if found is None:
        return Repetition(0, 0, measured=total == 0)
    later = sum(1 for _, number, _ in found.places if number > 1)
    restating = sum(
        1 for row, (_, number, _) in enumerate(found.places) if number > 1 and found.restated(row)
    )
    return Repetition(later, restating, measured=True)
