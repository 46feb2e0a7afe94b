"""The demo's review cycles: past quarters' decided and closed inside their quarters, this
quarter's open.

Past verdicts are the ones the demo's planted flaws call for (planted.json); this quarter's
cycles wait for the demo reviewer. A past cycle is replayed at its own dates — opened on the
third day of its quarter, decided over the next three weeks, closed on day 29 — so the review
markers on the learning curves spread over the year instead of bunching on the day the demo
was built. The replay sets the clock the review services read (every row they write, history
included, carries the quarter's dates); nothing is changed afterwards.
"""

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from unittest import mock

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from demo.errors import DemoSeedError
from demo.judge import JUDGE, seed_demo_judge
from reflections.access import REVIEWER as ROLE_REVIEWER
from reflections.models import Department, Reflection
from reviews.models import ReviewCycle, Verdict
from reviews.policies import quarter_start
from reviews.services.cycles import ReviewError, close_cycle, open_cycle
from reviews.services.evidence import prepare_cycle
from reviews.services.verdicts import decide

REVIEWER = "reviewer-demo"
# Who reviewed the past quarters of departments the demo reviewer does not work in: an
# account nobody signs in to (no usable password), a reviewer of just those departments.
PAST_REVIEWER = "reviewer-past"
# Past quarters' cycles, closed inside their quarters: a few departments a quarter.
CLOSED = (
    ("2026Q1", ["delivery", "content"]),
    ("2026Q2", ["lead-generation", "organization"]),
    ("2026Q3", ["sales", "setting", "voice-channel"]),
)
OPEN = ("2026Q4", ["sales", "finance"])
OPENED_ON_DAY, DECIDED_OVER_DAYS, CLOSED_ON_DAY = 2, 21, 28  # days after the quarter starts


@contextmanager
def clock_at(moment: datetime) -> Iterator[None]:
    """The review services' clock (django.utils.timezone.now) reads `moment` inside."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def quarter_moment(quarter: str, days: float) -> datetime:
    """`days` after midnight UTC on the quarter's first day (09:00 UTC on day 0)."""
    first = datetime.combine(quarter_start(quarter), time(9), tzinfo=UTC)
    return first + timedelta(days=days)


def planted_verdicts(planted: dict) -> dict[str, tuple[str, str | None, str]]:
    """source path → (verdict, original's source path, note) for every planted flaw."""
    verdicts = {}
    for d in planted.get("duplicates", []):
        verdicts[d["path"]] = (Verdict.DUPLICATE, d["duplicate_of"], "same lesson, reworded")
    for o in planted.get("outdated", []):
        note = f"names {o['tool']}, retired {o['retired_on']} (now {o['replaced_by']})"
        verdicts[o["path"]] = (Verdict.OUTDATED, None, note)
    for e in planted.get("echo", []):
        for path in [e["path"], *e.get("followers", [])]:
            verdicts[path] = (Verdict.ECHO_CHAMBER, None, f"repeats a flawed rule: {e['rule']}")
    return verdicts


