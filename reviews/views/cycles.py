"""Review-cycle pages: the list, opening one, its progress and reassignment, closing, the report."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from reflexion_site.htmx import HtmxHttpRequest
from reviews.forms import (
    CloseForm,
    OpenCycleForm,
    ReassignForm,
    reviewer_choices,
)
from reviews.models import ReviewCycle, SavedView, Verdict
from reviews.selectors import cycles as selectors
from reviews.selectors.items import STATUSES, ItemFilters, cycle_items, recent_batches, unsure_items
from reviews.selectors.signal_table import (
    SIGNAL_FILTERS,
    SORTS,
    score_distributions,
    signal_rows,
)
from reviews.services.cycles import ReviewError, close_cycle, open_cycle, reassign
from reviews.services.saved_views import VIEW_KEYS, delete_view, save_view, view_query
from reviews.signals import NAMES


@login_required
@require_GET
def cycle_list(request: HtmxHttpRequest) -> HttpResponse:
    cycles = list(selectors.visible_cycles(request.user))
    manager = selectors.can_manage(request.user)
    rows = selectors.progress(cycles)
    for row in rows:  # the signed-in reviewer's own line
        row.mine = next((r for r in row.reviewers if r.username == request.user.username), None)
    return render(
        request,
        "reviews/cycle_list.html",
        {
            "open_rows": [p for p in rows if p.cycle.is_open],
            "closed_rows": [p for p in rows if not p.cycle.is_open],
            "manager": manager,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def cycle_open(request: HtmxHttpRequest) -> HttpResponse:
    selectors.require_manager(request.user)
    form = OpenCycleForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                cycle = open_cycle(
                    department=data["department"],
                    quarter=data["quarter"],
                    reviewers=list(data["reviewers"]),
                    user=request.user,
                    starts_on=data["starts_on"],
                    window_days=data["window_days"],
                    size=data["size"],
                )
            except ReviewError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    f"Opened {cycle.department.name} {cycle.quarter}: "
                    f"{cycle.items.count()} items dealt to {len(data['reviewers'])} reviewers.",
                )
                return redirect("reviews:cycle", pk=cycle.pk)
        status = 400
    return render(request, "reviews/cycle_open.html", {"form": form}, status=status)


def _cycle_context(request, cycle: ReviewCycle, **extra) -> dict:
    manager = selectors.can_manage(request.user)
    filters = ItemFilters.from_query(request.GET)
    items = list(cycle_items(cycle, request.user, filters))
    wanted = {k: request.GET.get(k, "") for k in ("signal", "verdict", "sort")}
    wanted = {
        "signal": wanted["signal"] if wanted["signal"] in SIGNAL_FILTERS else "",
        "verdict": wanted["verdict"] if wanted["verdict"] in {*Verdict.values, "open"} else "",
        "sort": wanted["sort"] if wanted["sort"] in SORTS else "rank",
    }
    # The signal table (scored for the whole cycle) when asked for; else the plain item list
    # with its filters and bulk actions.
    show_signals = (
        request.GET.get("signals") == "1" or bool(wanted["signal"]) or (wanted["sort"] != "rank")
    )
    rows = distributions = None
    if show_signals:
        own = cycle.items.select_related("reflection", "reviewer", "duplicate_of").order_by("rank")
        if not manager:
            own = own.filter(reviewer=request.user)
        own = list(own)
        rows = signal_rows(cycle, own, **wanted)
        distributions = score_distributions(cycle, own)
    return {
        "cycle": cycle,
        "rows": rows,
        "distributions": distributions,
        "signal_names": NAMES,
        "wanted": wanted,
        "show_signals": show_signals,
        "signal_filters": SIGNAL_FILTERS,
        "sorts": SORTS,
        "verdict_choices": Verdict.choices,
        "progress": selectors.progress([cycle])[0],
        "items": items,
        "manager": manager,
        # The item list's filter and bulk bar, the unsure items, the recent batches.
        "filters": filters,
        "statuses": STATUSES,
        "verdicts": Verdict,
        "originals": list(cycle_items(cycle, request.user)) if not manager else [],
        "department_reviewers": reviewer_choices().filter(departments=cycle.department_id),
        "unsure": unsure_items(cycle) if manager else [],
        "batches": recent_batches(cycle, request.user),
        # The person's saved views of the page, and the filters a new one would keep.
        "saved_views": list(SavedView.objects.filter(user=request.user)),
        "current_view": view_query(request.GET),
        "view_keys": VIEW_KEYS,
        "reassign_form": extra.pop("reassign_form", None) or ReassignForm(),
        "close_form": extra.pop("close_form", None) or CloseForm(),
        **extra,
    }


@login_required
@require_GET
def cycle_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    return render(request, "reviews/cycle_detail.html", _cycle_context(request, cycle))


@login_required
@require_POST
def cycle_reassign(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    selectors.require_manager(request.user)
    cycle = selectors.get_cycle_for_user(request.user, pk)
    form = ReassignForm(request.POST)
    if form.is_valid():
        try:
            moved = reassign(
                cycle=cycle,
                ranks=form.cleaned_data["ranks"],
                to_reviewer=form.cleaned_data["to_reviewer"],
                user=request.user,
            )
        except ReviewError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, f"Moved {moved} items to {form.cleaned_data['to_reviewer'].username}."
            )
            return redirect("reviews:cycle", pk=cycle.pk)
    context = _cycle_context(request, cycle, reassign_form=form)
    return render(request, "reviews/cycle_detail.html", context, status=400)


@login_required
@require_POST
def cycle_close(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    selectors.require_manager(request.user)
    cycle = selectors.get_cycle_for_user(request.user, pk)
    form = CloseForm(request.POST)
    form.is_valid()
    try:
        close_cycle(
            cycle=cycle,
            user=request.user,
            allow_incomplete=form.cleaned_data.get("allow_incomplete", False),
        )
    except ReviewError as error:
        form.add_error(None, str(error))
        context = _cycle_context(request, cycle, close_form=form)
        return render(request, "reviews/cycle_detail.html", context, status=400)
    messages.success(request, f"Closed {cycle}. Here is its report.")
    return redirect("reviews:report", pk=cycle.pk)


@login_required
@require_GET
def cycle_report(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    return render(
        request,
        "reviews/report.html",
        {
            "cycle": cycle,
            "report": selectors.cycle_report(cycle, request.user),
            "verdicts": Verdict,
        },
    )


def _cycle_page(cycle: ReviewCycle, query: str = ""):
    url = reverse("reviews:cycle", args=[cycle.pk])
    return redirect(f"{url}?{query}#signals" if query else url)


@login_required
@require_POST
def view_save(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Save the page's current filters under a name (posted as hidden fields beside it)."""
    cycle = selectors.get_cycle_for_user(request.user, pk)
    try:
        view = save_view(user=request.user, name=request.POST.get("name", ""), query=request.POST)
    except ReviewError as error:
        messages.error(request, str(error))
        return _cycle_page(cycle, view_query(request.POST))
    messages.success(request, f"Saved the view {view.name!r}: it opens every cycle this way.")
    return _cycle_page(cycle, view.query)


@login_required
@require_POST
def view_delete(request: HtmxHttpRequest, pk: int, view: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    if not delete_view(user=request.user, pk=view):
        raise Http404("No such saved view of yours.")
    messages.success(request, "Deleted the saved view.")
    return _cycle_page(cycle)
