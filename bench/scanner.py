"""The scanner's cost per reflection against the scanner of an earlier commit, same texts, same run.

    .venv/bin/python bench/scanner.py [--baseline REV] [--workspace DIR] [--rounds N]

The baseline is `reflections/scanning/` at REV (default: adfcecf, the scanner before the
held-out corpus work), extracted into a temporary package and imported beside the current one.
Both scan every reflection of a demo workspace (generated when --workspace is not given): the
baseline its text (all it read), the current scanner what an import now scans, the text and
every field it does not hold verbatim (scanning.fields.scan_reflection). Rounds interleave so
that machine noise hits both alike; the ratio is current ÷ baseline per reflection (median
over rounds). Target: ≤ 2.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BASELINE = "adfcecf"


def baseline_package(rev: str, into: Path) -> str:
    """`reflections/scanning` at `rev`, importable as `baseline_scanning`."""
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "reflections/scanning/"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    target = into / "baseline_scanning"
    target.mkdir()
    for path in listing:
        source = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        (target / Path(path).name).write_text(
            source.replace("reflections.scanning.", "baseline_scanning.").replace(
                "reflections.scanning ", "baseline_scanning "
            )
        )
    sys.path.insert(0, str(into))
    return "baseline_scanning"


def reflections_of(workspace: Path) -> list:
    from reflections.importers.base import ParsedReflection
    from reflections.importers.workspace import parse_paths

    now = datetime(2026, 11, 23, tzinfo=UTC)
    return [
        item for item in parse_paths([workspace], now=now) if isinstance(item, ParsedReflection)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    import django

    django.setup()
    from reflections.importers.pool import values_of
    from reflections.scanning.fields import scan_reflection

    def current(parsed) -> None:
        scan_reflection(parsed.original_text, values_of(parsed))

    with tempfile.TemporaryDirectory() as tmp:
        workspace = args.workspace
        if workspace is None:
            workspace = Path(tmp) / "ws"
            from demo.workspace import write_workspace

            write_workspace(workspace, scale="default")
        parsed = reflections_of(workspace)
        texts = [p.original_text for p in parsed]
        baseline = importlib.import_module(baseline_package(args.baseline, Path(tmp)))
        ours, theirs = [], []
        for _ in range(args.rounds):
            for scan, items, times in (
                (baseline.scan_text, texts, theirs),
                (current, parsed, ours),
            ):
                started = time.perf_counter()
                for item in items:
                    scan(item)
                times.append((time.perf_counter() - started) / len(items))
        now_us, then_us = statistics.median(ours) * 1e6, statistics.median(theirs) * 1e6
        size = statistics.mean(len(t) for t in texts)
        print(f"{len(texts)} reflections, mean {size:.0f} characters, {args.rounds} rounds")
        print(f"baseline ({args.baseline}): {then_us:8.1f} µs per reflection (median of rounds)")
        print(f"current:              {now_us:8.1f} µs per reflection")
        print(f"current ÷ baseline:   {now_us / then_us:8.2f}   (target ≤ 2)")


if __name__ == "__main__":
    main()
