"""Chart specs (insights/charts.py) and the chart include (templates/insights/_chart.html)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import altair as alt
import pytest
from altair.utils.schemapi import validate_jsonschema
from altair.vegalite.v6.schema.core import load_schema
from bs4 import BeautifulSoup
from django.template.loader import render_to_string

from insights.charts import (
    bar_chart,
    heatmap,
    interval_chart,
    line_chart,
    weekly_bar_chart,
)
from insights.projection import Projection, Refusal, fit_projection, saturating
from insights.projection_chart import projection_chart

MONDAY = dt.date(2026, 1, 5)
WEEKS = [MONDAY + dt.timedelta(days=7 * i) for i in range(12)]


def weekly_rows() -> list[dict]:
    return [
        {"week": week, "rate": 0.5 + i / 50, "department": department}
        for i, week in enumerate(WEEKS)
        for department in ("sales", "finance")
    ]


def assert_valid_vega_lite(spec: dict) -> None:
    """Against the Vega-Lite schema altair ships: raises on any invalid property."""
    validate_jsonschema(spec, load_schema())
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/v6")


def walk(node):
    """Every (key, value) pair in a nested spec."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def layers(spec: dict) -> list[dict]:
    return spec.get("layer", [spec])


def marks(spec: dict) -> list[str]:
    return [layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]
            for layer in layers(spec)]  # fmt: skip


def assert_readable(spec: dict, title: str, x_title: str, y_title: str) -> None:
    assert spec["title"]["text"] == title
    assert spec["description"]
    assert spec["width"] == "container"
    encodings = [layer["encoding"] for layer in layers(spec)]
    encoded = [e for e in encodings if "title" in e.get("x", {})]
    assert encoded, "no layer carries the axis titles"
    assert encoded[0]["x"]["title"] == x_title
    assert encoded[0]["y"]["title"] == y_title
    # Inline values only: nothing the browser would fetch.
    assert not [key for key, _ in walk(spec) if key == "url"]
    assert all("values" in data for key, data in walk(spec) if key == "data")


@pytest.fixture
def line():
    return line_chart(
        weekly_rows(),
        x="week",
        y="rate",
        series="department",
        title="Weekly task success",
        x_title="Week",
        y_title="Success rate",
        markers=[{"at": WEEKS[4], "label": "2026Q1 review: 12 deprecated"}],
    )


def test_a_line_chart_is_valid_vega_lite_with_titles_and_a_description(line):
    assert_valid_vega_lite(line)
    assert_readable(line, "Weekly task success", "Week", "Success rate")
    assert line["description"] == ("Line chart of success rate by week per series, 24 data points.")
    lines = line["layer"][0]
    assert lines["encoding"]["y"]["axis"]["format"] == ".0%"
    assert lines["encoding"]["color"]["field"] == "department"
    assert lines["data"]["values"][0] == {"week": "2026-01-05", "rate": 0.5, "department": "sales"}


def test_markers_are_numbered_vertical_rules_at_their_dates(line):
    assert marks(line) == ["line", "rule", "text"]
    rule, label = line["layer"][1], line["layer"][2]
    assert rule["data"]["values"] == [
        {"at": "2026-02-02", "label": "2026Q1 review: 12 deprecated", "key": "1"}
    ]
    assert rule["encoding"]["x"]["field"] == "at"
    # The chart writes the number; what it marks is in the tooltip (and the caption's key).
    assert label["encoding"]["text"]["field"] == "key"
    assert {t["field"] for t in rule["encoding"]["tooltip"]} >= {"key", "label"}


def test_a_line_chart_without_markers_or_series_is_one_line():
    spec = line_chart(
        [{"week": w, "share": 0.1} for w in WEEKS],
        x="week",
        y="share",
        title="Cross-agent retrievals",
        x_title="Week",
        y_title="Share of retrievals",
        description="Share of retrievals where the retriever is not the author.",
    )

    assert_valid_vega_lite(spec)
    assert_readable(spec, "Cross-agent retrievals", "Week", "Share of retrievals")
    assert marks(spec) == ["line"]
    assert spec["description"] == "Share of retrievals where the retriever is not the author."


def test_a_bar_chart_groups_series_side_by_side():
    rows = [
        {"source": source, "useful": value, "department": department}
        for source, value in (("post-failure", 3.4), ("post-success", 1.0))
        for department in ("sales", "finance")
    ]
    spec = bar_chart(
        rows,
        x="source",
        y="useful",
        series="department",
        title="Useful retrievals per reflection",
        x_title="Source outcome",
        y_title="Useful retrievals per reflection",
        y_format=".1f",
    )

    assert_valid_vega_lite(spec)
    assert_readable(spec, "Useful retrievals per reflection", "Source outcome",
                    "Useful retrievals per reflection")  # fmt: skip
    assert marks(spec) == ["bar"]
    assert spec["encoding"]["xOffset"]["field"] == "department"
    assert spec["encoding"]["y"]["axis"]["format"] == ".1f"


