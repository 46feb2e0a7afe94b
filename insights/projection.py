"""The saturating projection of weekly success (DOMAIN §7): s(t) = A - (A - s₀)·2^(-t/h).

Pure: weeks, rates and task counts in; a fit with its uncertainty, or a refusal that says why,
out. A refusal is the answer whenever the data cannot support the numbers: the page never
shows a made-up asymptote.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from reflexion_site.student_t import t_quantile

MIN_WEEKS = 8
WEEKS_PER_MONTH = 365.25 / 12 / 7  # 4.35: months are calendar-average months
CONFIDENCE = 0.95


def saturating(t, asymptote, start, half_life):
    """Success at t weeks: starts at `start`, halves its distance to `asymptote` every
    `half_life` weeks."""
    return asymptote - (asymptote - start) * np.exp2(-np.asarray(t, dtype=float) / half_life)


@dataclass(frozen=True)
class Estimate:
    value: float
    stderr: float
    low: float  # the 95 % interval, value ± t(0.975, n - 3)·stderr
    high: float

    def scaled(self, factor: float) -> Estimate:
        return Estimate(
            self.value * factor, self.stderr * factor, self.low * factor, self.high * factor
        )


@dataclass(frozen=True)
class Projection:
    asymptote: Estimate  # A: the success rate the curve levels off at
    start: Estimate  # s₀: success in the first week
    half_life_weeks: Estimate  # h
    weeks_used: int
    curve: list[tuple[float, float]]  # (t in weeks, fitted success), through the horizon
    # (t, low, high): the 95 % band of the fitted curve (delta method on the fit's covariance)
    band: list[tuple[float, float, float]] = ()
    observed_until: float = 0.0  # t of the last observed week: the curve beyond is ahead

    @property
    def half_life_months(self) -> Estimate:
        return self.half_life_weeks.scaled(1 / WEEKS_PER_MONTH)

    def at(self, t: float) -> float:
        """The fitted success t weeks after the first week."""
        return float(
            saturating(t, self.asymptote.value, self.start.value, self.half_life_weeks.value)
        )


@dataclass(frozen=True)
class Refusal:
    reason: str
    weeks_used: int


def fit_projection(
    weeks: Sequence[float],
    rates: Sequence[float],
    finished: Sequence[int],
    *,
    min_weeks: int = MIN_WEEKS,
    curve_points: int = 121,
) -> Projection | Refusal:
    """Fit the curve to weekly success `rates` at `weeks` (weeks since the first week),
    weighting each week by its number of `finished` tasks. Weeks without tasks are skipped."""
    if not len(weeks) == len(rates) == len(finished):
        raise ValueError("weeks, rates and finished must have the same length")
    keep = [i for i, n in enumerate(finished) if n > 0]
    t = np.array([weeks[i] for i in keep], dtype=float)
    s = np.array([rates[i] for i in keep], dtype=float)
    n = np.array([finished[i] for i in keep], dtype=float)
    used = len(keep)
    if used < min_weeks:
        return Refusal(
            f"Only {used} week{'s' if used != 1 else ''} with finished tasks; "
            f"the projection needs at least {min_weeks}.",
            used,
        )
    t = t - t.min()
    span = float(t.max())

    # A binomial rate's variance falls as 1/n: sigma ∝ 1/√n weights weeks by their task count.
    # The covariance is scaled by the residual spread (curve_fit's absolute_sigma=False), so
    # the intervals reflect the scatter actually seen, not an assumed one.
    fitted = _least_squares(t, s, weights=n, span=span)
    if fitted is None:
        return Refusal("The fit did not converge (no finite least-squares solution).", used)
    params, cov = fitted
    asymptote, start, half_life = (float(p) for p in params)
    if not all(math.isfinite(p) for p in (asymptote, start, half_life)):
        return Refusal("The fit did not converge (non-finite parameters).", used)
    if not 0 <= asymptote <= 1:
        return Refusal(
            f"The fitted asymptote A = {asymptote:.3g} is not a success rate (outside 0 to 1): "
            "the weeks do not level off.",
            used,
        )
    if half_life <= 0:
        return Refusal(f"The fitted half-life h = {half_life:.3g} weeks is not positive.", used)
    if asymptote <= start:
        return Refusal(
            "Weekly success is not rising (the fitted asymptote is not above the start): "
            "a learning curve does not describe these weeks.",
            used,
        )
    errors = np.sqrt(np.diag(cov)) if np.all(np.isfinite(cov)) else None
    if errors is None or not np.all(np.isfinite(errors)):
        return Refusal(
            "The uncertainty of the fit is unbounded (infinite covariance): "
            "these weeks cannot pin down A and h.",
            used,
        )

    quantile = t_quantile(used - 3, (1 + CONFIDENCE) / 2)
    a_est, s_est, h_est = (
        Estimate(v, float(e), v - quantile * float(e), v + quantile * float(e))
        for v, e in zip((asymptote, start, half_life), errors, strict=True)
    )
    # A Wald interval that leaves the parameter's range means the weeks cannot tell the value
    # from impossible ones (h near 0 is a step, A above 1 is not a rate): say so, not a number.
    if h_est.low <= 0:
        return Refusal(
            f"The half-life is not pinned down: h = {half_life:.1f} weeks, but its 95 % interval "
            f"reaches {h_est.low:.1f} weeks (zero or below).",
            used,
        )
    if a_est.low < 0 or a_est.high > 1:
        return Refusal(
            f"The asymptote is not pinned down: A = {asymptote:.2f}, but its 95 % interval "
            f"({a_est.low:.2f} to {a_est.high:.2f}) leaves the range of a success rate.",
            used,
        )
    # Ahead into the future: far enough to show the levelling off (four half-lives), at
    # least half a year past the last week, at most two years past it.
    horizon = span + min(max(4 * half_life - span, AHEAD_WEEKS), MAX_AHEAD_WEEKS)
    grid = np.linspace(0, horizon, curve_points)
    fitted = saturating(grid, asymptote, start, half_life)
    curve = [(float(x), float(y)) for x, y in zip(grid, fitted, strict=True)]
    spread = quantile * _curve_stderr(grid, params, cov)
    band = [
        (float(x), float(max(0.0, y - e)), float(min(1.0, y + e)))
        for x, y, e in zip(grid, fitted, spread, strict=True)
    ]
    return Projection(a_est, s_est, h_est, used, curve, band, span)


AHEAD_WEEKS = 26  # the projection always reaches at least this far past the last week
MAX_AHEAD_WEEKS = 104

# The half-lives searched, as multiples of the weeks' span: from a step (a hundredth of the
# span) to a straight line (a hundred spans, where the curve has not begun to bend).
H_RANGE = (1e-2, 1e2)
H_GRID = 200  # log-spaced starting points; the best one's neighbours bracket the minimum
GOLDEN = (math.sqrt(5) - 1) / 2


def _least_squares(
    t: np.ndarray, s: np.ndarray, *, weights: np.ndarray, span: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The weighted least-squares fit of `saturating` and its covariance, as SciPy's
    `curve_fit(saturating, t, s, sigma=1/√weights, absolute_sigma=False)` gives them (a test
    holds the two equal), or None when there is no finite solution.

    For a fixed half-life the curve is linear in A and s₀ (A·(1 - d) + s₀·d, d = 2^(-t/h)), so
    the fit is a search over h alone, each h answered by a 2-by-2 weighted linear solve
    (variable projection, Golub and Pereyra): a grid over h brackets the best, a golden-section
    search narrows it. This replaces SciPy's optimizer, whose modules (~16 MiB) a web worker
    would keep after one view of the projection page (docs/benchmarks.md, memory)."""
    root_w = np.sqrt(weights)
    log_h = np.log(np.maximum(span, 1.0) * np.array(H_RANGE))

    def linear(log_half_life: float) -> tuple[float, np.ndarray]:
        decay = np.exp2(-t / math.exp(log_half_life))
        design = np.stack([1 - decay, decay], axis=1) * root_w[:, None]
        coef, *_ = np.linalg.lstsq(design, s * root_w, rcond=None)
        residual = design @ coef - s * root_w
        return float(residual @ residual), coef

    grid = np.linspace(*log_h, H_GRID)
    costs = [linear(x)[0] for x in grid]
    best = int(np.nanargmin(costs)) if np.isfinite(costs).any() else -1
    if best < 0:
        return None
    low, high = grid[max(best - 1, 0)], grid[min(best + 1, H_GRID - 1)]
    # Golden-section search on log h between the best grid point's neighbours.
    inner_low, inner_high = high - GOLDEN * (high - low), low + GOLDEN * (high - low)
    cost_low, cost_high = linear(inner_low)[0], linear(inner_high)[0]
    while high - low > 1e-10:
        if cost_low <= cost_high:
            high, inner_high, cost_high = inner_high, inner_low, cost_low
            inner_low = high - GOLDEN * (high - low)
            cost_low = linear(inner_low)[0]
        else:
            low, inner_low, cost_low = inner_low, inner_high, cost_high
            inner_high = low + GOLDEN * (high - low)
            cost_high = linear(inner_high)[0]
    log_half_life = (low + high) / 2
    cost, (asymptote, start) = linear(log_half_life)
    params = np.array([asymptote, start, math.exp(log_half_life)])
    if not np.all(np.isfinite(params)):
        return None
    # The covariance as curve_fit computes it: the pseudo-inverse of JᵀJ from the SVD of the
    # weighted Jacobian, scaled by the residual variance.
    jacobian = _jacobian(t, params) * root_w[:, None]
    _, singular, vt = np.linalg.svd(jacobian, full_matrices=False)
    keep = singular > np.finfo(float).eps * max(jacobian.shape) * singular[0]
    if not keep.all():
        return params, np.full((3, 3), np.inf)  # a direction the weeks do not pin down
    cov = (vt.T / singular**2) @ vt * (cost / (len(t) - 3))
    return params, cov


def _curve_stderr(t: np.ndarray, params, cov) -> np.ndarray:
    """The standard error of the fitted curve at each t: the delta method, J·Σ·Jᵀ with J the
    curve's gradient in (A, s₀, h)."""
    jacobian = _jacobian(t, params)
    variance = np.einsum("ij,jk,ik->i", jacobian, np.asarray(cov), jacobian)
    return np.sqrt(np.clip(variance, 0, None))


def _jacobian(t: np.ndarray, params) -> np.ndarray:
    """The curve's gradient in (A, s₀, h) at each t."""
    asymptote, start, half_life = params
    decay = np.exp2(-t / half_life)
    return np.stack(
        [
            1 - decay,  # ∂s/∂A
            decay,  # ∂s/∂s₀
            -(asymptote - start) * decay * np.log(2) * t / half_life**2,  # ∂s/∂h
        ],
        axis=1,
    )
