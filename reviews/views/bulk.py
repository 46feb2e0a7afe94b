"""Bulk actions on a cycle's items: select, confirm once (naming the count), act, undo whole."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from reflexion_site.htmx import HtmxHttpRequest
from reviews.forms import BulkForm
from reviews.models import ReviewBatch
from reviews.selectors import cycles as selectors
from reviews.selectors.items import ItemFilters, cycle_items
from reviews.services.bulk import bulk_assign, bulk_verdict, undo_batch
from reviews.services.cycles import ReviewError
from reviews.services.verdicts import NeedsConfirmation


def _back(cycle, filters: ItemFilters) -> str:
    url = reverse("reviews:cycle", args=[cycle.pk])
    query = "&".join(f"{k}={v}" for k, v in filters.as_query().items())
    return f"{url}?{query}#items" if query else f"{url}#items"


def _selected(request, cycle, select: str, filters: ItemFilters):
    """The items the form selected that this person may act on, as a queryset."""
    items = cycle_items(cycle, request.user, filters if select == "filter" else None)
    if not selectors.can_manage(request.user):
        items = items.filter(reviewer=request.user)  # a colleague's unsure item is not theirs
    if select == "filter":
        return items
    ranks = {int(r) for r in request.POST.getlist("ranks") if r.isdigit()}
    return items.filter(rank__in=ranks)


def _shown(items) -> list:
    """The selected items to name on the confirmation: by title, never by their text (a
    hundred texts to read)."""
    return list(
        items.defer("reflection__original_text", "reflection__body", "reflection__sections")
    )


@dataclass(frozen=True)
class Selected:
    """A selected item as acting on it needs it: the services read the rest themselves, so a
    confirmed request builds no hundred items with their reflections twice."""

    pk: int
    rank: int


# What _describe's sentence says once done.
PAST = {"Keep": "Kept", "Mark": "Marked", "Assign": "Assigned"}


def _original(form, cycle):
    """The cycle's item the duplicates are marked as copies of, when it is one of the cycle's."""
    if form.cleaned_data["action"] != ReviewBatch.Action.DUPLICATE:
        return None
    return (
        cycle.items.filter(reflection_id=form.cleaned_data["duplicate_of"])
        .select_related("reflection__agent")
        .first()
    )


def _describe(form, original, count: int) -> str:
    action = form.cleaned_data["action"]
    noun = f"{count} item{'s' if count != 1 else ''}"
    if action == ReviewBatch.Action.KEEP:
        return f"Keep all {noun}" if count != 1 else f"Keep {noun}"
    if action == ReviewBatch.Action.DUPLICATE:
        # A title's own full stop would end the sentence early ("….?", "…..").
        title = original.reflection.title.rstrip(".") if original else ""
        name = f"#{original.rank} {title}" if original else "the original"
        return f"Mark {noun} as duplicates of {name}"
    return f"Assign {noun} to {form.cleaned_data['to_reviewer'].get_username()}"


def _say(request, level, text: str) -> None:
    """A bulk action's outcome, shown beside the item list it redirects to (extra tag "bulk";
    reviews/_cycle_items.html), not at the top of the page, out of view."""
    messages.add_message(request, level, text, extra_tags="bulk")


@login_required
@require_POST
def bulk_action(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    filters = ItemFilters.from_query(request.POST)
    form = BulkForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(" ".join(v) for v in form.errors.values())
        _say(request, messages.ERROR, f"Nothing changed — {problems}.")
        return redirect(_back(cycle, filters))
    selected = _selected(request, cycle, form.cleaned_data["select"], filters)
    confirmed = form.cleaned_data["confirm"]
    items = (
        [Selected(*row) for row in selected.values_list("pk", "rank")]
        if confirmed
        else _shown(selected)
    )
    original = _original(form, cycle)
    # The original is never marked a duplicate of itself: it is left out of the count and the
    # list, and named apart.
    kept_apart = [i for i in items if original is not None and i.pk == original.pk]
    items = [i for i in items if i not in kept_apart]
    if not items:
        why = (
            "the only item selected is the original itself"
            if kept_apart
            else "no items were selected"
        )
        _say(request, messages.ERROR, f"Nothing changed — {why}.")
        return redirect(_back(cycle, filters))
    what = _describe(form, original, len(items))
    apart = f" #{original.rank}, the original, stays as it is." if kept_apart else ""
    context = {
        "cycle": cycle,
        "form": form,
        "items": items,
        "what": what,
        "filters": filters,
        "original": original,
        "original_selected": bool(kept_apart),
    }
    if not confirmed:
        # One confirmation naming the count; it carries the exact ranks it showed.
        return render(request, "reviews/bulk_confirm.html", context)
    ranks = [i.rank for i in items]
    action = form.cleaned_data["action"]
    try:
        if action == ReviewBatch.Action.ASSIGN:
            bulk_assign(
                cycle=cycle,
                user=request.user,
                ranks=ranks,
                to_reviewer=form.cleaned_data["to_reviewer"],
            )
        else:
            bulk_verdict(
                cycle=cycle,
                user=request.user,
                ranks=ranks,
                action=action,
                duplicate_of=form.cleaned_data["duplicate_of"],
                confirmed=request.POST.get("guard_confirmed") == "1",
            )
    except NeedsConfirmation as asked:
        # The duplicate guard asks first, as it does for one item; confirming records them.
        context["warnings"] = asked.warnings
        context["items"] = _shown(selected.filter(rank__in=ranks))
        return render(request, "reviews/bulk_confirm.html", context, status=409)
    except ReviewError as error:
        _say(request, messages.ERROR, f"Nothing changed — {error}.")
        return redirect(_back(cycle, filters))
    verb, rest = what.split(" ", 1)
    done = f"{PAST[verb]} {rest}"
    _say(request, messages.SUCCESS, f"{done}.{apart} Undo it below, under Recent bulk actions.")
    return redirect(_back(cycle, filters))


@login_required
@require_POST
def bulk_undo(request: HtmxHttpRequest, pk: int, batch: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    found = get_object_or_404(cycle.batches, pk=batch)
    try:
        result = undo_batch(batch_id=found.pk, user=request.user)
    except ReviewError as error:
        _say(request, messages.ERROR, f"Not undone — {error}.")
    else:
        n = len(result.undone)
        text = f"Undid the batch: {n} item{'s' if n != 1 else ''} as they were."
        if result.skipped:
            changed = ", ".join(f"#{r}" for r in result.skipped)
            text += f" Left {changed} alone: they changed after the batch."
        _say(request, messages.SUCCESS, text)
    return redirect(reverse("reviews:cycle", args=[cycle.pk]) + "#items")
