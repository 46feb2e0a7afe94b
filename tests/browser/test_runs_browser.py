"""Two Reflexion runs side by side in a real browser: both lines drawn by the vendored Vega
under the CSP, the chosen runs kept in the address, the table beneath."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
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


@pytest.mark.django_db(transaction=True)
def test_a_long_run_name_wraps_so_every_column_of_the_runs_table_is_in_sight(page, live_server):
    UserFactory(username="mia", roles=["manager"])
    long_name = "leetcode-hard-py-40-uncontaminated._reflexion_5_gpt-4_pass_at_k_1_py.jsonl"
    samples = Path(__file__).resolve().parents[2] / "samples" / "reflexion-runs"
    import_reflexion_run(*read_run(samples / "programming" / long_name))
    import_reflexion_run(*read_run(samples / "reflexion_run_logs"))
    call_command("compute_neighbours", verbosity=0)  # the repetition column, as on the demo
    page.set_viewport_size({"width": 1440, "height": 900})

    sign_in(page, live_server, "mia", "/insights/runs/")

    table = page.locator("table.run-table")
    expect(table.locator("tbody th").last).to_contain_text("leetcode-hard")
    fits = table.evaluate("t => t.offsetWidth <= t.parentElement.clientWidth")
    assert fits, "the runs table scrolls sideways inside its box at 1440 px"
    labels = page.locator('figure[data-spec="chart-runs-cumulative"] svg .role-axis-label text')
    expect(labels.first).to_be_visible()
    assert "rotate" not in (labels.first.get_attribute("transform") or "")
