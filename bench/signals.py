"""Precision and recall of the review signals against the demo's planted truth.

Usage:
    .venv/bin/python bench/signals.py [--seed 7 --seed 11] [--scale default] [--keep]

For each seed: writes the demo workspace (manage.py seed_demo) into a temporary directory,
imports it into a fresh SQLite database (reflections, events, neighbours), opens a review
cycle for every department and every quarter from 2026Q1 to 2027Q1 (the top 100 by
retrievals in each quarter's 90-day window), scores every item (reviews.signals) and
compares `flagged` with planted.json:

* echo: the item is a planted echo-chamber seed or one of its followers;
* outdated: the item is a planted outdated lesson whose tool was retired before the cycle's
  window ended (before that, the lesson is still true);
* duplicate: the item is a planted duplicate, or a natural one (planted.json
  "natural_duplicates": an unplanted repeat of an earlier reflection's lesson about the same
  case, which the generator records); an original is the one to keep, so not a positive.
  `keep` is also checked against the planted original.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUARTERS = ("2026Q1", "2026Q2", "2026Q3", "2026Q4", "2027Q1")


def build(seed: int, scale: str, work: Path) -> Path:
    """The workspace and its database, built by the product's own commands."""
    db = work / f"seed{seed}.sqlite3"
    ws = work / f"ws{seed}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DJANGO_LOG_LEVEL": "WARNING"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    steps = [
        ["migrate", "--noinput", "-v0"],
        ["seed_demo", "--out", str(ws), "--scale", scale, "--seed", str(seed)],
        ["import_reflections", str(ws), "--create-departments"],
        ["import_events", str(ws / "logs")],
        ["compute_neighbours"],
    ]
    for step in steps:
        subprocess.run(manage + step, env=env, check=True, capture_output=True)
    return ws


def measure(seed: int, ws: Path) -> dict:
    """Run in a child process per seed: Django is set up once per database."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from reflections.models import Department
    from reviews.models import ReviewCycle
    from reviews.services.cycles import ReviewError, open_cycle
    from reviews.signals import cycle_signals

    planted = json.loads((ws / "planted.json").read_text(encoding="utf-8"))
    echo = {e["path"] for e in planted["echo"]}
    echo |= {f for e in planted["echo"] for f in e["followers"]}
    outdated = {o["path"]: o["retired_on"] for o in planted["outdated"]}
    duplicates = {d["path"]: d["duplicate_of"] for d in planted["duplicates"]}
    natural = {d["path"] for d in planted.get("natural_duplicates", [])}

    reviewer, _ = get_user_model().objects.get_or_create(username="bench-signals")
    reviewer.groups.set([Group.objects.get(name="reviewer")])
    reviewer.departments.set(Department.objects.all())
    for department in Department.objects.order_by("slug"):
        for quarter in QUARTERS:
            if not ReviewCycle.objects.filter(department=department, quarter=quarter).exists():
                with contextlib.suppress(ReviewError):  # nothing retrieved in that window
                    open_cycle(department=department, quarter=quarter, reviewers=[reviewer])
    counts = {name: {"tp": 0, "fp": 0, "fn": 0} for name in ("echo", "outdated", "duplicate")}
    keep_right = keep_total = items = 0
    started = time.perf_counter()
    for cycle in ReviewCycle.objects.order_by("department__slug", "window_end"):
        for row in cycle_signals(cycle):
            items += 1
            path = row.item.reflection.source_path
            retired = outdated.get(path)
            truth = {
                "echo": path in echo,
                "outdated": retired is not None
                and datetime.fromisoformat(retired).date() < cycle.window_end.date(),
                "duplicate": path in duplicates or path in natural,
            }
            for name, actual in truth.items():
                flagged = getattr(row, name).flagged
                key = "tp" if flagged and actual else "fp" if flagged else "fn" if actual else ""
                if key:
                    counts[name][key] += 1
            if path in duplicates and row.duplicate.flagged:
                keep_total += 1
                keep_right += row.duplicate.keep == duplicates[path]
    result = {"seed": seed, "items": items, "seconds": round(time.perf_counter() - started, 1)}
    for name, c in counts.items():
        tp, fp, fn = c["tp"], c["fp"], c["fn"]
        result[name] = {
            **c,
            "precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(tp / (tp + fn), 3) if tp + fn else None,
        }
    result["duplicate"]["keep_is_planted_original"] = f"{keep_right}/{keep_total}"
    return result


def child(seed: int, work: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{work / f'seed{seed}.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    print(json.dumps(measure(seed, work / f"ws{seed}")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, action="append", help="default: 7 and 11")
    parser.add_argument("--scale", default="default")
    parser.add_argument("--work", type=Path, help="reuse this directory (kept afterwards)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.work)
        return
    seeds = args.seed or [7, 11]
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-signals-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"signals bench, scale {args.scale}, work directory {work}")
    print(f"{'seed':>5} {'signal':<10} {'precision':>9} {'recall':>7}  tp  fp  fn")
    for seed in seeds:
        if not (work / f"seed{seed}.sqlite3").exists():
            build(seed, args.scale, work)
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(seed), "--work", str(work)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        result = json.loads(out.strip().splitlines()[-1])
        for name in ("echo", "outdated", "duplicate"):
            r = result[name]
            print(
                f"{seed:>5} {name:<10} {r['precision'] if r['precision'] is not None else '-':>9}"
                f" {r['recall'] if r['recall'] is not None else '-':>7} "
                f"{r['tp']:>3} {r['fp']:>3} {r['fn']:>3}"
            )
        print(
            f"      {result['items']} items scored in {result['seconds']} s; duplicate keep = "
            f"planted original for {result['duplicate']['keep_is_planted_original']}"
        )


if __name__ == "__main__":
    main()
