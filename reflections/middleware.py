"""Requests refused before any view reads them: an oversized web-import upload (before the
CSRF middleware, which reads a POST's form, and so spools every uploaded file to disk, to find
its token), and a parameter holding a NUL character.

No text field can hold a NUL (PostgreSQL refuses it in any statement: a search or a filter
given one was a 500 there), and no person types one: the request is answered 400."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from reflections.services.web_import import MAX_REQUEST_BYTES

UPLOAD_PATH = "/imports/"


class UploadSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path == UPLOAD_PATH:
            try:
                declared = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                declared = 0
            if declared > MAX_REQUEST_BYTES:
                return HttpResponse(
                    f"The upload is larger than {MAX_REQUEST_BYTES // 2**20:,} MB; "
                    "upload fewer files at once.",
                    status=413,
                    content_type="text/plain",
                )
        return self.get_response(request)


class NulParameterMiddleware:
    """A query parameter or a posted form field holding a NUL: 400 naming it, JSON under /api/
    as the API answers. A form is read here as the CSRF middleware reads it next (uploaded files
    are not looked into: the import refuses a binary file itself)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        named = _nul_parameter(request)
        if named is None:
            return self.get_response(request)
        reason = f"{named}: holds a NUL character, which no field can hold"
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": reason}, status=400)
        return HttpResponse(reason, status=400, content_type="text/plain")


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def _nul_parameter(request: HttpRequest) -> str | None:
    """The name of the first parameter holding a NUL (shown escaped, at most 64 characters)."""
    query = request.META.get("QUERY_STRING", "")
    forms = [request.GET] if "%00" in query or "\x00" in query else []
    if request.method == "POST" and request.content_type in FORMS:
        forms.append(request.POST)
    for form in forms:
        for key, values in form.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                return key[:64].replace("\x00", "\\x00")
    return None
