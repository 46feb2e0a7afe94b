"""Student's t quantile, the one the confidence intervals use (rubric quality, the projection).

SciPy's `scipy.special.stdtrit` gives the same numbers (tests/test_student_t.py holds the two
equal to 1e-9), but importing scipy.special costs a web worker ~20 MiB that it keeps for ever
after one page with an interval (docs/architecture.md, "Start-up and memory"). This is the
textbook route: the t distribution's tail is a regularized incomplete beta function,
evaluated by its continued fraction (modified Lentz), and the quantile is found by bisection,
which cannot fail to converge on a monotone function.
"""

from __future__ import annotations

import math

_EPSILON = 1e-16
_TINY = 1e-300
_MAX_TERMS = 500


def t_quantile(df: float, p: float) -> float:
    """The t with P(T ≤ t) = p for Student's t with `df` degrees of freedom (df > 0)."""
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if not 0 < p < 1:
        raise ValueError(f"probability must be between 0 and 1, not {p}")
    if p < 0.5:
        return -t_quantile(df, 1 - p)
    if p == 0.5:
        return 0.0
    # For t ≥ 0, P(T ≤ t) = 1/2 + I_y(1/2, df/2)/2 = 1 - I_x(df/2, 1/2)/2, with
    # y = t²/(df + t²) and x = 1 - y. Bisect on whichever side's target is smaller, so that
    # it keeps its relative precision (2p - 1 and 2(1 - p) are exact for p ≥ 1/2).
    near_the_middle = p < 0.75
    target = 2 * p - 1 if near_the_middle else 2 * (1 - p)

    def gap(t: float) -> float:  # rises with t, zero at the quantile
        y, x = t * t / (df + t * t), df / (df + t * t)
        if near_the_middle:
            return _regularized_beta(y, x, 0.5, df / 2) - target
        return target - _regularized_beta(x, y, df / 2, 0.5)

    log_density_at_zero = (
        math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - math.log(df * math.pi) / 2
    )
    low, high = 0.0, 1.0
    while gap(high) < 0:  # widen until the quantile is bracketed
        low, high = high, high * 2
    # Newton's method on the bracket (gap's slope is twice the density), falling back on
    # bisection whenever a step would leave it: a few steps instead of sixty halvings.
    t = (low + high) / 2
    for _ in range(100):
        value = gap(t)
        if value < 0:
            low = t
        else:
            high = t
        slope = 2 * math.exp(log_density_at_zero - (df + 1) / 2 * math.log1p(t * t / df))
        step = t - value / slope if slope > 0 else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - t) <= 4 * _EPSILON * t or high - low <= 4 * _EPSILON * high:
            return step
        t = step
    return t


def _regularized_beta(x: float, complement: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for 0 ≤ x ≤ 1, given x and 1 - x
    (each computed directly, so neither loses precision near 0 or 1)."""
    if x <= 0:
        return 0.0
    if complement <= 0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
        + a * math.log(x) + b * math.log(complement)
    )  # fmt: skip
    # The continued fraction converges fast for x below its mean; above it, use the symmetry
    # I_x(a, b) = 1 - I_(1-x)(b, a).
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _continued_fraction(x, a, b) / a
    return 1 - math.exp(log_front) * _continued_fraction(complement, b, a) / b


def _continued_fraction(x: float, a: float, b: float) -> float:
    """The incomplete beta function's continued fraction, by the modified Lentz method."""
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > _TINY else _TINY)
    result = d
    for m in range(1, _MAX_TERMS + 1):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > _TINY else _TINY)
            c = 1 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            result *= c * d
        if abs(c * d - 1) < _EPSILON:
            break
    return result
