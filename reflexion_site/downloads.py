"""Downloads every page offers: a CSV attachment (callers disarm text cells with
reviews.selectors_export.spreadsheet_safe or insights.views.csv_response)."""

from __future__ import annotations

import csv

from django.http import HttpResponse


def csv_attachment(filename: str):
    """An empty CSV download named `filename`, and a writer into it (CRLF, as RFC 4180)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, csv.writer(response, lineterminator="\r\n")
