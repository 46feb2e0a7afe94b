"""Log filters: a refused or missing page is a line in the log, never a traceback."""

from __future__ import annotations

import logging


class ClientErrorsWithoutTraceback(logging.Filter):
    """Drop the traceback Django attaches to a 4xx it logs (PermissionDenied, Http404, a
    bad request): the client's mistake is not the server's, and a traceback's frames can
    hold the request's values. The one line (status and path) stays."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
