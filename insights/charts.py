"""Vega-Lite specs for the insights pages, built as plain dicts from plain rows.

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
    fitted_domain,
    legend_pick,
    marker_layers,
    monday_axis,
    plain,
    short,
    tooltip,
    utc_day,
    x_encoding,
)
from reflexion_site.vega import constant, enc, end, finish, layered, mark, view

# A legend people can read: names at the page's small-text size, a thick swatch of each line.
LEGEND = {
    "orient": "bottom",
    "columns": 4,
    "labelFontSize": 13,
    "labelLimit": 220,
    "symbolType": "stroke",
    "symbolStrokeWidth": 4,
    "symbolSize": 320,
    "columnPadding": 18,
    "rowPadding": 6,
}


def series_color(
    series: str, values: list[dict], order: Sequence[str] | None, *, legend: dict
) -> dict:
    """A colour per series name, as the palette pins them, listed in `order` when given."""
    color = enc(f"{series}:N", title=None, legend=legend)
    if order:
        color["sort"] = list(order)
    names = palette.ordered_names(values, series, order)
    return {**color, "scale": palette.scale(names, order or ())}


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
    color = (
        series_color(series, values, series_order, legend=LEGEND)
        if series
        else constant(palette.meaning_of(y_title) or palette.meaning_of(y) or palette.NEUTRAL)
    )
    span = date_span([row.get(x) for row in values]) if x_type == "temporal" else None
    y_axis = enc(f"{y}:Q", title=y_title, axis={"format": y_format})
    # Ordinal steps (trials) are short labels: upright, not Vega-Lite's turned default.
    x_axis = {"axis": {"labelAngle": 0}} if x_type == "ordinal" else {}
    if y_domain:
        y_axis["scale"] = {"domain": list(y_domain), "zero": False}
    lines = view(
        values,
        mark("line", point=points, strokeWidth=2),
        x=x_encoding(x, x_type, title=x_title, span=span, **x_axis),
        y=y_axis,
        color=color,
        tooltip=tooltip(x, x_type, y, y_format, series),
    )
    params = None
    if series:
        # Several lines: a click on a name in the legend (or on its line) brings that series
        # forward and fades the others; another click, or a click elsewhere, shows all again.
        lines, params = legend_pick(lines, series)
    layers = [lines, *marker_layers(markers or (), x_type, span)]
    return finish(
        layered(*layers, params=params),
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
        "y": enc(f"{y}:Q", title=y_title, axis={"format": y_format}),
        "tooltip": tooltip(x, x_type, y, y_format, series),
    }
    if horizontal:
        encoding["x"] = enc(f"{y}:Q", title=y_title, axis={"format": y_format, "tickCount": 8})
        encoding["y"] = enc(
            f"{x}:{short(x_type)}", title=x_title, sort=None, axis={"labelLimit": 320}
        )
    if series:
        encoding["color"] = series_color(series, values, None, legend={"orient": "bottom"})
        encoding["yOffset" if horizontal else "xOffset"] = enc(f"{series}:N")
    elif any(palette.meaning_of(row.get(x, "")) for row in values):
        # Categories that are outcomes (post-failure, post-success) wear their colours.
        names = palette.ordered_names(values, x, None)
        encoding["color"] = enc(f"{x}:N", legend=None, scale=palette.scale(names))
    else:
        encoding["color"] = constant(palette.NEUTRAL)
    return finish(
        view(values, mark("bar"), **encoding),
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
    scale: dict[str, Any] = {"type": "utc"}
    if x_domain:
        # domainMin/Max, not domain: with x2 on the same scale a domain conflicts.
        scale["domainMin"] = utc_day(x_domain[0])
        scale["domainMax"] = utc_day(x_domain[1] + dt.timedelta(days=7))
    span = (
        (x_domain[0], x_domain[1] + dt.timedelta(days=7))
        if x_domain
        else date_span([row.get(x) for row in values])
    )
    x_axis = enc(f"{x}:T", title=x_title, scale=scale)
    if axis := monday_axis(*span) if span else None:
        x_axis["axis"] = axis
    encoding: dict[str, Any] = {
        "x": x_axis,
        "x2": end("week_end"),
        "y": {"aggregate": "sum", **enc(f"{y}:Q", title=y_title, axis={"format": y_format})},
        "tooltip": tooltip(x, "temporal", y, y_format, series),
    }
    if series:
        encoding["color"] = series_color(series, values, series_order, legend={"orient": "bottom"})
        # The first of series_order sits on the axis (Vega-Lite stacks by color name otherwise).
        encoding["order"] = enc("stack_rank:Q", sort="ascending")
    else:
        encoding["color"] = constant(palette.NEUTRAL)
    return finish(
        view(values, mark("bar", stroke="white", strokeWidth=0.5), **encoding),
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
    y = enc(f"{label}:N", title=None, sort=order, axis={"labelLimit": 360})
    tips = [
        enc(f"{label}:N"),
        enc(f"{value}:Q", format=value_format),
        enc(f"{low}:Q", format=value_format),
        enc(f"{high}:Q", format=value_format),
    ]
    link = {"href": enc(f"{href}:N")} if href else {}
    cursor = {"cursor": "pointer"} if href else {}
    bars = view(
        values,
        mark("rule", strokeWidth=3, color=palette.NEUTRAL_LIGHT, **cursor),
        x=enc(f"{low}:Q", title=value_title, axis={"format": value_format, "tickCount": 8}),
        x2=end(high),
        y=y,
        tooltip=tips,
        **link,
    )
    points = view(
        values,
        mark("point", filled=True, size=60, color=palette.NEUTRAL, **cursor),
        x=enc(f"{value}:Q"),
        y=y,
        tooltip=tips,
        **link,
    )
    layers = [bars, points]
    if reference is not None:
        layers.append(
            view(
                [{"reference": reference}],
                mark("rule", color=palette.REFERENCE, strokeDash=[4, 3]),
                x=enc("reference:Q"),
            )
        )
    height = max(120, 22 * len(values))
    return finish(
        layered(*layers),
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
    place = {
        "x": enc(f"{x}:N", title=x_title, sort=xs, axis={"labelAngle": 0, "orient": "top"}),
        "y": enc(f"{y}:N", title=y_title, sort=ys),
    }
    tips = [
        enc(f"{y}:N", title=y_title),
        enc(f"{x}:N", title=x_title),
        enc(f"{value}:Q", title=value_title, format=value_format),
    ]
    cells = view(
        values,
        mark("rect", stroke="white", strokeWidth=1),
        **place,
        color=enc(
            f"{value}:Q",
            title=value_title,
            scale={"scheme": "blues", "type": "symlog"},
            legend={"orient": "right", "format": value_format},
        ),
        tooltip=tips,
    )
    # Dark text on light cells, light on dark: the threshold is half the largest count.
    top = max((row[value] or 0 for row in values), default=0)
    threshold = top * 0.3 if top else 0
    # The test as altair's expression wrote it: the field quoted and the threshold by repr.
    dark = f"(datum[{value!r}] > {threshold!r})"
    text = view(
        values,
        mark("text", fontSize=12),
        **place,
        text=enc(f"{value}:Q", format=value_format),
        color={"condition": {"test": dark, **constant("white")}, **constant(palette.FIT)},
        tooltip=tips,
    )
    height = max(120, 36 * len(ys))
    return finish(
        layered(cells, text),
        title,
        description
        or f"Heat map of {value_title.lower()} by {y_title.lower()} and {x_title.lower()}, "
        f"{len(values)} cells.",
        height=height,
    )
