"""What every page's view needs to know about htmx (django-htmx sets `request.htmx`)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def wants_fragment(request: HtmxHttpRequest) -> bool:
    """An in-page htmx swap gets the partial; a history restore asks for the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request
