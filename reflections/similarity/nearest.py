"""Nearest neighbours of one department's vectors by blocked matrix products (pure, NumPy).

The vectors are L2-normalised rows (dense from the latent and embedding backends, sparse from
word TF-IDF), so a dot product is the cosine. The similarity matrix is never held whole: rows
are multiplied in blocks of about BLOCK_CELLS cells, each block's top k kept with
`argpartition`, so 100,000 documents in one department need a few hundred MB at most.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

DEFAULT_K = 8
# Rows of the similarity matrix computed at once: BLOCK_CELLS / n rows, each a dense float32
# row of n similarities, so one block is ~64 MB whatever the department's size.
BLOCK_CELLS = 16_000_000
WORKERS = min(2, os.cpu_count() or 1)


@dataclass(frozen=True)
class Similar:
    """One neighbour of a document: its id and the cosine similarity (0-1)."""

    id: int
    similarity: float


def nearest_neighbours(
    ids: list[int], vectors, *, k: int = DEFAULT_K, threshold: float = 0.0
) -> dict[int, list[Similar]]:
    """Each document's most similar others, best first.

    A document gets its own top-k with similarity >= threshold, plus every document that has
    it in *its* top-k: the relation is symmetric (b is a's neighbour exactly when a is b's,
    with the same similarity), as Neighbour rows are stored in both directions, so a list may
    be longer than k. Equal similarities list the lower id first. Every id is a key, possibly
    with [].
    """
    result: dict[int, list[Similar]] = {doc_id: [] for doc_id in ids}
    n = len(ids)
    if n < 2 or k < 1:
        return result
    from scipy import sparse  # imported with the model that made sparse rows, if any

    is_sparse = sparse.issparse(vectors)
    if is_sparse:
        vectors = vectors.tocsr()
        transposed = vectors.T.tocsc()
    else:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        transposed = vectors.T
    take = min(k, n - 1)
    block = max(1, BLOCK_CELLS // n)

    def block_top(start: int) -> tuple[int, np.ndarray, np.ndarray]:
        stop = min(n, start + block)
        sims = vectors[start:stop] @ transposed
        sims = sims.toarray() if is_sparse else np.asarray(sims)
        rows = np.arange(stop - start)
        sims[rows, rows + start] = -1.0  # never one's own neighbour
        top = np.argpartition(-sims, take - 1, axis=1)[:, :take]
        return start, top, np.take_along_axis(sims, top, axis=1)

    pairs: dict[tuple[int, int], float] = {}
    # The products release the GIL: two blocks at once use both cores.
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for start, top, top_sims in pool.map(block_top, range(0, n, block)):
            for row, column in zip(*np.nonzero(top_sims >= threshold), strict=True):
                i, j = start + int(row), int(top[row, column])
                key = (i, j) if i < j else (j, i)
                # Float rounding may differ by direction; the pair keeps one value.
                value = float(top_sims[row, column])
                pairs.setdefault(key, round(max(0.0, min(value, 1.0)), 4))
    for (i, j), similarity in pairs.items():
        result[ids[i]].append(Similar(ids[j], similarity))
        result[ids[j]].append(Similar(ids[i], similarity))
    for neighbours in result.values():
        neighbours.sort(key=lambda s: (-s.similarity, s.id))
    return result
