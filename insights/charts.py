"""Vega-Lite specs for the insights pages, built with altair from plain rows.

Every spec carries its data inline (no URL the browser would fetch), a title, axis titles and
a description that becomes the chart's accessible description, and fills its container's
width. The table under each chart holds the same numbers: the chart is the summary, not the
only copy.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import altair as alt

from .projection import Projection, Refusal

HEIGHT = 280
# Vega-Lite field names with dots or brackets mean nested access; our columns are plain names.
_UNSAFE_FIELD = str.maketrans({".": "_", "[": "_", "]": "_"})


def line_chart(
    rows: Iterable[Mapping[str, Any]],
    *,
    x: str,
    y: str,
    series: str | None = None,
    title: str,
    x_title: str,
    y_title: str,
    y_format: str = ".0%",
    markers: Sequence[Mapping[str, Any]] | None = None,
    description: str | None = None,
    x_type: str = "temporal",
) -> dict:
    """A line per `series` (or one line) of `y` over `x`; `markers` ({"at": x value,
    "label": text}) are labelled vertical rules, e.g. the review cycles' deprecations."""
    values = _plain(rows)
    color = (
        alt.Color(f"{series}:N", title=None, legend=alt.Legend(orient="bottom"))
        if series
        else alt.value("#2457a6")
    )
    lines = (
        alt.Chart(alt.Data(values=values))
        .mark_line(point=True)
        .encode(
            x=_x(x, x_type, title=x_title),
            y=alt.Y(f"{y}:Q", title=y_title, axis=alt.Axis(format=y_format)),
            color=color,
            tooltip=_tooltip(x, x_type, y, y_format, series),
        )
    )
    layers = [lines, *_marker_layers(markers or (), x_type)]
    return _finish(
        alt.layer(*layers),
        title,
        description or _describe("Line chart", y_title, x_title, len(values), series),
    )


def bar_chart(
    rows: Iterable[Mapping[str, Any]],
    *,
    x: str,
    y: str,
    series: str | None = None,
    title: str,
    x_title: str,
    y_title: str,
    y_format: str = ".0%",
    description: str | None = None,
    x_type: str = "nominal",
) -> dict:
    """Bars of `y` per `x`, grouped side by side by `series` when given."""
    values = _plain(rows)
    encoding: dict[str, Any] = {
        "x": _x(x, x_type, title=x_title, sort=None),
        "y": alt.Y(f"{y}:Q", title=y_title, axis=alt.Axis(format=y_format)),
        "tooltip": _tooltip(x, x_type, y, y_format, series),
    }
    if series:
        encoding["color"] = alt.Color(f"{series}:N", title=None, legend=alt.Legend(orient="bottom"))
        encoding["xOffset"] = alt.XOffset(f"{series}:N")
    else:
        encoding["color"] = alt.value("#2457a6")
    chart = alt.Chart(alt.Data(values=values)).mark_bar().encode(**encoding)
    return _finish(
        chart,
        title,
        description or _describe("Bar chart", y_title, x_title, len(values), series),
    )


