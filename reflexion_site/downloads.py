"""Downloads every page offers: a CSV attachment, and the cell rules every CSV export follows
(formulas disarmed, times in UTC)."""

from __future__ import annotations

import csv
from datetime import UTC, datetime

from django.http import HttpResponse

# A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_attachment(filename: str):
    """An empty CSV download named `filename`, and a writer into it (CRLF, as RFC 4180)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, csv.writer(response, lineterminator="\r\n")


def iso_utc(value: datetime | None) -> str:
    """`2026-05-14T09:30:00Z`, or "" when there is no time."""
    if value is None:
        return ""
    return value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def spreadsheet_safe(value: object) -> str:
    """A cell a spreadsheet shows as text: a leading quote disarms a would-be formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text
