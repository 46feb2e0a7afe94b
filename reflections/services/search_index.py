"""The full-text search index during a bulk load: its entries merged once after the rows, not
row by row."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from reflections import bulk
from reflections.search import SEARCH_INDEX

# A batch this large is a bulk load (docs/architecture.md, "Imports", step 4).
BULK_LOAD_ROWS = 5_000


@contextmanager
def search_index_built_after(new_rows: int) -> Iterator[bool]:
    """Inside the batch's transaction: on PostgreSQL, for a bulk load, let the GIN search index
    collect the batch's entries in its pending list and merge them into the index once, in
    one sorted pass, before the commit. Yields whether it did.

    The search document (`to_tsvector`, most of the database's work per row) is still
    computed as each row arrives, while the parser pool works on the next files; only the
    merge waits for the end. Dropping the index and building it again after the rows costs
    as much in all, but leaves every `to_tsvector` for the end, when nothing else runs (100,000
    rows: 8.6 s of CPU after the last row against 1.3 s for the merge), and locks the table.
    Readers are never blocked: the index stays, and finds the pending entries after the commit
    too. A batch that fails rolls its entries back with everything else."""
    if not bulk.is_postgres() or new_rows < BULK_LOAD_ROWS:
        yield False
        return
    # SET LOCAL ends with the batch. The pending list holds the entries unsorted: up to 1 GB
    # before PostgreSQL merges them on its own (100,000 files fill 112 MB of it).
    bulk.execute("SET LOCAL gin_pending_list_limit = '1GB'")
    yield True
    # Sorting the entries in memory makes the merge one pass over the index.
    bulk.execute("SET LOCAL maintenance_work_mem = '256MB'")
    bulk.execute("SELECT gin_clean_pending_list(%s::regclass)", [SEARCH_INDEX])
