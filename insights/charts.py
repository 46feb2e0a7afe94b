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

from insights import palette
from insights.chart_parts import (
    HEIGHT,
    date_span,
    describe,
    finish,
    fitted_domain,
    marker_layers,
    monday_axis,
    plain,
    short,
    tooltip,
    utc_day,
    x_encoding,
)
from reflexion_site.vega import alt

# A legend people can read: names at the page's small-text size, a thick swatch of each line.
LEGEND = alt.Legend(
    orient="bottom",
    columns=4,
    labelFontSize=13,
    labelLimit=220,
    symbolType="stroke",
    symbolStrokeWidth=4,
    symbolSize=320,
    columnPadding=18,
    rowPadding=6,
)


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
    height: int = HEIGHT,
    y_domain: Sequence[float] | None = None,
    series_order: Sequence[str] | None = None,
    points: bool = True,
) -> dict:
    """A line per `series` (or one line) of `y` over `x`; `markers` ({"at": x value,
    "label": text}) are numbered vertical rules, e.g. the review cycles' deprecations. A rate
    axis (a `%` format) fits its data unless `y_domain` is given: zero is not forced."""
    values = plain(rows)
    if y_domain is None and str(y_format).endswith("%"):
        y_domain = fitted_domain(row.get(y) for row in values)
    # Several lines: a click on a name in the legend (or on its line) brings that series
    # forward and fades the others; another click, or a click elsewhere, shows all again.
    picked = alt.selection_point(fields=[series], bind="legend") if series else None
    color = (
        alt.Color(
            f"{series}:N",
            title=None,
            legend=LEGEND,
            sort=list(series_order) if series_order else alt.Undefined,
            scale=palette.scale(
                palette.ordered_names(values, series, series_order), series_order or ()
            ),
        )
        if series
        else alt.value(palette.meaning_of(y_title) or palette.meaning_of(y) or palette.NEUTRAL)
    )
    span = date_span([row.get(x) for row in values]) if x_type == "temporal" else None
    lines = (
        alt.Chart(alt.Data(values=values))
        .mark_line(point=points, strokeWidth=2)
        .encode(
            x=x_encoding(x, x_type, title=x_title, span=span),
            y=alt.Y(
                f"{y}:Q",
                title=y_title,
                axis=alt.Axis(format=y_format),
                scale=(alt.Scale(domain=list(y_domain), zero=False) if y_domain else alt.Undefined),
            ),
            color=color,
            tooltip=tooltip(x, x_type, y, y_format, series),
        )
    )
    if picked is not None:
        lines = lines.add_params(picked).encode(
            opacity=alt.condition(picked, alt.value(1.0), alt.value(0.15))
        )
    layers = [lines, *marker_layers(markers or (), x_type, span)]
    return finish(
        alt.layer(*layers),
        title,
        description or describe("Line chart", y_title, x_title, len(values), series),
        height=height,
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
    height: int = HEIGHT,
    horizontal: bool = False,
) -> dict:
    """Bars of `y` per `x`, grouped side by side by `series` when given; `horizontal` lays
    the categories down the side (long category names stay readable)."""
    values = plain(rows)
    encoding: dict[str, Any] = {
        "x": x_encoding(x, x_type, title=x_title, sort=None),
        "y": alt.Y(f"{y}:Q", title=y_title, axis=alt.Axis(format=y_format)),
        "tooltip": tooltip(x, x_type, y, y_format, series),
    }
    if horizontal:
        encoding["x"] = alt.X(f"{y}:Q", title=y_title, axis=alt.Axis(format=y_format, tickCount=8))
        encoding["y"] = alt.Y(
            f"{x}:{short(x_type)}", title=x_title, sort=None, axis=alt.Axis(labelLimit=320)
        )
    if series:
        encoding["color"] = alt.Color(
            f"{series}:N",
            title=None,
            legend=alt.Legend(orient="bottom"),
            scale=palette.scale(palette.ordered_names(values, series, None)),
        )
        encoding["yOffset" if horizontal else "xOffset"] = (
            alt.YOffset(f"{series}:N") if horizontal else alt.XOffset(f"{series}:N")
        )
    elif any(palette.meaning_of(row.get(x, "")) for row in values):
        # Categories that are outcomes (post-failure, post-success) wear their colours.
        names = palette.ordered_names(values, x, None)
        encoding["color"] = alt.Color(f"{x}:N", legend=None, scale=palette.scale(names))
    else:
        encoding["color"] = alt.value(palette.NEUTRAL)
    chart = alt.Chart(alt.Data(values=values)).mark_bar().encode(**encoding)
    return finish(
        chart,
        title,
        description or describe("Bar chart", y_title, x_title, len(values), series),
        height=height,
    )


