"""What bench/signals.py measures on: each corpus's truth (a demo seed's planted.json or a
corpus's truth.json) and its databases, built by the product's own commands."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO_QUARTERS = ("2026Q1", "2026Q2", "2026Q3", "2026Q4", "2027Q1")


# ------------------------------------------------------------------ truth


class DemoTruth:
    """planted.json of a demo workspace."""

    def __init__(self, workspace: Path):
        planted = json.loads((workspace / "planted.json").read_text(encoding="utf-8"))
        self.echo = {e["path"] for e in planted["echo"]}
        self.echo |= {f for e in planted["echo"] for f in e["followers"]}
        self.retired = {
            o["path"]: date.fromisoformat(o["retired_on"][:10]) for o in planted["outdated"]
        }
        self.duplicates = {d["path"]: d["duplicate_of"] for d in planted["duplicates"]}
        self.duplicates |= {d["path"]: None for d in planted.get("natural_duplicates", [])}
        self.quarters = DEMO_QUARTERS

    def of(self, path: str, window_end: date) -> dict[str, bool]:
        retired = self.retired.get(path)
        return {
            "echo": path in self.echo,
            "outdated": retired is not None and retired < window_end,
            "duplicate": path in self.duplicates,
        }

    def keep_of(self, path: str) -> str | None:
        return self.duplicates.get(path)


class CorpusTruth:
    """truth.json of an independent corpus: `departments.<d>.echo`, `echo_followers`,
    `outdated`, `duplicates` (groups, earliest first) and `review.quarter`."""

    def __init__(self, corpus: Path):
        truth = json.loads((corpus / "truth.json").read_text(encoding="utf-8"))
        self.echo, self.outdated, self.duplicates = set(), {}, {}
        details = truth.get("details", {})
        for slug, planted in truth["departments"].items():
            self.echo |= set(planted.get("echo", []))
            for followers in planted.get("echo_followers", {}).values():
                self.echo |= set(followers)
            cut_overs = details.get(slug, {}).get("outdated", {})
            for path in planted.get("outdated", []):
                cut = cut_overs.get(path, {}).get("cut_over")
                self.outdated[path] = date.fromisoformat(cut) if cut else date.min
            for paths in planted.get("duplicates", {}).values():
                for path in paths[1:]:
                    self.duplicates[path] = paths[0]
        self.quarters = (truth["review"]["quarter"],)

    def of(self, path: str, window_end: date) -> dict[str, bool]:
        cut = self.outdated.get(path)
        return {
            "echo": path in self.echo,
            "outdated": cut is not None and cut < window_end,
            "duplicate": path in self.duplicates,
        }

    def keep_of(self, path: str) -> str | None:
        return self.duplicates.get(path)


RUN_QUARTER = "2023Q2"  # a real run is imported so that every trial falls in its window
RUN_STARTED_AT = "2023-03-01"


def run_file(folder: Path) -> Path:
    """What a real-run corpus imports: its programming run's .jsonl, or the ALFWorld run folder
    (env_results_trial_<N>.json, named `reflexion…`) inside its .tar.gz, extracted once into
    the system's temporary directory."""
    found = sorted(folder.glob("*.jsonl"))
    archives = sorted(folder.glob("*.tar.gz"))
    if len(found) + len(archives) != 1:
        raise SystemExit(f"{folder}: expected one run (*.jsonl or *.tar.gz)")
    if found:
        return found[0]
    archive = archives[0].resolve()
    target = Path(tempfile.gettempdir()) / f"bench-run-{archive.stem}-{archive.stat().st_size}"
    if not target.exists():
        with tarfile.open(archive) as packed:
            packed.extractall(target.with_suffix(".partial"), filter="data")
        target.with_suffix(".partial").rename(target)
    runs = sorted(p.parent for p in target.glob("reflexion*/env_results_trial_*.json"))
    if not runs:
        raise SystemExit(f"{archive}: no reflexion*/env_results_trial_<N>.json inside")
    return runs[0]


