"""The pieces the insights charts share: encodings on a time axis ticked on Mondays,
tooltips, the legend's pick of a series, review markers, and inline data made JSON-safe."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping
from typing import Any

from insights import palette
from reflexion_site.vega import constant, digest, enc, mark, view

HEIGHT = 280
# Vega-Lite field names with dots or brackets mean nested access; our columns are plain names.
_UNSAFE_FIELD = str.maketrans({".": "_", "[": "_", "]": "_"})


def legend_pick(lines: dict, field: str) -> tuple[dict, list[dict]]:
    """`lines` with a click on a name in the legend (or on its line) bringing that series
    forward and fading the others; and the chart's params that say so. Both names come from
    the content, so a spec stays the same from build to build."""
    select = {"select": {"type": "point", "fields": [field]}, "bind": "legend"}
    # The very name altair gave the parameter (its hash of the selection).
    param = "param_" + digest({"param_type": "selection", "empty": "Undefined", "param": select})
    # altair hashed its own objects' reprs for the view's name: any name unique in the spec
    # serves, this one hashes the mark and encoding the same way.
    name = f"view_{digest({'mark': lines['mark'], 'encoding': lines['encoding']})}_0"
    opacity = {"condition": {"param": param, **constant(1.0)}, **constant(0.15)}
    picked = {**lines, "name": name, "encoding": {**lines["encoding"], "opacity": opacity}}
    return picked, [{"name": param, **select, "views": [name]}]


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
    rule = view(
        values,
        mark("rule", color=palette.MARKER, strokeDash=[4, 3], strokeWidth=1.5),
        x=x,
        tooltip=[
            enc("key:N", title="Marker"),
            tip("at", x_type, title="Week of"),
            enc("label:N", title="Review"),
        ],
    )
    groups: dict[tuple[int, str], list[dict]] = {}
    for i, value in enumerate(values):
        align = "right" if late(value["at"], span) else "left"
        groups.setdefault((i % MARKER_SLOTS, align), []).append(value)
    labels = [
        view(
            group,
            mark(
                "text",
                align=align,
                baseline="top",
                dx=3 if align == "left" else -3,
                dy=2 + slot * MARKER_LINE,
                color=palette.MARKER,
                fontSize=12,
                fontWeight="bold",
            ),
            x=x,
            y=constant(0),
            text=enc("key:N"),
            tooltip=[enc("key:N", title="Marker"), enc("label:N", title="Review")],
        )
        for (slot, align), group in sorted(groups.items())
    ]
    return [rule, *labels]


def utc_day(day: dt.date) -> dict:
    """A Vega-Lite DateTime: the day at UTC midnight."""
    return {"year": day.year, "month": day.month, "date": day.day, "utc": True}


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
    tips = [tip(x, x_type), enc(f"{y}:Q", format=y_format)]
    if series:
        tips.insert(0, enc(f"{series}:N"))
    return tips


def x_encoding(field: str, x_type: str, *, span: tuple[Any, Any] | None = None, **kwargs) -> dict:
    """The x encoding; a temporal one over `span` (first and last ISO day) ticks on Mondays."""
    if x_type == "temporal":
        # Dates arrive as ISO days, which browsers read as UTC midnight: a UTC scale keeps
        # Monday on Monday whatever the viewer's time zone.
        axis = monday_axis(*span) if span is not None and "axis" not in kwargs else None
        if axis is not None:
            kwargs["axis"] = axis
        return enc(f"{field}:T", scale={"type": "utc"}, **kwargs)
    return enc(f"{field}:{short(x_type)}", **kwargs)


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


def monday_axis(first: Any, last: Any) -> dict | None:
    """An axis ticked on Mondays (None when the span is not made of dates)."""
    try:
        monday_ticks(first, last)
    except ValueError:
        return None
    return {
        "values": [utc_day(d) for d in monday_ticks(first, last)],
        "format": "%Y-%m-%d",  # dates are ISO everywhere (reflexion_site/templatetags/formats.py)
        "labelOverlap": True,
    }


def tip(field: str, x_type: str, **kwargs) -> dict:
    if x_type == "temporal":
        return enc(f"{field}:T", timeUnit="utcyearmonthdate", format="%Y-%m-%d", **kwargs)
    return enc(f"{field}:{short(x_type)}", **kwargs)


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
