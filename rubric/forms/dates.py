"""The date range the rating pages filter by."""

from __future__ import annotations

from django import forms


class RatedBetweenForm(forms.Form):
    """A range of rating days, both included; either end may be open."""

    since = forms.DateField(
        required=False, label="Rated from", widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        required=False, label="Rated until", widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError("The first day is after the last day.")
        return data
