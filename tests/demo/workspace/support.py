"""Loading a generated demo workspace the way the importers read it, and the reference sums."""

from __future__ import annotations

import collections
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from demo.workspace import TODAY, write_workspace
from reflections.importers.base import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
    ParsedReflection,
    ParsedRetrieval,
    ParsedTask,
    Rejection,
)
from reflections.importers.registry import parse_log_file
from reflections.importers.workspace import parse_paths

# The strictest clock an importer could run on today: the first minute of the real "today".
NOW = datetime(TODAY.year, TODAY.month, TODAY.day, tzinfo=UTC)
END_OF_TODAY = NOW + timedelta(days=1)
FORMATS = (FORMAT_PROTOCOL, FORMAT_FRONTMATTER, FORMAT_EPISODIC, FORMAT_HEURISTIC)


@dataclass
class Workspace:
    root: Path
    summary: dict
    seconds: float
    reflections: dict[str, ParsedReflection] = field(default_factory=dict)
    rejections: list[Rejection] = field(default_factory=list)
    tasks: list[ParsedTask] = field(default_factory=list)
    retrievals: list[ParsedRetrieval] = field(default_factory=list)
    refs: dict[str, ParsedReflection] = field(default_factory=dict)

    @property
    def planted(self) -> dict:
        return self.summary["planted"]

    def department(self, r: ParsedReflection) -> str:
        # Protocol files carry no department: it comes from the agent mapping.
        return r.department or self.summary["agents"][r.agent]

    def week(self, when: datetime) -> int:
        return (when.date() - date.fromisoformat(self.summary["start"])).days // 7


def load(root: Path, summary: dict, seconds: float) -> Workspace:
    ws = Workspace(root, summary, seconds)
    for item in parse_paths([root], now=NOW):
        if isinstance(item, Rejection):
            ws.rejections.append(item)
        else:
            ws.reflections[item.source_path] = item
    for log in sorted((root / "logs").iterdir()):
        kind, items = parse_log_file(log, now=NOW)
        for item in items:
            if isinstance(item, Rejection):
                ws.rejections.append(item)
            elif kind == "task":
                ws.tasks.append(item)
            else:
                ws.retrievals.append(item)
    for r in ws.reflections.values():
        ws.refs[r.source_path] = r
        ws.refs[r.content_hash] = r
        if r.format == FORMAT_HEURISTIC:
            ws.refs[r.external_id] = r
    return ws


def generate(tmp_path_factory: pytest.TempPathFactory, scale: str) -> Workspace:
    root = tmp_path_factory.mktemp(scale)
    started = time.perf_counter()
    summary = write_workspace(root, scale=scale)
    return load(root, summary, time.perf_counter() - started)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def weekly_rates(ws: Workspace, hit) -> list[float]:
    """Share of each ISO week's finished tasks for which `hit(task)` holds."""
    counts: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0])
    for t in ws.tasks:
        c = counts[ws.week(t.finished_at)]
        c[0] += bool(hit(t))
        c[1] += 1
    return [counts[w][0] / counts[w][1] for w in sorted(counts)]


def repeat_failure_rates(ws: Workspace) -> list[float | None]:
    """DOMAIN §7, written out plainly.

    A finished task T is eligible when a failure or partial reflection of the same department and
    task type was created before T finished. T is a repeat failure when it failed with a
    failure_mode that an earlier failed task of the same department and task type already had.
    Weekly rate = repeat failures / eligible tasks among the tasks finished that ISO week.
    """
    first_bad: dict[tuple[str, str], datetime] = {}
    for r in ws.reflections.values():
        if r.outcome in ("failure", "partial") and r.department and r.task_type:
            key = (r.department, r.task_type)
            first_bad[key] = min(first_bad.get(key, r.created_at), r.created_at)
    seen: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    counts: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0])
    for t in sorted(ws.tasks, key=lambda t: t.finished_at):
        key = (t.department, t.task_type)
        failed = t.outcome == "failure" and bool(t.failure_mode)
        if key in first_bad and first_bad[key] < t.finished_at:
            c = counts[ws.week(t.finished_at)]
            c[1] += 1
            c[0] += failed and t.failure_mode in seen[key]
        if failed:
            seen[key].add(t.failure_mode)
    weeks = max(ws.week(t.finished_at) for t in ws.tasks) + 1
    return [counts[w][0] / counts[w][1] if counts[w][1] else None for w in range(weeks)]


def words(r: ParsedReflection) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", " ".join(s["body"] for s in r.sections).lower()))


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b)
