"""How the API lets a request in: a bearer token of the right scope (never a session), a
body under the size limit, and a request rate under the token's limit."""

from __future__ import annotations

import json
import logging
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from ninja.errors import HttpError
from ninja.security import HttpBearer

from api.models import ApiToken
from api.services.tokens import TokenExpired, WrongScope, token_for
from reflections.caching import guarded

log = logging.getLogger(__name__)


class TooLarge(Exception):
    """The request is over API_MAX_REQUEST_BYTES or API_MAX_ITEMS (answered 413)."""

    def __init__(self, message: str = ""):
        self.message = message or (
            f"the request body is over {settings.API_MAX_REQUEST_BYTES:,} bytes; "
            "send it in smaller batches"
        )
        super().__init__(self.message)


class RateLimited(Exception):
    """The token made more requests than API_RATE_LIMIT per API_RATE_WINDOW (answered 429)."""

    def __init__(self, retry_after: int):
        self.retry_after = retry_after
        super().__init__(f"retry after {retry_after} s")


class BadBody(Exception):
    """The request body is not the JSON the endpoint takes (answered 400)."""


class ScopedBearer(HttpBearer):
    """`Authorization: Bearer <token>` for one scope. A session cookie is never looked at, so
    a signed-in browser cannot call the API (and no CSRF token is needed or accepted)."""

    def __init__(self, scope: str):
        self.scope = scope
        super().__init__()

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        try:
            found = token_for(token, scope=self.scope)
        except TokenExpired as exc:
            raise HttpError(401, str(exc)) from None
        except WrongScope as exc:
            raise HttpError(403, str(exc)) from None
        if found is None:
            return None  # 401, the same for an unknown and a revoked token
        check_rate(found)
        request.api_token = found
        return found


INGEST = ScopedBearer(ApiToken.Scope.INGEST)
RETRIEVE = ScopedBearer(ApiToken.Scope.RETRIEVE)


# Per-process windows, used while the shared cache cannot be reached: limits then hold per
# process instead of across them, and the API keeps answering (issue 30: a Redis that was down,
# or a database cache without its table, answered every API call with 500).
LOCAL_WINDOWS: dict[str, int] = {}
_local_lock = threading.Lock()


def check_rate(token: ApiToken) -> None:
    """A fixed window per token in Django's cache (configure a shared cache, such as the
    database cache, when several processes serve the API); in this process's memory while
    that cache fails (logged)."""
    limit = settings.API_RATE_LIMIT
    if not limit:
        return
    window = settings.API_RATE_WINDOW
    now = time.time()
    start = int(now // window) * window
    key = f"api-rate:{token.pk}:{start}"
    try:
        used = _count_shared(key, window)
    except Exception as error:  # any cache backend's failure: the count moves here
        log.warning(
            "rate-limit cache unavailable (%s): counting in this process", type(error).__name__
        )
        used = _count_local(key, start)
    if used > limit:
        raise RateLimited(max(1, int(start + window - now + 0.999)))


def _count_shared(key: str, window: int) -> int:
    with guarded():
        cache.add(key, 0, timeout=window + 1)
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window + 1)
            return 1


def _count_local(key: str, start: int) -> int:
    with _local_lock:
        for old in [k for k in LOCAL_WINDOWS if int(k.rsplit(":", 1)[1]) < start]:
            del LOCAL_WINDOWS[old]  # past windows
        LOCAL_WINDOWS[key] = LOCAL_WINDOWS.get(key, 0) + 1
        return LOCAL_WINDOWS[key]


class LengthRequired(Exception):
    """A chunked body the server in front of Django did not decode (answered 411)."""


def read_json(request: HttpRequest):
    """The request body as JSON, read only up to the limit (a larger body is never loaded).

    A body sent chunked, without Content-Length, is read from the WSGI stream when the server
    decoded it and marks its end (`wsgi.input_terminated`: gunicorn does); Django alone would
    read it as empty. Without that mark it is a 411, never an empty body."""
    limit = settings.API_MAX_REQUEST_BYTES
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise TooLarge
    chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
    if chunked and not request.META.get("CONTENT_LENGTH"):
        if not request.META.get("wsgi.input_terminated"):
            raise LengthRequired(
                "a chunked body cannot be read by this server: send Content-Length"
            )
        raw = request.META["wsgi.input"].read(limit + 1)
    else:
        raw = request.read(limit + 1)
    if len(raw) > limit:
        raise TooLarge
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        raise BadBody("the body is not UTF-8") from None
    except (ValueError, RecursionError) as exc:
        raise BadBody(f"the body is not JSON: {exc}") from None
