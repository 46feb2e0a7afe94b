"""How well the review signals find what was planted, on the demo and on any corpus with truth.

Usage:
    .venv/bin/python bench/signals.py [--seed 23] [--corpus DIR] [--backend word --backend latent]
                                      [--run DIR@READER] [--run-beside SEED]
                                      [--baseline-ref REF] [--neighbours-at 100000]
                                      [--scale default] [--work DIR] [--misses]

A corpus is either a demo seed (`--seed N`: manage.py seed_demo writes the workspace and its
planted.json) or a directory holding `workspace/` and `truth.json` (`--corpus DIR`), the layout
of an independent signals corpus (docs/signals.md), or a real Reflexion run with readers'
labels (`--run DIR@READER`: the run's .jsonl and `labels-READER.json` beside it, as in
corpora/real-runs/; `--run-beside SEED` also imports it beside a demo seed's memory). For each
corpus the workspace is imported once into a fresh SQLite database by the product's own
commands (import_reflections and import_events, or import_reflexion_run); then, for each
similarity backend, a copy of that database gets its neighbours (compute_neighbours with
SIMILARITY_BACKEND set), a review cycle per department and quarter, and every item scored
(reviews.signals) in a child process.

Printed per corpus, backend and signal: the AUC of the score over the cycle items (how well it
ranks the planted items above the rest; "-" when a class is empty), precision and recall of the
flag (score ≥ the signal's cut), tp / fp / fn and the number of positive items; then the time to
score an item and to compute the neighbours. `--misses` also lists every wrong flag (false
positive or negative) with its score and first reason: for the development corpora only, since
reading a held-out corpus's misses makes it in-sample.

What counts as a positive item:
* echo: a planted echo-chamber seed or one of its followers;
* outdated: a planted outdated lesson whose tool was retired before the cycle's window ended
  (before that the lesson is still true);
* duplicate: a planted duplicate that is not the one to keep (the earliest of its group in a
  truth.json corpus; a planted rewording or a natural repeat on the demo). The one to keep
  is a negative: flagging it would deprecate the reflection the others duplicate.

Demo cycles cover 2026Q1-2027Q1 (the top 100 of each quarter's 90-day window); a truth.json
corpus is reviewed in the quarter its `review.quarter` names.

`--neighbours-at N` also times the vectors and the nearest neighbours alone on N documents (the
first corpus's texts, repeated with a marker word so no two are equal), in one department and
in eight, no database writes. `--baseline-ref REF` also scores every corpus with the product
as it was at a git ref (a worktree in the work directory; with word neighbours, or with each
`--baseline-backend`), in the same run on the same databases, and prints each backend's time an
item against it: `--baseline-ref HEAD --baseline-backend latent` compares a change in the
working tree with the code it changes, on the same neighbours.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from signal_corpora import (
    ROOT,
    corpus_name,
    imported,
    setup_django,
    truth_of,
    with_neighbours,
)

NAMES = ("echo", "outdated", "duplicate")
LABEL = 14  # "@<ref>/<backend>" when the ref is scored with a named backend
DEFAULT_BACKENDS = ("word", "latent")


# ------------------------------------------------------------------ measuring (child)


def auc(scores: list[float], labels: list[bool]) -> float | None:
    if not any(labels) or all(labels):
        return None
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(labels, scores))


def measure(corpus: str, workspace: Path) -> dict:
    """Open the cycles, score every item, compare with the truth (in the child's database)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from reflections.models import Department
    from reviews.models import ReviewCycle
    from reviews.services.cycles import ReviewError, open_cycle
    from reviews.signals import cycle_signals

    truth = truth_of(corpus, workspace)
    reviewer, _ = get_user_model().objects.get_or_create(username="bench-signals")
    reviewer.groups.set([Group.objects.get(name="reviewer")])
    reviewer.departments.set(Department.objects.all())
    for department in Department.objects.order_by("slug"):
        for quarter in truth.quarters:
            if not ReviewCycle.objects.filter(department=department, quarter=quarter).exists():
                with contextlib.suppress(ReviewError):  # nothing retrieved in that window
                    open_cycle(department=department, quarter=quarter, reviewers=[reviewer])
    scores = {name: [] for name in NAMES}
    labels = {name: [] for name in NAMES}
    flags = {name: [] for name in NAMES}
    misses = []  # (signal, "fp" or "fn", cycle, path, score, first reason)
    keep_right = keep_total = items = 0
    started = time.perf_counter()
    for cycle in ReviewCycle.objects.order_by("department__slug", "window_end"):
        for row in cycle_signals(cycle):
            items += 1
            path = row.item.reflection.source_path
            actual = truth.of(path, cycle.window_end.date())
            for name in NAMES:
                signal = getattr(row, name)
                scores[name].append(signal.score)
                flags[name].append(signal.flagged)
                labels[name].append(actual[name])
                if signal.flagged != actual[name]:
                    wrong = "fp" if signal.flagged else "fn"
                    first = signal.reasons[0] if signal.reasons else ""
                    misses.append((name, wrong, cycle.quarter, path, signal.score, first))
            planted_keep = truth.keep_of(path)
            if planted_keep and row.duplicate.flagged:
                keep_total += 1
                keep_right += row.duplicate.keep == planted_keep
    seconds = time.perf_counter() - started
    result = {"corpus": corpus, "items": items, "ms_per_item": round(1000 * seconds / items, 1)}
    for name in NAMES:
        pairs = list(zip(flags[name], labels[name], strict=True))
        tp = sum(f and a for f, a in pairs)
        fp = sum(f and not a for f, a in pairs)
        fn = sum(a and not f for f, a in pairs)
        result[name] = {
            "auc": auc(scores[name], labels[name]),
            "precision": tp / (tp + fp) if tp + fp else None,
            "recall": tp / (tp + fn) if tp + fn else None,
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "positives": sum(labels[name]),
        }
    result["keep"] = f"{keep_right}/{keep_total}"
    result["misses"] = misses
    return result


def child(corpus: str, workspace: Path, db: Path, code: Path = ROOT) -> None:
    setup_django(db, code)
    print(json.dumps(measure(corpus, workspace)))


# ------------------------------------------------------------------ neighbours at scale


def neighbours_at(n: int, db: Path, backend: str, departments: int) -> tuple[float, float]:
    """Seconds to vectorise `n` documents (the corpus's texts, repeated with a marker word so no
    two are equal) and to find their nearest neighbours in `departments` departments of equal
    size, no database writes."""
    code = f"""
import os, sys, time
sys.path.insert(0, {str(ROOT)!r})
os.environ["DATABASE_URL"] = "sqlite:///{db}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
import django
django.setup()
from reflections.services.vectors import documents
from reflections.services.neighbours import department_vectors
from reflections.similarity import nearest_neighbours
from reflections.similarity.backends import backend_named
base = [d.text for d in documents()]
texts = [f"{{base[i % len(base)]}} batch{{i // len(base)}}" for i in range({n})]
backend = backend_named({backend!r}, model_dir=os.environ.get("EMBEDDING_MODEL_DIR", ""))
size = -(-len(texts) // {departments})
started = time.perf_counter()
blocks = [texts[i:i + size] for i in range(0, len(texts), size)]
if backend.per_department:
    vectors = [backend.fit(b)(b) for b in blocks]
else:
    encoder = backend.fit(texts) if backend.name == "latent" else backend.fit()
    vectors = [encoder(b) for b in blocks]
encoded = time.perf_counter()
for block, found in zip(blocks, vectors):
    found, _ = department_vectors(backend, block, found)
    nearest_neighbours(list(range(len(block))), found, threshold=backend.calibration.floor)
print(encoded - started, time.perf_counter() - encoded)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    vectorise, search = out.strip().splitlines()[-1].split()
    return float(vectorise), float(search)


def baseline_code(ref: str, work: Path) -> Path:
    """A checkout of the product at `ref` (a git worktree in the work directory, named by its
    commit, so a reused work directory never scores a moved ref's old code)."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    target = work / f"code-{commit[:12]}"
    if not target.exists():
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(target), commit],
            check=True,
            capture_output=True,
        )
    return target


