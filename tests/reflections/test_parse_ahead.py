"""`manage.py import_reflections` starts parsing its files before Django starts, and the
import uses that parse only for the very paths it was started on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reflections.importers import ahead, pool

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def small_pool(monkeypatch):
    """The pool for any number of files, with small tasks (the samples are a few dozen)."""
    monkeypatch.setattr(pool, "PARALLEL_PARSE_THRESHOLD", 1)
    monkeypatch.setattr(pool, "TASK_FILES", 2)
    monkeypatch.setattr(ahead, "_started", None)
    monkeypatch.setattr(ahead, "forks_workers", lambda: True)


@pytest.mark.parametrize(
    ("argv", "paths"),
    [
        (["ws"], ["ws"]),
        (["ws/", "more", "--create-departments", "--json"], ["ws", "more"]),
        (["--default-department", "research", "ws"], ["ws"]),
        (["ws", "-v", "0", "--settings", "reflexion_site.settings"], ["ws"]),
        (["ws", "--traceback", "--no-color", "--skip-checks"], ["ws"]),
    ],
)
def test_the_command_line_is_read_as_the_command_reads_it(argv, paths):
    assert ahead.command_paths(argv) == paths


@pytest.mark.parametrize(
    "argv",
    [[], ["--help"], ["-h", "ws"], ["ws", "--dry-run"], ["ws", "--version"], ["ws", "-x"]],
)
def test_a_command_line_it_does_not_understand_is_left_to_the_command(argv, capsys):
    assert ahead.command_paths(argv) is None
    assert capsys.readouterr() == ("", "")  # the command's own parser says what is wrong


def test_it_knows_every_option_of_the_command():
    from reflections.management.commands.import_reflections import Command

    parser = Command().create_parser("manage.py", "import_reflections")
    known = {name for names in ahead.VALUE_OPTIONS for name in names} | set(ahead.FLAGS)
    options = {
        name
        for action in parser._actions
        for name in action.option_strings
        if name not in ("-h", "--help")
    }

    assert options <= known


def test_a_missing_path_starts_nothing(small_pool, tmp_path):
    ahead.parse_ahead([str(tmp_path / "nowhere")])

    assert ahead._started is None


def test_a_parse_started_ahead_is_claimed_by_an_import_of_the_same_paths(small_pool, samples):
    ahead.parse_ahead([str(samples), "--create-departments"])

    started = ahead.claim([samples])

    assert started is not None
    assert started.paths == [str(samples)]
    assert ahead.claim([samples]) is None  # once
    ahead.stop()


def test_stopping_shuts_the_pool_whether_or_not_an_import_claimed_it(small_pool, samples):
    ahead.parse_ahead([str(samples)])
    parsing = ahead.claim([samples]).parsing

    assert ahead.stop() is True
    with pytest.raises(RuntimeError):  # shut down: it takes no more work
        parsing.pool.submit(print)
    assert ahead.stop() is False  # nothing left


def test_an_import_of_other_paths_cancels_the_parse_started_ahead(small_pool, samples):
    ahead.parse_ahead([str(samples)])
    parsing = ahead._started.parsing

    assert ahead.claim([samples / "memory"]) is None
    with pytest.raises(RuntimeError):  # shut down: it takes no more work
        parsing.pool.submit(print)
    assert ahead._started is None


@pytest.mark.django_db(transaction=True)
def test_an_import_claiming_the_parse_stores_what_an_import_parsing_itself_stores(
    small_pool, samples
):
    from reflections.models import Reflection
    from reflections.services.reflection_import import import_reflections

    def stored() -> list[tuple]:
        return list(
            Reflection.objects.order_by("source_path").values_list(
                "source_path", "content_hash", "state", "created_at", "title"
            )
        )

    itself = import_reflections(paths=[samples], create_departments=True)
    parsed_itself = stored()
    Reflection.objects.all().delete()

    ahead.parse_ahead([str(samples), "--create-departments"])
    started_at = ahead._started.now
    claimed = import_reflections(paths=[samples], create_departments=True)

    assert ahead._started.claimed
    ahead.stop()
    assert stored() == parsed_itself
    assert (claimed.created, claimed.rejected) == (itself.created, itself.rejected)
    assert Reflection.objects.earliest("imported_at").imported_at == started_at


# manage.py in a process of its own, as a user runs it, the pool lowered to the samples' size:
# records whether Django was loaded when the parse started, whether the import claimed it, and
# whether manage.py found a parse to stop when the command ended.
PROBE = """
import json, sys
sys.argv = ["manage.py", "import_reflections", *sys.argv[1:]]
from reflections.importers import ahead, pool
pool.PARALLEL_PARSE_THRESHOLD = 1
seen = {}
parse_ahead, claim, stop = ahead.parse_ahead, ahead.claim, ahead.stop
def parse_ahead_seen(argv):
    seen["django loaded"] = "django" in sys.modules
    parse_ahead(argv)
def claim_seen(paths):
    started = claim(paths)
    seen["claimed"] = started is not None
    return started
def stop_seen():
    seen["stopped"] = stop()
    return seen["stopped"]
ahead.parse_ahead, ahead.claim, ahead.stop = parse_ahead_seen, claim_seen, stop_seen
import manage
try:
    manage.main()
finally:
    print(json.dumps(seen))
"""


@pytest.fixture
def migrated(tmp_path):
    """How to run a process on a fresh migrated SQLite database, as a user runs one."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "reflexion_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    run = {"cwd": ROOT, "env": env, "capture_output": True, "text": True}
    done = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], **run)
    assert done.returncode == 0, done.stderr
    return run


@pytest.fixture
def probe(migrated):
    return lambda *argv: subprocess.run([sys.executable, "-c", PROBE, *argv], **migrated)  # noqa: S603


def test_manage_py_parses_the_files_before_django_starts_and_the_import_claims_them(probe, samples):
    done = probe(str(samples), "--create-departments", "--json")

    assert done.returncode == 0, done.stderr
    summary, seen = (json.loads(line) for line in done.stdout.strip().splitlines()[-2:])
    assert seen == {"django loaded": False, "claimed": True, "stopped": True}
    assert summary["created"] > 0


def test_a_parse_the_command_never_claims_is_stopped_when_the_command_ends(probe, samples):
    done = probe(str(samples), "--default-department", "Not A Slug")

    assert done.returncode == 1
    assert "is not a department slug" in done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"django loaded": False, "stopped": True}  # never claimed


def test_manage_py_ends_a_finished_import_at_once_with_its_whole_summary_written(migrated, samples):
    """manage.py skips the interpreter's teardown after a bulk command (exit_at_once): the
    summary is still flushed, the rows committed, and a failure still exits with 1."""
    run = migrated
    command = [sys.executable, "manage.py", "import_reflections", str(samples)]

    first = subprocess.run([*command, "--create-departments", "--json"], **run)  # noqa: S603
    again = subprocess.run([*command, "--create-departments", "--json"], **run)  # noqa: S603
    failed = subprocess.run([*command, "--default-department", "Not A Slug"], **run)  # noqa: S603

    assert first.returncode == 0, first.stderr
    created = json.loads(first.stdout)["created"]
    assert created > 0
    assert json.loads(again.stdout)["unchanged"] == created
    assert failed.returncode == 1
    assert "is not a department slug" in failed.stderr
