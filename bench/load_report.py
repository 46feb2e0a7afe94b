"""What bench/load.py prints: each level's pages against the list, and with two or more
databases (`--db default --db large`), each page's p95 at one user against the first
database's, measured in the same run."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_pages
from common import percentile

LIST = "reflection list"
QUEUE_PREFETCH = "queue next (prefetch)"
PAGES_IN_ORDER = [
    LIST,
    "reflection detail",
    "queue item",
    QUEUE_PREFETCH,
    "queue verdict → next",
    *load_pages.NAMES,
]
SCALE_TARGET = 1.5  # issue 29: p95 at the large scale ≤ 1.5x the demo scale's, page by page


def report(level: int, run) -> tuple[float, float]:
    """Prints the level's table; returns its throughput while all users were busy, and over
    the whole run."""
    results = run.results
    throughput = run.busy_throughput
    list_p95 = percentile(results.times[LIST], 95)
    print(
        f"\n{level} concurrent user(s): {results.requests} requests in {run.seconds:.1f} s, "
        f"{results.requests / run.seconds:.2f} requests/s; {throughput:.2f} requests/s while all "
        f"{level} were busy (the first {run.first_done - run.started:.1f} s)"
    )
    print(f"  {'page':<22} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'p95/list':>9}  errors")
    for page in PAGES_IN_ORDER:
        times = results.times.get(page)
        if not times:
            continue
        p95 = percentile(times, 95)
        errors = results.errors.get(page, [])
        shown = f"{len(errors)} ({', '.join(sorted(set(errors)))})" if errors else "0"
        print(
            f"  {page:<22} {len(times):>4} {percentile(times, 50) * 1000:>8.0f} "
            f"{p95 * 1000:>8.0f} {p95 / list_p95:>9.2f}  {shown}"
        )
    if results.verdicts:
        print(f"  queue verdicts answered by a step: {results.steps} of {results.verdicts}")
    return throughput, results.requests / run.seconds


def compare_scales(runs: dict[str, dict[int, object]]) -> None:
    """Each page's p95 at the lowest level on every database after the first, ÷ the first's.

    `runs` maps each database, in the order given, to its levels' runs."""
    names = list(runs)
    base, others = names[0], names[1:]
    level = min(runs[base])
    print(f"\np95 at {level} user(s), each database ÷ the first (target ≤ {SCALE_TARGET}):")
    for n, name in enumerate(names, start=1):
        print(f"  #{n} {name}")
    print(
        f"  {'page':<22} {'#1':>9} "
        + " ".join(f"{f'#{n}':>9} {'÷ #1':>6}" for n in range(2, len(names) + 1))
    )
    worst = {name: (0.0, "") for name in others}
    for page in PAGES_IN_ORDER:
        first = runs[base][level].results.times.get(page)
        if not first:
            continue
        p95 = percentile(first, 95)
        cells = []
        for name in others:
            times = runs[name].get(level) and runs[name][level].results.times.get(page)
            if not times:
                cells.append(f"{'-':>16}")
                continue
            ratio = percentile(times, 95) / p95
            worst[name] = max(worst[name], (ratio, page))
            cells.append(f"{percentile(times, 95) * 1000:>6.0f} ms {ratio:>6.2f}")
        print(f"  {page:<22} {p95 * 1000:>6.0f} ms " + " ".join(cells))
    for name, (ratio, page) in worst.items():
        verdict = "met" if ratio <= SCALE_TARGET else "not met"
        print(f"  worst on {name}: {page} at {ratio:.2f}x ({verdict})")
