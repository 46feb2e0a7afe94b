"""Where a web import unpacks its zip: in the scratch folder (memory) when the zip's contents
fit with half of it to spare, beside the upload otherwise; the same reflections either way,
and nothing left behind in either place."""

from __future__ import annotations

import json
import os
import time
from collections import namedtuple
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from reflections.models import ImportJob, Reflection
from reflections.services import import_scratch, web_import
from tests.conftest import SAMPLES
from tests.factories import DepartmentFactory
from tests.reflections.test_pages_import import client_for, run_worker, upload, zipped

pytestmark = pytest.mark.django_db

Usage = namedtuple("Usage", "total used free")
ROOMY = Usage(2**34, 0, 2**34)  # a file system in memory with plenty free


@pytest.fixture(autouse=True)
def _folders(settings, tmp_path, monkeypatch):
    settings.IMPORT_UPLOAD_ROOT = tmp_path / "uploads"
    settings.IMPORT_SCRATCH_ROOT = str(tmp_path / "scratch")
    (tmp_path / "scratch").mkdir()
    # tmp_path is on a disk more than half full of other things: say it is memory, roomy.
    monkeypatch.setattr(import_scratch.shutil, "disk_usage", lambda path: ROOMY)


@pytest.fixture
def research():
    return DepartmentFactory(slug="research", name="Research")


@pytest.fixture
def unpacked_into(monkeypatch):
    """The folders the job's zips were unpacked into, as the job ran."""
    seen: list[Path] = []
    extract = web_import.extract_zip

    def spy(source, dest, *args, **kwargs):
        seen.append(Path(dest))
        return extract(source, dest, *args, **kwargs)

    monkeypatch.setattr(web_import, "extract_zip", spy)
    return seen


def imported(*files) -> ImportJob:
    upload(client_for("admin"), *files)
    job = run_worker(ImportJob.objects.latest("pk").pk)
    assert job.status == ImportJob.Status.DONE, job.error
    return job


def test_a_zip_that_fits_is_unpacked_in_the_scratch_folder_and_nothing_is_left_there(
    research, settings, unpacked_into
):
    job = imported(zipped(SAMPLES))
    scratch = Path(settings.IMPORT_SCRATCH_ROOT)
    assert unpacked_into and unpacked_into[0].is_relative_to(scratch)
    assert job.report["reflections"]["created"] > 0
    assert list(scratch.iterdir()) == []
    assert not web_import.job_dir(job).exists()


def test_a_zip_that_would_fill_more_than_half_the_scratch_folder_is_unpacked_beside_it(
    research, monkeypatch, unpacked_into
):
    monkeypatch.setattr(import_scratch.shutil, "disk_usage", lambda path: Usage(100, 40, 60))
    job = imported(zipped(SAMPLES))
    assert unpacked_into[0].is_relative_to(web_import.job_dir(job))
    assert not web_import.job_dir(job).exists()


def test_without_a_scratch_folder_the_zip_is_unpacked_beside_its_upload(
    research, settings, unpacked_into
):
    settings.IMPORT_SCRATCH_ROOT = ""
    job = imported(zipped(SAMPLES))
    assert unpacked_into[0].is_relative_to(web_import.job_dir(job))


def test_the_same_zip_through_either_folder_is_the_same_reflections(research, settings):
    first = imported(zipped(SAMPLES))
    paths = set(Reflection.objects.values_list("source_path", flat=True))
    settings.IMPORT_SCRATCH_ROOT = ""
    again = imported(zipped(SAMPLES))
    assert set(Reflection.objects.values_list("source_path", flat=True)) == paths
    assert again.report["reflections"]["created"] == 0
    assert again.report["reflections"]["unchanged"] == first.report["reflections"]["created"]


def test_a_loose_file_is_moved_into_the_scratch_folder_under_its_own_name(research, settings):
    text = (SAMPLES / "memory/reflections/researcher-agent").glob("*.md")
    sample = sorted(text)[0]
    job = imported(SimpleUploadedFile(sample.name, sample.read_bytes(), "text/markdown"))
    assert job.report["reflections"]["created"] == 1
    assert Reflection.objects.get().source_path == sample.name
    assert list(Path(settings.IMPORT_SCRATCH_ROOT).iterdir()) == []


def test_the_report_names_files_by_their_upload_never_by_the_scratch_folder(research, settings):
    job = imported(zipped(SAMPLES))
    assert "workspace.zip/ws/logs/tasks.jsonl" in job.report["log_files"]
    assert settings.IMPORT_SCRATCH_ROOT not in json.dumps(job.report)


def test_a_folder_left_by_a_killed_import_is_swept_a_day_on_before_the_next_one_unpacks(
    research, settings
):
    scratch = Path(settings.IMPORT_SCRATCH_ROOT)
    day_old = time.time() - 25 * 3600
    for name in ("reflexion-import-7-old", "reflexion-import-8-fresh", "someone-elses"):
        (scratch / name / "ws").mkdir(parents=True)
    os.utime(scratch / "reflexion-import-7-old", (day_old, day_old))
    os.utime(scratch / "someone-elses", (day_old, day_old))
    imported(zipped(SAMPLES))
    assert sorted(p.name for p in scratch.iterdir()) == [
        "reflexion-import-8-fresh",
        "someone-elses",
    ]
