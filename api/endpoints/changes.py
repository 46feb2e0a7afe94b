"""GET /changes: the state changes of reflections in order, for runtimes that keep their own
store (evict what was deprecated or quarantined, take back what was restored)."""

from __future__ import annotations

from django.core import signing
from django.http import HttpRequest
from ninja import Router

from api.schemas import REFUSALS, ChangesPage
from api.security import RETRIEVE, BadBody
from reflections.models import ReflectionHistory, State
from reflections.scanning import mask, scan_text
from reflections.scanning.fields import masked_path
from reflexion_site import keyset

router = Router(tags=["changes"], auth=RETRIEVE)

ORDER = (keyset.Key("id", descending=False),)
MAX_LIMIT = 1000
# A runtime drops a reflection in these states from what it injects.
EVICTED = frozenset({State.DEPRECATED, State.QUARANTINED})


def _safe(text: str) -> str:
    return mask(text, scan_text(text)) if text else text


# Cursors are signed (issue 30): a forged one ("[0]", "[99999999]", an id past 2^63) could
# skip changes or leave a client waiting past every future eviction; now it is refused.
_CURSORS = signing.Signer(salt="api.changes.cursor")


def _signed(cursor: str) -> str:
    return _CURSORS.sign(cursor)


def _unsigned(cursor: str) -> str:
    return _CURSORS.unsign(cursor)


def _why(exc: Exception) -> str:
    return "not a cursor this server gave" if isinstance(exc, signing.BadSignature) else str(exc)


def _change(row: ReflectionHistory) -> dict:
    r = row.reflection
    hidden = State.QUARANTINED in (r.state, row.to_state)
    return {
        "cursor": _signed(keyset.cursor_of([row.id])),
        "at": row.at,
        "reflection": {
            "id": r.id,
            "source_path": masked_path(r.source_path) if hidden else r.source_path,
            "external_id": "" if hidden else r.external_id,
            "content_hash": r.content_hash,
            "department": r.department.slug,
        },
        "from_state": row.from_state,
        "to_state": row.to_state,
        "evict": row.to_state in EVICTED,
        "by": row.actor_label,
        "reason": _safe(row.reason),
    }


@router.get(
    "/changes",
    summary="State changes in order, cursor-paged",
    response={200: ChangesPage, **REFUSALS},
)
def changes(request: HttpRequest, since: str | None = None, limit: int = 100, department: str = ""):
    """Changes after the cursor `since` (from the first one without it), oldest first.
    Poll with the answer's `next`; it stays the same while nothing new has happened."""
    if not 1 <= limit <= MAX_LIMIT:
        raise BadBody(f"limit: expected a whole number from 1 to {MAX_LIMIT}")
    qs = ReflectionHistory.objects.filter(change=ReflectionHistory.Change.STATE).select_related(
        "reflection__department"
    )
    if department:
        qs = qs.filter(reflection__department__slug=department)
    try:
        page = keyset.page(qs, ORDER, size=limit, after=_unsigned(since) if since else None)
    except (keyset.BadCursor, signing.BadSignature) as exc:
        raise BadBody(f"since: {_why(exc)}; pass the 'next' of an earlier answer") from None
    rows = page.rows
    return {
        "changes": [_change(row) for row in rows],
        "next": _signed(keyset.cursor_of([rows[-1].id])) if rows else since,
        "more": not page.is_last,
    }
