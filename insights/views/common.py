"""What every insights page shares: who may see it, its department and date parameters, CSV
tables (``?format=csv&table=<name>``) and the JIT switch for heavy aggregates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import contextmanager
from datetime import date

from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest

from reflections.access import ADMIN, MANAGER, require_any_role
from reflections.caching import EVENTS, cached
from reflections.models import Department
from reflexion_site.downloads import csv_attachment

INSIGHT_ROLES = (MANAGER, ADMIN)
# Managers and admins oversee every department (reflections.access): no per-department scope.


def departments_for(request: HttpRequest) -> list[Department]:
    require_any_role(request.user, INSIGHT_ROLES)
    return list(Department.objects.only("slug", "name"))


def chosen_department(request: HttpRequest, departments: list[Department]) -> Department | None:
    slug = request.GET.get("department", "").strip()[:64]
    if not slug:
        return None
    for d in departments:
        if d.slug == slug:
            return d
    raise Http404("No such department.")


def department_order(attribute: str = "name") -> list[str]:
    """Every department's `attribute` in slug order: charts pass it as their series order, so
    a department keeps its colour on every chart and page (insights/palette.py)."""
    return [getattr(d, attribute) for d in Department.objects.order_by("slug")]


def bad_request(message: str) -> HttpResponse:
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def date_param(request: HttpRequest, name: str, default: date) -> date | None:
    raw = request.GET.get(name, "").strip()
    if not raw:
        return default
    try:
        return date.fromisoformat(raw)
    except ValueError:
        return None


@contextmanager
def no_jit():
    """These aggregates cost enough for PostgreSQL to JIT-compile them, which takes longer
    than running them (as on the memory-health page)."""
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
        yield


def wants_csv(request: HttpRequest) -> bool:
    return request.GET.get("format") == "csv"


def csv_response(filename: str, header: Iterable[str], rows: Iterable[Iterable]) -> HttpResponse:
    """A CSV download whose every cell is safe to open in a spreadsheet."""
    response, writer = csv_attachment(filename)
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return response


def csv_cell(value) -> str:
    """A value as a cell: numbers rounded, booleans and dates spelled out (the writer
    disarms text that would run as a formula)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    return str(value)  # the writer disarms it


def table_download(
    request: HttpRequest, tables: dict[str, Callable[[], HttpResponse]]
) -> HttpResponse:
    name = request.GET.get("table", "")
    if name not in tables:
        raise Http404(f"No table {name[:40]!r}; tables here: {', '.join(tables)}.")
    return tables[name]()


def cached_page_figures[T](what: str, key_parts: tuple, compute: Callable[[], T]) -> T:
    """A page's figures (and chart specs) computed once per version of what happened
    (EVENTS: reflections written, tasks and their outcomes, retrievals; bumped by imports and
    recounts, not by verdicts or policy runs), for pages that read no reflection state; what
    else they show goes in `key_parts` (the learning curves put their review markers there)."""
    return cached(what, key_parts, compute, name=EVENTS)
