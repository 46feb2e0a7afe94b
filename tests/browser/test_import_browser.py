"""The web import in a real browser: an admin uploads a zip of a workspace, watches the
progress bar while the job waits for the worker, and reads the report when the worker is done;
a rejected file is listed among the files the import read."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from reflections.models import ImportJob, Reflection
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.conftest import SAMPLES
from tests.factories import DepartmentFactory, UserFactory

pytestmark = BROWSER


def workspace_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(SAMPLES.rglob("*")):
            if path.is_file():
                archive.write(path, f"ws/{path.relative_to(SAMPLES).as_posix()}")
    return buffer.getvalue()


UNDATED = b"---\ntitle: No date\ndepartment: research\n---\n\n## What happened\n\nIt failed.\n"


@pytest.fixture
def import_page(page, live_server, settings, tmp_path):
    """An admin on the import page, uploads kept in the test's own directory."""
    settings.IMPORT_UPLOAD_ROOT = tmp_path / "uploads"
    DepartmentFactory(slug="research", name="Research")
    UserFactory(username="ada", roles=["admin"])
    sign_in(page, live_server, "ada", to="/imports/")
    return page


def submitted(page, live_server) -> ImportJob:
    page.click("main button[type=submit]")
    job = ImportJob.objects.get()
    page.wait_for_url(f"{live_server.url}/imports/{job.pk}/")
    return job


def upload_workspace(page, live_server) -> ImportJob:
    """The sample workspace as a zip, into research (created if need be), submitted."""
    page.set_input_files(
        "#id_files",
        files=[{"name": "workspace.zip", "mimeType": "application/zip", "buffer": workspace_zip()}],
    )
    page.select_option("#id_default_department", "research")
    page.check("#id_create_departments")
    return submitted(page, live_server)


@pytest.mark.django_db(transaction=True)
def test_an_admin_uploads_a_workspace_zip_and_follows_the_progress_bar_to_the_report(
    import_page, live_server
):
    page = import_page
    job = upload_workspace(page, live_server)
    bar = page.locator("#job-progress progress.import-bar")
    expect(bar).to_be_visible()
    expect(page.locator(".import-stage")).to_contain_text("Waiting for a worker")

    # The worker runs the job; the page's next poll swaps the bar for the report.
    with page.expect_response(lambda r: f"/imports/{job.pk}/" in r.url) as poll:
        call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)
    assert poll.value.request.headers.get("hx-request") == "true"
    expect(page.locator(".import-stage")).to_contain_text("Finished", timeout=10_000)
    expect(page.locator("#job-progress progress.import-done")).to_have_attribute("value", "100")
    assert Reflection.objects.exclude(format="reflexion_run").count() == 11  # and the runs

    totals = page.locator(".import-totals").inner_text()
    assert "Created\t11" in totals or "Created 11" in totals.replace("\t", " ")
    warnings = page.locator("table.import-problems").last
    expect(warnings).to_contain_text("extra section '## Notes (reviewer)'")
    files = page.locator("table.import-files tbody tr")
    expect(files).to_have_count(11)
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_a_rejected_file_is_listed_among_the_files_the_import_read(import_page, live_server):
    page = import_page
    page.set_input_files(
        "#id_files", files=[{"name": "undated.md", "mimeType": "text/markdown", "buffer": UNDATED}]
    )
    submitted(page, live_server)

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    expect(page.locator(".import-stage")).to_contain_text("Finished", timeout=10_000)
    expect(page.locator("main")).not_to_contain_text("No reflection file was read")
    expect(page.locator("#files + p")).to_contain_text("1 rejected")
    row = page.locator("table.import-files tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("rejected")
    assert not Reflection.objects.exists()
    assert_no_csp_violations(page)