def migrations_unknown_to(code: Path) -> list[tuple[str, str]]:
    """(app, the last migration `code` has, or "zero") for each app of today's code whose
    migrations go further than that code's."""
    targets = []
    for folder in sorted(ROOT.glob("*/migrations")):
        names = sorted(p.stem for p in folder.glob("[0-9][0-9][0-9][0-9]_*.py"))
        theirs = sorted(
            p.stem for p in (code / folder.relative_to(ROOT)).glob("[0-9][0-9][0-9][0-9]_*.py")
        )
        if names and names != theirs:
            targets.append((folder.parent.name, theirs[-1] if theirs else "zero"))
    return targets


def scored_by(code: Path, corpus: str, workspace: Path, db: Path, backend: str) -> dict:
    """Open the cycles and score every item with the product at `code` on a copy of `db`."""
    scored = db.with_name(f"{db.stem}-scored.sqlite3")
    for leftover in (Path(f"{scored}{x}") for x in ("-wal", "-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(db, scored)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{scored}", "DJANGO_LOG_LEVEL": "WARNING"}
    # The database as that code knows it: today's code unapplies what older code never had
    # (a NOT NULL column it would not fill), then that code applies what it has.
    for app, target in migrations_unknown_to(code):
        subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "migrate", app, target, "--noinput", "-v0"],
            check=True,
            capture_output=True,
            env=env,
        )
    subprocess.run(
        [sys.executable, str(code / "manage.py"), "migrate", "--noinput", "-v0"],
        check=True,
        capture_output=True,
        env=env,
    )
    command = [sys.executable, __file__, "--child", corpus, "--workspace", str(workspace)]
    command += ["--db", str(scored), "--code", str(code)]
    out = subprocess.run(
        command,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "SIMILARITY_BACKEND": backend},
    ).stdout
    for leftover in (scored, *(Path(f"{scored}{x}") for x in ("-wal", "-shm"))):
        leftover.unlink(missing_ok=True)
    return json.loads(out.strip().splitlines()[-1])


