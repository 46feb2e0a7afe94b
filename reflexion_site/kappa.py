"""Cohen's κ, the one implementation: the rubric's agreement between raters and the judge
page's agreement between a judge and its reviewers both call it.

Computed as scikit-learn's `cohen_kappa_score` computes it (tests/test_kappa.py holds the two
equal on generated ratings), in NumPy: scikit-learn's metrics package holds ~70 MiB and
SciPy's statistics with it, which a web worker would keep for ever after one agreement page
(docs/architecture.md, "Start-up and memory").
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def cohen_kappa(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    *,
    labels: Sequence[Hashable],
    weights: str | None = None,
) -> float | None:
    """κ of two raters over the same items (unweighted, or "linear"/"quadratic" over ordered
    `labels`); None when there are no pairs or κ is undefined (chance agreement total).

    The confusion matrix counts the pairs whose two ratings are both among `labels`; κ is
    1 - Σ w·observed / Σ w·expected, the expected counts from the two raters' margins, w the
    disagreement weight of a cell (1 off the diagonal; |i - j| or (i - j)² when weighted)."""
    if not a:
        return None
    import numpy as np  # here, not at app start: the judge report is registered at start-up

    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"unknown weights {weights!r}")
    index = {label: i for i, label in enumerate(labels)}
    size = len(index)
    confusion = np.zeros((size, size))
    for x, y in zip(a, b, strict=True):
        if x in index and y in index:
            confusion[index[x], index[y]] += 1
    total = confusion.sum()
    if not total:
        return None
    expected = np.outer(confusion.sum(axis=1), confusion.sum(axis=0)) / total
    i, j = np.indices((size, size))
    if weights is None:
        w = (i != j).astype(float)
    else:
        w = np.abs(i - j) if weights == "linear" else (i - j) ** 2
    chance = float((w * expected).sum())
    if chance == 0:
        return None
    return 1.0 - float((w * confusion).sum()) / chance
