"""What the write-back tests share: the sample files' paths, importing them, deciding verdicts."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from reflections.models import Reflection, State
from reflections.services.reflection_import import import_reflections
from reviews.models import ReviewCycle, ReviewItem
from reviews.services.verdicts import decide, undo
from reviews.writeback.deprecation import Deprecation
from tests.factories import UserFactory

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)

FRONTMATTER = "memory/reflexions/2026-05/14-fin-20260514-0031.md"
ORIGINAL = "memory/reflexions/2026-05/21-sal-20260521-0107.md"
EPISODIC = ".aiwg/ralph/reflections/ralph-task-123/001.json"
PROTOCOL = "memory/reflections/researcher-agent/2026-03-12-choose-data-source.md"
HEURISTIC = "heuristics/gaia2-universe-27.jsonl#scenario_universe_27_9aqrhh"


def import_ws(ws: Path):
    return import_reflections(
        create_departments=True, paths=[ws], default_department="research", now=NOW
    )


def make_cycle(department, quarter: str = "2026Q4") -> ReviewCycle:
    return ReviewCycle.objects.create(
        department=department,
        quarter=quarter,
        window_start=datetime(2026, 7, 1, tzinfo=UTC),
        window_end=datetime(2026, 10, 1, tzinfo=UTC),
        opened_at=datetime(2026, 10, 1, tzinfo=UTC),
    )


def deprecate(reflection, verdict: str, *, cycle=None, duplicate_of=None, decided_at=None):
    """What the review service leaves behind after a non-keep verdict."""
    reflection.state, reflection.deprecated_reason = State.DEPRECATED, verdict
    reflection.save(update_fields=["state", "deprecated_reason"])
    cycle = cycle or ReviewCycle.objects.filter(department=reflection.department).first()
    cycle = cycle or make_cycle(reflection.department)
    reviewer = UserFactory(username="rita")
    return ReviewItem.objects.create(
        cycle=cycle,
        rank=cycle.items.count() + 1,
        reflection=reflection,
        retrievals=10,
        last_retrieved_at=datetime(2026, 9, 30, tzinfo=UTC),
        reviewer=reviewer,
        verdict=verdict,
        duplicate_of=duplicate_of,
        decided_at=decided_at or datetime(2026, 10, 5, 9, 30, tzinfo=UTC),
        decided_by=reviewer,
        state_before=State.ACTIVE,
    )


def reflection_at(source_path: str) -> Reflection:
    return Reflection.objects.get(source_path=source_path)


def snapshot(ws: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under the workspace: bytes, mtime (ns) and mode."""
    out = {}
    for path in sorted(ws.rglob("*")):
        if path.is_file():
            info = path.stat()
            out[str(path.relative_to(ws))] = (path.read_bytes(), info.st_mtime_ns, info.st_mode)
    return out


FORMATS = [(FRONTMATTER, "frontmatter_md"), (PROTOCOL, "protocol_md"), (EPISODIC, "episodic_json")]
DEPRECATIONS = [Deprecation("outdated"), Deprecation("duplicate", ORIGINAL)]


def reviewed(reflection, verdict: str, *, duplicate_of=None) -> ReviewItem:
    """A review item decided through the review service, as a reviewer would."""
    department = reflection.department
    cycle = ReviewCycle.objects.filter(department=department).first() or make_cycle(department)
    reviewer = UserFactory(username=f"rev-{department.slug}", roles=["reviewer"])
    reviewer.departments.add(department)
    item = ReviewItem.objects.create(
        cycle=cycle,
        rank=cycle.items.count() + 1,
        reflection=reflection,
        retrievals=10,
        last_retrieved_at=datetime(2026, 9, 30, tzinfo=UTC),
        reviewer=reviewer,
    )
    return decide(
        item_id=item.pk,
        user=reviewer,
        verdict=verdict,
        version=item.version,
        duplicate_of=duplicate_of.pk if duplicate_of else None,
    )


def undone(item: ReviewItem) -> ReviewItem:
    return undo(item_id=item.pk, user=item.reviewer, version=item.version)


def kept(item: ReviewItem) -> ReviewItem:
    return decide(item_id=item.pk, user=item.reviewer, verdict="keep", version=item.version)
