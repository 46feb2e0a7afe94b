"""The form an admin registers a webhook endpoint with."""

from __future__ import annotations

from django import forms

from webhooks.delivery import AddressRefused, check_url
from webhooks.models import Event


class EndpointForm(forms.Form):
    url = forms.URLField(
        label="Address",
        max_length=500,
        assume_scheme="https",
        help_text="Where each event is POSTed, e.g. https://hooks.example.com/reflexion. "
        "Redirects are not followed.",
    )
    events = forms.MultipleChoiceField(
        choices=Event.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text="Only these events are sent to it.",
    )

    def clean_url(self):
        url = self.cleaned_data["url"]
        try:
            check_url(url)
        except AddressRefused as error:
            raise forms.ValidationError(f"This address cannot be used: {error}.") from None
        return url
