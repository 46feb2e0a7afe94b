"""Every file of the demo workspace imports, follows the path conventions, and the logs agree."""

from __future__ import annotations

import collections
import re
from datetime import UTC, datetime

from reflections.importers.base import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_PROTOCOL,
    ParsedRetrieval,
)
from tests.demo.workspace.support import END_OF_TODAY, FORMATS, Workspace

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
