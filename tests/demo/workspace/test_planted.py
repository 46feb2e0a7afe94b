"""The planted items: duplicates, outdated lessons, echo chambers and unsafe reflections."""

from __future__ import annotations

import collections
import random
import re
import statistics
from datetime import UTC, date, datetime, timedelta

import pytest

from demo.workspace import UNSAFE_KINDS
from reflections.importers.base import ParsedReflection
from tests.demo.workspace.support import Workspace, jaccard, mean, words

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


# -- planted items --------------------------------------------------------------------------------


def test_planted_counts(small: Workspace, default: Workspace):
    def sizes(ws: Workspace) -> dict[str, int]:
        return {key: len(items) for key, items in ws.planted.items()}

    d = sizes(default)
    assert 40 <= d["duplicates"] <= 60
    # Repeats nothing tells apart are recorded, and rare: a task's day is in its text.
    assert 1 <= d.pop("natural_duplicates") <= 0.01 * len(default.reflections)
    assert 25 <= d["outdated"] <= 30
    assert 10 <= d["echo"] <= 12
    assert d["unsafe"] == 6
    s = sizes(small)
    s.pop("natural_duplicates")
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


DAY = re.compile(r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September"
                 r"|October|November|December)\b")  # fmt: skip


def test_a_duplicate_names_the_day_of_its_original_and_a_natural_repeat_is_recorded(
    default: Workspace,
):
    for d in default.planted["duplicates"]:
        dup, original = default.reflections[d["path"]], default.reflections[d["duplicate_of"]]
        assert set(DAY.findall(dup.original_text)) & set(DAY.findall(original.original_text)), d
    planted = {d["path"] for d in default.planted["duplicates"]}
    for d in default.planted["natural_duplicates"]:
        repeat, first = default.reflections[d["path"]], default.reflections[d["duplicate_of"]]
        assert d["path"] not in planted
        assert first.created_at <= repeat.created_at
        assert default.department(repeat) == default.department(first)
        assert repeat.kind == first.kind
        assert set(DAY.findall(repeat.original_text)) == set(DAY.findall(first.original_text))


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
            # Six synonym swaps in a three-sentence protocol lesson read 0.73-0.77 (seed 7).
            assert similarity >= 0.7, d
        else:
            # Another format frames the lesson differently: the shorter text sits inside the other.
            a, b = words(dup), words(original)
            cross_format.append(len(a & b) / min(len(a), len(b)))
    assert len(cross_format) >= 5  # sometimes the lesson comes back in another format
    # Each format pads the lesson with its own sentences about the task (who waited, how the
    # work was split), so the shorter text's words are only mostly inside the other (seed 7:
    # 0.51-0.98, median 0.9).
    assert min(cross_format) >= 0.5
    assert sorted(cross_format)[len(cross_format) // 2] >= 0.8
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
