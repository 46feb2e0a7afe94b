"""The pieces every insights chart is built from: encodings, tooltips, review markers, inline
data made JSON-safe, and the finishing (title, description, container width)."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings

from insights import palette
from reflexion_site.vega import alt

HEIGHT = 280
# Vega-Lite field names with dots or brackets mean nested access; our columns are plain names.
_UNSAFE_FIELD = str.maketrans({".": "_", "[": "_", "]": "_"})


def finish(chart, title: str, description: str, *, height: int = HEIGHT) -> dict:
    spec = (
        chart.properties(
            title=alt.Title(title, anchor="start"),
            description=description,
            width="container",
            height=height,
        )
        .configure_view(stroke=None)
        .configure_axis(labelFontSize=12, titleFontSize=12)
        .configure_title(fontSize=14)
        # Validating against the Vega-Lite schema altair ships costs more than building the
        # spec (a third of a learning-curves request under load): the tests validate every
        # chart (CHARTS_VALIDATE), pages in production skip it.
        .to_dict(validate=settings.CHARTS_VALIDATE)
    )
    return spec


MARKER_SLOTS = 3  # label rows: markers close together take turns, so labels do not overlap
MARKER_LINE = 14  # px between label rows


def numbered_markers(markers: Iterable[Mapping[str, Any]]) -> list[dict]:
    """The markers in date order, each with its number ("1", "2" …): the chart writes the
    number at the rule (a whole label per rule would run into its neighbours' labels), the
    tooltip and the caption (`marker_key`) say what it stands for."""
    ordered = sorted(markers, key=lambda m: str(m["at"]))
    return [{**m, "key": str(i)} for i, m in enumerate(ordered, start=1)]


def marker_key(markers: Iterable[Mapping[str, Any]]) -> str:
    """The caption's key to the numbered markers: "1 2026-01-05 Q1 review: 3 deprecated; …"."""
    return "; ".join(
        f"{m['key']} = {json_value(m['at'])}: {m['label']}" for m in numbered_markers(markers)
    )


def marker_layers(
    markers: Iterable[Mapping[str, Any]], x_type: str, span: tuple[str, str] | None = None
) -> list:
    """A dashed rule per marker and its number at the top, in rows that take turns (numbers
    of markers a week apart never touch); a number in the last third of the time axis reads
    leftwards so it stays inside the chart. The rule's tooltip says what it marks."""
    values = plain(
        {"at": m["at"], "label": str(m["label"]), "key": m["key"]}
        for m in numbered_markers(markers)
    )
    if not values:
        return []
    x = x_encoding("at", x_type)
    rule = (
        alt.Chart(alt.Data(values=values))
        .mark_rule(color=palette.MARKER, strokeDash=[4, 3], strokeWidth=1.5)
        .encode(
            x=x,
            tooltip=[
                alt.Tooltip("key:N", title="Marker"),
                tip("at", x_type, title="Week of"),
                alt.Tooltip("label:N", title="Review"),
            ],
        )
    )
    groups: dict[tuple[int, str], list[dict]] = {}
    for i, value in enumerate(values):
        align = "right" if late(value["at"], span) else "left"
        groups.setdefault((i % MARKER_SLOTS, align), []).append(value)
    labels = [
        alt.Chart(alt.Data(values=group))
        .mark_text(
            align=align,
            baseline="top",
            dx=3 if align == "left" else -3,
            dy=2 + slot * MARKER_LINE,
            color=palette.MARKER,
            fontSize=12,
            fontWeight="bold",
        )
        .encode(
            x=x,
            y=alt.value(0),
            text="key:N",
            tooltip=[alt.Tooltip("key:N", title="Marker"), alt.Tooltip("label:N", title="Review")],
        )
        for (slot, align), group in sorted(groups.items())
    ]
    return [rule, *labels]


def utc_day(day: dt.date) -> alt.DateTime:
    return alt.DateTime(year=day.year, month=day.month, date=day.day, utc=True)


def date_span(xs: Iterable[Any]) -> tuple[str, str] | None:
    known = sorted(str(v) for v in xs if v is not None)
    return (known[0], known[-1]) if known else None


def late(at: Any, span: tuple[str, str] | None) -> bool:
    """Whether an ISO date falls in the last third of ``span`` (ISO dates too)."""
    if span is None:
        return False
    try:
        first, last, day = (dt.date.fromisoformat(str(v)[:10]) for v in (*span, at))
    except ValueError:
        return False
    whole = (last - first).days
    return whole > 0 and (day - first).days > whole * 2 / 3


def tooltip(x: str, x_type: str, y: str, y_format: str, series: str | None) -> list:
    tips = [tip(x, x_type), alt.Tooltip(f"{y}:Q", format=y_format)]
    if series:
        tips.insert(0, alt.Tooltip(f"{series}:N"))
    return tips


def x_encoding(field: str, x_type: str, *, span: tuple[Any, Any] | None = None, **kwargs) -> alt.X:
    """The x encoding; a temporal one over `span` (first and last ISO day) ticks on Mondays."""
    if x_type == "temporal":
        # Dates arrive as ISO days, which browsers read as UTC midnight: a UTC scale keeps
        # Monday on Monday whatever the viewer's time zone.
        axis = monday_axis(*span) if span is not None and "axis" not in kwargs else None
        if axis is not None:
            kwargs["axis"] = axis
        return alt.X(f"{field}:T", scale=alt.Scale(type="utc"), **kwargs)
    return alt.X(f"{field}:{short(x_type)}", **kwargs)


TICK_STEPS = (1, 2, 4, 8, 13, 26, 52)  # weeks between ticks: the first that gives ≤ 10 ticks
MAX_TICKS = 10


def monday_ticks(first: Any, last: Any) -> list[dt.date]:
    """Mondays from the first on or after `first` to `last`, a nice number of weeks apart:
    Vega's own week ticks fall on Sundays (d3's weeks start then), ISO weeks on Mondays."""
    start, end = (dt.date.fromisoformat(str(v)[:10]) for v in (first, last))
    monday = start + dt.timedelta(days=(7 - start.weekday()) % 7)
    weeks = max(0, (end - monday).days // 7)
    step = next((s for s in TICK_STEPS if weeks // s + 1 <= MAX_TICKS), TICK_STEPS[-1])
    return [monday + dt.timedelta(weeks=i) for i in range(0, weeks + 1, step)]


def monday_axis(first: Any, last: Any) -> alt.Axis | None:
    """An axis ticked on Mondays (None when the span is not made of dates)."""
    try:
        monday_ticks(first, last)
    except ValueError:
        return None
    return alt.Axis(
        values=[utc_day(d) for d in monday_ticks(first, last)],
        format="%Y-%m-%d",  # dates are ISO everywhere (reflexion_site/templatetags/formats.py)
        labelOverlap=True,
    )


def tip(field: str, x_type: str, **kwargs) -> alt.Tooltip:
    if x_type == "temporal":
        return alt.Tooltip(f"{field}:T", timeUnit="utcyearmonthdate", format="%Y-%m-%d", **kwargs)
    return alt.Tooltip(f"{field}:{short(x_type)}", **kwargs)


def describe(kind: str, y_title: str, x_title: str, n: int, series: str | None) -> str:
    by = " per series" if series else ""
    return f"{kind} of {y_title.lower()} by {x_title.lower()}{by}, {n} data points."


def short(x_type: str) -> str:
    return {"temporal": "T", "quantitative": "Q", "nominal": "N", "ordinal": "O"}[x_type]


def plain(rows: Iterable[Mapping[str, Any]]) -> list[dict]:
    """JSON-ready inline values: dates as ISO strings, keys safe as Vega-Lite field names."""
    return [
        {str(k).translate(_UNSAFE_FIELD): json_value(v) for k, v in row.items()} for row in rows
    ]


def json_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, float) and value != value:  # NaN is not JSON
        return None
    return value


RATE_STEP = 0.05  # a fitted rate axis starts and ends on a multiple of 5 %


def fitted_domain(values: Iterable[Any], *, step: float = RATE_STEP) -> list[float] | None:
    """A rate axis that fits its data instead of running from 0 to 100 %: from the lowest
    value to the highest, each rounded outwards to `step` (and kept within 0 to 1), with at
    least one step between them. None without values."""
    numbers = [float(v) for v in values if v is not None]
    if not numbers:
        return None
    low = max(0.0, math.floor(min(numbers) / step + 1e-9) * step)
    high = min(1.0, math.ceil(max(numbers) / step - 1e-9) * step)
    if high - low < step:
        low, high = max(0.0, high - step), min(1.0, low + step)
    return [round(low, 4), round(high, 4)]
