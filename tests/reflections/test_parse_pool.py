"""The parser pool hands over parsed files in order, a batch at a time, and never makes the
import wait for a full batch while the next files are still being parsed."""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future
from datetime import UTC, datetime

import pytest

from reflections.importers import pool
from reflections.importers.workspace import SourceFile, iter_reflection_files

NOW = datetime(2026, 11, 24, tzinfo=UTC)


def done(*files: list) -> Future:
    task = Future()
    task.set_result(list(files))
    return task


def test_a_batch_is_handed_over_when_the_next_files_are_not_parsed_yet():
    later = Future()
    batches = pool._in_batches(deque([done(["a"], ["b"]), later]), rows=100, progress=None)

    assert next(batches) == ["a", "b"]  # no waiting for 100 items

    later.set_result([["c"]])
    assert next(batches) == ["c"]


def test_parsed_files_are_gathered_up_to_a_batch_when_they_are_ready():
    tasks = deque([done(["a"], ["b", "c"]), done(["d"]), done(["e"])])
    seen = []

    batches = list(pool._in_batches(tasks, rows=3, progress=seen.append))

    assert batches == [["a", "b", "c"], ["d", "e"]]
    assert seen == [1, 1, 1, 1]  # a tick per file, not per item


def parsed(batches) -> list[tuple]:
    return [
        (item.source_path, getattr(item, "content_hash", None) or item.reason)
        for batch in batches
        for item in batch
    ]


def test_the_pool_parses_what_one_process_parses_in_the_same_order(samples, monkeypatch):
    sources = [s for s in iter_reflection_files([samples]) if isinstance(s, SourceFile)]
    one_process = list(pool.parse_batches(sources, now=NOW, rows=5))
    monkeypatch.setattr(pool, "PARALLEL_PARSE_THRESHOLD", 1)
    monkeypatch.setattr(pool, "TASK_FILES", 2)

    in_the_pool = list(pool.parse_batches(sources, now=NOW, rows=5))

    assert parsed(in_the_pool) == parsed(one_process)
    assert len(parsed(one_process)) > len(sources) // 2


@pytest.mark.django_db(transaction=True)
def test_an_import_parsed_by_forked_workers_leaves_the_database_connection_working(
    samples, monkeypatch
):
    from django.db import connection

    from reflections.models import Reflection
    from reflections.services.reflection_import import import_reflections

    monkeypatch.setattr(pool, "PARALLEL_PARSE_THRESHOLD", 1)
    monkeypatch.setattr(pool, "TASK_FILES", 2)
    method = pool._worker_context().get_start_method()

    summary = import_reflections(paths=[samples], create_departments=True, now=NOW)

    assert summary.created == Reflection.objects.count() > 0
    with connection.cursor() as cursor:  # the workers' copies of the socket closed silently
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert method in ("fork", "forkserver")
