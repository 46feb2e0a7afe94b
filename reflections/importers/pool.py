"""Parsing many reflection files on every core; kept free of Django so workers start cheaply."""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import datetime

from reflections.importers.base import ParsedReflection, Rejection
from reflections.importers.workspace import SourceFile, SourceText, read_source, read_text_source
from reflections.scanning import describe_findings
from reflections.scanning.fields import LIST_FIELDS, TEXT_FIELDS, masked_path, scan_reflection

# Below this many files, starting worker processes costs more than it saves.
PARALLEL_PARSE_THRESHOLD = 2000


def _parse_source(
    source: SourceFile | SourceText, now: datetime
) -> list[ParsedReflection | Rejection]:
    """Parse and scan one file, in a worker: scanning is as costly as parsing."""
    if isinstance(source, SourceText):
        items = read_text_source(source, now=now)
    else:
        items = read_source(source, now=now)
    for index, item in enumerate(items):
        if not isinstance(item, Rejection):
            item.findings = scan_reflection(item.original_text, values_of(item))
            if identity := [f for f in item.findings if f.field in _IDENTITY_FIELDS]:
                items[index] = _unsafe_identity(item, identity)
    return items


# A path or department is how a reflection is found and filed: it cannot be shown masked,
# so a file whose path or department holds a finding is rejected, never imported.
_IDENTITY_FIELDS = ("source_path", "department")


def values_of(parsed: ParsedReflection) -> dict:
    """The fields of a parsed reflection the scanner reads beside its text."""
    return {name: getattr(parsed, name) for name in (*TEXT_FIELDS, *LIST_FIELDS, "sections")}


def _unsafe_identity(item: ParsedReflection, findings: list) -> Rejection:
    fields = " and ".join(dict.fromkeys(f.field for f in findings))
    return Rejection(
        masked_path(item.source_path),
        None,
        f"{fields}: looks unsafe ({describe_findings(findings)}); the value is not shown. "
        "Rename the file or fix the department before importing it",
    )


def _worker_context() -> multiprocessing.context.BaseContext:
    """How workers start. Not by fork: a forked child would share the parent's database
    socket. A fork server is a clean process (no Django, no socket) that imports this module
    once and then forks each worker ready to parse: starting a worker from scratch (spawn)
    imports the scanner and detect-secrets again, ~0.3 s of CPU per worker and per import,
    which on 2 vCPUs is a tenth of a 7,500-file import. The server lives as long as this
    process, so later imports (a web worker's) fork from it at once."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # no effect once the server runs
    return context


def start_fork_server() -> None:
    """Start the fork server now, without waiting for it: it imports the parsers while the
    caller walks a tree that will likely hold enough files to parse in parallel."""
    if _worker_context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def parse_batches(
    sources: list[SourceFile | SourceText],
    *,
    now: datetime,
    rows: int,
    progress: Callable[[int], None] | None = None,
) -> Iterator[list[ParsedReflection | Rejection]]:
    """Read and parse files in order, on every core when there are enough of them, handing
    over what is parsed in batches of about `rows` items (a file's items stay together).

    With the pool, a batch is also handed over as soon as the next files are not parsed yet:
    the caller stores it meanwhile instead of waiting for a full batch, so the database starts
    on the first files at once and never idles while parsed rows wait (docs/architecture.md,
    "Import speed")."""
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if len(sources) < PARALLEL_PARSE_THRESHOLD or (workers or 1) < 2:
        batch: list[ParsedReflection | Rejection] = []
        for source in sources:
            batch.extend(_parse_source(source, now))
            if progress:
                progress(1)
            if len(batch) >= rows:
                yield batch
                batch = []
        if batch:
            yield batch
        return
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_worker_context())
    try:
        # Small tasks, so that the first parsed files arrive (and get stored) early.
        pending = deque(
            pool.submit(_parse_task, sources[i : i + TASK_FILES], now)
            for i in range(0, len(sources), TASK_FILES)
        )
        yield from _in_batches(pending, rows=rows, progress=progress)
    finally:
        pool.shutdown(cancel_futures=True)


def _in_batches(
    tasks: deque[Future], *, rows: int, progress: Callable[[int], None] | None
) -> Iterator[list[ParsedReflection | Rejection]]:
    """The tasks' items in order, a batch at a time: `rows` items (or a few more), or fewer
    when the next task is not done yet (the caller stores what is there rather than wait)."""
    batch: list[ParsedReflection | Rejection] = []
    while tasks:
        for items in tasks.popleft().result():
            batch.extend(items)
            if progress:
                progress(1)
        if len(batch) >= rows or (tasks and not tasks[0].done()):
            yield batch
            batch = []
    if batch:
        yield batch


# Files per task sent to a worker: enough to make the round trip negligible.
TASK_FILES = 64


def _parse_task(
    sources: list[SourceFile | SourceText], now: datetime
) -> list[list[ParsedReflection | Rejection]]:
    return [_parse_source(source, now) for source in sources]
