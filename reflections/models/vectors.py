"""A reflection's text as a vector of the similarity backend that made it (ReflectionVector)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models

from reflections.models.memory import Reflection

if TYPE_CHECKING:
    import numpy as np


class ReflectionVector(models.Model):
    """One reflection's vector, for the version of its text it was computed from.

    Written by the neighbour service (reflections.services.vectors): the latent backend's on
    every refit, an embedding model's on import and only for new or changed text (a vector
    whose `content_hash` and `backend` still match is kept). Read by the review signals to
    compare a reflection with any other (its author's later lessons, not only its nearest
    neighbours). Quarantined text is never vectorised.
    """

    reflection = models.OneToOneField(
        Reflection, on_delete=models.CASCADE, primary_key=True, related_name="vector"
    )
    # The model that made it ("latent:<fit digest>", "embedding:<model digest>"): vectors of
    # two models are never compared.
    backend = models.CharField(max_length=64)
    content_hash = models.CharField(max_length=64)  # the reflection's text when computed
    dimensions = models.PositiveSmallIntegerField()
    vector = models.BinaryField()  # float16, unit length
    computed_at = models.DateTimeField()

    class Meta:
        indexes = [
            # "which reflections lack a current vector": reflections.services.vectors.stale_ids
            models.Index(fields=["backend"], name="vector_backend"),
        ]

    def __str__(self) -> str:
        return f"{self.reflection_id}: {self.backend} ({self.dimensions})"

    # numpy is imported where a vector is packed or unpacked, not with the models: every
    # process loads the models at start-up (an import command, a web worker), and numpy is
    # ~45 ms of that start and ~10 MiB of a worker that never reads a vector.
    @staticmethod
    def pack(vector: np.ndarray) -> bytes:
        import numpy as np

        return np.asarray(vector, dtype=np.float16).tobytes()

    @staticmethod
    def unpack(data: bytes) -> np.ndarray:
        import numpy as np

        return np.frombuffer(bytes(data), dtype=np.float16).astype(np.float32)


class LatentFit(models.Model):
    """The latent backend's current fit (reflections.similarity.backends.LatentModel as
    bytes), written with the vectors it made in one transaction, so the vectors stored under
    `identity` and the fit that can encode more texts into their space always agree. At most
    one row: a refit replaces it.

    `fitted` and `folded` count texts per department (keys are department ids as strings):
    those the fit was made from, and those encoded with it since (new or changed). The
    neighbour service refits once a department's folded and waiting texts pass the backend's
    share of its fitted ones (LatentBackend.refit_due).
    """

    identity = models.CharField(max_length=64, unique=True)
    fitted = models.JSONField(default=dict)
    folded = models.JSONField(default=dict)
    model = models.BinaryField()
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return (
            f"{self.identity}: {sum(self.fitted.values())} fitted, "
            f"{sum(self.folded.values())} folded in"
        )
