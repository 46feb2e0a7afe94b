"""Downloads every page offers: a CSV attachment, and the cell rules every CSV export follows
(formulas disarmed, times in UTC)."""

from __future__ import annotations

import csv
import re
from datetime import UTC, datetime

from django.http import HttpResponse

# A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# A plain number: left as it is, so a negative lift stays a number in the spreadsheet.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


class SafeCsvWriter:
    """csv.writer with every cell made `spreadsheet_safe`: no export can forget it."""

    def __init__(self, stream, *, lineterminator: str = "\r\n") -> None:
        self._writer = csv.writer(stream, lineterminator=lineterminator)

    def writerow(self, row) -> None:
        self._writer.writerow([spreadsheet_safe(cell) for cell in row])

    def writerows(self, rows) -> None:
        for row in rows:
            self.writerow(row)


def csv_attachment(filename: str) -> tuple[HttpResponse, SafeCsvWriter]:
    """An empty CSV download named `filename`, and a safe writer into it (CRLF, RFC 4180)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, SafeCsvWriter(response)


def iso_utc(value: datetime | None) -> str:
    """`2026-05-14T09:30:00Z`, or "" when there is no time."""
    if value is None:
        return ""
    return value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def spreadsheet_safe(value: object) -> str:
    """A cell a spreadsheet shows as text: a leading quote disarms a would-be formula (a
    plain number is left alone)."""
    text = "" if value is None else str(value)
    if text.startswith(_FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text
