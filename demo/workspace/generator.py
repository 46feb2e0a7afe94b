"""The generator: its state, the setup of types and curves, the day loop and the summary."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from demo.library import DEPARTMENTS, TaskType
from demo.scales import (
    DEPARTMENT_GAIN,
    PARTIAL_SHARE,
    ROUTINE_PARTIAL,
    ROUTINE_SUCCESS,
    ROUTINE_VOLUME,
    SUCCESS_GAIN_24,
    SUCCESS_START,
    TODAY,
    Scale,
    saturation,
)
from demo.workspace.formats import FORMATS, FormatsMixin
from demo.workspace.modes import ModesMixin
from demo.workspace.planting import PlantingMixin
from demo.workspace.rendering import RenderingMixin
from demo.workspace.simulation import SimulationMixin
from demo.workspace.state import ModeState, Pool, Refl

# Written into every generated workspace so a re-run may clear what an earlier run wrote,
# and only that: a directory without it is never emptied.
MARKER = ".reflexion-demo"
OWNED_PATHS = (
    "memory/reflections",
    "memory/reflexions",
    ".aiwg/ralph/reflections",
    "heuristics",
    "logs",
    "planted.json",
)


class Generator(SimulationMixin, ModesMixin, PlantingMixin, RenderingMixin, FormatsMixin):
    """One run of write_workspace: the state the mixins share, set up here, and the loop."""

    def __init__(
        self,
        out: Path,
        cfg: Scale,
        seed: int,
        start: date,
        progress: Callable[[str], None] | None,
    ) -> None:
        self.out, self.cfg, self.seed, self.start = out, cfg, seed, start
        self.progress = progress or (lambda message: None)
        self.days = min(cfg.weeks * 7, (TODAY - start).days + 1)
        if self.days < 7:
            raise ValueError(f"start {start} leaves less than a week before {TODAY}")
        self.rng = random.Random(seed)
        self.depts = [DEPARTMENTS[name] for name in cfg.departments]
        self.agents: dict[str, list[str]] = {}
        self.agent_dept: dict[str, str] = {}
        self.agent_root: dict[str, str] = {}  # a large-scale clone → the library agent it copies
        for dept in self.depts:
            names = []
            for root in cfg.agents.get(dept.name, dept.agents):
                for i in range(cfg.clones):
                    name = root if i == 0 else f"{root}-{i + 1}"
                    names.append(name)
                    self.agent_root[name] = root
                    self.agent_dept[name] = dept.name
            self.agents[dept.name] = names
        self._setup_types()
        self._setup_curves()
        self.retire_day = {
            (d.name, t.slot): max(14, int(t.retire_frac * self.days))
            for d in self.depts
            for t in d.tools.values()
            if t.old_id
        }
        self.pools_type: dict[tuple[str, str], Pool] = {}
        self.pools_agent: dict[str, Pool] = {a: Pool() for a in self.agent_dept}
        for dept in self.depts:
            for tt in dept.types:
                for agent in self.type_agents[(dept.name, tt.name)][0]:
                    self.pools_type[(agent, tt.name)] = Pool()
        self.refls: list[Refl] = []
        self.retrieved: list[int] = []
        self.last_retrieved: list[int | None] = []  # the day each was last retrieved
        self.pending: list[Refl] = []
        self._pending_weight: dict[int, float] = {}
        self.originals: dict[tuple[str, str, str], list[Refl]] = {}
        self.cases: dict[tuple, list] = {}  # lesson and case → (written, reflection) on it
        self.modes: dict[tuple[str, str, str], ModeState] = {}
        self.first_fail_reflection: dict[tuple[str, str], int] = {}
        self.deficit = 0.0
        self.echo_share = {
            (d.name, learning): 0.0 for d in self.depts for learning in (False, True)
        }
        self.task_counter: dict[tuple[str, int], int] = {}
        self.quota_target = {d.name: 0.0 for d in self.depts}
        self.quota_done = {d.name: 0 for d in self.depts}
        self.protocol_names: set[str] = set()
        self.scenario_ids: set[str] = set()
        self.heuristic_lines: dict[str, list[str]] = {}
        self.made_dirs: set[Path] = set()
        self.counts = dict.fromkeys(FORMATS, 0)
        self.kinds = dict.fromkeys(("failure", "partial", "success", "decision"), 0)
        weeks = (self.days + 6) // 7
        self.weekly = {
            key: [0] * weeks
            for key in ("tasks", "success", "partial", "eligible", "repeat", "retrievals")
        }
        self.n_retrievals = 0
        self.n_csv = 0
        self.n_cross = 0
        self.n_tasks = 0
        self.plans: list[dict] = []
        self.planted: dict[str, list[dict]] = {
            "duplicates": [],
            "outdated": [],
            "echo": [],
            "unsafe": [],
        }
        self.echo_by_idx: dict[int, dict] = {}
        self.echo_held: dict[tuple[str, str], int] = {}  # (agent, task type) → echo seed idx
        self.csv_days = min(28, self.days // 2)
        self._plan()

    # -- setup ---------------------------------------------------------------------------------
    def _setup_types(self) -> None:
        self.type_agents: dict[tuple[str, str], tuple[list[str], list[float]]] = {}
        self.type_pick: dict[str, tuple[list[TaskType], list[float]]] = {}
        for dept in self.depts:
            agents = self.agents[dept.name]
            cum, total = [], 0.0
            for tt in dept.types:
                total += tt.weight * (1 if tt.learning else ROUTINE_VOLUME)
                cum.append(total)
                weights = [tt.by.get(self.agent_root[a], 0.0) if tt.by else 1.0 for a in agents]
                if not any(weights):  # the type's usual agents are not in this scale
                    weights = [1.0] * len(agents)
                names = [a for a, w in zip(agents, weights, strict=True) if w]
                weights = [w for w in weights if w]
                acum, atotal = [], 0.0
                for w in weights:
                    atotal += w
                    acum.append(atotal)
                self.type_agents[(dept.name, tt.name)] = (names, acum)
            self.type_pick[dept.name] = (dept.types, cum)

    def _setup_curves(self) -> None:
        """Per department and week: success and partial chances of routine and learning tasks."""
        gains = [DEPARTMENT_GAIN[d.name] for d in self.depts]
        mean_gain = sum(gains) / len(gains)
        weeks = (self.days + 6) // 7
        self.curve: dict[tuple[str, int], tuple[float, float, float, float]] = {}
        for dept, raw in zip(self.depts, gains, strict=True):
            # Half the reference spread: enough to tell departments apart, never below zero.
            gain = SUCCESS_GAIN_24 * (0.5 + 0.5 * raw / mean_gain)
            base = SUCCESS_START + SUCCESS_GAIN_24 - gain
            routine_w = ROUTINE_VOLUME * sum(t.weight for t in dept.types if not t.learning)
            phi = routine_w / (routine_w + sum(t.weight for t in dept.types if t.learning))
            for week in range(weeks):
                f = saturation(week)
                level = min(f, 1.19) / 1.19
                overall = base + gain * f
                routine = ROUTINE_SUCCESS[0] + (ROUTINE_SUCCESS[1] - ROUTINE_SUCCESS[0]) * level
                partial = PARTIAL_SHARE[0] + (PARTIAL_SHARE[1] - PARTIAL_SHARE[0]) * level
                learning = (overall - phi * routine) / (1 - phi)
                learning_partial = (partial - phi * ROUTINE_PARTIAL) / (1 - phi)
                self.curve[(dept.name, week)] = (
                    routine,
                    ROUTINE_PARTIAL,
                    learning,
                    learning_partial,
                )

    # -- output helpers ------------------------------------------------------------------------
    def _prepare_out(self) -> None:
        out = self.out
        if out.exists() and any(out.iterdir()):
            owned = [out / p for p in OWNED_PATHS if (out / p).exists()]
            if owned and not (out / MARKER).exists():
                raise FileExistsError(
                    f"{out} already holds {owned[0].relative_to(out)} that seed_demo did not write;"
                    " choose an empty directory"
                )
            for path in owned:
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink()
        out.mkdir(parents=True, exist_ok=True)
        (out / MARKER).write_text("written by demo.workspace.write_workspace\n", encoding="utf-8")
        (out / "logs").mkdir(parents=True, exist_ok=True)

    def _write(self, rel: str, text: str) -> None:
        path = self.out / rel
        parent = path.parent
        if parent not in self.made_dirs:
            parent.mkdir(parents=True, exist_ok=True)
            self.made_dirs.add(parent)
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)

    # -- main loop -----------------------------------------------------------------------------
    def run(self) -> dict:
        self._prepare_out()
        logs = self.out / "logs"
        first_csv_day = self.start
        last_csv_day = self.start + timedelta(days=self.csv_days - 1)
        self.csv_name = (
            f"logs/retrievals-{first_csv_day.isoformat()}-to-{last_csv_day.isoformat()}.csv"
        )
        self.progress(
            f"{self.cfg.name}: {len(self.depts)} departments, {len(self.agent_dept)} agents, "
            f"{self.days} days from {self.start.isoformat()}"
        )
        with (
            open(logs / "tasks.jsonl", "w", encoding="utf-8", newline="\n") as self.f_tasks,
            open(logs / "retrievals.jsonl", "w", encoding="utf-8", newline="\n") as self.f_ret,
            open(self.out / self.csv_name, "w", encoding="utf-8", newline="\n") as self.f_csv,
        ):
            self.f_csv.write("reflection,retrieved_at,task_id,agent,department,rank,score\n")
            for di in range(self.days):
                self._day(di)
                if (di + 1) % 28 == 0 or di == self.days - 1:
                    self.progress(
                        f"week {di // 7 + 1}/{(self.days + 6) // 7}: {self.n_tasks:,} tasks, "
                        f"{len(self.refls):,} reflections, {self.n_retrievals:,} retrievals"
                    )
        for name, lines in self.heuristic_lines.items():
            self._write(name, "".join(lines))
        return self._finish()

    # -- summary -------------------------------------------------------------------------------
    def _finish(self) -> dict:
        counts = sorted(self.retrieved, reverse=True)
        top = counts[: max(1, len(counts) // 10)]
        weekly = self.weekly
        weeks = len(weekly["tasks"])

        def rate(num: str, den: str) -> list[float | None]:
            return [
                round(weekly[num][w] / weekly[den][w], 4) if weekly[den][w] else None
                for w in range(weeks)
            ]

        planted = {
            "seed": self.seed,
            "scale": self.cfg.name,
            "start": self.start.isoformat(),
            "end": (self.start + timedelta(days=self.days - 1)).isoformat(),
            "agents": dict(sorted(self.agent_dept.items())),
            "retired_tools": [
                {
                    "tool": t.old_id,
                    "phrase": t.old_phrase,
                    "replaced_by": t.id,
                    "department": d.name,
                    "retired_on": (
                        self.start + timedelta(days=self.retire_day[(d.name, t.slot)])
                    ).isoformat(),
                }
                for d in self.depts
                for t in d.tools.values()
                if t.old_id
            ],
            **self.planted,
            "natural_duplicates": self._natural_duplicates(),
        }
        self._write("planted.json", json.dumps(planted, indent=2, ensure_ascii=False) + "\n")
        return {
            "out": str(self.out),
            "scale": self.cfg.name,
            "seed": self.seed,
            "start": planted["start"],
            "end": planted["end"],
            "weeks": weeks,
            "departments": [d.name for d in self.depts],
            "agents": planted["agents"],
            "reflections": {**self.counts, "total": len(self.refls)},
            "kinds": dict(self.kinds),
            "retrievals": self.n_retrievals,
            "retrievals_csv": self.n_csv,
            "tasks": self.n_tasks,
            "files": {
                "tasks": "logs/tasks.jsonl",
                "retrievals": ["logs/retrievals.jsonl", self.csv_name],
                "planted": "planted.json",
            },
            "cross_agent_share": round(self.n_cross / max(1, self.n_retrievals), 4),
            "top_decile_retrieval_share": round(sum(top) / max(1, sum(counts)), 4),
            "weekly": {
                "tasks": weekly["tasks"],
                "success_rate": rate("success", "tasks"),
                "partial_rate": rate("partial", "tasks"),
                "repeat_failure_rate": rate("repeat", "eligible"),
                "eligible": weekly["eligible"],
                "retrievals": weekly["retrievals"],
            },
            "retired_tools": planted["retired_tools"],
            "planted": {**self.planted, "natural_duplicates": planted["natural_duplicates"]},
        }
