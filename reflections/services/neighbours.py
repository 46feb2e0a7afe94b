"""Recomputing the stored nearest neighbours (Neighbour rows) of each department's reflections,
from the vectors of the configured similarity backend (reflections.similarity.backends)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from reflections import bulk
from reflections.caching import EVENTS, bump_data_version
from reflections.models import Department, Neighbour, Reflection, ReflectionHistory, State
from reflections.services.vectors import (
    Document,
    documents,
    encode_stale,
    fold_in,
    refit_vectors,
    stored_fit,
    vectors_of,
)
from reflections.similarity import DEFAULT_K, nearest_neighbours
from reflections.similarity.backends import configured_backend
from reflections.similarity.background import Background, mean_likeness, needs_own_fit

NEIGHBOUR_COLUMNS = ("reflection_id", "neighbour_id", "similarity", "rank", "computed_at")


@dataclass(frozen=True)
class DepartmentNeighbours:
    department: str
    reflections: int  # compared: every reflection of the department except quarantined ones
    neighbours: int  # rows written (each pair twice, one per direction)
    seconds: float
    # The mean cosine of two of its lessons in the installation's fit, and whether its
    # neighbours were found in a fit of its own texts (reflections.similarity.background).
    background: float | None = None
    own_fit: bool = False

    def as_dict(self) -> dict:
        return {
            "department": self.department,
            "reflections": self.reflections,
            "neighbours": self.neighbours,
            "seconds": round(self.seconds, 3),
            "background": None if self.background is None else round(self.background, 3),
            "own_fit": self.own_fit,
        }


def stale_departments() -> list[str]:
    """Departments whose texts changed since their neighbours were computed: a reflection was
    created or its content changed, or one went into or out of quarantine (its text joins or
    leaves the comparison). Decay and review verdicts change no text and do not count."""
    computed = dict(
        Neighbour.objects.values("reflection__department__slug")
        .annotate(at=Max("computed_at"))
        .values_list("reflection__department__slug", "at")
    )
    changed = (
        ReflectionHistory.objects.filter(
            Q(change__in=[ReflectionHistory.Change.CREATED, ReflectionHistory.Change.CONTENT])
            | Q(from_state=State.QUARANTINED)
            | Q(to_state=State.QUARANTINED)
        )
        .values("reflection__department__slug")
        .annotate(at=Max("at"))
        .values_list("reflection__department__slug", "at")
    )
    return sorted(slug for slug, at in changed if slug not in computed or at > computed[slug])


def _departments(slugs: Iterable[str] | None) -> list[Department]:
    if slugs is None:
        return list(Department.objects.order_by("slug"))
    wanted = sorted(set(slugs))
    found = list(Department.objects.filter(slug__in=wanted).order_by("slug"))
    missing = sorted(set(wanted) - {d.slug for d in found})
    if missing:
        raise ValueError(f"no such department: {', '.join(missing)}")
    return found


def department_vectors(backend, texts: list[str], vectors) -> tuple[object, Background | None]:
    """The vectors one department's neighbours are found from: the installation's (`vectors`),
    or, when its lessons are more alike there than the backend's calibration allows
    (reflections.similarity.background), a fit of its own texts. Word TF-IDF, already fitted
    per department, and backends with no reference are used as they are."""
    reference = backend.calibration.background
    if reference is None or not isinstance(vectors, np.ndarray):
        return vectors, None
    likeness = mean_likeness(vectors)
    if not needs_own_fit(likeness, reference, len(texts)):
        return vectors, Background(likeness, own_fit=False)
    own = backend.fit(texts)(texts)
    return own, Background(likeness, own_fit=True, own_likeness=mean_likeness(own))


def _refresh_department(
    department: Department, docs: list[Document], vectors, *, k: int, threshold: float
) -> tuple[int, int]:
    ids = [d.id for d in docs]
    neighbours = nearest_neighbours(ids, vectors, k=k, threshold=threshold)
    now = timezone.now()
    rows = [
        (pk, similar.id, similar.similarity, rank, now)
        for pk, similars in neighbours.items()
        for rank, similar in enumerate(similars, start=1)
    ]
    with transaction.atomic():
        # Both directions: a reflection that moved department leaves no row behind.
        Neighbour.objects.filter(
            Q(reflection__department=department) | Q(neighbour__department=department)
        ).delete()
        written = bulk.write_rows(Neighbour._meta.db_table, NEIGHBOUR_COLUMNS, rows)
        bump_data_version(EVENTS)  # review evidence reads the neighbours
    return len(docs), written


def refresh_neighbours(
    *,
    departments: Iterable[str] | None = None,
    k: int = DEFAULT_K,
    threshold: float | None = None,
    backend=None,
    progress: Callable[[DepartmentNeighbours], None] | None = None,
    refit: bool = False,
) -> dict:
    """Recompute the Neighbour rows of the given departments (slugs; default: all) from the
    backend's vectors (default: the configured one), keeping pairs at or above `threshold`
    (default: the backend's floor).

    An embedding model first encodes the reflections that lack a current vector. The latent
    backend folds new and changed texts into its stored fit the same way while they are few
    (reflections.services.vectors.stored_fit); otherwise, or with `refit`, it is refitted on
    the whole installation, which moves every vector: then every department is recomputed,
    whichever were asked for. Each department's rows are replaced in one transaction, so a
    page never sees a half refreshed department. Returns counts and seconds, per department
    and in total, and "refit" (whether the latent backend was refitted).
    """
    started = time.perf_counter()
    backend = backend or configured_backend()
    threshold = backend.calibration.floor if threshold is None else threshold
    wanted = _departments(departments)
    if not wanted:
        return _summary([], started, backend=backend.name)
    matrix = None
    encoder = None
    refitted = False
    if backend.cached:
        encoder = backend.fit()
        encode_stale(encoder)
    elif backend.stored and not refit:
        encoder = stored_fit(backend)
        if encoder is not None:
            fold_in(encoder)
    if backend.per_department:
        docs = documents(Reflection.objects.filter(department__in=wanted))
    elif encoder is not None:
        identity = encoder.identity
        docs = documents(Reflection.objects.filter(department__in=wanted))
        stored = vectors_of([d.id for d in docs], backend=identity)
        docs = [d for d in docs if d.id in stored]
        matrix = np.vstack([stored[d.id] for d in docs]) if docs else None
    else:
        docs = documents()
        matrix = refit_vectors(backend, docs)
        refitted = True
        wanted = _departments(None)
    by_department: dict[int, list[int]] = {}
    for row, doc in enumerate(docs):
        by_department.setdefault(doc.department_id, []).append(row)
    results: list[DepartmentNeighbours] = []
    for department in wanted:
        t0 = time.perf_counter()
        rows = by_department.get(department.pk, [])
        own = [docs[row] for row in rows]
        if backend.per_department:
            texts = [d.text for d in own]
            vectors = backend.fit(texts)(texts) if own else None
            background = None
        else:
            vectors = matrix[rows] if rows else None
            vectors, background = department_vectors(backend, [d.text for d in own], vectors)
        n_reflections, n_rows = _refresh_department(
            department, own, vectors, k=k, threshold=threshold
        )
        result = DepartmentNeighbours(
            department.slug,
            n_reflections,
            n_rows,
            time.perf_counter() - t0,
            background=background.likeness if background else None,
            own_fit=bool(background and background.own_fit),
        )
        results.append(result)
        if progress:
            progress(result)
    return _summary(results, started, backend=backend.name, refit=refitted)


def _summary(
    results: list[DepartmentNeighbours], started: float, backend: str = "", refit: bool = False
) -> dict:
    return {
        "backend": backend,
        "refit": refit,
        "departments": [r.as_dict() for r in results],
        "reflections": sum(r.reflections for r in results),
        "neighbours": sum(r.neighbours for r in results),
        "seconds": round(time.perf_counter() - started, 3),
    }