def test_field_names_with_dots_are_made_plain():
    spec = bar_chart(
        [{"a.b": "x", "v[0]": 1}], x="a_b", y="v_0_", title="T", x_title="X", y_title="Y"
    )
    assert spec["data"]["values"] == [{"a_b": "x", "v_0_": 1}]


def fitted() -> Projection:
    t = list(range(12))
    fit = fit_projection(t, [float(v) for v in saturating(t, 0.88, 0.6, 3)], [100] * 12)
    assert isinstance(fit, Projection)
    return fit


def test_the_projection_chart_has_points_curve_ahead_band_and_asymptote():
    fit = fitted()
    rates = [float(v) for v in saturating(range(12), 0.88, 0.6, 3)]
    spec = projection_chart(WEEKS, rates, fit)

    assert_valid_vega_lite(spec)
    assert_readable(spec, "Weekly task success and its projection",
                    "Week (ISO, Monday start, UTC)", "Success rate")  # fmt: skip
    assert marks(spec) == ["area", "line", "rule", "rule", "text", "point"]
    band, curve, today, rule, label, points = spec["layer"]
    assert [v["week"] for v in points["data"]["values"]] == [w.isoformat() for w in WEEKS]
    assert len(curve["data"]["values"]) == len(fit.curve) + 2  # both parts meet
    assert curve["data"]["values"][0]["week"] == "2026-01-05"
    # Fitted through the observed weeks, then dashed ahead for at least half a year.
    parts = {v["part"] for v in curve["data"]["values"]}
    assert parts == {"Fitted curve", "Projected ahead"}
    assert curve["encoding"]["strokeDash"]["field"] == "part"
    last = WEEKS[-1].isoformat()
    assert today["data"]["values"] == [{"week": last}]
    ahead = [v["week"] for v in curve["data"]["values"] if v["part"] == "Projected ahead"]
    assert min(ahead) == last and max(ahead) >= (WEEKS[-1] + dt.timedelta(weeks=26)).isoformat()
    assert len(band["data"]["values"]) == len(fit.band)
    assert band["encoding"]["y2"]["field"] == "high"
    assert rule["data"]["values"] == [{"rate": pytest.approx(0.88)}]
    assert label["data"]["values"][0]["label"] == "Asymptote A = 88.0 %"
    assert "A = 88.0 %" in spec["description"] and "95 % band" in spec["description"]
    assert "half-life of 0.7 months" in spec["description"]


def test_a_refused_projection_charts_the_points_and_says_why():
    refusal = Refusal("Only 5 weeks with finished tasks; the projection needs at least 8.", 5)
    spec = projection_chart(WEEKS[:5], [0.5, 0.6, 0.7, 0.6, 0.7], refusal)

    assert_valid_vega_lite(spec)
    assert marks(spec) == ["point"]
    assert spec["description"] == (
        "Weekly task success over 5 weeks. No projection: Only 5 weeks with finished tasks; "
        "the projection needs at least 8."
    )


def test_an_invalid_encoding_is_rejected_by_altair():
    with pytest.raises(alt.utils.schemapi.SchemaValidationError):
        line_chart([{"w": 1, "r": 1}], x="w", y="r", title="T", x_title="X", y_title="Y",
                   y_format=12)  # fmt: skip


HOSTILE = '</script><script>alert("x")</script><!--'


def render_chart(spec: dict, caption: str = "") -> tuple[str, BeautifulSoup]:
    html = render_to_string(
        "insights/_chart.html", {"name": "success", "spec": spec, "caption": caption}
    )
    return html, BeautifulSoup(html, "html.parser")


def test_the_include_renders_a_figure_with_the_spec_as_json_and_a_caption(line):
    _, soup = render_chart(line, caption="Weekly success per department.")

    figure = soup.select_one("figure.chart-figure[data-chart-figure]")
    assert figure["data-spec"] == "chart-success"
    assert figure.select_one("div.chart")["data-chart"] == "success"
    script = figure.select_one("script#chart-success")
    assert script["type"] == "application/json"
    assert json.loads(script.string) == line
    assert figure.select_one("figcaption").get_text(strip=True) == "Weekly success per department."


def test_the_caption_defaults_to_the_description(line):
    _, soup = render_chart(line)
    assert soup.select_one("figcaption").get_text(strip=True) == line["description"]


def test_the_include_escapes_a_closing_script_tag_in_the_data():
    spec = line_chart(
        [{"week": MONDAY, "rate": 0.5, "department": HOSTILE}],
        x="week",
        y="rate",
        series="department",
        title=HOSTILE,
        x_title="Week",
        y_title="Rate",
    )
    html, soup = render_chart(spec, caption=HOSTILE)

    assert "</script><script>" not in html
    assert "<!--" not in html
    scripts = soup.find_all("script")
    assert len(scripts) == 1  # the data did not open a script of its own
    assert scripts[0]["type"] == "application/json"
    round_trip = json.loads(scripts[0].string)
    assert round_trip["title"]["text"] == HOSTILE
    assert [v["department"] for key, data in walk(round_trip) if key == "data"
            for v in data["values"]] == [HOSTILE]  # fmt: skip
    assert soup.select_one("figcaption").get_text() == HOSTILE  # shown as text, not markup


