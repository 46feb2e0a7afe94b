"""The duplicate guard on the queue page (DOMAIN §5): the top neighbour beside the item with its
retrievals, lift and state; confirmation for an original at stake; a search for any reflection
of the department to name as the original; a cluster resolved in one action."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from reflections.access import get_reflection_for_user
from reflections.models import Neighbour
from reflections.similarity.text import diff_words
from reflexion_site.htmx import HtmxHttpRequest
from reviews.models import ReviewItem
from reviews.policies import keep_reason, preferred_original
from reviews.selectors import cycles as selectors
from reviews.selectors.evidence import ItemEvidence, display_text
from reviews.selectors.originals import (
    item_cluster,
    reflection_facts,
    search_originals,
)
from reviews.services.cycles import ReviewError
from reviews.services.duplicate_clusters import current_batch


@dataclass(frozen=True)
class Confirmation:
    """A verdict held back until the reviewer confirms it: the same POST again, confirmed."""

    warnings: list[str]
    action: str  # the URL the confirmed form posts to
    fields: list[tuple[str, str]]  # hidden fields carried over, `confirm=1` added
    label: str  # what the confirm button says


def guard_context(request, item: ReviewItem, evidence: ItemEvidence) -> dict:
    """What the queue page adds for duplicates: facts per neighbour (the top one shown beside the
    item), the cluster, the set the current verdict belongs to, and search results (no-JS)."""
    neighbours = [c.reflection for c in evidence.duplicates]
    facts = reflection_facts(
        item.cycle, [item.reflection, *neighbours], prepared=evidence.prepared_facts
    )
    query = request.GET.get("q", "")[:200]
    top_facts = facts[neighbours[0].pk] if neighbours else None
    keep = preferred_original([facts[item.reflection_id], top_facts]) if top_facts else None
    return {
        "facts": facts,
        "item_facts": facts[item.reflection_id],
        "top": evidence.duplicates[0] if evidence.duplicates else None,
        "top_facts": top_facts,
        # Of the item and its top neighbour, the one the rules would keep.
        "top_keeps_neighbour": keep is top_facts if keep else False,
        "top_keep_reason": keep_reason(
            keep, top_facts if keep is not top_facts else facts[item.reflection_id]
        )
        if keep
        else "",
        "cluster": item_cluster(
            item,
            request.user,
            neighbours=[(c.reflection, c.similarity) for c in evidence.duplicates],
            facts=facts,
        ),
        "batch": current_batch(item),
        "query": query,
        "results": search_originals(request.user, item, query) if query else None,
    }


@login_required
@require_GET
def original_search(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    """Reflections of the cycle's department matching ?q=, as radio rows of the verdict form."""
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    query = request.GET.get("q", "")[:200]
    return render(
        request,
        "reviews/_original_search.html#original-results",
        {
            "cycle": cycle,
            "item": item,
            "query": query,
            "results": search_originals(request.user, item, query),
            "can_act": cycle.is_open and item.reviewer_id == request.user.pk,
        },
    )


@login_required
@require_GET
def item_compare(request: HtmxHttpRequest, pk: int, rank: int, other: int) -> HttpResponse:
    """The item and another reflection side by side, whole, every changed word marked: the
    full view of a duplicate candidate (the queue shows each diff beside the item)."""
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    # Another department's or a quarantined reflection is a 404, as everywhere else.
    candidate = get_reflection_for_user(request.user, other)
    if candidate.pk == item.reflection_id:
        raise Http404("A reflection is not compared with itself.")
    own, theirs = diff_words(display_text(item.reflection), display_text(candidate))
    similarity = (
        Neighbour.objects.filter(reflection_id=item.reflection_id, neighbour_id=candidate.pk)
        .values_list("similarity", flat=True)
        .first()
    )
    return render(
        request,
        "reviews/compare.html",
        {
            "cycle": cycle,
            "item": item,
            "sides": [
                ("This item", item.reflection, own),
                ("Candidate", candidate, theirs),
            ],
            "similarity": similarity,
            "facts": reflection_facts(cycle, [item.reflection, candidate]),
        },
    )


def picked_versions(values: list[str]) -> dict[int, int]:
    """`item id:version` pairs from the cluster form's checkboxes."""
    picked = {}
    for value in values:
        item_id, _, version = value.partition(":")
        if not (item_id.isdigit() and version.isdigit()):
            raise ReviewError(f"items: {value!r} is not an item id and version")
        picked[int(item_id)] = int(version)
    return picked
