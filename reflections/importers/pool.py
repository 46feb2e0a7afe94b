"""Parsing many reflection files on every core; kept free of Django so workers start cheaply."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime

from reflections.importers.base import ParsedReflection, Rejection
from reflections.importers.workspace import SourceFile, read_source
from reflections.scanning import mask, scan_text

# Below this many files, starting worker processes costs more than it saves.
PARALLEL_PARSE_THRESHOLD = 2000


def _parse_source(args: tuple[SourceFile, datetime]) -> list[ParsedReflection | Rejection]:
    """Parse and scan one file, in a worker: scanning is as costly as parsing."""
    source, now = args
    items = read_source(source, now=now)
    for index, item in enumerate(items):
        if isinstance(item, Rejection):
            # A reason may quote the offending line; a secret in it must not reach the output.
            if findings := scan_text(item.reason):
                items[index] = Rejection(item.path, item.line, mask(item.reason, findings))
        else:
            item.findings = scan_text(item.original_text)
    return items


def parse_sources(
    sources: list[SourceFile], *, now: datetime, progress: Callable[[int], None] | None = None
) -> Iterator[ParsedReflection | Rejection]:
    """Read and parse files in order, on every core when there are enough of them."""
    work = [(s, now) for s in sources]
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    pool = None
    if len(work) >= PARALLEL_PARSE_THRESHOLD and (workers or 1) > 1:
        # spawn, not fork: a forked child would share (and on exit close) the parent's
        # database socket. This module imports nothing from Django, so spawning is cheap.
        pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn")
        )
        results: Iterable = pool.map(_parse_source, work, chunksize=256)
    else:
        results = map(_parse_source, work)
    try:
        for items in results:
            yield from items
            if progress:
                progress(1)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