def seed_demo_reviews(
    workspace: Path, *, progress: Callable[[str], None] | None = None, past_only: bool = False
) -> None:
    """Open the demo's cycles that do not exist yet (existing ones are left alone): past
    quarters' replayed, decided and closed at their own dates, this quarter's left open;
    `progress` hears about every cycle closed or opened.

    `past_only` replays the past quarters alone, by the past reviewer when the demo's users do
    not exist yet. `make demo` does that before it replays a year of decay (apply_policies
    --backfill-from): a verdict recorded at its quarter's date after the decay history was
    written would sit under later decay changes that a deprecated reflection never gets, and
    the active set replayed from the history would disagree with the reflections' states."""
    say = progress or (lambda message: None)
    planted_file = Path(workspace) / "planted.json"
    if not planted_file.is_file():
        raise DemoSeedError(f"{planted_file} is missing: run seed_demo first")
    reviewer = get_user_model().objects.filter(username=REVIEWER).first()
    if reviewer is None and not past_only:
        raise DemoSeedError(f"{REVIEWER} is missing: run create_demo_users first")
    verdicts = planted_verdicts(json.loads(planted_file.read_text(encoding="utf-8")))
    rng = random.Random(7)
    past = _past_reviewer({slug for _, slugs in CLOSED for slug in slugs})
    for quarter, slugs in CLOSED:
        for slug in slugs:
            mine = reviewer is not None and reviewer.departments.filter(slug=slug).exists()
            cycle = _replay(slug, quarter, reviewer if mine else past, verdicts, rng)
            if cycle is not None:
                say(f"Closed demo cycle {cycle} on {cycle.closed_at:%Y-%m-%d} with its verdicts")
    if past_only:
        return
    quarter, slugs = OPEN
    for slug in slugs:
        try:
            cycle = _open(slug, quarter, reviewer)
        except ReviewError as error:  # a small demo ends before the quarter
            say(f"No demo cycle for {slug} {quarter}: {error}")
            continue
        if cycle is not None:
            say(f"Opened demo cycle {cycle} for {REVIEWER}")
    # The queue reads evidence prepared when a cycle opens; the demo runs no task worker, so
    # its open cycles are prepared here (those already current are skipped).
    for cycle in ReviewCycle.objects.filter(closed_at__isnull=True).order_by("pk"):
        say(f"Prepared the evidence of {prepare_cycle(cycle, stale_only=True)} items of {cycle}")
    say(f"Judge {JUDGE}'s pre-tags: {seed_demo_judge(verdicts)}")


def _past_reviewer(slugs: set[str]):
    """The past quarters' reviewer, a member of those departments, no usable password."""
    user, created = get_user_model().objects.get_or_create(username=PAST_REVIEWER)
    if created:
        user.set_unusable_password()
        user.save()
    user.groups.set([Group.objects.get_or_create(name=ROLE_REVIEWER)[0]])
    user.departments.add(*Department.objects.filter(slug__in=slugs))
    return user


def _replay(slug: str, quarter: str, reviewer, verdicts: dict, rng) -> ReviewCycle | None:
    """Open, decide and close a past quarter's cycle at its own dates; None when it exists
    already or the department had nothing retrieved before the quarter (a small demo)."""
    with clock_at(quarter_moment(quarter, OPENED_ON_DAY)):
        try:
            cycle = _open(slug, quarter, reviewer)
        except ReviewError:
            return None
    if cycle is None:
        return None
    items = list(cycle.items.select_related("reflection").order_by("rank"))
    for n, item in enumerate(items):
        verdict, original, note = verdicts.get(
            item.reflection.source_path, (Verdict.KEEP, None, "")
        )
        original_id = None
        if original:
            original_id = (
                Reflection.objects.filter(source_path=original).values_list("pk", flat=True).first()
            )
            if original_id is None:
                verdict, note = Verdict.ECHO_CHAMBER, f"duplicates {original}"
        at = quarter_moment(quarter, OPENED_ON_DAY + 1 + DECIDED_OVER_DAYS * n / len(items))
        with clock_at(at):
            decide(
                item_id=item.pk,
                user=reviewer,
                verdict=verdict,
                version=item.version,
                duplicate_of=original_id,
                note=note,
                # The demo records the planted truth knowingly: no guard to confirm.
                confirmed=True,
                # Demo effort: one to five minutes an item.
                shown_at=at - timedelta(seconds=rng.randint(60, 300)),
            )
    with clock_at(quarter_moment(quarter, CLOSED_ON_DAY)):
        return close_cycle(cycle=cycle, user=None)


def _open(slug: str, quarter: str, reviewer) -> ReviewCycle | None:
    department = Department.objects.filter(slug=slug).first()
    if (
        department is None
        or ReviewCycle.objects.filter(department=department, quarter=quarter).exists()
    ):
        return None
    return open_cycle(department=department, quarter=quarter, reviewers=[reviewer])
