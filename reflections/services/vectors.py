"""Reflections' vectors for the configured similarity backend: computing, storing, reading.

The latent backend is fitted on every reflection that is not quarantined and all of them are
encoded again (a new fit moves every vector); the fit is stored with them (LatentFit), and
while the texts outside it are few (LatentBackend.refit_due) new and changed texts are folded
into it instead: encoded with the stored fit, every other vector kept. An embedding model
encodes only the reflections whose stored vector is missing or was made from other text or by
another model, in batches, so a re-import of unchanged files computes nothing. The word
baseline stores none.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from django.db import transaction
from django.db.models import Count, Exists, OuterRef
from django.utils import timezone

from reflections import bulk
from reflections.models import LatentFit, Reflection, ReflectionVector, State
from reflections.similarity import document_text
from reflections.similarity.backends import (
    BackendError,
    Encoder,
    LatentModel,
    configured_backend,
)

logger = logging.getLogger(__name__)

VECTOR_COLUMNS = (
    "reflection_id",
    "backend",
    "content_hash",
    "dimensions",
    "vector",
    "computed_at",
)
# Reflections encoded and written per round: bounds the memory of an embedding pass.
ROUND = 10_000


@dataclass(frozen=True)
class Document:
    id: int
    department_id: int
    content_hash: str
    text: str


def documents(queryset=None) -> list[Document]:
    """The texts reflections are compared by, quarantined ones left out (their text may hold a
    secret or injected instructions: it never shapes another reflection's neighbours)."""
    queryset = Reflection.objects.all() if queryset is None else queryset
    return [
        Document(pk, department_id, content_hash, document_text(title=t, sections=s or [], body=b))
        for pk, department_id, content_hash, t, s, b in queryset.exclude(state=State.QUARANTINED)
        .order_by("id")
        .values_list("id", "department_id", "content_hash", "title", "sections", "body")
        .iterator(chunk_size=2000)
    ]


@dataclass(frozen=True)
class VectorRefresh:
    identity: str  # the encoder's (reflections.similarity.backends.Encoder)
    encoded: int
    kept: int
    seconds: float


def store_vectors(
    encoder: Encoder, docs: list[Document], vectors: np.ndarray, *, replace: bool = True
) -> int:
    """Store `vectors` as the vectors of `docs` (one row each, same order), replacing the
    ones they had unless the caller has cleared them (`replace=False`)."""
    now = timezone.now()
    ids = [d.id for d in docs]
    with transaction.atomic():
        if replace:
            for start in range(0, len(ids), 5000):
                ReflectionVector.objects.filter(
                    reflection_id__in=ids[start : start + 5000]
                ).delete()
        return bulk.write_rows(
            ReflectionVector._meta.db_table,
            VECTOR_COLUMNS,
            (
                (
                    d.id,
                    encoder.identity,
                    d.content_hash,
                    int(v.shape[0]),
                    ReflectionVector.pack(v),
                    now,
                )
                for d, v in zip(docs, vectors, strict=True)
            ),
        )


def refit_vectors(backend, docs: list[Document]) -> np.ndarray:
    """Fit the backend on `docs` (the whole installation), encode and store every one, and
    return their vectors (rows in the order of `docs`); every other stored vector goes (a
    reflection quarantined since, or deleted)."""
    encoder = backend.fit([d.text for d in docs])
    parts = []
    with transaction.atomic():
        LatentFit.objects.all().delete()
        if encoder.model is not None:
            LatentFit.objects.create(
                identity=encoder.identity,
                fitted=dict(Counter(str(d.department_id) for d in docs)),
                model=encoder.model.dumps(),
                created_at=timezone.now(),
            )
        ReflectionVector.objects.all().delete()
        for start in range(0, len(docs), ROUND):
            chunk = docs[start : start + ROUND]
            parts.append(encoder([d.text for d in chunk]))
            store_vectors(encoder, chunk, parts[-1], replace=False)
    return np.vstack(parts) if parts else np.zeros((0, 1), np.float32)


def stale(identity: str, queryset=None):
    """Reflections (not quarantined) with no vector of the encoder `identity` for their
    current text."""
    queryset = Reflection.objects.all() if queryset is None else queryset
    current = ReflectionVector.objects.filter(
        reflection_id=OuterRef("pk"),
        backend=identity,
        content_hash=OuterRef("content_hash"),
    )
    return queryset.exclude(state=State.QUARANTINED).exclude(Exists(current))


def stored_fit(backend) -> Encoder | None:
    """The latent backend's stored fit, to fold the texts outside it into, or None when a
    refit is due: no fit is stored, or some department's texts folded in since it was made
    and those waiting now pass the backend's share of its texts the fit was made from."""
    fit = LatentFit.objects.defer("model").first()
    if fit is None:
        return None
    outside = Counter(fit.folded)
    outside.update(_by_department(stale(fit.identity)))
    if backend.refit_due(fitted=fit.fitted, outside=outside):
        return None
    data = LatentFit.objects.filter(pk=fit.pk).values_list("model", flat=True).first()
    return None if data is None else LatentModel.loads(data).encoder(chunk=backend.chunk)


def fold_in(encoder: Encoder) -> VectorRefresh:
    """Encode the texts outside the stored fit with it (encode_stale) and count them in the
    fit's `folded`, in one transaction (the fit's row locked, so two at once count both)."""
    with transaction.atomic():
        fit = LatentFit.objects.select_for_update().defer("model").get(identity=encoder.identity)
        waiting = _by_department(stale(encoder.identity))
        refresh = encode_stale(encoder)
        fit.folded = dict(Counter(fit.folded) + waiting)
        fit.save(update_fields=["folded"])
    return refresh


def _by_department(queryset) -> Counter:
    return Counter(
        {
            str(department): n
            for department, n in queryset.order_by()
            .values_list("department_id")
            .annotate(n=Count("id"))
            .values_list("department_id", "n")
        }
    )


def encode_stale(encoder: Encoder, *, ids: Iterable[int] | None = None) -> VectorRefresh:
    """Vectors for the reflections that lack a current one of this encoder (of `ids`, or
    all), in rounds of ROUND; a vector already made from the same text by the same model is
    kept."""
    started = time.perf_counter()
    queryset = Reflection.objects.all() if ids is None else Reflection.objects.filter(pk__in=ids)
    encoded = 0
    while True:
        batch = stale(encoder.identity, queryset).order_by("id").values_list("id", flat=True)
        batch = batch[:ROUND]
        docs = documents(Reflection.objects.filter(pk__in=list(batch)))
        if not docs:
            break
        store_vectors(encoder, docs, encoder([d.text for d in docs]))
        encoded += len(docs)
    # A reflection quarantined since its vector was made is compared with nothing.
    ReflectionVector.objects.filter(reflection__state=State.QUARANTINED).delete()
    total = queryset.exclude(state=State.QUARANTINED).count()
    return VectorRefresh(
        encoder.identity, encoded, total - encoded, round(time.perf_counter() - started, 3)
    )


def vectors_of(ids: Iterable[int], *, backend: str | None = None) -> dict[int, np.ndarray]:
    """The stored vectors of these reflections (one query), as float32 rows; only those of one
    model: `backend` (an encoder identity), or else the model most of them were made by."""
    rows = list(
        ReflectionVector.objects.filter(reflection_id__in=list(ids)).values_list(
            "reflection_id", "backend", "vector"
        )
    )
    if not rows:
        return {}
    if backend is None:
        names = [name for _, name, _ in rows]
        backend = max(set(names), key=names.count)
    return {pk: ReflectionVector.unpack(data) for pk, name, data in rows if name == backend}


def encode_imported() -> VectorRefresh | None:
    """After an import: an embedding model's vectors for what arrived (batched; unchanged text
    keeps its vector). The latent backend is refitted with the neighbours instead. A model
    directory that cannot be read is logged, not raised: the import itself has committed."""
    backend = configured_backend()
    if not backend.cached:
        return None
    try:
        return encode_stale(backend.fit())
    except BackendError as error:
        logger.warning("vectors not computed after the import: %s", error)
        return None
