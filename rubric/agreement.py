"""Agreement statistics for rubric ratings (DOMAIN §6), as pure functions over plain values.

A statistic that is undefined for the data is None — shown as "undefined", never as 0 and
never an exception. Cohen's κ is undefined when either rater gave one level throughout: with
both constant it is 0/0, and with one constant it measures nothing about agreement (it is
pinned at or below 0 whatever the other rater does).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations

import numpy as np

from reflexion_site.kappa import cohen_kappa
from rubric.models import CRITERIA, LEVELS

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
    return cohen_kappa(x, y, labels=range(len(LEVELS)), weights=weights)


def kappa_undefined_reason(given: Sequence[float], gold: Sequence[float]) -> str:
    """Why κ of these pairs is undefined, in words for the rater ("" when it is defined).

    κ compares agreement with what chance alone would give; when either side uses a single
    level, chance agreement is already total and the ratio has nothing to divide by."""
    if not given:
        return "no items were rated on this criterion"
    mine, agreed = set(given), set(gold)
    if len(mine) == 1 and len(agreed) == 1:
        return (
            f"you and gold both used one level only ({level_text(next(iter(mine)))} and "
            f"{level_text(next(iter(agreed)))}): there is no spread to agree on"
        )
    if len(agreed) == 1:
        return (
            f"every gold level is {level_text(next(iter(agreed)))}: with no spread in gold, "
            "agreement beyond chance cannot be measured (exact agreement still counts)"
        )
    if len(mine) == 1:
        return (
            f"you used one level only ({level_text(next(iter(mine)))}) on every item: a rater "
            "who never varies cannot agree beyond chance; use the whole scale"
        )
    return ""


def level_text(level: float) -> str:
    return f"{level:g}"


# ---- Agreement over a table of ratings -------------------------------------------------------
#
# Definitions (also in docs/metrics.md, "Agreement statistics"):
# * a *unit* is what two raters can agree on: an item for one criterion, an (item, criterion)
#   pair for "pooled" — pooled statistics treat every criterion's units as one data set;
# * κ of a pair is over the units both rated; the criterion's κ is the mean over the pairs
#   whose κ is defined, weighted by their shared units (a pair that met on 40 items says more
#   than one that met on 2);
# * exact / within-one agreement is over every (unit, pair of its raters): the share whose
#   levels are equal / at most one level (0.25) apart;
# * a rater's bias is leave-one-out: on each unit they share with others, their level minus
#   the mean of the *other* raters' levels; averaged over those units. Positive = rates higher.

POOLED = "pooled"
# Cohen's κ of the reference study after calibration (DOMAIN §6), for comparison on the page.
REFERENCE_KAPPA = {
    "specificity": 0.78,
    "actionability": 0.81,
    "transferability": 0.65,
    "accuracy": 0.72,
    POOLED: 0.74,
}

RatingTable = Mapping[tuple[Hashable, Hashable, str], float]  # (item, rater, criterion) → level


@dataclass(frozen=True)
class PairAgreement:
    """Two raters on the units both rated. `undefined_reason` says why κ is None ("" if not)."""

    rater_a: Hashable
    rater_b: Hashable
    shared: int
    kappa: float | None
    weighted_kappa: float | None  # quadratic weights
    exact: float | None
    within_one: float | None
    undefined_reason: str = ""


@dataclass(frozen=True)
class RaterBias:
    """Mean of (the rater's level - the other raters' mean level) over `units` they shared."""

    rater: Hashable
    units: int
    bias: float | None


@dataclass(frozen=True)
class Agreement:
    """The statistics of one criterion, or of all criteria pooled (`criterion == POOLED`)."""

    criterion: str
    raters: tuple[Hashable, ...]
    units: int  # units with at least one rating
    pairable_units: int  # units with two ratings or more
    ratings: int
    kappa: float | None  # mean over defined pairs, weighted by shared units
    weighted_kappa: float | None
    kappa_pairs: int  # how many pairs the mean of κ is over
    alpha: float | None  # Krippendorff, ordinal
    exact: float | None
    within_one: float | None
    pairs: tuple[PairAgreement, ...]
    biases: tuple[RaterBias, ...]

    @property
    def reference_kappa(self) -> float | None:
        return REFERENCE_KAPPA.get(self.criterion)

    def pair(self, a: Hashable, b: Hashable) -> PairAgreement | None:
        """The pair of raters a and b in either order; None for a rater with themself."""
        for p in self.pairs:
            if (p.rater_a, p.rater_b) in ((a, b), (b, a)):
                return p
        return None

    def matrix(self) -> list[tuple[Hashable, list[PairAgreement | None]]]:
        """Rater by rater, in `raters` order; the diagonal is None."""
        index = {}
        for p in self.pairs:
            index[p.rater_a, p.rater_b] = index[p.rater_b, p.rater_a] = p
        return [(a, [index.get((a, b)) for b in self.raters]) for a in self.raters]


@dataclass(frozen=True)
class AgreementResult:
    criteria: tuple[Agreement, ...]  # in CRITERIA order
    pooled: Agreement
    raters: tuple[Hashable, ...]

    @property
    def all(self) -> tuple[Agreement, ...]:
        return (*self.criteria, self.pooled)

    def as_dict(self) -> dict:
        """Plain JSON-ready values; an undefined statistic is None (null)."""
        return asdict(self)


def ordinal_alpha(reliability_data: Sequence[Sequence[float | None]]) -> float | None:
    """Krippendorff's alpha, ordinal, over the rubric levels: one row per rater, one column per
    unit, None where the rater did not rate the unit. None when undefined: fewer than two
    pairable values (no unit with two ratings) or no variation among them."""
    rows = [
        [math.nan if v is None else LEVELS[level_index(v)] for v in row] for row in reliability_data
    ]
    if len(rows) < 2 or not rows[0]:
        return None
    data = np.array(rows, dtype=float)
    rated = ~np.isnan(data)
    pairable = data[:, rated.sum(axis=0) >= 2]
    values = set(pairable[~np.isnan(pairable)].tolist())
    if len(values) < 2:  # also covers "nothing pairable"
        return None
    import krippendorff  # imported on first use: only the agreement pages need it

    value = krippendorff.alpha(
        reliability_data=data, level_of_measurement="ordinal", value_domain=list(LEVELS)
    )
    return None if math.isnan(value) else float(value)


def agreement(table: RatingTable, *, criteria: Sequence[str] = CRITERIA) -> AgreementResult:
    """Every statistic of DOMAIN §6 per criterion and pooled, from {(item, rater, criterion):
    level}. Every criterion in `criteria` is reported (with None where nothing was rated);
    a criterion outside it found in the table follows, in name order."""
    units: dict[str, dict[Hashable, dict[Hashable, int]]] = {c: {} for c in criteria}
    for (item, rater, criterion), level in table.items():
        units.setdefault(criterion, {}).setdefault(item, {})[rater] = level_index(level)
    names = [*criteria, *sorted(set(units) - set(criteria))]
    raters = tuple(sorted({rater for (_, rater, _) in table}, key=str))
    pooled = {
        (item, criterion): by_rater
        for criterion in names
        for item, by_rater in units[criterion].items()
    }
    return AgreementResult(
        criteria=tuple(_agreement(c, units[c], raters, noun="item") for c in names),
        pooled=_agreement(POOLED, pooled, raters, noun="item-criterion unit"),
        raters=raters,
    )


def _agreement(
    criterion: str, units: dict[Hashable, dict[Hashable, int]], raters: tuple, *, noun: str
) -> Agreement:
    by_rater: dict[Hashable, dict[Hashable, int]] = {r: {} for r in raters}
    for unit, levels in units.items():
        for rater, index in levels.items():
            by_rater[rater][unit] = index
    pairs = tuple(
        _pair(a, b, by_rater[a], by_rater[b], noun=noun) for a, b in combinations(raters, 2)
    )
    shared = sum(p.shared for p in pairs)
    return Agreement(
        criterion=criterion,
        raters=raters,
        units=len(units),
        pairable_units=sum(1 for levels in units.values() if len(levels) >= 2),
        ratings=sum(len(levels) for levels in units.values()),
        kappa=_weighted_mean([(p.kappa, p.shared) for p in pairs]),
        weighted_kappa=_weighted_mean([(p.weighted_kappa, p.shared) for p in pairs]),
        kappa_pairs=sum(1 for p in pairs if p.kappa is not None),
        alpha=ordinal_alpha(
            [[LEVELS[by_rater[r][u]] if u in by_rater[r] else None for u in units] for r in raters]
        ),
        # Over all (unit, pair) = each pair's share weighted by its shared units.
        exact=_weighted_mean([(p.exact, p.shared) for p in pairs]) if shared else None,
        within_one=_weighted_mean([(p.within_one, p.shared) for p in pairs]) if shared else None,
        pairs=pairs,
        biases=tuple(_bias(r, units) for r in raters),
    )


def _pair(a, b, levels_a: dict, levels_b: dict, *, noun: str) -> PairAgreement:
    x = [i for unit, i in levels_a.items() if unit in levels_b]
    y = [levels_b[unit] for unit in levels_a if unit in levels_b]
    if not x:
        return PairAgreement(a, b, 0, None, None, None, None, f"no {noun}s rated by both")
    xs, ys = [LEVELS[i] for i in x], [LEVELS[i] for i in y]
    k = kappa(xs, ys)
    reason = ""
    if k is None:
        constant = [
            f"{rater} gave {levels[0]:g} on all of them"
            for rater, levels in ((a, xs), (b, ys))
            if len(set(levels)) == 1
        ]
        reason = (
            f"only 1 {noun} rated by both"
            if len(x) == 1
            else f"κ is undefined on the {len(x)} {noun}s rated by both: " + "; ".join(constant)
        )
    return PairAgreement(
        rater_a=a,
        rater_b=b,
        shared=len(x),
        kappa=k,
        weighted_kappa=kappa(xs, ys, weights="quadratic"),
        exact=sum(i == j for i, j in zip(x, y, strict=True)) / len(x),
        within_one=sum(abs(i - j) <= 1 for i, j in zip(x, y, strict=True)) / len(x),
        undefined_reason=reason,
    )


def _bias(rater, units: dict[Hashable, dict[Hashable, int]]) -> RaterBias:
    # Leave-one-out: with the rater in the mean, a bias shrinks by (m-1)/m on an item with m
    # raters, so the same habit would read smaller in rounds with more raters per item.
    deviations = []
    for levels in units.values():
        if rater in levels and len(levels) >= 2:
            others = [LEVELS[i] for r, i in levels.items() if r != rater]
            deviations.append(LEVELS[levels[rater]] - sum(others) / len(others))
    return RaterBias(
        rater, len(deviations), sum(deviations) / len(deviations) if deviations else None
    )


def _weighted_mean(values: Sequence[tuple[float | None, int]]) -> float | None:
    defined = [(v, w) for v, w in values if v is not None and w]
    total = sum(w for _, w in defined)
    return sum(v * w for v, w in defined) / total if total else None
