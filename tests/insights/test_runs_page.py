"""The Reflexion runs page: every run's share of problems solved and its repetition rate, two
runs side by side by trial, the same numbers as CSV; managers and admins only."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from django.urls import reverse

from reflections.services.reflexion_run_import import import_reflexion_run, read_run
from tests.factories import UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "reflexion_runs"
# Real runs of the reference implementation, shipped as samples.
SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "samples" / "reflexion-runs"
URL = "/insights/runs/"


@pytest.fixture
def imported():
    for path in [*sorted((RUNS / "shapes").glob("*.jsonl")), SAMPLE_RUNS / "reflexion_run_logs"]:
        run, digest = read_run(path)
        import_reflexion_run(run, digest)


@pytest.fixture
def manager():
    return UserFactory(roles=["manager"])


def test_the_page_is_wired_and_for_managers(imported, manager):
    assert reverse("insights:runs") == URL
    assert client_for(UserFactory(roles=["reviewer"])).get(URL).status_code == 403
    assert client_for(manager).get(URL).status_code == 200


def test_every_run_shows_the_share_of_problems_it_solved(imported, manager):
    page = soup_of(client_for(manager).get(URL))
    rows = {tr["data-run"]: tr for tr in page.select("table.run-table tbody tr")}
    solved = rows["humaneval-rs-mini-reflexion-5-gpt-4-pass-at-k-1-rs"].select_one(".run-solved")
    assert solved.get_text(strip=True) == "2 of 3 (66.7 %)"
    assert (
        rows["reflexion-run-logs"].select_one(".run-solved").get_text(strip=True)
        == "11 of 12 (91.7 %)"
    )
    baseline = rows["humaneval-rs-mini-simple-1-gpt-4-pass-at-k-1-rs"]
    assert "baseline" in baseline.get_text(" ", strip=True)


def test_a_reflexion_run_is_compared_with_its_baseline_by_default(imported, manager):
    page = soup_of(client_for(manager).get(URL))
    trials = [
        [td.get_text(strip=True) for td in tr.select("th, td")]
        for tr in page.select("table.run-trials tbody tr")
    ]
    assert [t[:2] for t in trials] == [
        ["humaneval-rs-mini._reflexion_5_gpt-4_pass_at_k_1_rs.jsonl", str(n)] for n in range(4)
    ] + [["humaneval-rs-mini._simple_1_gpt-4_pass_at_k_1_rs.jsonl", "0"]]
    assert trials[1][-2:] == ["2 of 3", "66.7 %"]  # the same share as the summary's
    assert len(page.select("figure.chart-figure")) == 2


def test_two_chosen_runs_come_as_csv(imported, manager):
    response = client_for(manager).get(URL, {"a": "reflexion-run-logs", "b": "", "format": "csv"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["solved_by_then"] for r in rows] == ["9", "10", "11"]
    assert {r["run"] for r in rows} == {"reflexion_run_logs"}


def test_an_unknown_run_is_not_found(imported, manager):
    assert client_for(manager).get(URL, {"a": "nowhere"}).status_code == 404


def test_with_no_run_the_page_says_how_to_import_one(manager):
    page = soup_of(client_for(manager).get(URL))
    assert "import_reflexion_run PATH" in page.select_one(".empty").get_text(" ", strip=True)


def test_the_reference_implementations_alfworld_base_run_is_the_baseline_shown_beside_it(
    manager, tmp_path
):
    """Its base run writes reflections too; its name says what it is."""
    base = tmp_path / "base_run_logs"
    shutil.copytree(SAMPLE_RUNS / "reflexion_run_logs", base)
    for path in (SAMPLE_RUNS / "reflexion_run_logs", base):
        import_reflexion_run(*read_run(path))
    page = soup_of(client_for(manager).get(URL))
    rows = {tr["data-run"]: tr for tr in page.select("table.run-table tbody tr")}
    assert "baseline" in rows["base-run-logs"].get_text(" ", strip=True)
    assert "baseline" not in rows["reflexion-run-logs"].get_text(" ", strip=True)
    shown = [td.get_text(strip=True) for td in page.select("table.run-trials tbody th")]
    assert set(shown) == {"reflexion_run_logs", "base_run_logs"}
