"""A department's background likeness: when the installation's fit cannot tell its lessons
apart (pure, NumPy).

The latent backend is fitted on the whole installation's reflections. A department whose
lessons are few beside the rest and all written to one template gets few of the fit's axes,
and its lessons land close together whatever they say: the LeetCode run the demo imports
(GPT-4, "The implementation is incorrect because it does not properly handle …") has its
reflections on different problems at a median cosine of 0.78 in the demo's fit, where the
demo's own departments have theirs at 0.11-0.17, and in a fit of its own texts 0.14. A fixed
calibration then calls every pair of that department alike: the duplicate signal flagged 78
of its 100 cycle items, against readers who found 16 duplicates among them.

The background is the mean cosine of two of the department's lessons (for L2-normalised rows,
(|sum of rows|^2 - n) / (n(n - 1)): one pass, no pairs). Where it is above the backend's
reference (Calibration.background: what the calibration was chosen on), the department's
neighbours are found in a fit of its own texts instead (reflections.services.neighbours),
which spends every axis on telling its lessons apart. A department at or under the reference
is compared in the installation's fit exactly as before; so is one too small for its own fit
to mean much (OWN_FIT_MIN).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Lessons a department needs before a fit of its own texts is trusted over the installation's:
# a handful of texts give a handful of axes, and two lessons alone are alike by construction.
OWN_FIT_MIN = 50


@dataclass(frozen=True)
class Background:
    likeness: float  # the department's mean pairwise cosine in the installation's fit
    own_fit: bool  # whether its neighbours were found in a fit of its own texts instead
    own_likeness: float | None = None  # the same in that fit


def mean_likeness(vectors: np.ndarray) -> float:
    """The mean cosine of two different rows (L2-normalised), in one pass."""
    n = vectors.shape[0]
    if n < 2:
        return 0.0
    total = np.asarray(vectors.sum(axis=0), dtype=np.float64).ravel()
    return float((total @ total - n) / (n * (n - 1)))


def needs_own_fit(likeness: float, reference: float | None, lessons: int) -> bool:
    """Whether a department this alike (its background) is to be compared in its own fit."""
    return reference is not None and lessons >= OWN_FIT_MIN and likeness > reference