def projection_chart(
    weeks: Sequence[dt.date],
    rates: Sequence[float],
    fit: Projection | Refusal | None,
    *,
    title: str = "Weekly task success and its projection",
) -> dict:
    """The weekly success rates as points; with a fit, the fitted curve through its horizon
    and a dashed rule at the asymptote A."""
    first = weeks[0] if weeks else None
    points = [
        {"week": week, "rate": rate, "kind": "Observed weekly success"}
        for week, rate in zip(weeks, rates, strict=True)
    ]
    observed = (
        alt.Chart(alt.Data(values=_plain(points)))
        .mark_point(filled=True, size=40, color="#2457a6")
        .encode(
            x=_x("week", "temporal", title="Week (ISO, Monday start, UTC)"),
            y=alt.Y(
                "rate:Q",
                title="Success rate",
                axis=alt.Axis(format=".0%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            tooltip=[
                _tip("week", "temporal", title="Week of"),
                alt.Tooltip("rate:Q", title="Success", format=".1%"),
            ],
        )
    )
    layers: list[alt.Chart] = [observed]
    if isinstance(fit, Projection) and first is not None:
        curve = [
            {"week": first + dt.timedelta(days=7 * t), "rate": s, "kind": "Fitted curve"}
            for t, s in fit.curve
        ]
        layers.append(
            alt.Chart(alt.Data(values=_plain(curve)))
            .mark_line(color="#b5552b", strokeWidth=2, description="Fitted curve")
            .encode(x=_x("week", "temporal"), y="rate:Q")
        )
        a = fit.asymptote
        layers.append(
            alt.Chart(alt.Data(values=[{"rate": a.value}]))
            .mark_rule(color="#5b6472", strokeDash=[6, 4], aria=False)
            .encode(y="rate:Q")
        )
        layers.append(
            alt.Chart(alt.Data(values=[{"rate": a.value, "label": f"Asymptote A = {a.value:.1%}"}]))
            .mark_text(align="left", baseline="bottom", dx=4, dy=-4, color="#5b6472", aria=False)
            .encode(y="rate:Q", x=alt.value(0), text="label:N")
        )
        h = fit.half_life_months
        description = (
            f"Weekly task success over {len(points)} weeks, with the fitted saturating curve "
            f"levelling off at A = {a.value:.1%} (95 % interval {a.low:.1%} to {a.high:.1%}) "
            f"and a half-life of {h.value:.1f} months ({h.low:.1f} to {h.high:.1f})."
        )
    else:
        why = f" No projection: {fit.reason}" if isinstance(fit, Refusal) else ""
        description = f"Weekly task success over {len(points)} weeks.{why}"
    return _finish(alt.layer(*layers), title, description)


def _finish(chart, title: str, description: str) -> dict:
    spec = (
        chart.properties(
            title=alt.Title(title, anchor="start"),
            description=description,
            width="container",
            height=HEIGHT,
        )
        .configure_view(stroke=None)
        .configure_axis(labelFontSize=12, titleFontSize=12)
        .configure_title(fontSize=14)
        .to_dict()  # validates against the Vega-Lite schema altair ships
    )
    return spec


def _marker_layers(markers: Iterable[Mapping[str, Any]], x_type: str) -> list:
    values = _plain({"at": m["at"], "label": str(m["label"])} for m in markers)
    if not values:
        return []
    data = alt.Data(values=values)
    x = _x("at", x_type)
    rule = alt.Chart(data).mark_rule(color="#8a5a00", strokeDash=[4, 3]).encode(x=x)
    label = (
        alt.Chart(data)
        .mark_text(align="left", baseline="top", dx=3, dy=2, color="#8a5a00", fontSize=11)
        .encode(x=x, y=alt.value(0), text="label:N")
    )
    return [rule, label]


def _tooltip(x: str, x_type: str, y: str, y_format: str, series: str | None) -> list:
    tips = [_tip(x, x_type), alt.Tooltip(f"{y}:Q", format=y_format)]
    if series:
        tips.insert(0, alt.Tooltip(f"{series}:N"))
    return tips


def _x(field: str, x_type: str, **kwargs) -> alt.X:
    if x_type == "temporal":
        # Dates arrive as ISO days, which browsers read as UTC midnight: a UTC scale keeps
        # Monday on Monday whatever the viewer's time zone.
        return alt.X(f"{field}:T", scale=alt.Scale(type="utc"), **kwargs)
    return alt.X(f"{field}:{_short(x_type)}", **kwargs)


def _tip(field: str, x_type: str, **kwargs) -> alt.Tooltip:
    if x_type == "temporal":
        return alt.Tooltip(f"{field}:T", timeUnit="utcyearmonthdate", format="%Y-%m-%d", **kwargs)
    return alt.Tooltip(f"{field}:{_short(x_type)}", **kwargs)


def _describe(kind: str, y_title: str, x_title: str, n: int, series: str | None) -> str:
    by = " per series" if series else ""
    return f"{kind} of {y_title.lower()} by {x_title.lower()}{by}, {n} data points."


def _short(x_type: str) -> str:
    return {"temporal": "T", "quantitative": "Q", "nominal": "N", "ordinal": "O"}[x_type]


def _plain(rows: Iterable[Mapping[str, Any]]) -> list[dict]:
    """JSON-ready inline values: dates as ISO strings, keys safe as Vega-Lite field names."""
    return [
        {str(k).translate(_UNSAFE_FIELD): _json_value(v) for k, v in row.items()} for row in rows
    ]


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, float) and value != value:  # NaN is not JSON
        return None
    return value
