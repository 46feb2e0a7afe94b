"""One format per kind of number, in every template: shares as "85.5 %", lifts as signed
points, κ with two decimals, confidences as whole percentages, dates as ISO."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.template import engines

from reflexion_site.templatetags.formats import confidence, isodate, kappa, lift_points, percent


@pytest.mark.parametrize(
    ("value", "shown"),
    [(0.855, "85.5 %"), (0.71, "71.0 %"), (1, "100.0 %"), (0, "0.0 %"), (None, "—"), ("", "—")],
)
def test_a_share_is_a_percentage_with_one_decimal(value, shown):
    assert percent(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (-0.201, "\N{MINUS SIGN}20.1 pts"),
        (-0.2, "\N{MINUS SIGN}20.0 pts"),
        (0.032, "+3.2 pts"),
        (0.0, "±0.0 pts"),
        (-0.0004, "±0.0 pts"),  # rounds to nothing: no sign
        (None, "—"),
    ],
)
def test_a_lift_is_signed_percentage_points(value, shown):
    assert lift_points(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"), [(0.8712, "0.87"), (-0.125, "-0.12"), (1, "1.00"), (None, "—")]
)
def test_a_kappa_has_two_decimals(value, shown):
    assert kappa(value) == shown


@pytest.mark.parametrize(("value", "shown"), [(0.62, "62 %"), (0.655, "66 %"), (None, "—")])
def test_a_confidence_is_a_whole_percentage(value, shown):
    assert confidence(value) == shown


def test_a_date_and_a_datetime_are_iso():
    assert isodate(date(2026, 3, 9)) == "2026-03-09"
    assert isodate(datetime(2026, 11, 29, 23, 59, tzinfo=UTC)) == "2026-11-29"
    assert isodate(None) == ""


def test_every_template_has_the_filters_without_loading_them():
    template = engines["django"].from_string(
        "{{ s|percent }} {{ l|lift_points }} {{ k|kappa }} {{ c|confidence }} {{ d|isodate }}"
    )
    shown = template.render({"s": 0.5, "l": -0.1, "k": 0.5, "c": 0.5, "d": date(2026, 1, 2)})
    assert shown == "50.0 % \N{MINUS SIGN}10.0 pts 0.50 50 % 2026-01-02"


def test_no_page_formats_a_share_or_a_date_its_own_way():
    """The filters are the only way: no widthratio percentages, no Y-m-d by hand, no browser
    date inputs (they show the locale's mm/dd/yyyy)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "templates"
    for path in root.rglob("*.html"):
        text = path.read_text()
        assert "widthratio" not in text or "as conf" not in text, path
        assert '|date:"Y-m-d"' not in text and "|date:'Y-m-d'" not in text, path
        assert 'type="date"' not in text, path


def test_the_rating_date_filters_are_iso_text_inputs():
    from rubric.forms.dates import RatedBetweenForm

    html = str(RatedBetweenForm(initial={"since": date(2026, 3, 9)})["since"])
    assert 'type="text"' in html and 'placeholder="YYYY-MM-DD"' in html
    assert 'value="2026-03-09"' in html
