"""The demo workspace: same bytes for a seed, every file importable, the planted shapes in place."""

from __future__ import annotations

import collections
import random
import re
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from demo.library import content_problems
from demo.workspace import TODAY, UNSAFE_KINDS, write_workspace
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

# What the security scanner must catch; the planted reflections are the only ones allowed to match.
SCANNER = {
    "aws_key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "bearer_token": re.compile(r"\bBearer\s+[A-Za-z0-9._~+/=-]{20,}"),
    "email": re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"),
    "phone": re.compile(r"\+\d{1,3}(?:[ .-]?\d{2,4}){3,4}|\b\d{3}[ .-]\d{3}[ .-]\d{4}\b"),
    "internal_url": re.compile(
        r"https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b|\blocalhost\b|\.(?:internal|local|corp|lan)\b"
    ),
    "prompt_injection": re.compile(
        r"(?i)\b(?:ignore|disregard)\b.{0,30}\b(?:previous|prior|above)\b.{0,20}\binstructions\b"
    ),
}
# Words that suggest secrets or steering even without a full match: no clean text uses them.
SUSPICIOUS = re.compile(
    r"(?i)\b(?:password|passwd|secret|api[ _-]?key|private key|token|system prompt|you are now"
    r"|ignore|disregard)\b|<[a-z/!]"
)
PROTOCOL_PATH = re.compile(
    r"memory/reflections/(?P<agent>[a-z0-9-]+)/(?P<date>\d{4}-\d{2}-\d{2})-(?P<title>[a-z0-9-]+)\.md"
)
FRONTMATTER_PATH = re.compile(
    r"memory/reflexions/(\d{4})-(\d{2})/(\d{2})-(?P<task>[a-z]{3}-\d{8}-\d{4})\.md"
)
EPISODIC_PATH = re.compile(
    r"\.aiwg/ralph/reflections/(?P<loop>ralph-[a-z0-9-]+)/(?P<n>\d{3})\.json"
)
HEURISTIC_PATH = re.compile(r"heuristics/[a-z0-9-]+\.jsonl#scenario_[a-z]{3}_\d{8}_[a-z0-9]{6}")
SHA256 = re.compile(r"[0-9a-f]{64}")


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


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """These tests touch no database: replace the project-wide Django settings fixture."""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return generate(tmp_path_factory, "small")


