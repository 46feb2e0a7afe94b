"""A cluster of duplicates resolved in one action, and undone in one (DOMAIN §5): "these N
duplicate X" records one duplicate verdict per item, each its own audited Decision, all
sharing a batch; undoing the batch undoes each of them that nobody has changed since."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction

from reflections.models import Reflection
from reflections.scanning import typed
from reviews.models import Decision, ReviewItem, Verdict
from reviews.selectors.originals import guard_warnings
from reviews.services.cycles import ReviewError
from reviews.services.verdicts import NeedsConfirmation, decide, undo


def _new_batch() -> str:
    return uuid.uuid4().hex


@transaction.atomic
def resolve_cluster(
    *,
    cycle,
    user,
    keep_id: int,
    versions: dict[int, int],
    note: str = "",
    confirmed: bool = False,
) -> list[ReviewItem]:
    """Mark every item of `cycle` named in `versions` (item id → the version the reviewer saw)
    a duplicate of reflection `keep_id`, as one batch. All or nothing: a stale version, an item
    of another reviewer or a refused original records none of them. Warnings of the guard for
    any item raise NeedsConfirmation (all of them, each naming its item) unless `confirmed`."""
    note = typed(note)
    if not versions:
        raise ReviewError("pick at least one item to mark a duplicate")
    keep = Reflection.objects.filter(pk=keep_id).first()
    items = list(
        ReviewItem.objects.filter(cycle=cycle, pk__in=list(versions))
        .select_related("cycle", "reflection")
        .order_by("rank")
    )
    if len(items) != len(versions):
        raise ReviewError("some of the picked items are not items of this cycle")
    if keep is None:
        raise ReviewError("the original must be a reflection of the same department")
    if any(item.reflection_id == keep.pk for item in items):
        raise ReviewError("the reflection to keep cannot also be marked its own duplicate")
    warnings = []
    for item in items:
        # Checked before anything is written, so a refusal leaves every item as it was.
        if keep.department_id == cycle.department_id and keep.state != "quarantined":
            warnings += [f"#{item.rank}: {w}" for w in guard_warnings(item, keep)]
    if warnings and not confirmed:
        raise NeedsConfirmation(warnings)
    batch = _new_batch()
    return [
        decide(
            item_id=item.pk,
            user=user,
            verdict=Verdict.DUPLICATE,
            version=versions[item.pk],
            duplicate_of=keep.pk,
            note=note,
            confirmed=True,
            batch=batch,
        )
        for item in items
    ]


@dataclass(frozen=True)
class Batch:
    key: str
    items: list[ReviewItem]  # the items whose current verdict is still this batch's, by rank


def current_batch(item: ReviewItem) -> Batch | None:
    """The batch of the item's current verdict, with every item of it still standing (the
    item's last decision, and theirs, is that batch's verdict), or None."""
    if not item.verdict:
        return None
    last = item.decisions.order_by("-at", "-id").first()
    if last is None or last.action != Decision.Action.VERDICT or not last.batch:
        return None
    standing = []
    for decision in (
        Decision.objects.filter(batch=last.batch, action=Decision.Action.VERDICT)
        .select_related("item")
        .order_by("item__rank")
    ):
        latest = decision.item.decisions.order_by("-at", "-id").first()
        if latest is not None and latest.pk == decision.pk:
            standing.append(decision.item)
    return Batch(key=last.batch, items=standing)


@transaction.atomic
def undo_batch(*, item: ReviewItem, user, version: int) -> list[ReviewItem]:
    """Undo every verdict of the batch `item`'s verdict belongs to that still stands; the
    `version` is the one the reviewer saw of `item` (a stale one is a Conflict)."""
    batch = current_batch(item)
    if batch is None:
        return [undo(item_id=item.pk, user=user, version=version)]
    undone = []
    for member in batch.items:
        seen = version if member.pk == item.pk else member.version
        undone.append(undo(item_id=member.pk, user=user, version=seen))
    return undone
