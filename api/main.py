"""The agents' API, /api/v1/: bearer tokens only, JSON errors that say what to change."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from ninja import NinjaAPI
from ninja.errors import HttpError
from ninja.openapi.views import openapi_json

from api.docs import LocalSwagger
from api.endpoints import changes, ingest, judgements, retrieve, runs
from api.security import BadBody, LengthRequired, RateLimited, TooLarge
from reflections.access import ADMIN, user_roles


def admins_only(view):
    """The API's docs page is for admins; the schema itself is public (it holds no data), so a
    runtime can generate its client from it."""
    if getattr(view, "func", None) is openapi_json:
        return view

    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if ADMIN not in user_roles(request.user):
            raise PermissionDenied("Only admins read the API documentation.")
        return view(request, *args, **kwargs)

    return wrapped


api = NinjaAPI(
    title="Reflexion Review API",
    version="1",
    description="Ingest reflections, retrievals and task outcomes; retrieve reflections for a "
    "task; follow state changes. Every call takes `Authorization: Bearer <token>` (an admin "
    "creates tokens under API tokens); sessions are not accepted.",
    urls_namespace="api",
    docs=LocalSwagger(),
    docs_decorator=admins_only,
)
api.add_router("", ingest.router)
api.add_router("", retrieve.router)
api.add_router("", changes.router)
api.add_router("", judgements.router)
api.add_router("", runs.router)


@api.exception_handler(TooLarge)
def too_large(request, exc: TooLarge):
    return api.create_response(request, {"detail": exc.message}, status=413)


@api.exception_handler(RateLimited)
def rate_limited(request, exc: RateLimited):
    response = api.create_response(
        request,
        {"detail": f"too many requests for this token; retry after {exc.retry_after} s"},
        status=429,
    )
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(HttpError)
def http_error(request, exc: HttpError):
    """Ninja's answer, and on a 401 the scheme to authenticate with (RFC 9110 §11.6.1)."""
    response = api.create_response(request, {"detail": str(exc)}, status=exc.status_code)
    if exc.status_code == 401:
        response["WWW-Authenticate"] = 'Bearer realm="reflexion-review"'
    return response


@api.exception_handler(LengthRequired)
def length_required(request, exc: LengthRequired):
    return api.create_response(request, {"detail": str(exc)}, status=411)


@api.exception_handler(BadBody)
def bad_body(request, exc: BadBody):
    return api.create_response(request, {"detail": str(exc)}, status=400)


@api.exception_handler(retrieve.Unprocessable)
def unprocessable(request, exc: retrieve.Unprocessable):
    return api.create_response(request, {"detail": str(exc)}, status=422)