@pytest.fixture(scope="module")
def default(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return generate(tmp_path_factory, "default")


@pytest.fixture(params=["small", "default"])
def any_ws(request: pytest.FixtureRequest) -> Workspace:
    return request.getfixturevalue(request.param)


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


# -- the generator itself -----------------------------------------------------------------------


def test_content_library_is_sound():
    assert content_problems() == []


def test_small_scale_generates_in_under_two_seconds(tmp_path):
    started = time.perf_counter()
    write_workspace(tmp_path / "ws", scale="small")
    assert time.perf_counter() - started < 2.0


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    first = write_workspace(tmp_path / "a", scale="small", seed=11)
    second = write_workspace(tmp_path / "b", scale="small", seed=11)
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    assert {**first, "out": ""} == {**second, "out": ""}


def test_another_seed_writes_other_content(tmp_path):
    write_workspace(tmp_path / "a", scale="small", seed=11)
    write_workspace(tmp_path / "b", scale="small", seed=12)
    assert tree(tmp_path / "a") != tree(tmp_path / "b")


def test_a_rerun_replaces_its_own_workspace_without_leftovers(tmp_path):
    write_workspace(tmp_path / "ws", scale="small", seed=1)
    write_workspace(tmp_path / "ws", scale="small", seed=2)
    write_workspace(tmp_path / "fresh", scale="small", seed=2)
    assert tree(tmp_path / "ws") == tree(tmp_path / "fresh")


def test_a_directory_holding_someone_elses_reflections_is_refused(tmp_path):
    theirs = tmp_path / "ws" / "memory" / "reflections" / "agent" / "2026-01-01-mine.md"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("# Reflection: …\n")
    with pytest.raises(FileExistsError, match="choose an empty directory"):
        write_workspace(tmp_path / "ws", scale="small")
    assert theirs.exists()


def test_an_unknown_scale_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown scale 'huge'"):
        write_workspace(tmp_path, scale="huge")


def test_a_late_start_ends_the_window_on_today(tmp_path):
    summary = write_workspace(tmp_path, scale="small", start=TODAY - timedelta(days=20))
    assert summary["end"] == TODAY.isoformat()
    assert summary["tasks"] > 0 and summary["reflections"]["total"] > 0


def test_the_summary_and_planted_json_agree(any_ws: Workspace):
    import json

    planted = json.loads((any_ws.root / "planted.json").read_text())
    for key in ("duplicates", "outdated", "echo", "unsafe"):
        assert planted[key] == any_ws.planted[key]
    assert planted["agents"] == any_ws.summary["agents"]


# -- every file imports -------------------------------------------------------------------------


def test_every_reflection_and_log_line_imports_without_a_rejection(any_ws: Workspace):
    assert any_ws.rejections == []
    found = collections.Counter(r.format for r in any_ws.reflections.values())
    counts = any_ws.summary["reflections"]
    assert {fmt: found[fmt] for fmt in FORMATS} == {fmt: counts[fmt] for fmt in FORMATS}
    assert all(found[fmt] > 0 for fmt in FORMATS)
    assert len(any_ws.tasks) == any_ws.summary["tasks"]
    assert len(any_ws.retrievals) == any_ws.summary["retrievals"]


def test_files_follow_the_path_conventions(any_ws: Workspace):
    tasks = {t.task_id: t for t in any_ws.tasks}
    names: dict[str, set[str]] = collections.defaultdict(set)
    for path, r in any_ws.reflections.items():
        if r.format == FORMAT_PROTOCOL:
            m = PROTOCOL_PATH.fullmatch(path)
            assert m, path
            assert m["agent"] == r.agent and m["date"] == r.created_at.date().isoformat()
            assert len(m["title"].split("-")) <= 5, path
            names[r.agent].add(m["title"])
        elif r.format == FORMAT_FRONTMATTER:
            m = FRONTMATTER_PATH.fullmatch(path)
            assert m, path
            task = tasks[m["task"]]  # the reflection is about a task the log knows
            assert (task.agent, task.department, task.task_type, task.outcome) == (
                r.agent, r.department, r.task_type, r.outcome,
            )  # fmt: skip
            assert task.confidence_at_start == r.confidence
            assert task.finished_at.date() == r.created_at.date()
        elif r.format == FORMAT_EPISODIC:
            m = EPISODIC_PATH.fullmatch(path)
            assert m, path
            assert int(m["n"]) == int(r.external_id.rsplit("/", 1)[1]) + 1
            assert m["loop"].removeprefix("ralph-") in tasks
        else:
            assert HEURISTIC_PATH.fullmatch(path), path
        assert r.agent in any_ws.summary["agents"]


def test_front_matter_sometimes_states_salience_and_names_real_models(default: Workspace):
    fm = [r for r in default.reflections.values() if r.format == FORMAT_FRONTMATTER]
    with_salience = sum(r.salience is not None for r in fm) / len(fm)
    assert 0.2 < with_salience < 0.6
    assert {r.model_used for r in fm} >= {"claude-sonnet-4-5", "gpt-4.1"}
    assert all(r.skills and r.tags for r in fm)


def test_some_protocol_reflections_carry_mars_sections(default: Workspace):
    headings = collections.Counter(
        s["heading"] for r in default.reflections.values() if r.format == FORMAT_PROTOCOL
        for s in r.sections
    )  # fmt: skip
    assert headings["Principle"] > 50 and headings["Procedure"] > 20
    principles = [
        s["body"] for r in default.reflections.values() for s in r.sections
        if s["heading"] == "Principle"
    ]  # fmt: skip
    assert all(p.startswith("I should follow this rule: ") for p in principles)


# -- logs -----------------------------------------------------------------------------------------


def test_each_task_lists_exactly_the_reflections_retrieved_for_it(any_ws: Workspace):
    by_task: dict[str, list[ParsedRetrieval]] = collections.defaultdict(list)
    for r in any_ws.retrievals:
        by_task[r.task_id].append(r)
    tasks = {t.task_id: t for t in any_ws.tasks}
    assert len(tasks) == len(any_ws.tasks)  # task ids are unique
    assert set(by_task) <= set(tasks)
    for task in any_ws.tasks:
        retrieved = sorted(by_task.get(task.task_id, []), key=lambda r: r.rank)
        assert [r.rank for r in retrieved] == list(range(1, len(retrieved) + 1))
        assert [r.reflection_ref for r in retrieved] == task.reflections_injected
        for r in retrieved:
            assert (r.agent, r.department) == (task.agent, task.department)
            assert r.retrieved_at < task.finished_at


def test_retrievals_are_split_between_jsonl_and_csv_without_overlap(any_ws: Workspace):
    logs = sorted(p.name for p in (any_ws.root / "logs").iterdir())
    [csv_name] = [name for name in logs if name.endswith(".csv")]
    assert logs == sorted([csv_name, "retrievals.jsonl", "tasks.jsonl"])
    header = (any_ws.root / "logs" / csv_name).read_text().split("\n", 1)[0]
    assert header == "reflection,retrieved_at,task_id,agent,department,rank,score"
    assert any_ws.summary["retrievals_csv"] > 0
    keys = [(r.task_id, r.rank) for r in any_ws.retrievals]
    assert len(keys) == len(set(keys))


def test_every_reference_resolves_to_a_reflection_created_before_it_was_retrieved(
    any_ws: Workspace,
):
    styles = collections.Counter()
    for r in any_ws.retrievals:
        refl = any_ws.refs[r.reflection_ref]
        assert refl.created_at < r.retrieved_at, r
        if SHA256.fullmatch(r.reflection_ref):
            styles["hash"] += 1
        elif "#" in r.reflection_ref:
            styles["heuristic path"] += 1
        elif r.reflection_ref.startswith("scenario_"):
            styles["scenario id"] += 1
        else:
            styles["path"] += 1
    assert set(styles) == {"hash", "heuristic path", "scenario id", "path"}
    assert styles["path"] > 0.7 * sum(styles.values())


def test_nothing_is_dated_after_today(any_ws: Workspace):
    stamps = [t.finished_at for t in any_ws.tasks] + [r.retrieved_at for r in any_ws.retrievals]
    stamps += [r.created_at for r in any_ws.reflections.values()]
    assert max(stamps) < END_OF_TODAY
    assert min(stamps) >= datetime.fromisoformat(any_ws.summary["start"]).replace(tzinfo=UTC)


def test_failed_and_partial_tasks_name_a_failure_mode(any_ws: Workspace):
    for t in any_ws.tasks:
        assert bool(t.failure_mode) == (t.outcome != "success"), t
        assert t.tools_used


# -- volumes --------------------------------------------------------------------------------------


def test_small_scale_volumes(small: Workspace):
    s = small.summary
    assert (len(s["departments"]), len(s["agents"]), s["weeks"]) == (2, 3, 8)
    assert 80 <= s["reflections"]["total"] <= 160  # about one a day per department
    assert 250 <= s["tasks"] <= 700


def test_default_scale_volumes(default: Workspace):
    s = default.summary
    assert (len(s["departments"]), len(s["agents"]), s["weeks"]) == (8, 12, 52)
    assert 8_000 <= s["reflections"]["total"] <= 9_500  # ≈ 3 a day per department
    assert 40 <= s["tasks"] / 364 <= 60
    assert s["retrievals"] <= 300_000
    shares = {f: s["reflections"][f] / s["reflections"]["total"] for f in FORMATS}
    assert 0.35 <= shares[FORMAT_PROTOCOL] <= 0.45
    assert 0.30 <= shares[FORMAT_FRONTMATTER] <= 0.40
    assert 0.07 <= shares[FORMAT_EPISODIC] <= 0.13
    assert 0.11 <= shares[FORMAT_HEURISTIC] <= 0.19
    episodic = [r for r in default.reflections.values() if r.format == FORMAT_EPISODIC]
    assert sum(r.department == "delivery" for r in episodic) > 0.5 * len(episodic)
    per_dept = collections.Counter(default.department(r) for r in default.reflections.values())
    assert all(900 <= n <= 1_300 for n in per_dept.values()), per_dept


# -- learning curves (DOMAIN §7) ------------------------------------------------------------------


def test_weekly_success_climbs_from_071_to_083_and_saturates(default: Workspace):
    success = weekly_rates(default, lambda t: t.outcome == "success")
    assert len(success) == 52
    assert mean(success[:4]) == pytest.approx(0.71, abs=0.05)
    assert mean(success[21:25]) == pytest.approx(0.83, abs=0.04)  # weeks 22 to 25
    assert mean(success[-4:]) == pytest.approx(0.83, abs=0.05)
    assert mean(success[-12:]) >= mean(success[21:25]) - 0.01  # saturates, does not fall back
    partial = weekly_rates(default, lambda t: t.outcome == "partial")
    assert 0.08 <= mean(partial) <= 0.10


def test_repeat_failure_rate_falls_from_034_to_009_to_007(default: Workspace):
    rates = repeat_failure_rates(default)
    assert mean(rates[:4]) == pytest.approx(0.34, abs=0.05)
    assert mean(rates[21:26]) == pytest.approx(0.09, abs=0.03)  # around week 24
    assert mean(rates[-4:]) == pytest.approx(0.07, abs=0.03)
    assert mean(rates[:4]) > mean(rates[10:14]) > mean(rates[21:26]) > mean(rates[-8:]) - 0.01


def test_the_generators_own_curve_is_the_reference_computation(any_ws: Workspace):
    assert any_ws.summary["weekly"]["repeat_failure_rate"] == [
        None if r is None else round(r, 4) for r in repeat_failure_rates(any_ws)
    ]


# -- retrieval shape ------------------------------------------------------------------------------


def test_about_fifteen_percent_of_retrievals_cross_agents(default: Workspace):
    cross = [default.refs[r.reflection_ref].agent != r.agent for r in default.retrievals]
    assert mean(cross) == pytest.approx(0.15, abs=0.03)
    other_dept = [
        default.department(default.refs[r.reflection_ref]) != r.department
        for r in default.retrievals
    ]
    assert 0.02 < mean(other_dept) < mean(cross)


def test_retrievals_are_zipf_skewed(any_ws: Workspace):
    counts = collections.Counter(
        any_ws.refs[r.reflection_ref].source_path for r in any_ws.retrievals
    )
    ranked = sorted((counts[p] for p in any_ws.reflections), reverse=True)
    top = ranked[: len(ranked) // 10]
    assert sum(top) > 0.55 * sum(ranked)


# -- planted items --------------------------------------------------------------------------------


def test_planted_counts(small: Workspace, default: Workspace):
    def sizes(ws: Workspace) -> dict[str, int]:
        return {key: len(items) for key, items in ws.planted.items()}

    d = sizes(default)
    assert 40 <= d["duplicates"] <= 60
    assert 25 <= d["outdated"] <= 30
    assert 10 <= d["echo"] <= 12
    assert d["unsafe"] == 6
    s = sizes(small)
    assert s["unsafe"] == 2 and all(s[key] >= 1 for key in s)


def test_outdated_lessons_name_a_tool_tasks_stop_using(default: Workspace):
    retired = {t["tool"]: t for t in default.summary["retired_tools"]}
    planted = default.planted["outdated"]
    assert {o["tool"] for o in planted} == set(retired)
    used_before, used_after = collections.Counter(), collections.Counter()
    for t in default.tasks:
        for tool in t.tools_used:
            if tool in retired:
                cutoff = date.fromisoformat(retired[tool]["retired_on"])
                (used_before if t.finished_at.date() < cutoff else used_after)[tool] += 1
    assert set(used_before) == set(retired) and not used_after
    retrieved_after = 0
    for o in planted:
        r = default.reflections[o["path"]]
        cutoff = datetime.fromisoformat(o["retired_on"]).replace(tzinfo=UTC)
        assert o["tool"] in r.tools and r.created_at < cutoff
        retrieved_after += any(
            default.refs[x.reflection_ref] is r and x.retrieved_at >= cutoff
            for x in default.retrievals
        )
    assert retrieved_after >= 0.9 * len(planted)  # still retrieved after the tool is gone


def test_only_outdated_lessons_name_tools_no_recent_task_uses(default: Workspace):
    end = max(t.finished_at for t in default.tasks)
    recent = {tool for t in default.tasks if t.finished_at > end - timedelta(days=60)
              for tool in t.tools_used}  # fmt: skip
    outdated = {o["path"] for o in default.planted["outdated"]}
    for path, r in default.reflections.items():
        stale = set(r.tools) - recent
        if path in outdated:
            assert stale, path
        else:
            assert not stale, (path, stale)


def test_echo_chambers_are_retrieved_often_hurt_their_tasks_and_get_repeated(default: Workspace):
    counts = collections.Counter(
        default.refs[r.reflection_ref].source_path for r in default.retrievals
    )
    by_dept: dict[str, list[int]] = collections.defaultdict(list)
    for path, r in default.reflections.items():
        by_dept[default.department(r)].append(counts[path])
    worse = 0
    for echo in default.planted["echo"]:
        seed = default.reflections[echo["path"]]
        threshold = sorted(by_dept[echo["department"]], reverse=True)[99]
        assert counts[echo["path"]] > threshold  # in the department's all-time top 100
        injected = [
            t for t in default.tasks
            if any(default.refs[ref] is seed for ref in t.reflections_injected)
        ]  # fmt: skip
        ids = {t.task_id for t in injected}
        dept_tasks = [t for t in default.tasks if t.department == echo["department"]]
        same_type = [
            t for t in dept_tasks if t.task_type == echo["task_type"] and t.task_id not in ids
        ]
        rate = mean([t.outcome == "success" for t in injected])
        assert rate < mean([t.outcome == "success" for t in dept_tasks])
        worse += rate < mean([t.outcome == "success" for t in same_type])
        assert 2 <= len(echo["followers"]) <= 4
        action = echo["rule"].split(", ", 1)[1].rstrip(".")
        for path in echo["followers"]:
            follower = default.reflections[path]
            assert follower.created_at > seed.created_at and follower.agent == seed.agent
            assert action.lower() in follower.original_text.lower()
    assert worse >= len(default.planted["echo"]) - 1


def test_duplicates_repeat_an_earlier_lesson_in_lightly_reworded_text(default: Workspace):
    groups: dict[tuple, list[ParsedReflection]] = collections.defaultdict(list)
    planted = {d["path"] for d in default.planted["duplicates"]}
    planted |= {d["duplicate_of"] for d in default.planted["duplicates"]}
    for path, r in default.reflections.items():
        if path not in planted and r.task_type:
            groups[(r.department, r.task_type, r.kind, r.format)].append(r)
    rng = random.Random(5)
    baseline = []
    for members in groups.values():
        for _ in range(min(30, len(members) // 2)):
            a, b = rng.sample(members, 2)
            baseline.append(jaccard(words(a), words(b)))
    assert sum(j >= 0.8 for j in baseline) < 0.03 * len(baseline)  # normal pairs rarely read alike
    cross_format = []
    for d in default.planted["duplicates"]:
        dup, original = default.reflections[d["path"]], default.reflections[d["duplicate_of"]]
        assert dup.created_at - original.created_at >= timedelta(days=10)
        assert default.department(dup) == default.department(original)
        assert dup.kind == original.kind
        assert dup.original_text != original.original_text
        similarity = jaccard(words(dup), words(original))
        if dup.format == original.format:
            assert similarity >= 0.8, d
        else:
            # Another format frames the lesson differently: the shorter text sits inside the other.
            a, b = words(dup), words(original)
            cross_format.append(len(a & b) / min(len(a), len(b)))
    assert len(cross_format) >= 5  # sometimes the lesson comes back in another format
    assert min(cross_format) >= 0.6
    assert statistics.median(cross_format) >= 0.8 > 2 * statistics.median(baseline)


@pytest.mark.parametrize("scale", ["small", "default"])
def test_only_the_planted_reflections_hold_secrets_personal_data_or_injections(scale, request):
    ws: Workspace = request.getfixturevalue(scale)
    planted = {u["path"]: u["kind"] for u in ws.planted["unsafe"]}
    assert sorted(planted.values()) == sorted(UNSAFE_KINDS[: len(planted)])
    for path, r in ws.reflections.items():
        text = r.original_text
        found = {kind for kind, pattern in SCANNER.items() if pattern.search(text)}
        if path in planted:
            assert planted[path] in found, (path, found)
        else:
            assert not found, (path, found)
            assert not SUSPICIOUS.search(text), (path, SUSPICIOUS.search(text))
