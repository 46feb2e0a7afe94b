"""In a real browser, what three reports say: the import report lists a rejected file among
the files it read, a round's ratings download as CSV from the round page, and the queue's
reasons write shares as the rest of the product does ("19 %")."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from reflections.models import ImportJob, Reflection
from reflections.services.rollups import refresh_retrieval_rollup
from reviews.services.cycles import open_cycle
from rubric.models import CRITERIA
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    UserFactory,
)
from tests.rubric.rating_pages.conftest import (  # noqa: F401 (fixtures)
    manager,
    raters,
    rating_round,
    reflections,
    rubric,
    sales,
)
from tests.rubric.rating_pages.support import next_of, rate_as

pytestmark = BROWSER

UNDATED = b"---\ntitle: No date\ndepartment: research\n---\n\n## What happened\n\nIt failed.\n"


@pytest.mark.django_db(transaction=True)
def test_a_rejected_file_is_listed_among_the_files_the_import_read(
    page, live_server, settings, tmp_path
):
    settings.IMPORT_UPLOAD_ROOT = tmp_path / "uploads"
    DepartmentFactory(slug="research", name="Research")
    UserFactory(username="ada", roles=["admin"])
    sign_in(page, live_server, "ada", to="/imports/")
    page.set_input_files(
        "#id_files", files=[{"name": "undated.md", "mimeType": "text/markdown", "buffer": UNDATED}]
    )
    page.click("main button[type=submit]")
    job = ImportJob.objects.get()
    page.wait_for_url(f"{live_server.url}/imports/{job.pk}/")

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    expect(page.locator(".import-stage")).to_contain_text("Finished", timeout=10_000)
    expect(page.locator("main")).not_to_contain_text("No reflection file was read")
    expect(page.locator("#files + p")).to_contain_text("1 rejected")
    row = page.locator("table.import-files tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("rejected")
    assert not Reflection.objects.exists()
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_a_manager_downloads_a_rounds_ratings_from_its_page(
    page,
    live_server,
    rating_round,  # noqa: F811
    raters,  # noqa: F811
    manager,  # noqa: F811
):
    rate_as(raters[0], next_of(rating_round, raters[0]))
    sign_in(page, live_server, manager.username, reverse("ratings:round", args=[rating_round.pk]))

    with page.expect_download() as download:
        page.click("#export-ratings")

    assert download.value.suggested_filename.startswith("ratings-round-")
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    assert list(rows[0]) == ["rater", "reflection", "criterion", "level", "rated_at"]
    assert {r["criterion"] for r in rows} == set(CRITERIA)
    assert {r["rater"] for r in rows} == {raters[0].username}
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_the_queues_reasons_write_a_share_with_a_space_before_the_percent_sign(page, live_server):
    ops = DepartmentFactory(slug="ops", name="Ops")
    UserFactory(username="ana", roles=["reviewer"], departments=[ops])
    agent = AgentFactory(name="ops-bot", department=ops)
    reflection = ReflectionFactory(agent=agent, title="Confirm the payee before paying")
    other = AgentFactory(name="ops-helper", department=ops)
    for minute in range(6):
        RetrievalEventFactory(
            reflection=reflection,
            agent=agent if minute % 3 else other,
            retrieved_at=datetime(2026, 6, 1, 0, minute, tzinfo=UTC),
        )
    refresh_retrieval_rollup()
    cycle = open_cycle(department=ops, quarter="2026Q3", reviewers=list(ops.members.all()))

    sign_in(page, live_server, "ana", reverse("reviews:item", args=[cycle.pk, 1]))

    reasons = page.locator("#item-signals li.signal").first
    expect(reasons).to_contain_text("self-retrieval 67 %")
    assert not re.search(r"\d%", page.locator("#item-signals").inner_text())
    assert_no_csp_violations(page)
