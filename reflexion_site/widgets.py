"""Form widgets every app's forms share: the ISO date input."""

from __future__ import annotations

from django import forms


def iso_date_input() -> forms.DateInput:
    """Dates are written YYYY-MM-DD everywhere (reflexion_site/templatetags/formats.py): a
    text input with that pattern, not the browser's date input, which shows the locale's
    mm/dd/yyyy. A new widget each call: a form field keeps its own."""
    return forms.DateInput(
        format="%Y-%m-%d",
        attrs={
            "inputmode": "numeric",
            "pattern": r"\d{4}-\d{2}-\d{2}",
            "placeholder": "YYYY-MM-DD",
            "maxlength": "10",
            "autocomplete": "off",
            "title": "A date as YYYY-MM-DD",
        },
    )
