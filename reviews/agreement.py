"""Agreement statistics for rubric ratings (DOMAIN §6), as pure functions over plain values.

A statistic that is undefined for the data is None — shown as "undefined", never as 0 and
never an exception. Cohen's κ is undefined when either rater gave one level throughout: with
both constant it is 0/0, and with one constant it measures nothing about agreement (it is
pinned at or below 0 whatever the other rater does).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sklearn.metrics import cohen_kappa_score

from .models import LEVELS

# Levels as ordered categories 0..4, so weighted κ sees the ordinal distances.
LEVEL_INDEX = {level: i for i, level in enumerate(LEVELS)}


def level_index(level: float) -> int:
    try:
        return LEVEL_INDEX[float(level)]
    except KeyError:
        raise ValueError(
            f"{level!r} is not a rubric level ({', '.join(map(str, LEVELS))})"
        ) from None


def kappa(a: Sequence[float], b: Sequence[float], *, weights: str | None = None) -> float | None:
    """Cohen's κ between two raters' levels on the same items (pairs in order).

    `weights=None` is the unweighted κ of the reference study; "quadratic" the weighted one.
    None when there are no pairs or κ is undefined (a constant rater)."""
    if len(a) != len(b):
        raise ValueError("the two raters must have scored the same items")
    if not a:
        return None
    x = [level_index(v) for v in a]
    y = [level_index(v) for v in b]
    if len(set(x)) == 1 or len(set(y)) == 1:
        return None
    value = cohen_kappa_score(x, y, labels=list(range(len(LEVELS))), weights=weights)
    return None if math.isnan(value) else float(value)
