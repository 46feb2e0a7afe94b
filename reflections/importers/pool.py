"""Parsing many reflection files on every core; kept free of Django so workers start cheaply."""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
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
    return scanned(items)


def scanned(items: list[ParsedReflection | Rejection]) -> list[ParsedReflection | Rejection]:
    """Each parsed reflection with what the scanner found; one whose path or department holds
    a finding becomes a rejection (in place)."""
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
    """How workers start: by fork where this process runs no other thread, else from a fork
    server.

    A forked worker is this process's copy, the parsers already imported: it starts at once
    and costs nothing. It also holds a copy of the database socket, which is harmless: a worker
    only parses (nothing here touches Django) and ends with `os._exit`, which closes its copy
    without a word to the server. Forking while another thread runs could copy a lock that
    thread holds (Python warns of it), so a threaded process (a web server's) forks its workers
    from a fork server instead: a clean process that imports this module once, ~0.3 s of CPU on
    the first import of the process (spawning a worker from scratch would cost that per worker
    and per import)."""
    if _the_only_thread():
        return multiprocessing.get_context("fork")
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # no effect once the server runs
    return context


def forks_workers() -> bool:
    """Whether workers started now would be forks of this process (_worker_context)."""
    return _worker_context().get_start_method() == "fork"


@contextmanager
def objects_frozen() -> Iterator[None]:
    """Leave the objects that exist now out of garbage collection while a bulk import runs.

    An import allocates a few objects per row and keeps them to the end of its batch: every
    full collection would walk them and every object the process held before (a process that
    ran the migrations first holds ~10^6), and a forked worker's copy of the heap would be
    written to as the collector marks it. Measured on the default workspace: 0.1-0.2 s of a
    1.8 s import. They are collected as usual afterwards."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _the_only_thread() -> bool:
    """Whether this process runs one thread, counted as the kernel counts them (a thread
    started outside `threading`, as execnet's, is not in threading.active_count()). Linux only:
    elsewhere fork is not offered, or not safe with the system's libraries (macOS)."""
    if sys.platform != "linux":
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def start_fork_server() -> None:
    """Start the fork server now if the workers will need one, without waiting for it: it
    imports the parsers while the caller walks a tree that will likely hold enough files to
    parse in parallel."""
    if _worker_context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


@dataclass
class PoolParse:
    """Files handed to a pool of parser workers, in order: `pending` are their tasks."""

    pool: ProcessPoolExecutor
    pending: deque[Future]

    def cancel(self) -> None:
        """Drop what is not parsed yet (a worker finishes its current task, then exits)."""
        self.pool.shutdown(wait=False, cancel_futures=True)


def start_pool(sources: list[SourceFile | SourceText], *, now: datetime) -> PoolParse | None:
    """A pool parsing `sources` from now on, on every core; None when they are too few to
    need one or there is one core (parse_batches then parses them in process)."""
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if len(sources) < PARALLEL_PARSE_THRESHOLD or (workers or 1) < 2:
        return None
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_worker_context())
    # Small tasks, so that the first parsed files arrive (and get stored) early.
    pending = deque(
        pool.submit(_parse_task, sources[i : i + TASK_FILES], now)
        for i in range(0, len(sources), TASK_FILES)
    )
    return PoolParse(pool, pending)


def parse_batches(
    sources: list[SourceFile | SourceText],
    *,
    now: datetime,
    rows: int,
    progress: Callable[[int], None] | None = None,
    started: PoolParse | None = None,
) -> Iterator[list[ParsedReflection | Rejection]]:
    """Read and parse files in order, on every core when there are enough of them, handing
    over what is parsed in batches of about `rows` items (a file's items stay together).
    `started` is a pool already parsing these very sources with this `now` (importers.ahead).

    With the pool, a batch is also handed over as soon as the next files are not parsed yet:
    the caller stores it meanwhile instead of waiting for a full batch, so the database starts
    on the first files at once and never idles while parsed rows wait (docs/architecture.md,
    "Imports")."""
    started = started or start_pool(sources, now=now)
    if started is None:
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
    try:
        yield from _in_batches(started.pending, rows=rows, progress=progress)
    finally:
        started.pool.shutdown(cancel_futures=True)


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
