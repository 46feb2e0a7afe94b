"""How every page writes a number or a date: one filter per kind, built into every template.

* a share (0.855) as a percentage with one decimal: "85.5 %" (the product's "NN %" with a
  space, to the tenth, so 85.5 % and 85.0 % are told apart);
* a difference of two shares as signed percentage points: "+3.2 pts", "-20.1 pts" (a true
  minus sign, U+2212), "±0.0 pts";
* a κ (Cohen's, Fleiss') with two decimals: "0.87", "-0.12";
* a confidence (0.62) as a whole percentage: "62 %" (judges' and signals' alike);
* a date, or the day of a datetime, as ISO 8601: "2026-11-29".

Each number writes "—" for a missing value. Registered in settings.TEMPLATES as a builtin, so no
template loads it.
"""

from __future__ import annotations

from django import template
from django.template.defaultfilters import date as date_filter

register = template.Library()

MISSING = "—"
MINUS = "\N{MINUS SIGN}"


def _number(value) -> float | None:
    if value is None or value == "":
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


@register.filter
def percent(value) -> str:
    """A share 0..1 as "85.5 %"."""
    n = _number(value)
    return MISSING if n is None else f"{100 * n:.1f} %"


@register.filter
def lift_points(value) -> str:
    """A difference of two shares in percentage points, signed: "+3.2 pts", "-20.1 pts" (U+2212)."""
    n = _number(value)
    if n is None:
        return MISSING
    tenths = round(1000 * n)  # the rounded value decides the sign: -0.04 pts is ±0.0
    sign = "+" if tenths > 0 else MINUS if tenths < 0 else "±"
    return f"{sign}{abs(tenths) / 10:.1f} pts"


@register.filter
def kappa(value) -> str:
    """An agreement coefficient with two decimals."""
    n = _number(value)
    return MISSING if n is None else f"{n:.2f}"


@register.filter
def confidence(value) -> str:
    """A confidence 0..1 as a whole percentage: "62 %"."""
    n = _number(value)
    return MISSING if n is None else f"{round(100 * n)} %"


@register.filter
def isodate(value) -> str:
    """A date, or a datetime's day in the site's time zone (UTC), as "2026-11-29"; nothing
    for a missing one, as Django's date filter (pages guard or say "never" themselves)."""
    return date_filter(value, "Y-m-d")