def run_order(run: Path) -> list[str]:
    """The run's problems in the order the importer numbers them: a .jsonl's lines, an
    ALFWorld run's environments (env_<N>) by N."""
    if run.is_dir():
        names = {
            e["name"]
            for f in run.glob("env_results_trial_*.json")
            for e in json.loads(f.read_text())
        }
        return sorted(names, key=lambda name: int(name.rsplit("_", 1)[-1]))
    lines = [
        json.loads(line) for line in run.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    return [str(line.get("task_id") or line.get("name")) for line in lines]


class RunTruth:
    """A real Reflexion run's duplicates as independent readers grouped them: beside the run
    file, `labels-<reader>.json` holds per problem its reflections' lesson groups (1-based
    numbers; corpora/real-runs/LABELLING.md is the brief they followed). A reflection is a
    duplicate when an earlier one of its group exists; the earliest is the one to keep. Reader
    "both" counts only what every reader's labels (labels-*.json) call a duplicate. The run
    plants no echo chamber and no retired tool: those signals have no positives here."""

    def __init__(self, folder: Path, reader: str):
        run = run_file(folder)
        position = {key: number for number, key in enumerate(run_order(run))}
        files = sorted(folder.glob("labels-*.json")) if reader == "both" else []
        files = files or [folder / f"labels-{reader}.json"]
        found = [self._duplicates(run.name, position, path) for path in files]
        self.duplicates = {p: keep for p, keep in found[0].items() if all(p in f for f in found)}
        self.quarters = (RUN_QUARTER,)

    @staticmethod
    def _duplicates(run: str, position: dict[str, int], labels_path: Path) -> dict[str, str]:
        labels = json.loads(labels_path.read_text(encoding="utf-8"))

        def path(task: str, number: int) -> str:
            return f"{run}#{task.replace('/', '-')}/{number}"

        duplicates = {}
        for task, groups in labels["problems"].items():
            for group in groups:
                paths = [path(task, n) for n in sorted(group)]
                duplicates |= {p: paths[0] for p in paths[1:]}
        for task, number, other, other_number in labels.get("cross_problem", []):
            # Written after trial n of the problem on line p: the earlier trial, then line.
            pair = sorted([(number, position[task], task), (other_number, position[other], other)])
            (n0, _, t0), (n1, _, t1) = pair
            duplicates.setdefault(path(t1, n1), path(t0, n0))
        return duplicates

    def of(self, path: str, window_end: date) -> dict[str, bool]:
        return {"echo": False, "outdated": False, "duplicate": path in self.duplicates}

    def keep_of(self, path: str) -> str | None:
        return self.duplicates.get(path)


def run_corpus(corpus: str) -> tuple[Path, str, str] | None:
    """`run:DIR@reader` or `run+SEED:DIR@reader` (the run imported beside demo seed SEED's
    memory, as in an installation with other departments) → (DIR, reader, SEED or "")."""
    kind, _, rest = corpus.partition(":")
    if kind != "run" and not kind.startswith("run+"):
        return None
    folder, _, reader = rest.rpartition("@")
    return Path(folder), reader, kind.removeprefix("run").removeprefix("+")


def truth_of(corpus: str, workspace: Path):
    if corpus.startswith("demo-"):
        return DemoTruth(workspace)
    if run := run_corpus(corpus):
        return RunTruth(run[0], run[1])
    return CorpusTruth(Path(corpus))


# ------------------------------------------------------------------ building


def setup_django(db: Path, code: Path = ROOT) -> None:
    """This process reads the product's models from `db`, with the code at `code`."""
    sys.path.insert(0, str(code))
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()


def manage(db: Path, *args: str, env: dict | None = None) -> None:
    environ = {
        **os.environ,
        **(env or {}),
        "DATABASE_URL": f"sqlite:///{db}",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=environ,
        check=True,
        capture_output=True,
    )


def imported(corpus: str, work: Path, scale: str) -> tuple[Path, Path]:
    """The corpus's workspace and a database it was imported into (built once per work dir)."""
    name = database_name(corpus)
    db = work / f"{name}.sqlite3"
    if corpus.startswith("demo-"):
        workspace = work / f"{name}-workspace"
    elif run := run_corpus(corpus):
        workspace = run[0]
    else:
        workspace = Path(corpus) / "workspace"
    if db.exists():
        return workspace, db
    partial = db.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    run = run_corpus(corpus)
    if run and run[2]:
        _, beside = imported(f"demo-{run[2]}", work, scale)
        shutil.copyfile(beside, partial)
    manage(partial, "migrate", "--noinput", "-v0")
    if corpus.startswith("demo-"):
        seed = corpus.removeprefix("demo-")
        manage(partial, "seed_demo", "--out", str(workspace), "--scale", scale, "--seed", seed)
    if run:
        # One trial a day from RUN_STARTED_AT: every trial inside RUN_QUARTER's window.
        manage(partial, "import_reflexion_run", str(run_file(workspace)), "--no-neighbours",
               "--started-at", RUN_STARTED_AT, "--trial-interval", "1d")  # fmt: skip
    else:
        manage(partial, "import_reflections", str(workspace), "--create-departments")
        manage(partial, "import_events", str(workspace / "logs"))
    partial.rename(db)
    return workspace, db


def with_neighbours(base: Path, backend: str) -> tuple[Path, float]:
    """A copy of the imported database with the backend's neighbours; the seconds they took."""
    db = base.with_name(f"{base.stem}-{backend}.sqlite3")
    if not db.exists():
        partial = db.with_suffix(".partial")
        shutil.copyfile(base, partial)
        manage(partial, "migrate", "--noinput", "-v0")  # a base built by older code
        manage(partial, "compute_neighbours", env={"SIMILARITY_BACKEND": backend})
        partial.rename(db)
    timing = db.with_suffix(".neighbours")
    if not timing.exists():
        started = time.perf_counter()
        scratch = db.with_suffix(".timing")
        shutil.copyfile(db, scratch)
        # --refit: the whole computation, not a fold into the fit the copy already holds.
        manage(scratch, "compute_neighbours", "--refit", env={"SIMILARITY_BACKEND": backend})
        timing.write_text(f"{time.perf_counter() - started:.2f}")
        scratch.unlink()
    return db, float(timing.read_text())


def database_name(corpus: str) -> str:
    """One database per corpus: a run's readers share it."""
    if run := run_corpus(corpus):
        return f"run-{run[0].resolve().name}" + (f"-beside-demo-{run[2]}" if run[2] else "")
    return corpus_name(corpus)


def corpus_name(corpus: str) -> str:
    if corpus.startswith("demo-"):
        return corpus
    if run := run_corpus(corpus):
        return f"{run[0].resolve().name}@{run[1]}" + (f"+d{run[2]}" if run[2] else "")
    path = Path(corpus).resolve()
    return f"{path.parent.name}-{path.name}"
