"""The managers' overview chart in a real browser: eight department lines in eight different
colours on an axis that fits their 70 to 100 %, a legend that names them and picks one out,
drawn within the CSP; the as-of field shows its date as ISO text, not mm/dd/yyyy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from reflections.models import TaskRun
from reflections.services.task_rollup import refresh_task_outcome_days
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import AgentFactory, DepartmentFactory, UserFactory

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]

NAMES = ["Content", "Delivery", "Finance", "Leads", "Ops", "Sales", "Setting", "Voice"]
START = datetime(2026, 1, 5, 9, tzinfo=UTC)
AS_OF = "2026-02-15"


@pytest.fixture
def eight_departments():
    """Six weeks of 20 tasks for each of eight departments, 70 to 95 % of them successes."""
    runs = []
    for d, name in enumerate(NAMES):
        department = DepartmentFactory(slug=name.lower(), name=name)
        agent = AgentFactory(name=f"{name.lower()}-agent", department=department)
        for week in range(6):
            successes = 14 + (d + week) % 6
            for i in range(20):
                runs.append(
                    TaskRun(
                        task_id=f"{name}-{week}-{i}", agent=agent, department=department,
                        task_type="t", finished_at=START + timedelta(weeks=week, hours=i),
                        outcome="success" if i < successes else "failure",
                    )
                )  # fmt: skip
    TaskRun.objects.bulk_create(runs)
    refresh_task_outcome_days()


def test_the_overview_chart_fits_its_axis_and_tells_its_lines_apart(
    page, live_server, eight_departments
):
    UserFactory(username="mona", roles=["manager"])
    sign_in(page, live_server, "mona", f"/insights/?as_of={AS_OF}")
    figure = page.locator("figure[data-chart-figure]").first
    expect(figure).to_have_class("chart-figure chart-ready")
    chart = figure.locator(".chart")

    lines = chart.locator("svg .mark-line.role-mark path")
    expect(lines).to_have_count(len(NAMES))
    strokes = {lines.nth(i).get_attribute("stroke") for i in range(len(NAMES))}
    assert len(strokes) == len(NAMES)  # no two departments share a colour

    # The y axis fits the data (70 to 95 %): it does not start at 0 %.
    y_labels = chart.locator('svg g[aria-label^="Y-axis"] .role-axis-label text')
    labels = y_labels.all_text_contents()
    assert labels and labels[0] != "0%" and all(float(t.rstrip("%")) >= 70 for t in labels)

    # A legible legend with every department; a click on one brings its line forward.
    legend = chart.locator("svg .role-legend-label text")
    expect(legend).to_have_text(NAMES)
    assert float(legend.first.get_attribute("font-size").rstrip("px")) >= 12
    legend.nth(2).click()
    faded = chart.locator('svg .mark-line.role-mark path[opacity="0.15"]')
    expect(faded).to_have_count(len(NAMES) - 1)
    assert_no_csp_violations(page)

    as_of = page.locator("#o-as-of")
    expect(as_of).to_have_attribute("type", "text")
    expect(as_of).to_have_value(AS_OF)
