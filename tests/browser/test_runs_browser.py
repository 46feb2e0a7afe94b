"""Two Reflexion runs side by side in a real browser: both lines drawn by the vendored Vega
under the CSP, the chosen runs kept in the address, the table beneath."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from reflections.services.reflexion_run_import import import_reflexion_run, read_run
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import UserFactory

pytestmark = BROWSER
RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "reflexion_runs"


@pytest.mark.django_db(transaction=True)
def test_a_run_and_its_baseline_are_drawn_side_by_side(page, live_server, tmp_path):
    UserFactory(username="mia", roles=["manager"])
    for path in sorted((RUNS / "shapes").glob("*.jsonl")):
        run, digest = read_run(path)
        import_reflexion_run(run, digest)

    sign_in(page, live_server, "mia", "/insights/runs/")

    figure = page.locator('figure[data-spec="chart-runs-cumulative"]')
    expect(figure).to_have_class("chart-figure chart-ready")
    legend = figure.locator("svg .role-legend-label text")
    expect(legend).to_have_text(
        ["humaneval-rs-mini reflexion gpt-4", "humaneval-rs-mini simple gpt-4"]
    )
    # One point a trial: four for the Reflexion run, one for its baseline.
    expect(figure.locator("svg .mark-symbol.role-mark path")).to_have_count(5)

    page.select_option("#r-b", "")
    page.click("text=Compare")
    page.wait_for_url("**/insights/runs/?a=*&b=")
    expect(page.locator("table.run-trials tbody tr")).to_have_count(4)
    page.screenshot(path=str(tmp_path / "runs-1440.png"), full_page=True)
    assert_no_csp_violations(page)