def weekly_bar_chart(
    rows: Iterable[Mapping[str, Any]],
    *,
    x: str,
    y: str,
    series: str | None = None,
    series_order: Sequence[str] | None = None,
    title: str,
    x_title: str,
    y_title: str,
    y_format: str = "d",
    description: str | None = None,
    x_domain: tuple[dt.date, dt.date] | None = None,
    height: int = HEIGHT,
) -> dict:
    """Bars one ISO week wide (from `x`, a Monday, to the next Monday) stacked by `series`:
    counts per week on the same time axis as the line charts."""
    rank = {name: i for i, name in enumerate(series_order or ())}
    values = plain(
        {
            **row,
            "week_end": row[x] + dt.timedelta(days=7),
            "stack_rank": rank.get(row[series], len(rank)) if series else 0,
        }
        for row in rows
    )
    scale = alt.Scale(type="utc")
    if x_domain:
        # domainMin/Max, not domain: with x2 on the same scale a domain conflicts.
        scale = alt.Scale(
            type="utc",
            domainMin=utc_day(x_domain[0]),
            domainMax=utc_day(x_domain[1] + dt.timedelta(days=7)),
        )
    span = (
        (x_domain[0], x_domain[1] + dt.timedelta(days=7))
        if x_domain
        else date_span([row.get(x) for row in values])
    )
    encoding: dict[str, Any] = {
        "x": alt.X(
            f"{x}:T",
            title=x_title,
            scale=scale,
            axis=(monday_axis(*span) if span else None) or alt.Undefined,
        ),
        "x2": alt.X2("week_end:T"),
        "y": alt.Y(f"sum({y}):Q", title=y_title, axis=alt.Axis(format=y_format)),
        "tooltip": tooltip(x, "temporal", y, y_format, series),
    }
    if series:
        encoding["color"] = alt.Color(
            f"{series}:N",
            title=None,
            legend=alt.Legend(orient="bottom"),
            sort=list(series_order) if series_order else alt.Undefined,
            scale=palette.scale(
                palette.ordered_names(values, series, series_order), series_order or ()
            ),
        )
        # The first of series_order sits on the axis (Vega-Lite stacks by color name otherwise).
        encoding["order"] = alt.Order("stack_rank:Q", sort="ascending")
    else:
        encoding["color"] = alt.value(palette.NEUTRAL)
    chart = (
        alt.Chart(alt.Data(values=values))
        .mark_bar(stroke="white", strokeWidth=0.5)
        .encode(**encoding)
    )
    return finish(
        chart,
        title,
        description or describe("Stacked bar chart", y_title, x_title, len(values), series),
        height=height,
    )


