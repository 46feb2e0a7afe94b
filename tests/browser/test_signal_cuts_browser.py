"""The cycle page's score distributions in a real browser: each signal's histogram drawn by
the vendored Vega with its cut as a labelled dashed rule, within the CSP, at the position of
the cut on the score axis."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reflections.services.rollups import refresh_retrieval_rollup
from reviews.services.cycles import open_cycle
from reviews.signals import CUTS, NAMES
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    UserFactory,
)

pytestmark = BROWSER


@pytest.mark.django_db(transaction=True)
def test_each_signals_cut_is_drawn_across_its_score_distribution(page, live_server, tmp_path):
    sales = DepartmentFactory(slug="sales", name="Sales")
    UserFactory(username="ana", roles=["reviewer"], departments=[sales])
    UserFactory(username="mia", roles=["manager"])
    agent = AgentFactory(name="sales-bot", department=sales)
    for n in range(6):
        reflection = ReflectionFactory(agent=agent, title=f"Confirm the payee, take {n}")
        for minute in range(8 - n):
            RetrievalEventFactory(
                reflection=reflection, retrieved_at=datetime(2026, 6, 1, 0, minute, tzinfo=UTC)
            )
    refresh_retrieval_rollup()
    cycle = open_cycle(department=sales, quarter="2026Q3", reviewers=list(sales.members.all()))
    page.set_viewport_size({"width": 1440, "height": 900})

    sign_in(page, live_server, "mia", reverse("reviews:cycle", args=[cycle.pk]) + "?signals=1")

    for name in NAMES:
        box = page.locator(f'.signal-distribution[data-signal="{name}"]')
        figure = box.locator("figure.chart-figure")
        expect(figure).to_have_class("chart-figure chart-ready")
        svg = figure.locator("svg.marks")
        rule = svg.locator(".mark-rule.role-mark line")
        expect(rule).to_have_count(1)
        expect(svg.locator(".mark-text.role-mark text")).to_have_text(f"cut {CUTS[name]:.2f}")
        # The rule stands where the cut is on the score axis (0 at the left, 1 at the right).
        plot = svg.locator(".role-axis").first.bounding_box()
        line = rule.bounding_box()
        where = (line["x"] - plot["x"]) / plot["width"]
        assert abs(where - CUTS[name]) < 0.05, (name, where)
        expect(box).to_contain_text(f"at or above the cut {CUTS[name]:.2f}")
    page.screenshot(path=str(tmp_path / "cycle-signals-1440.png"), full_page=True)
    assert_no_csp_violations(page)
