"""What import commands print: a progress bar and summary for people, JSON for machines."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable

from tqdm import tqdm

from reflections.services.batches import ImportSummary

MAX_LISTED_REJECTIONS = 50


class _Bar(tqdm):
    # tqdm's monitor thread would make the process multi-threaded, and an import forks its
    # parser workers only from a process that runs no other thread (importers/pool.py).
    monitor_interval = 0


def progress_bar(*, enabled: bool, unit: str, total: int | None = None) -> tqdm:
    return _Bar(
        total=total,
        unit=unit,
        disable=not enabled,
        file=sys.stderr,
        dynamic_ncols=True,
        leave=False,
    )


def rows_per_second(bar: tqdm) -> Callable[[int], None]:
    """A callback that shows, beside a bar that counts files, the rows written and their rate
    (a JSONL file holds many rows)."""
    started = time.monotonic()

    def show(rows: int) -> None:
        elapsed = max(time.monotonic() - started, 1e-6)
        bar.set_postfix_str(f"{rows:,} rows, {rows / elapsed:,.0f} rows/s", refresh=False)

    return show


def print_summary(command, summary: ImportSummary, *, as_json: bool, noun: str) -> None:
    if as_json:
        command.stdout.write(json.dumps(summary.as_dict(), default=str))
        return
    style = command.style
    command.stdout.write(
        f"{noun}: {style.SUCCESS(str(summary.created))} created, "
        f"{summary.updated} updated, {summary.unchanged} unchanged, "
        + (style.ERROR(f"{len(summary.rejected)} rejected") if summary.rejected else "0 rejected")
    )
    if summary.details.get("quarantined"):
        command.stdout.write(
            style.WARNING(
                f"  {summary.details['quarantined']} quarantined: the scanner found secrets, "
                "personal data, internal hosts or injected instructions; an admin must review them"
            )
        )
    for key, value in summary.details.items():
        if isinstance(value, dict):
            parts = ", ".join(f"{v} {k}" for k, v in value.items())
            command.stdout.write(f"  {key}: {parts}")
    if summary.warnings:
        command.stdout.write(
            style.WARNING(f"Imported with {len(summary.warnings)} warning(s) (kept as written):")
        )
        for w in summary.warnings[:MAX_LISTED_REJECTIONS]:
            where = f"{w.path}:{w.line}" if w.line else w.path
            command.stdout.write(f"  {where}: {w.message}")
        if len(summary.warnings) > MAX_LISTED_REJECTIONS:
            hidden = len(summary.warnings) - MAX_LISTED_REJECTIONS
            command.stdout.write(f"  … and {hidden} more (use --json for the full list)")
    if summary.rejected:
        command.stdout.write("Rejected (fix these and import again; the rest is in):")
        for r in summary.rejected[:MAX_LISTED_REJECTIONS]:
            where = f"{r.path}:{r.line}" if r.line else r.path
            command.stdout.write(f"  {where}: {r.reason}")
        hidden = len(summary.rejected) - MAX_LISTED_REJECTIONS
        if hidden > 0:
            by_file = Counter(r.path for r in summary.rejected[MAX_LISTED_REJECTIONS:])
            command.stdout.write(f"  … and {hidden} more (use --json for the full list):")
            for path, n in by_file.most_common(10):
                command.stdout.write(f"    {n} in {path}")