def print_result(corpus: str, label: str, result: dict, extra: str, misses: bool) -> None:
    for name in NAMES:
        r = result[name]
        print(
            f"{corpus_name(corpus)[:18]:<18} {label:<{LABEL}} {name:<9} {show(r['auc']):>5} "
            f"{show(r['precision']):>5} {show(r['recall']):>5} {r['tp']:>4} "
            f"{r['fp']:>4} {r['fn']:>4} {r['positives']:>4}"
        )
    print(
        f"{'':<18} {label:<{LABEL}} {result['items']} items, "
        f"{result['ms_per_item']} ms an item{extra}"
        f"; duplicate keep = the truth's for {result['keep']}"
    )
    for name, wrong, quarter, path, score, reason in result.get("misses", []) if misses else ():
        print(f"{'':<18} {label:<{LABEL}} {name:<9} {wrong} {quarter} {score:.3f} {path}: {reason}")


# ------------------------------------------------------------------ main


def show(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, action="append", default=[], help="a demo seed")
    parser.add_argument("--corpus", action="append", default=[], help="DIR with truth.json")
    parser.add_argument(
        "--run",
        action="append",
        default=[],
        help="DIR@READER: a real Reflexion run's .jsonl and labels-READER.json (READER both: "
        "what every reader's labels agree on)",
    )
    parser.add_argument(
        "--run-beside",
        type=int,
        action="append",
        default=[],
        help="also import each --run beside this demo seed's memory (one latent fit for both)",
    )
    parser.add_argument(
        "--backend", action="append", help=f"default: {' and '.join(DEFAULT_BACKENDS)}"
    )
    parser.add_argument("--scale", default="default", help="demo scale")
    parser.add_argument("--work", type=Path, help="reuse this directory (kept afterwards)")
    parser.add_argument("--neighbours-at", type=int, default=0)
    parser.add_argument(
        "--baseline-ref",
        help="also score with the product at this git ref, in the same run",
    )
    parser.add_argument(
        "--baseline-backend",
        action="append",
        help="the backend(s) the ref is scored with (default: word, the product's before latent)",
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="list every wrong flag (reading a held-out corpus's misses makes it in-sample)",
    )
    parser.add_argument("--code", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--workspace", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.workspace, args.db, args.code)
        return
    corpora = [f"demo-{seed}" for seed in args.seed] + [str(Path(c).resolve()) for c in args.corpus]
    for run in args.run:
        folder, _, reader = run.rpartition("@")
        labels = Path(folder) / f"labels-{reader}.json"
        if not folder or not (labels.is_file() or reader == "both"):
            parser.error(f"--run {run}: expected DIR@READER with DIR/labels-READER.json")
        corpora.append(f"run:{Path(folder).resolve()}@{reader}")
        corpora += [f"run+{seed}:{Path(folder).resolve()}@{reader}" for seed in args.run_beside]
    if not corpora:
        corpora = ["demo-23"]
    backends = args.backend or list(DEFAULT_BACKENDS)
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-signals-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"signals bench, {datetime.now():%Y-%m-%d %H:%M}, work directory {work}")
    header = (
        f"{'corpus':<18} {'backend':<{LABEL}} {'signal':<9} {'AUC':>5} {'P':>5} {'R':>5} "
        f"{'tp':>4} {'fp':>4} {'fn':>4} {'pos':>4}"
    )
    print(header)
    baseline = baseline_code(args.baseline_ref, work) if args.baseline_ref else None
    for corpus in corpora:
        workspace, base = imported(corpus, work, args.scale)
        times = {}
        for backend in (args.baseline_backend or ["word"]) if baseline is not None else ():
            db, _ = with_neighbours(base, backend)
            old = scored_by(baseline, corpus, workspace, db, backend)
            times.setdefault("baseline", old["ms_per_item"])
            label = f"@{args.baseline_ref[:7]}" + (f"/{backend}" if args.baseline_backend else "")
            print_result(corpus, label, old, f" (the product at that ref, {backend})", args.misses)
        for backend in backends:
            db, neighbour_seconds = with_neighbours(base, backend)
            result = scored_by(ROOT, corpus, workspace, db, backend)
            times[backend] = result["ms_per_item"]
            print_result(
                corpus,
                backend,
                result,
                f"; neighbours {neighbour_seconds:.1f} s (compute_neighbours, whole process)",
                args.misses,
            )
        if "baseline" in times:
            ratios = ", ".join(
                f"{name} {ms / times['baseline']:.2f}x"
                for name, ms in times.items()
                if name != "baseline"
            )
            print(f"{'':<18} scoring time an item against @{args.baseline_ref[:7]}: {ratios}")
        if args.neighbours_at and corpus == corpora[0]:  # once: the texts matter little
            for backend in backends:
                for departments in (1, 8):
                    vectorise, search = neighbours_at(
                        args.neighbours_at, base, backend, departments
                    )
                    print(
                        f"{'':<18} {backend:<9} {args.neighbours_at:,} documents in "
                        f"{departments} department(s): vectors {vectorise:.1f} s, nearest "
                        f"neighbours {search:.1f} s"
                    )


if __name__ == "__main__":
    main()
