"""The web import: admins only, CSRF-guarded; the upload becomes a queued job whose page polls a
progress bar; the worker runs the same imports as the commands; the report lists every file,
rejection (file, line, field) and warning, with secrets masked."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from reflections.models import (
    ImportJob,
    Neighbour,
    Reflection,
    ReflectionVector,
    ReflexionRun,
    TaskRun,
)
from reflections.services.neighbours import refresh_neighbours
from reflections.tasks import run_import_job
from tests.conftest import SAMPLES
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.pages import soup_of

pytestmark = pytest.mark.django_db

SECRET = "AKIAZ7Q3XK5R2M4W6N8P"


@pytest.fixture(autouse=True)
def _uploads(settings, tmp_path):
    settings.IMPORT_UPLOAD_ROOT = tmp_path / "uploads"


def client_for(*roles: str, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(UserFactory(roles=list(roles)))
    return client


def zipped(root: Path, *, prefix: str = "ws") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(root.rglob("*")):
            if path.is_file():
                archive.write(path, f"{prefix}/{path.relative_to(root).as_posix()}")
    return SimpleUploadedFile("workspace.zip", buffer.getvalue(), "application/zip")


def upload(client: Client, *files, **fields):
    data = {"files": list(files), "default_department": "research", **fields}
    return client.post("/imports/", data)


def run_worker(job_id: int) -> ImportJob:
    run_import_job.call(job_id)
    return ImportJob.objects.get(pk=job_id)


@pytest.fixture
def research():
    return DepartmentFactory(slug="research", name="Research")


def test_only_admins_may_import():
    assert client_for("reviewer", "manager", "rater").get("/imports/").status_code == 403
    assert client_for("manager").post("/imports/", {}).status_code == 403
    assert Client().get("/imports/").status_code == 302
    assert client_for("admin").get("/imports/").status_code == 200


def test_an_upload_without_the_csrf_token_is_refused(research):
    client = client_for("admin", csrf=True)
    response = client.post("/imports/", {"files": [SimpleUploadedFile("a.md", b"x")]})
    assert response.status_code == 403
    assert not ImportJob.objects.exists()


def test_an_upload_declaring_more_than_the_request_limit_is_refused_unread(research):
    # Refused before the CSRF check reads (and spools) the body: 413, not 403.
    response = client_for("admin", csrf=True).generic(
        "POST", "/imports/", b"", content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(2 * 1024**3),
    )  # fmt: skip
    assert response.status_code == 413
    assert "larger than 1,024 MB" in response.content.decode()
    assert not ImportJob.objects.exists()


def test_a_file_type_that_cannot_be_imported_is_named_in_the_form(research):
    response = upload(client_for("admin"), SimpleUploadedFile("notes.exe", b"MZ"))
    assert response.status_code == 422
    assert "notes.exe: a .exe cannot be imported" in soup_of(response).get_text()
    assert not ImportJob.objects.exists()


def test_a_workspace_zip_is_queued_then_imported_with_the_commands_rules(research, tmp_path):
    client = client_for("admin")
    response = upload(client, zipped(SAMPLES), create_departments="on")
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/imports/{job.pk}/"

    # Before a worker picks it up: the page polls a progress bar.
    page = soup_of(client.get(f"/imports/{job.pk}/"))
    section = page.select_one("#job-progress")
    assert section["hx-get"] == f"/imports/{job.pk}/" and section["hx-trigger"] == "every 1s"
    assert page.select_one("progress.import-bar") is not None

    job = run_worker(job.pk)
    assert job.status == ImportJob.Status.DONE and job.done == job.total > 0
    # The samples' 11 reflection files, and their two Reflexion runs (146 and 6 reflections).
    assert Reflection.objects.exclude(format="reflexion_run").count() == 11
    assert sorted(run["label"] for run in job.report["runs"]) == [
        "leetcode-hard-py-40-uncontaminated._reflexion_5_gpt-4_pass_at_k_1_py.jsonl",
        "reflexion_run_logs",
    ]
    assert TaskRun.objects.filter(task_id="2026-03-15-researcher-advisory-feed").exists()
    assert job.report["logs"]["tasks"]["created"] == 6  # 3 from tasks.jsonl, 3 from the pool
    assert not (tmp_path / "uploads" / f"job-{job.pk}").exists()
    # What arrived has its vectors and duplicate candidates before anyone opens a cycle.
    assert job.report["neighbours"] == sorted(
        Reflection.objects.values_list("department__slug", flat=True).distinct()
    )
    shown = soup_of(client.get(f"/imports/{job.pk}/")).select_one(".import-neighbours")
    assert shown.get_text(strip=True).startswith("Duplicate candidates recomputed for")
    assert job.report["neighbours_refit"] and "refitted" in shown.get_text()  # a first fit
    assert (
        ReflectionVector.objects.count() == Reflection.objects.exclude(state="quarantined").count()
    )

    # The htmx poll now gets the report, without the polling attributes.
    fragment = client.get(f"/imports/{job.pk}/", headers={"HX-Request": "true"})
    part = soup_of(fragment)
    assert "hx-get" not in part.select_one("#job-progress").attrs
    assert part.find("html") is None
    text = part.get_text(" ", strip=True)
    assert (
        "memory/reflections/researcher-agent/2026-03-18-citation-dedupe-skipped-preprints.md"
        in text
    )
    warning = part.select("table.import-problems")[-1].get_text(" ", strip=True)
    assert "extra section '## Notes (reviewer)'" in warning and " 15 " in f" {warning} "


def test_importing_the_same_zip_again_changes_nothing(research):
    client = client_for("admin")
    upload(client, zipped(SAMPLES), create_departments="on")
    run_worker(ImportJob.objects.get().pk)
    upload(client, zipped(SAMPLES), create_departments="on")
    again = run_worker(ImportJob.objects.order_by("-pk").first().pk)
    assert again.report["reflections"]["created"] == 0
    assert again.report["reflections"]["unchanged"] == 11
    assert set(again.report["reflections"]["files"].values()) == {"unchanged"}
    assert again.report["logs"]["tasks"]["created"] == 0
    assert again.report["neighbours"] == []  # nothing changed: nothing recomputed


def test_a_few_new_lessons_are_folded_in_and_only_their_department_recomputed(research):
    """The similarity model's stored fit takes a few new texts (reflections.services.vectors):
    the job recomputes the duplicate candidates of the department they joined, no other."""
    for department in (research, DepartmentFactory(slug="sales")):
        agent = AgentFactory(name=f"{department.slug}-bot", department=department)
        for n in range(20):
            body = f"Lesson {n}: check source {n} before citing it in the {department.slug} brief."
            ReflectionFactory(agent=agent, sections=[{"heading": "Lesson", "body": body}])
    refresh_neighbours()
    sales = Neighbour.objects.filter(reflection__department__slug="sales")
    sales_rows = set(sales.values_list("pk", "computed_at"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "memory/reflections/research-bot/2026-11-20-check-the-preprint.md",
            "# Procedure: 2026-11-20 - research-bot - Check the preprint\n\n## Strategy\n"
            "I compared the preprint with the published version before citing it.\n\n"
            "## Why it worked\nThe published version had corrected the figure.\n",
        )

    upload(client_for("admin"), SimpleUploadedFile("one.zip", buffer.getvalue()))
    job = run_worker(ImportJob.objects.get().pk)

    assert job.report["reflections"]["created"] == 1
    assert (job.report["neighbours"], job.report["neighbours_refit"]) == (["research"], False)
    assert set(sales.values_list("pk", "computed_at")) == sales_rows
    new = Reflection.objects.get(source_path__endswith="check-the-preprint.md")
    assert ReflectionVector.objects.filter(reflection=new).exists()


def test_a_bad_line_is_reported_with_file_line_and_field(research, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES, ws)
    tasks = ws / "logs" / "tasks.jsonl"
    bad = json.loads(tasks.read_text().splitlines()[0]) | {"task_id": "x-1", "outcome": "meh"}
    tasks.write_text(tasks.read_text() + json.dumps(bad) + "\n")
    client = client_for("admin")
    upload(client, zipped(ws), create_departments="on")
    job = run_worker(ImportJob.objects.get().pk)

    page = soup_of(client.get(f"/imports/{job.pk}/"))
    [row] = page.select("table.import-problems")[0].select("tbody tr")
    cells = [td.get_text(strip=True) for td in row.select("td")]
    assert cells[:3] == ["workspace.zip/ws/logs/tasks.jsonl", "4", "outcome"]
    assert "unknown outcome 'meh'" in cells[3]


def test_a_department_nobody_created_is_refused_and_the_report_names_the_checkbox(research):
    client = client_for("admin")
    upload(client, zipped(SAMPLES))  # the samples name departments besides research
    job = run_worker(ImportJob.objects.get().pk)

    page = soup_of(client.get(f"/imports/{job.pk}/"))
    rows = page.select("table.import-problems tbody tr")
    unknown = [r.get_text(" ", strip=True) for r in rows if "no department" in r.get_text()]
    assert unknown
    assert all("the import page's checkbox" in reason for reason in unknown)
    # The reasons that repeat are summed up above the rows, counted over every rejection.
    [first, *_] = page.select(".import-reasons li")
    count = int(first.strong.get_text().replace(",", ""))
    reason = first.get_text(strip=True).removeprefix(first.strong.get_text()).lstrip("\u00d7 ")
    assert count > 1
    assert count == sum(1 for row in rows if row.select("td")[-1].get_text(strip=True) == reason)


def test_loose_files_and_a_trajectory_pool_are_imported_by_name(research):
    client = client_for("admin")
    md = (
        SAMPLES
        / "memory/reflections/researcher-agent/2026-03-15-nightly-advisory-feed-rate-limit.md"
    )
    upload(
        client,
        SimpleUploadedFile(md.name, md.read_bytes()),
        SimpleUploadedFile(
            "trajectory-pool.json", (SAMPLES / "memory/trajectory-pool.json").read_bytes()
        ),
    )
    job = run_worker(ImportJob.objects.get().pk)
    assert job.status == ImportJob.Status.DONE
    assert list(job.report["reflections"]["files"]) == [md.name]
    assert job.report["logs"]["tasks"]["created"] == 3
    assert job.report["log_files"] == ["trajectory-pool.json"]


def test_a_zip_with_a_path_traversal_is_refused_whole_and_says_so(research):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("ws/memory/reflections/a/2026-03-01-x.md", "# Reflection: x")
        archive.writestr("../../outside.md", "gotcha")
    client = client_for("admin")
    upload(client, SimpleUploadedFile("evil.zip", buffer.getvalue()))
    job = run_worker(ImportJob.objects.get().pk)
    assert job.status == ImportJob.Status.DONE
    [refusal] = job.report["refused_uploads"]
    assert refusal["path"] == "evil.zip"
    assert "'..' would write outside the upload" in refusal["reason"]
    assert "nothing from this archive was imported" in refusal["reason"]
    assert not Reflection.objects.exists()


def test_secrets_never_reach_the_report(research, tmp_path):
    ws = tmp_path / "ws"
    (ws / "logs").mkdir(parents=True)
    record = {
        "task_id": "t-1", "agent": "a", "department": f"dept-{SECRET}", "task_type": "x",
        "finished_at": "2026-03-01T00:00:00Z", "outcome": "success",
    }  # fmt: skip
    (ws / "logs" / "tasks.jsonl").write_text(json.dumps(record) + "\n")
    target = ws / "memory/reflections/researcher-agent/2026-03-01-key.md"
    target.parent.mkdir(parents=True)
    target.write_text(
        "# Reflection: 2026-03-01 - researcher-agent - Rotate the key\n\n"
        "## What happened?\nx\n\n## What went wrong?\ny\n\n## What should I do differently?\nz\n\n"
        f"## Token {SECRET}\nkept\n"
    )
    client = client_for("admin")
    upload(client, zipped(ws))
    job = run_worker(ImportJob.objects.get().pk)
    assert job.report["logs"]["rejected"] and job.report["reflections"]["warnings"]
    assert job.report["reflections"]["quarantined"] == 1
    assert SECRET not in json.dumps(job.report)
    assert SECRET not in client.get(f"/imports/{job.pk}/").content.decode()


def test_a_job_that_fails_says_so_and_leaves_no_files(research, monkeypatch, tmp_path):
    def broken(**kwargs):
        raise RuntimeError(f"boom {SECRET}")

    monkeypatch.setattr("reflections.services.web_import.import_reflections", broken)
    client = client_for("admin")
    upload(client, zipped(SAMPLES))
    job = run_worker(ImportJob.objects.get().pk)
    assert job.status == ImportJob.Status.FAILED
    assert "The import stopped (RuntimeError) while reading reflection files" in job.error
    assert SECRET not in job.error
    page = client.get(f"/imports/{job.pk}/").content.decode()
    assert "The import stopped" in page and SECRET not in page
    assert not (tmp_path / "uploads" / f"job-{job.pk}").exists()


def test_the_import_page_lists_recent_jobs(research):
    client = client_for("admin")
    upload(client, zipped(SAMPLES))
    run_worker(ImportJob.objects.get().pk)
    page = soup_of(client.get("/imports/"))
    assert "workspace.zip" in page.select_one(".import-history").get_text()


RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "reflexion_runs"
# Real runs of the reference implementation, shipped as samples.
SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "samples" / "reflexion-runs"


def test_reflexion_runs_are_imported_whole_from_a_zip_and_a_loose_file(research):
    client = client_for("admin")
    programming = next((SAMPLE_RUNS / "programming").glob("*.jsonl"))
    loose = SimpleUploadedFile(programming.name, programming.read_bytes(), "application/json")
    upload(client, zipped(SAMPLE_RUNS / "reflexion_run_logs", prefix="reflexion_run_logs"), loose)

    job = run_worker(ImportJob.objects.get().pk)

    runs = {run["label"]: run for run in job.report["runs"]}
    assert runs["reflexion_run_logs"]["solved_by_trial"] == [9, 10, 11]
    assert runs[programming.name]["problems"] == 40
    assert runs[programming.name]["reflections"] == 146
    assert ReflexionRun.objects.count() == 2
    assert job.report["reflections"]["rejected"] == []  # never read as loose reflection files
    page = soup_of(client.get(f"/imports/{job.pk}/")).select_one("table.import-runs")
    assert "reflexion_run_logs" in page.get_text(" ", strip=True)


def test_a_run_with_a_bad_line_is_refused_whole_and_says_where(research, tmp_path):
    client = client_for("admin")
    programming = next((SAMPLE_RUNS / "programming").glob("*.jsonl"))
    text = programming.read_text().splitlines()
    text[2] = '{"task_id": "broken", "is_solved": "maybe"}'
    bad = SimpleUploadedFile(programming.name, "\n".join(text).encode(), "application/json")
    upload(client, bad)

    job = run_worker(ImportJob.objects.get().pk)

    (run,) = job.report["runs"]
    assert run["error"] == (
        f"{programming.name}, line 3: is_solved: expected true or false, got 'maybe'; "
        "nothing of it was imported"
    )
    assert not ReflexionRun.objects.exists() and not Reflection.objects.exists()


def test_a_rejected_reflection_file_is_listed_among_the_files_read(research):
    undated = b"---\ntitle: No date\ndepartment: research\n---\n\n## What happened\n\nIt failed.\n"
    client = client_for("admin")
    upload(client, SimpleUploadedFile("undated.md", undated, "text/markdown"))
    job = run_worker(ImportJob.objects.get().pk)

    page = soup_of(client.get(f"/imports/{job.pk}/"))
    files = page.select_one("#files").find_next("p")
    assert "No reflection file was read" not in page.get_text()
    assert "1 rejected" in files.get_text()
    [row] = page.select("table.import-files tbody tr")
    assert [td.get_text(strip=True) for td in row.select("td")][1] == "rejected"


def test_two_runs_of_one_file_name_in_two_folders_of_a_zip_are_both_imported(research, tmp_path):
    programming = next((SAMPLE_RUNS / "programming").glob("*.jsonl"))
    lines = programming.read_text().splitlines(keepends=True)
    for folder, kept in (("reflexion_py", lines), ("reflexion_py2", lines[:30])):
        (tmp_path / "root" / folder).mkdir(parents=True)
        (tmp_path / "root" / folder / programming.name).write_text("".join(kept))
    client = client_for("admin")
    upload(client, zipped(tmp_path / "root", prefix="root"))

    job = run_worker(ImportJob.objects.get().pk)

    runs = {run["label"]: run["problems"] for run in job.report["runs"]}
    assert runs == {programming.name: 40, f"reflexion_py2/{programming.name}": 30}
    assert ReflexionRun.objects.count() == 2
    page = soup_of(client.get(f"/imports/{job.pk}/"))
    # The files' totals say 0 created; the page says where the runs' reflections are counted.
    assert "counted in their own table" in page.select_one(".import-runs-counted").get_text()
