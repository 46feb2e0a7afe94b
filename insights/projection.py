"""The saturating projection of weekly success (DOMAIN §7): s(t) = A - (A - s₀)·2^(-t/h).

Pure: weeks, rates and task counts in; a fit with its uncertainty, or a refusal that says why,
out. A refusal is the answer whenever the data cannot support the numbers: the page never
shows a made-up asymptote.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

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
    # absolute_sigma=False scales the covariance by the residual spread, so the intervals
    # reflect the scatter actually seen, not an assumed one.
    # On first use: the projection page alone needs SciPy (the t quantile from scipy.special,
    # not scipy.stats, whose ~57 MiB a worker would keep).
    from scipy.optimize import OptimizeWarning, curve_fit
    from scipy.special import stdtrit

    sigma = 1 / np.sqrt(n)
    head, tail = s[: max(2, used // 4)], s[-max(2, used // 4) :]
    guess = (float(tail.mean()), float(head.mean()), max(span / 4, 1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", OptimizeWarning)
        try:
            params, cov = curve_fit(
                saturating, t, s, p0=guess, sigma=sigma, absolute_sigma=False, maxfev=5000
            )
        except (RuntimeError, OptimizeWarning, FloatingPointError, ValueError) as error:
            return Refusal(f"The fit did not converge ({_first_line(error)}).", used)

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

    quantile = float(stdtrit(used - 3, (1 + CONFIDENCE) / 2))
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


def _curve_stderr(t: np.ndarray, params, cov) -> np.ndarray:
    """The standard error of the fitted curve at each t: the delta method, J·Σ·Jᵀ with J the
    curve's gradient in (A, s₀, h)."""
    asymptote, start, half_life = params
    decay = np.exp2(-t / half_life)
    jacobian = np.stack(
        [
            1 - decay,  # ∂s/∂A
            decay,  # ∂s/∂s₀
            -(asymptote - start) * decay * np.log(2) * t / half_life**2,  # ∂s/∂h
        ],
        axis=1,
    )
    variance = np.einsum("ij,jk,ik->i", jacobian, np.asarray(cov), jacobian)
    return np.sqrt(np.clip(variance, 0, None))


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
