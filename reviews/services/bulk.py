"""Bulk actions on a cycle's items (keep all, duplicate of one original, assign to another
reviewer): one batch, one undo for the whole of it, and each item audited as its own Decision
through the same services a single verdict or reassignment uses."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from reflections.models import Reflection
from reflections.services.state_changes import store_state_changes
from reviews.models import Decision, ReviewBatch, ReviewCycle, ReviewItem, Verdict
from reviews.selectors.cycles import can_manage
from reviews.selectors.originals import guard_warnings_of
from reviews.services.cycles import ReviewError, reassign
from reviews.services.evidence import prepared_figures
from reviews.services.verdicts import (
    NeedsConfirmation,
    check_can_act,
    check_not_quarantined,
    check_original,
    decide,
    record_verdict,
    undo,
)

TEXTS = ("original_text", "body", "sections")
BULK_VERDICTS = {
    ReviewBatch.Action.KEEP: Verdict.KEEP,
    ReviewBatch.Action.DUPLICATE: Verdict.DUPLICATE,
}


def _ranks(ranks) -> str:
    return ", ".join(f"#{r}" for r in sorted(ranks))


def _items(cycle: ReviewCycle, ranks: list[int], *, lock: bool = False) -> list[ReviewItem]:
    if not cycle.is_open:
        raise ReviewError("this review cycle is closed; its verdicts can no longer change")
    if not ranks:
        raise ReviewError("no items selected")
    items = cycle.items.filter(rank__in=ranks).order_by("rank")
    if lock:
        items = items.select_for_update(of=("self",)).select_related("cycle")
    items = list(items)
    missing = set(ranks) - {i.rank for i in items}
    if missing:
        raise ReviewError(f"no items {_ranks(missing)} in this cycle")
    return items


@transaction.atomic
def bulk_verdict(
    *,
    cycle: ReviewCycle,
    user,
    ranks: list[int],
    action: str,
    duplicate_of: int | None = None,
    confirmed: bool = False,
) -> ReviewBatch:
    """Keep all, or mark all duplicates of one original: all or nothing. Only the items'
    reviewer records their verdicts, as one at a time; the duplicate guard's warnings (an
    archived or less-used original) raise NeedsConfirmation, naming the items, unless
    `confirmed`."""
    if action not in BULK_VERDICTS:
        raise ReviewError(f"unknown bulk verdict {action!r}")
    # The items, then their reflections, locked in one statement each, as a single verdict
    # locks its item, then its reflection.
    items = _items(cycle, ranks, lock=True)
    foreign = [i.rank for i in items if i.reviewer_id != user.pk]
    if foreign:
        raise ReviewError(f"{_ranks(foreign)} are assigned to another reviewer; nothing recorded")
    reflections = (
        Reflection.objects.select_for_update()
        .defer(*TEXTS)  # a verdict reads a reflection's state and path, never its text
        .in_bulk([i.reflection_id for i in items])
    )
    for item in items:
        item.reflection = reflections[item.reflection_id]  # as locked: what the guard reads
        try:
            check_can_act(item, user, item.version)  # the cycle open, the item theirs
            check_not_quarantined(item.reflection)
        except ReviewError as error:
            raise ReviewError(f"#{item.rank}: {error}; nothing recorded") from None
    verdict = BULK_VERDICTS[action]
    original, warnings = None, {}
    if verdict == Verdict.DUPLICATE:
        if duplicate_of is None:
            raise ReviewError("name the original the selected items duplicate")
        items = [i for i in items if i.reflection_id != duplicate_of]  # not itself
        if not items:
            raise ReviewError("the only item selected is the original itself")
        try:
            original = check_original(items[0], items[0].reflection, duplicate_of)
        except ReviewError as error:
            raise ReviewError(f"{error}; nothing recorded") from None
        shown = [original.pk, *(i.reflection_id for i in items)]
        prepared = prepared_figures(cycle, shown)  # as the cycle's opening stored them
        warnings = guard_warnings_of(items, original, prepared=prepared)
        # Every item's warnings at once, so one confirmation covers the batch.
        asked = [f"#{i.rank}: {w}" for i in items for w in warnings[i.pk]]
        if asked and not confirmed:
            raise NeedsConfirmation(asked)
    batch = ReviewBatch.objects.create(
        cycle=cycle,
        action=action,
        duplicate_of_id=duplicate_of if verdict == Verdict.DUPLICATE else None,
        actor=user,
        at=timezone.now(),
        count=len(items),
    )
    # Each item as a single verdict would record it (record_verdict), stored in a few
    # statements for the whole batch: one by one, a hundred items took 0.7-1.3 s.
    recorded = [
        record_verdict(
            item,
            reflections[item.reflection_id],
            user=user,
            verdict=verdict,
            original=original,
            warnings=warnings.get(item.pk, []),
            batch=batch.key,
            now=batch.at,
        )
        for item in items
    ]
    store_state_changes([moved for _, moved in recorded if moved is not None])
    _store_verdicts(items)
    Decision.objects.bulk_create([decision for decision, _ in recorded])
    return batch


# What record_verdict changes on an item, besides counting its version up.
ITEM_VERDICT_FIELDS = (
    "verdict",
    "duplicate_of_id",
    "note",
    "decided_at",
    "decided_by_id",
    "unsure_since",
    "restored_at",
    "restored_by_id",
    "restore_note",
    "seconds_spent",
    "state_before",
    "reason_before",
)


def _store_verdicts(items: list[ReviewItem]) -> None:
    """Store what record_verdict changed on each item: one UPDATE per distinct set of values
    (one batch gives every item the same verdict: one or two statements), each item's version
    counted up in the database. Django's bulk_update writes a CASE per field and item instead:
    0.7 s of Python for a hundred items."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    for item in items:
        groups[tuple(getattr(item, field) for field in ITEM_VERDICT_FIELDS)].append(item.pk)
    for values, pks in groups.items():
        ReviewItem.objects.filter(pk__in=pks).update(
            **dict(zip(ITEM_VERDICT_FIELDS, values, strict=True)), version=F("version") + 1
        )


