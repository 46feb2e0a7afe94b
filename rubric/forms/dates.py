"""The date range the rating pages filter by."""

from __future__ import annotations

from django import forms

from reflexion_site.widgets import iso_date_input

ISO_DATE = iso_date_input()  # reflexion_site/widgets.py


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
