"""`manage.py seed_demo --out DIR`: write a deterministic demo workspace and summarise it."""

from __future__ import annotations

import json
import time
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.workspace import DEFAULT_START, SCALE_NAMES, write_workspace


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


class Command(BaseCommand):
    help = (
        "Write a demo workspace: reflections in all four formats, retrieval and task logs, and "
        "planted.json listing the planted duplicates, outdated lessons, echo chambers and unsafe "
        "reflections. The same scale and seed always write the same bytes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", required=True, type=Path, help="directory to write into")
        parser.add_argument(
            "--scale",
            choices=SCALE_NAMES,
            default="default",
            help="small (tests), default (12 months, ≈8,700 reflections) or large (benchmarks)",
        )
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--start",
            type=date.fromisoformat,
            default=DEFAULT_START,
            help=f"first day, YYYY-MM-DD (default {DEFAULT_START.isoformat()})",
        )
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")

    def handle(self, *args: object, **options: object) -> None:
        as_json = bool(options["json"])
        # Progress goes to stderr so the summary (or the JSON) on stdout stays clean.
        quiet = as_json or int(options["verbosity"]) < 1  # type: ignore[call-overload]
        started = time.perf_counter()
        try:
            summary = write_workspace(
                options["out"],  # type: ignore[arg-type]
                scale=str(options["scale"]),
                seed=int(options["seed"]),  # type: ignore[call-overload]
                start=options["start"],  # type: ignore[arg-type]
                progress=None if quiet else self.stderr.write,
            )
        except (FileExistsError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        if as_json:
            self.stdout.write(json.dumps(summary, indent=2, ensure_ascii=False))
            return
        self.stdout.write(self._report(summary, time.perf_counter() - started))

    def _report(self, s: dict, seconds: float) -> str:
        counts = s["reflections"]
        weekly = s["weekly"]
        success, repeat = weekly["success_rate"], weekly["repeat_failure_rate"]
        planted = s["planted"]
        csv_name = s["files"]["retrievals"][1]
        lines = [
            f"Demo workspace ({s['scale']}, seed {s['seed']}) written to {s['out']} "
            f"in {seconds:.1f} s",
            f"  window       {s['start']} → {s['end']} ({s['weeks']} weeks), "
            f"{len(s['departments'])} departments, {len(s['agents'])} agents",
            f"  reflections  {counts['total']:,}: protocol {counts['protocol_md']:,} · "
            f"front matter {counts['frontmatter_md']:,} · episodic {counts['episodic_json']:,} · "
            f"heuristic {counts['heuristic_jsonl']:,}",
            f"  tasks        {s['tasks']:,}",
            f"  retrievals   {s['retrievals']:,} ({s['retrievals_csv']:,} in {csv_name}); "
            f"cross-agent {s['cross_agent_share']:.1%}; "
            f"top 10% of reflections take {s['top_decile_retrieval_share']:.0%}",
            f"  success      {_fmt(_mean(success[:4]))} (first 4 weeks) → "
            f"{_fmt(_mean(success[21:25]))} (weeks 22-25) → {_fmt(_mean(success[-4:]))} "
            "(last 4 weeks)",
            f"  repeat fail  {_fmt(_mean(repeat[:4]))} → {_fmt(_mean(repeat[21:26]))} → "
            f"{_fmt(_mean(repeat[-4:]))}",
            f"  planted      {len(planted['duplicates'])} duplicates · "
            f"{len(planted['outdated'])} outdated · {len(planted['echo'])} echo chambers · "
            f"{len(planted['unsafe'])} unsafe (see planted.json)",
        ]
        return "\n".join(lines)
