"""Saving and deleting a person's named views of a cycle's page (SavedView)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.utils import timezone

from reflections.scanning import typed
from reviews.models import SavedView
from reviews.services.cycles import ReviewError

# The cycle page's filters: the signal table's and the item list's (reviews.views.cycles).
VIEW_KEYS = ("signals", "signal", "verdict", "sort", "status", "reviewer", "q")
MAX_NAME = 80
MAX_VIEWS = 50  # a person's views, listed on every cycle page


def view_query(query) -> str:
    """The filters of `query` (a QueryDict or dict) as the page's query string: known keys
    only, each value at most 100 characters; what a person typed (the search) is masked as
    every typed text is."""
    kept = {}
    for key in VIEW_KEYS:
        value = str(query.get(key) or "").strip()[:100]
        if value:
            kept[key] = typed(value) if key == "q" else value
    return urlencode(kept)


def save_view(*, user, name: str, query) -> SavedView:
    """Save (or replace, by name) the filters of `query` under `name` for `user`."""
    name = typed(" ".join(str(name or "").split()))
    if not name or len(name) > MAX_NAME:
        raise ReviewError(f"name: required, at most {MAX_NAME} characters")
    kept = view_query(query)
    if not kept:
        raise ReviewError("Nothing to save: choose a signal, a verdict, a sort or a filter first.")
    existing = SavedView.objects.filter(user=user)
    if existing.count() >= MAX_VIEWS and not existing.filter(name=name).exists():
        raise ReviewError(f"At most {MAX_VIEWS} saved views: delete one first.")
    view, _ = SavedView.objects.update_or_create(
        user=user, name=name, defaults={"query": kept, "created_at": timezone.now()}
    )
    return view


def delete_view(*, user, pk: int) -> bool:
    """Delete one of `user`'s views; False when it is not theirs (or gone)."""
    deleted, _ = SavedView.objects.filter(user=user, pk=pk).delete()
    return bool(deleted)
