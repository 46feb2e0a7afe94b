"""Real, whole runs of the reference Reflexion implementation (its published HumanEval-Rust and
ALFWorld logs, tests/fixtures/reflexion_runs/real/) imported as a user would, and what the runs
page shows of them: the paper's Table 1 and Figure 3 figures and the repetition real agents
produce, against what two independent readers marked in the same run."""

from __future__ import annotations

import gzip
import json
import tarfile
from pathlib import Path

import pytest
from django.core.management import call_command

from reflections.services.reflexion_run_import import import_reflexion_run, read_run
from tests.factories import UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "reflexion_runs" / "real"
CORPORA = Path(__file__).resolve().parents[2] / "corpora"
REFLEXION = "humaneval-rs-reflexion-5-gpt-4-pass-at-k-1-rs"
BASELINE = "humaneval-rs-simple-1-gpt-4-pass-at-k-1-rs"


@pytest.fixture
def rows(tmp_path):
    for packed in sorted(REAL.glob("*.jsonl.gz")):
        path = tmp_path / packed.name.removesuffix(".gz")
        path.write_bytes(gzip.decompress(packed.read_bytes()))
        summary = import_reflexion_run(*read_run(path))
        assert not summary.rejected
    call_command("compute_neighbours", verbosity=0)
    page = soup_of(client_for(UserFactory(roles=["manager"])).get("/insights/runs/"))
    return {tr["data-run"]: tr for tr in page.select("table.run-table tbody tr")}


def solved(row) -> str:
    return row.select_one(".run-solved").get_text(strip=True)


def test_the_papers_rust_figures_show_reflexion_068_against_its_baseline_060(rows):
    assert solved(rows[REFLEXION]) == "34 of 50 (68.0 %)"
    assert solved(rows[BASELINE]) == "30 of 50 (60.0 %)"


def marked_by_readers(folder: Path) -> set[tuple[str, int]]:
    """The later reflections every reader put in a group with an earlier one of its problem
    (corpora/real-runs: two readers labelled this run's duplicates independently)."""
    marked = []
    for labels in sorted(folder.glob("labels-*.json")):
        groups = json.loads(labels.read_text(encoding="utf-8"))["problems"]
        marked.append({(t, n) for t, gs in groups.items() for g in gs for n in sorted(g)[1:]})
    return set.intersection(*marked)


def test_the_repetition_rate_is_near_what_two_independent_readers_marked(rows):
    cells = [td.get_text(" ", strip=True) for td in rows[REFLEXION].select("td")]
    repetition = next(c for c in cells if c.endswith("of 63)"))
    restating = int(repetition.split("(")[1].split(" of ")[0])
    readers = len(marked_by_readers(CORPORA / "real-runs" / "humaneval-rs-gpt4"))
    assert readers == 25  # of the 63 later reflections
    assert abs(restating - readers) <= 6, repetition  # within 0.1 of the readers' rate


@pytest.fixture
def alfworld(tmp_path):
    with tarfile.open(REAL / "alfworld.tar.gz") as archive:
        archive.extractall(tmp_path, filter="data")
    for folder in ("reflexion_run_logs", "base_run_logs"):
        assert not import_reflexion_run(*read_run(tmp_path / folder)).rejected
    page = soup_of(client_for(UserFactory(roles=["manager"])).get("/insights/runs/"))
    return {
        (tr.select_one("th").get_text(strip=True), tr.select("td")[0].get_text(strip=True)):
            tr.select("td")[-2].get_text(strip=True)
        for tr in page.select("table.run-trials tbody tr")
    }  # fmt: skip


def test_the_papers_alfworld_figure_shows_reflexion_reaching_134_and_the_baseline_101(alfworld):
    reflexion, base = "reflexion_run_logs", "base_run_logs"
    assert alfworld[reflexion, "0"] == "84 of 134"
    assert alfworld[reflexion, "10"] == "130 of 134"
    assert alfworld[reflexion, "14"] == "134 of 134"
    assert [alfworld[base, str(t)] for t in range(6)] == [
        f"{n} of 134" for n in (84, 94, 97, 98, 100, 101)
    ]
