"""Cohen's κ, the one implementation: the rubric's agreement between raters and the judge
page's agreement between a judge and its reviewers both call it.

scikit-learn's `cohen_kappa_score`, imported on first use: its metrics package holds ~120 MiB
and takes seconds to import, which no page but these two needs (docs/architecture.md,
"Start-up and memory").
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence


def cohen_kappa(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    *,
    labels: Sequence[Hashable],
    weights: str | None = None,
) -> float | None:
    """κ of two raters over the same items (unweighted, or "linear"/"quadratic" over ordered
    `labels`); None when there are no pairs or κ is undefined (NaN: chance agreement total)."""
    if not a:
        return None
    from sklearn.metrics import cohen_kappa_score

    value = cohen_kappa_score(list(a), list(b), labels=list(labels), weights=weights)
    return None if math.isnan(value) else float(value)
