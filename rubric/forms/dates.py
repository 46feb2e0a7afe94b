"""The date range the rating pages filter by."""

from __future__ import annotations

from django import forms

# Dates are written YYYY-MM-DD everywhere (reflexion_site/templatetags/formats.py): a text
# input with that pattern, not the browser's date input, which shows the locale's mm/dd/yyyy.
ISO_DATE = forms.DateInput(
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


class RatedBetweenForm(forms.Form):
    """A range of rating days, both included; either end may be open."""

    since = forms.DateField(required=False, label="Rated from", widget=ISO_DATE)
    until = forms.DateField(required=False, label="Rated until", widget=ISO_DATE)

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError("The first day is after the last day.")
        return data