@transaction.atomic
def bulk_assign(*, cycle: ReviewCycle, user, ranks: list[int], to_reviewer) -> ReviewBatch:
    """A manager moves the selected items to another reviewer, as one batch."""
    if not can_manage(user):
        raise ReviewError("only managers assign items to reviewers")
    items = _items(cycle, ranks)
    batch = ReviewBatch.objects.create(
        cycle=cycle,
        action=ReviewBatch.Action.ASSIGN,
        to_reviewer=to_reviewer,
        actor=user,
        at=timezone.now(),
    )
    batch.count = reassign(
        cycle=cycle,
        ranks=[i.rank for i in items],
        to_reviewer=to_reviewer,
        user=user,
        batch=batch.key,
    )
    batch.save(update_fields=["count"])
    return batch


@dataclass
class UndoResult:
    batch: ReviewBatch
    undone: list[int] = field(default_factory=list)  # ranks
    skipped: list[int] = field(default_factory=list)  # changed since the batch: left alone


def _verdict_before(decision: Decision) -> Decision | None:
    """The verdict the item had when `decision` was recorded, if it had one."""
    earlier = (
        Decision.objects.filter(item_id=decision.item_id, id__lt=decision.pk)
        .filter(action__in=[Decision.Action.VERDICT, Decision.Action.UNDO])
        .order_by("-id")
        .first()
    )
    return earlier if earlier is not None and earlier.action == Decision.Action.VERDICT else None


def _latest_decision_id(item: ReviewItem) -> int | None:
    return item.decisions.order_by("-at", "-id").values_list("id", flat=True).first()


@transaction.atomic
def undo_batch(*, batch_id: int, user) -> UndoResult:
    """Undo every item of the batch that nobody changed since; those that did change are
    left as they are and named."""
    batch = ReviewBatch.objects.select_for_update().select_related("cycle").get(pk=batch_id)
    if batch.undone_at is not None:
        raise ReviewError(f"this batch was already undone on {batch.undone_at:%Y-%m-%d %H:%M}")
    if not batch.cycle.is_open:
        raise ReviewError("this review cycle is closed; its verdicts can no longer change")
    if batch.actor_id != user.pk and not (
        batch.action == ReviewBatch.Action.ASSIGN and can_manage(user)
    ):
        raise ReviewError("only the person who made this batch may undo it")
    result = UndoResult(batch=batch)
    original = Decision.Action.REASSIGN if batch.action == ReviewBatch.Action.ASSIGN else None
    done = list(
        batch.decisions.filter(action=original or Decision.Action.VERDICT)
        .select_related("item")
        .order_by("item__rank")
    )
    now = timezone.now()
    for decision in done:
        item = ReviewItem.objects.select_for_update().get(pk=decision.item_id)
        if _latest_decision_id(item) != decision.pk:
            result.skipped.append(item.rank)
            continue
        if original is None:
            item = undo(item_id=item.pk, user=user, version=item.version, batch=batch.key)
            before = _verdict_before(decision)
            if before is not None:  # the batch replaced a verdict: that verdict comes back
                decide(
                    item_id=item.pk,
                    user=user,
                    verdict=before.verdict,
                    version=item.version,
                    duplicate_of=before.duplicate_of_id,
                    note=before.note,
                    confirmed=True,  # as it was when first recorded
                    batch=batch.key,
                )
        else:
            Decision.objects.create(
                item=item,
                action=Decision.Action.REASSIGN,
                from_reviewer_id=item.reviewer_id,
                to_reviewer_id=decision.from_reviewer_id,
                note="undo of a bulk assignment",
                actor=user,
                at=now,
                batch=batch.key,
            )
            item.reviewer_id = decision.from_reviewer_id
            item.version += 1
            item.save(update_fields=["reviewer", "version"])
        result.undone.append(item.rank)
    batch.undone_at, batch.undone_by = now, user
    batch.save(update_fields=["undone_at", "undone_by"])
    return result