def test_weekly_bars_are_a_week_wide_and_stacked_in_the_given_order():
    spec = weekly_bar_chart(
        [{"week": WEEKS[0], "kind": k, "n": n} for k, n in (("Success", 3), ("Failure", 2))],
        x="week",
        y="n",
        series="kind",
        series_order=["Failure", "Success"],
        title="Reflections written",
        x_title="Week",
        y_title="Reflections",
        x_domain=(WEEKS[0], WEEKS[-1]),
    )
    assert_valid_vega_lite(spec)
    assert_readable(spec, "Reflections written", "Week", "Reflections")
    values = spec["data"]["values"]
    assert values[0]["week_end"] == "2026-01-12"
    assert {v["kind"]: v["stack_rank"] for v in values} == {"Failure": 0, "Success": 1}
    assert spec["encoding"]["x2"]["field"] == "week_end"
    assert spec["encoding"]["x"]["scale"]["domainMax"]["date"] == 30  # the last week's end


def lift_intervals(row_extra: dict | None = None, **options) -> dict:
    """An interval chart of one reflection's lift, as the usefulness page draws it."""
    row = {"name": "#1 Reconcile", "lift": 0.1, "low": 0.05, "high": 0.15, **(row_extra or {})}
    return interval_chart(
        [row],
        label="name",
        value="lift",
        low="low",
        high="high",
        title="Lift",
        value_title="Lift (points)",
        label_title="Reflection",
        **options,
    )


def test_an_interval_chart_has_rules_points_and_a_reference():
    spec = lift_intervals()
    assert_valid_vega_lite(spec)
    assert marks(spec) == ["rule", "point", "rule"]
    assert spec["layer"][0]["encoding"]["x2"]["field"] == "high"
    assert spec["layer"][0]["encoding"]["x"]["title"] == "Lift (points)"
    assert spec["description"].startswith("Dot plot of lift (points) with 95 % intervals")


def test_an_interval_charts_points_and_bars_link_to_their_rows_items():
    spec = lift_intervals({"url": "/r/1/"}, href="url")
    assert_valid_vega_lite(spec)
    bar, point = spec["layer"][:2]
    assert bar["encoding"]["href"]["field"] == point["encoding"]["href"]["field"] == "url"
    assert bar["mark"]["cursor"] == point["mark"]["cursor"] == "pointer"


def test_a_heatmap_writes_its_counts_in_the_cells():
    spec = heatmap(
        [{"from": "sales", "to": "finance", "n": 4}, {"from": "sales", "to": "sales", "n": 40}],
        x="to",
        y="from",
        value="n",
        title="Flows",
        x_title="Reflection's department",
        y_title="Retriever's department",
        value_title="Retrievals",
    )
    assert_valid_vega_lite(spec)
    assert marks(spec) == ["rect", "text"]
    assert spec["layer"][0]["encoding"]["x"]["title"] == "Reflection's department"


def test_marker_labels_close_together_take_turns_and_late_ones_read_leftwards():
    spec = line_chart(
        weekly_rows(),
        x="week",
        y="rate",
        series="department",
        title="Weekly task success",
        x_title="Week",
        y_title="Success rate",
        markers=[{"at": WEEKS[i], "label": f"m{i}"} for i in (1, 2, 11)],
    )
    assert_valid_vega_lite(spec)
    texts = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    placed = {
        v["label"]: (t["mark"]["align"], t["mark"]["dy"])
        for t in texts
        for v in t["data"]["values"]
    }
    assert placed["m1"][0] == placed["m2"][0] == "left"
    assert placed["m1"][1] != placed["m2"][1]  # stacked, not overlapping
    assert placed["m11"][0] == "right"


BUILD_UNVALIDATED = """
import json, sys
import django
django.setup()
from insights.charts import line_chart
from insights.projection_chart import projection_chart
from reviews.charts import score_distribution
import datetime as dt
weeks = [dt.date(2026, 1, 5) + dt.timedelta(days=7 * i) for i in range(3)]
line_chart([{"week": w, "rate": 0.5, "d": "sales"} for w in weeks], x="week", y="rate",
           series="d", title="T", x_title="W", y_title="R",
           markers=[{"at": weeks[1], "label": "m"}])
projection_chart(weeks, [0.5, 0.6, 0.7], None)
score_distribution("echo", [0.2, 0.8], 0.5)
print(json.dumps([name for name in ("altair", "jsonschema") if name in sys.modules]))
"""


def test_charts_built_unvalidated_import_neither_altair_nor_jsonschema():
    """Pages build the specs as plain dicts: altair (~26 MiB a web worker kept after its first
    chart page) is imported only to validate them, in tests."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reflexion_site.settings"}
    env.pop("CHARTS_VALIDATE", None)
    out = subprocess.run(  # noqa: S603 (the running interpreter, a fixed probe)
        [sys.executable, "-c", BUILD_UNVALIDATED],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []
