"""Charts in a real browser: the projection drawn by the vendored Vega as SVG, under the CSP
(no eval, no inline styles), and a readable message instead of a chart when Vega is missing."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from insights.projection import saturating
from reflections.models import TaskRun
from reflections.services.task_rollup import refresh_task_outcome_days
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import AgentFactory, DepartmentFactory, UserFactory

URL = "/insights/projection/"

pytestmark = BROWSER


@pytest.fixture
def url() -> str:
    wired = reverse("insights:projection:page")
    assert wired == URL
    return wired


@pytest.fixture
def weeks_of_tasks():
    """20 weeks of 40 sales tasks on a curve from 0.5 levelling off at 0.9 (h 3 weeks)."""
    sales = DepartmentFactory(slug="sales", name="Sales")
    agent = AgentFactory(name="sales-agent", department=sales)
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    runs = []
    for week, rate in enumerate(saturating(range(20), 0.9, 0.5, 3)):
        for i in range(40):
            runs.append(
                TaskRun(
                    task_id=f"sales-{week}-{i}", agent=agent, department=sales,
                    task_type="reconciliation", finished_at=start + timedelta(weeks=week, hours=i),
                    outcome="success" if i < round(float(rate) * 40) else "failure",
                )
            )  # fmt: skip
    TaskRun.objects.bulk_create(runs)
    refresh_task_outcome_days()  # what the task import does after writing in bulk


def sign_in_as_manager(page, live_server, to: str) -> None:
    UserFactory(username="mona", roles=["manager"])
    sign_in(page, live_server, "mona", to)


@pytest.mark.django_db(transaction=True)
def test_the_projection_is_drawn_as_svg_within_the_csp(page, live_server, url, weeks_of_tasks):
    sign_in_as_manager(page, live_server, url)
    figure = page.locator("figure[data-chart-figure]")
    expect(figure).to_have_class("chart-figure chart-ready")

    chart = figure.locator(".chart")
    expect(chart.locator("svg.marks")).to_have_count(1)
    expect(chart.locator("svg .mark-symbol.role-mark path")).to_have_count(20)  # one point a week
    # The fitted curve through the weeks, and the same curve ahead (dashed), in its band.
    expect(chart.locator("svg .mark-line.role-mark path")).to_have_count(2)
    expect(chart.locator("svg .mark-area.role-mark path")).to_have_count(1)
    # The last observed week and the asymptote.
    expect(chart.locator("svg .mark-rule.role-mark line")).to_have_count(2)
    expect(chart.locator("svg .role-title-text text")).to_have_text(
        "Weekly task success, all departments"
    )
    expect(chart.locator("svg .role-axis-title text")).to_have_text(
        ["Week (ISO, Monday start, UTC)", "Success rate"]
    )
    # The spec's description is the chart's accessible name.
    expect(chart).to_have_attribute("role", "graphics-document")
    expect(chart).to_have_attribute("aria-label", page.locator("figcaption").inner_text())
    # Readable at 1280 px: the chart fills the figure instead of Vega's 300 px default.
    width = chart.locator("svg.marks").evaluate("svg => svg.getBoundingClientRect().width")
    assert width > 1000
    # Nothing was styled through a <style> element or a style attribute from markup.
    assert page.evaluate("document.querySelectorAll('style').length") == 0
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_without_vega_the_figure_says_so_and_the_table_stays(page, live_server, url,
                                                             weeks_of_tasks):  # fmt: skip
    page.route("**/vendor/vega/vega-embed.min.js", lambda route: route.abort())
    sign_in_as_manager(page, live_server, url)

    message = page.locator("figure[data-chart-figure] .chart-error")
    expect(message).to_have_text(
        "The chart could not be drawn (the chart library did not load). "
        "The table below has the same numbers."
    )
    expect(page.locator("table.projection-weeks tbody tr")).to_have_count(20)
    assert page.evaluate("window.__cspViolations") == []


# --------------------------------------------------------------------------- every insights page

# What a drawn chart leaves in its SVG: lines, bars or cells, points, rules (data marks only:
# axis grids and ticks are rules too, with other roles).
MARKS = ", ".join(
    f"svg .{mark}.role-mark {shape}"
    for mark, shape in (("mark-line", "path"), ("mark-rect", "path"),
                        ("mark-symbol", "path"), ("mark-rule", "line"))
)  # fmt: skip


@pytest.fixture
def small_demo(tmp_path) -> dict:
    """The demo workspace at its small scale (two departments, eight weeks; about a second),
    imported, plus one review cycle whose verdicts deprecated two reflections."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from demo.workspace import write_workspace
    from reflections.models import Department, Reflection
    from reviews.models import ReviewCycle, ReviewItem

    summary = write_workspace(tmp_path, scale="small")
    with open(os.devnull, "w") as quiet:
        call_command("import_reflections", "--create-departments", str(tmp_path), stdout=quiet)
        call_command("import_events", "--create-departments", str(tmp_path / "logs"), stdout=quiet)
    end = datetime.fromisoformat(summary["end"]).replace(tzinfo=UTC)
    department = Department.objects.order_by("slug").first()
    reviewer = get_user_model().objects.create(username="rhea")
    cycle = ReviewCycle.objects.create(
        department=department, quarter="2026Q1", window_start=end - timedelta(weeks=8),
        window_end=end, opened_at=end - timedelta(weeks=4),
    )  # fmt: skip
    lessons = Reflection.objects.filter(department=department).order_by("pk")[:2]
    for rank, lesson in enumerate(lessons, start=1):
        ReviewItem.objects.create(
            cycle=cycle, rank=rank, reflection=lesson, retrievals=3,
            last_retrieved_at=end - timedelta(weeks=4), verdict="outdated",
            decided_at=end - timedelta(weeks=3), decided_by=reviewer,
        )  # fmt: skip
    return summary


@pytest.mark.django_db(transaction=True)
def test_every_insights_page_draws_every_chart_on_the_demo(page, live_server, url, small_demo):
    start, end = small_demo["start"], small_demo["end"]
    pages = {
        f"/insights/?as_of={end}": 1,
        f"/insights/learning/?from={start}&to={end}": 4,  # outcomes, repeat, markers, written
        "/insights/usefulness/": 3,  # by source outcome, lift, flows
        url: 1,
    }
    sign_in_as_manager(page, live_server, url)
    for address, expected in pages.items():
        page.console_messages.clear()
        page.goto(f"{live_server.url}{address}")
        figures = page.locator("figure[data-chart-figure]")
        expect(figures).to_have_count(expected)
        for i in range(expected):
            figure = figures.nth(i)
            expect(figure).to_have_class("chart-figure chart-ready")
            chart = figure.locator(".chart")
            expect(chart.locator("svg.marks")).to_have_count(1)
            assert chart.locator(MARKS).count() > 0, f"{address}: figure {i} has no marks"
            assert chart.locator("svg .role-title-text text").count() == 1
            assert chart.locator("svg .role-axis-title text").count() >= 1
            expect(chart).to_have_attribute("aria-label", figure.locator("figcaption").inner_text())
            # The table with the same numbers follows the figure.
            assert figure.evaluate(
                "f => { const t = [...document.querySelectorAll('table')];"
                " return t.some(x => f.compareDocumentPosition(x) & 4); }"
            )
        assert_no_csp_violations(page)
    # The review's deprecations are numbered on the learning curves' time axis; the caption
    # says what the number stands for.
    page.goto(f"{live_server.url}/insights/learning/?from={start}&to={end}")
    learning = page.locator('figure[data-spec="chart-learning"] .chart')
    expect(learning.locator("svg .mark-rule.role-mark line")).to_have_count(1)
    expect(learning.locator("svg .mark-text.role-mark text")).to_have_text(["1"])
    expect(page.locator('figure[data-spec="chart-learning"] figcaption')).to_contain_text(
        re.compile(r"numbered: 1 = \d{4}-\d{2}-\d{2}: .*2026Q1: 2 deprecated")
    )


@pytest.mark.django_db(transaction=True)
def test_the_lift_chart_shows_its_points_on_a_phone_beside_short_labels(
    page, live_server, small_demo
):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_as_manager(page, live_server, "/insights/usefulness/")
    lift = page.locator('figure[data-spec="chart-lift"]')
    expect(lift).to_have_class("chart-figure chart-ready")
    shape = lift.evaluate(
        """f => {
          const box = f.querySelector('.chart').getBoundingClientRect();
          const points = [...f.querySelectorAll('svg .mark-symbol.role-mark path')]
            .map(p => p.getBoundingClientRect());
          const titles = [...f.querySelectorAll('svg .role-axis-label text')]
            .filter(t => t.textContent.startsWith('#')).map(t => t.getBoundingClientRect());
          const labels = Math.max(...titles.map(t => t.right))
            - Math.min(...titles.map(t => t.left));
          return {left: box.left, right: box.right, width: box.width, labels,
                  points: points.map(p => [p.left, p.right, p.width])};
        }"""
    )
    assert shape["points"], "the lift chart drew no points"
    for left, right, width in shape["points"]:
        assert width > 0 and shape["left"] <= left and right <= shape["right"] + 0.5
    # The reflections' titles leave the plot most of the width: at most 40 % for the labels.
    assert shape["labels"] <= 0.4 * shape["width"]
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_clicking_a_point_of_the_lift_chart_opens_its_reflection(page, live_server, small_demo):
    sign_in_as_manager(page, live_server, "/insights/usefulness/")
    lift = page.locator('figure[data-spec="chart-lift"]')
    expect(lift).to_have_class("chart-figure chart-ready")
    first_row = page.locator("table.lift tbody tr").first.locator("a").first.get_attribute("href")

    lift.locator("svg .mark-symbol.role-mark path").first.click()

    page.wait_for_url(re.compile(r"/reflections/\d+/$"))
    assert page.url.endswith(first_row)
    assert_no_csp_violations(page)
