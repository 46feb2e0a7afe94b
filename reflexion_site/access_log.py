"""Gunicorn's access log without credentials: query-string values of secret-sounding names
and anything shaped like an API token are replaced before the line is written."""

from __future__ import annotations

import re

from gunicorn.glogging import Logger

# Names whose value in a query string is a credential (a client that put its token in the
# URL is refused by the API, but the line that records the refusal must not keep it).
CREDENTIAL_PARAMS = (
    "token|access_token|refresh_token|id_token|api_key|apikey|key|secret|client_secret"
    "|password|passwd|pwd|auth|authorization|bearer|signature|sig|code"
)
_SECRET_PARAM = re.compile(rf"(?i)((?:^|[?&;])(?:{CREDENTIAL_PARAMS})=)[^&;#\s]*")
# The API's tokens wherever they appear (api.services.tokens.PREFIX), and "Bearer <value>".
_TOKEN = re.compile(r"rrapi_[A-Za-z0-9_\-]+|(?i:bearer)(?:\s|%20|\+)+[A-Za-z0-9._~+/=\-]+")
HIDDEN = "[redacted]"
# Request headers that carry credentials, should a custom access_log_format name them.
SECRET_HEADERS = ("authorization", "cookie", "proxy-authorization", "x-api-key")


def redact(text: str | None) -> str | None:
    """`text` with credential values replaced by HIDDEN (None stays None)."""
    if not text:
        return text
    text = _SECRET_PARAM.sub(lambda m: m.group(1) + HIDDEN, text)
    return _TOKEN.sub(HIDDEN, text)


class RedactingLogger(Logger):
    """gunicorn's logger (gunicorn.conf.py `logger_class`) whose access-log atoms are
    redacted: the request line, the query string, the referer, and credential headers."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ("r", "q", "f", "U"):
            if isinstance(atoms.get(name), str):
                atoms[name] = redact(atoms[name])
        for header in SECRET_HEADERS:
            if f"{{{header}}}i" in atoms:
                atoms[f"{{{header}}}i"] = HIDDEN
        for name in ("{raw_uri}e", "{query_string}e", "{http_referer}e", "{http_authorization}e"):
            if isinstance(atoms.get(name), str):
                atoms[name] = HIDDEN if name == "{http_authorization}e" else redact(atoms[name])
        return atoms