def interval_chart(
    rows: Iterable[Mapping[str, Any]],
    *,
    label: str,
    value: str,
    low: str,
    high: str,
    title: str,
    value_title: str,
    label_title: str,
    value_format: str = "+.0%",
    reference: float | None = 0.0,
    description: str | None = None,
    href: str | None = None,
) -> dict:
    """One row per `label` (in the order given): a point at `value` with a bar from `low` to
    `high` (e.g. a lift and its 95 % interval), and a rule at `reference`. With `href`, the
    field of each row holding a link: clicking its point or bar opens it (the row's item)."""
    values = plain(rows)
    order = [row[label] for row in values]
    # The labels say what a row is; an axis title beside 300 px of labels would sit on them.
    y = alt.Y(f"{label}:N", title=None, sort=order, axis=alt.Axis(labelLimit=360))
    base = alt.Chart(alt.Data(values=values))
    tips = [
        alt.Tooltip(f"{label}:N"),
        alt.Tooltip(f"{value}:Q", format=value_format),
        alt.Tooltip(f"{low}:Q", format=value_format),
        alt.Tooltip(f"{high}:Q", format=value_format),
    ]
    link = {"href": alt.Href(f"{href}:N")} if href else {}
    cursor = {"cursor": "pointer"} if href else {}
    bars = base.mark_rule(strokeWidth=3, color=palette.NEUTRAL_LIGHT, **cursor).encode(
        x=alt.X(f"{low}:Q", title=value_title, axis=alt.Axis(format=value_format, tickCount=8)),
        x2=alt.X2(f"{high}:Q"),
        y=y,
        tooltip=tips,
        **link,
    )
    points = base.mark_point(filled=True, size=60, color=palette.NEUTRAL, **cursor).encode(
        x=alt.X(f"{value}:Q"), y=y, tooltip=tips, **link
    )
    layers = [bars, points]
    if reference is not None:
        layers.append(
            alt.Chart(alt.Data(values=[{"reference": reference}]))
            .mark_rule(color=palette.REFERENCE, strokeDash=[4, 3])
            .encode(x="reference:Q")
        )
    height = max(120, 22 * len(values))
    return finish(
        alt.layer(*layers),
        title,
        description
        or f"Dot plot of {value_title.lower()} with 95 % intervals per {label_title.lower()}, "
        f"{len(values)} rows.",
        height=height,
    )


def heatmap(
    rows: Iterable[Mapping[str, Any]],
    *,
    x: str,
    y: str,
    value: str,
    title: str,
    x_title: str,
    y_title: str,
    value_title: str,
    value_format: str = ",d",
    description: str | None = None,
) -> dict:
    """A cell per (`x`, `y`) coloured by `value`, with the number written in it."""
    values = plain(rows)
    ys = sorted({row[y] for row in values})
    xs = sorted({row[x] for row in values})
    base = alt.Chart(alt.Data(values=values)).encode(
        x=alt.X(f"{x}:N", title=x_title, sort=xs, axis=alt.Axis(labelAngle=0, orient="top")),
        y=alt.Y(f"{y}:N", title=y_title, sort=ys),
    )
    tips = [
        alt.Tooltip(f"{y}:N", title=y_title),
        alt.Tooltip(f"{x}:N", title=x_title),
        alt.Tooltip(f"{value}:Q", title=value_title, format=value_format),
    ]
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(
            f"{value}:Q",
            title=value_title,
            scale=alt.Scale(scheme="blues", type="symlog"),
            legend=alt.Legend(orient="right", format=value_format),
        ),
        tooltip=tips,
    )
    # Dark text on light cells, light on dark: the threshold is half the largest count.
    top = max((row[value] or 0 for row in values), default=0)
    text = base.mark_text(fontSize=12).encode(
        text=alt.Text(f"{value}:Q", format=value_format),
        color=alt.condition(
            alt.datum[value] > (top * 0.3 if top else 0), alt.value("white"), alt.value(palette.FIT)
        ),
        tooltip=tips,
    )
    height = max(120, 36 * len(ys))
    return finish(
        alt.layer(cells, text),
        title,
        description
        or f"Heat map of {value_title.lower()} by {y_title.lower()} and {x_title.lower()}, "
        f"{len(values)} cells.",
        height=height,
    )
