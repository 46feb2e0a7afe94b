"""What bench/signals.py measures on: each corpus's truth (a demo seed's planted.json or a
corpus's truth.json) and its databases, built by the product's own commands."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
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


def truth_of(corpus: str, workspace: Path):
    return DemoTruth(workspace) if corpus.startswith("demo-") else CorpusTruth(Path(corpus))


# ------------------------------------------------------------------ building


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
    name = corpus_name(corpus)
    db = work / f"{name}.sqlite3"
    if corpus.startswith("demo-"):
        workspace = work / f"{name}-workspace"
    else:
        workspace = Path(corpus) / "workspace"
    if db.exists():
        return workspace, db
    partial = db.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    manage(partial, "migrate", "--noinput", "-v0")
    if corpus.startswith("demo-"):
        seed = corpus.removeprefix("demo-")
        manage(partial, "seed_demo", "--out", str(workspace), "--scale", scale, "--seed", seed)
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


def corpus_name(corpus: str) -> str:
    if corpus.startswith("demo-"):
        return corpus
    path = Path(corpus).resolve()
    return f"{path.parent.name}-{path.name}"
