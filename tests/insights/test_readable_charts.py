"""The overview chart is readable: a rate axis fits the data (zero not forced), the lines take
clearly different colours, the legend is legible and picks a line out, and review markers
are numbers that do not run into each other, with what they mark in the tooltip and caption."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from insights import palette
from insights.chart_parts import fitted_domain, marker_key
from insights.charts import line_chart

MONDAY = dt.date(2026, 1, 5)
WEEKS = [MONDAY + dt.timedelta(days=7 * i) for i in range(26)]
DEPARTMENTS = [
    "Content", "Delivery", "Finance", "Lead Generation",
    "Organization", "Sales", "Setting", "Voice Channel",
]  # fmt: skip


def overview_like() -> dict:
    """Eight departments' weekly success between 70 and 100 %, as the demo's overview."""
    rows = [
        {"week": week, "department": name, "success": 0.7 + ((i * 7 + d * 3) % 30) / 100}
        for i, week in enumerate(WEEKS)
        for d, name in enumerate(DEPARTMENTS)
    ]
    return line_chart(
        rows,
        x="week",
        y="success",
        series="department",
        series_order=DEPARTMENTS,
        title="Weekly task success per department",
        x_title="Week",
        y_title="Success rate",
        points=False,
    )


def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB hex colour."""

    def linear(c: float) -> float:
        return ((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92

    r, g, b = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: str, b: str) -> float:
    """ΔE (CIE76): about 2 is just noticeable, 25 and more reads as another colour."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def test_the_rate_axis_fits_the_data_instead_of_running_from_zero():
    y = overview_like()["layer"][0]["encoding"]["y"]
    assert y["scale"] == {"domain": [0.7, 1.0], "zero": False}
    assert y["axis"]["format"] == ".0%"


@pytest.mark.parametrize(
    ("values", "domain"),
    [
        ([0.71, 0.99], [0.7, 1.0]),
        ([0.72, 0.86], [0.7, 0.9]),
        ([0.05, 0.13], [0.05, 0.15]),
        ([0.0, 1.0], [0.0, 1.0]),
        ([0.8, 0.8], [0.75, 0.85]),  # one value: a step either side
        ([1.0], [0.95, 1.0]),
        ([None], None),
    ],
)
def test_a_fitted_domain_rounds_outwards_to_five_percent_within_zero_and_one(values, domain):
    assert fitted_domain(values) == domain


def test_a_given_domain_is_kept():
    spec = line_chart(
        [{"week": w, "rate": 0.8} for w in WEEKS],
        x="week", y="rate", title="T", x_title="Week", y_title="Rate", y_domain=(0, 1),
    )  # fmt: skip
    assert spec["layer"][0]["encoding"]["y"]["scale"]["domain"] == [0, 1]


def test_eight_departments_take_eight_clearly_different_colours():
    colours = palette.colors_for(DEPARTMENTS, DEPARTMENTS)
    assert len(set(colours.values())) == 8
    for a, b in itertools.combinations(colours.values(), 2):
        assert distance(a, b) >= 30, f"{a} and {b} are too alike"
    meaning = (palette.FAILURE, palette.PARTIAL, palette.SUCCESS, palette.DECISION)
    for colour in colours.values():
        assert min(distance(colour, o) for o in meaning) >= 22, colour
        assert lab(colour)[0] <= 70, f"{colour} is too light for a line on white"


def test_the_legend_is_legible_and_picks_a_line_out():
    spec = overview_like()
    legend = spec["layer"][0]["encoding"]["color"]["legend"]
    assert legend["labelFontSize"] >= 12 and legend["symbolStrokeWidth"] >= 3
    assert legend["symbolType"] == "stroke" and legend["orient"] == "bottom"
    (param,) = spec["params"] if "params" in spec else spec["layer"][0]["params"]
    assert param["bind"] == "legend" and param["select"]["fields"] == ["department"]
    opacity = spec["layer"][0]["encoding"]["opacity"]
    assert opacity["condition"]["param"] == param["name"]


def test_review_markers_are_numbers_with_their_meaning_in_the_tooltip_and_caption():
    markers = [
        {"at": WEEKS[i], "label": f"review {i}: {i} deprecated"} for i in (20, 21, 22, 23, 2)
    ]
    spec = line_chart(
        [{"week": w, "rate": 0.8} for w in WEEKS],
        x="week", y="rate", title="T", x_title="Week", y_title="Rate", markers=markers,
    )  # fmt: skip
    texts = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    shown = {
        v["key"]: (t["mark"]["align"], t["mark"]["dy"]) for t in texts for v in t["data"]["values"]
    }
    assert sorted(shown) == ["1", "2", "3", "4", "5"]  # in date order
    # Three markers in three consecutive weeks sit in three different rows.
    assert len({shown[k][1] for k in ("2", "3", "4")}) == 3
    assert all(t["encoding"]["text"]["field"] == "key" for t in texts)
    assert marker_key(markers).startswith("1 = 2026-01-19: review 2: 2 deprecated; 2 = ")
