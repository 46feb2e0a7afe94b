"""The web import, for admins: upload, watch the progress bar, read the report."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from reflections.access import ADMIN, user_roles
from reflections.forms import ImportForm
from reflections.models import ImportJob
from reflections.selectors.imports import job_report, recent_jobs
from reflections.selectors.workers import WORKER_COMMAND, import_worker_state
from reflections.tasks import queue_import
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment


def _require_admin(request: HttpRequest) -> None:
    if ADMIN not in user_roles(request.user):
        raise PermissionDenied("Only admins import into the memory.")


@login_required
@require_http_methods(["GET", "POST"])
def import_new(request: HttpRequest) -> HttpResponse:
    _require_admin(request)
    # An upload over the request limit never gets here (reflections/middleware.py).
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        department = form.cleaned_data["default_department"]
        job = queue_import(
            user=request.user,
            files=form.cleaned_data["files"],
            default_department=department.slug if department else "",
            create_departments=form.cleaned_data["create_departments"],
        )
        return redirect("imports:job", pk=job.pk)
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "reflections/import_new.html",
        {
            "form": form,
            "jobs": recent_jobs(),
            "worker": import_worker_state(),
            "worker_command": WORKER_COMMAND,
        },
        status=status,
    )


@login_required
@require_GET
def import_job(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    _require_admin(request)
    job = get_object_or_404(ImportJob.objects.select_related("user"), pk=pk)
    context = {
        "job": job,
        "report": job_report(job) if job.finished else None,
        # While it waits: is a worker taking tasks at all? (reflections/selectors/workers.py)
        "worker": import_worker_state(job) if job.status == ImportJob.Status.QUEUED else None,
        "worker_command": WORKER_COMMAND,
    }
    if wants_fragment(request):
        return render(request, "reflections/import_job.html#job-progress", context)
    return render(request, "reflections/import_job.html", context)
