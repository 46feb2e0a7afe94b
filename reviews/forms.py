"""Forms of the review pages: they validate shapes; the services enforce the rules."""

from __future__ import annotations

from datetime import UTC, datetime

from django import forms
from django.contrib.auth import get_user_model
from django.core import signing

from reflections.access import REVIEWER
from reflections.form_fields import DepartmentChoiceField
from reflections.models import Department
from reviews.models import ReviewBatch, Verdict
from reviews.policies import CYCLE_SIZE, WINDOW_DAYS, QuarterError, parse_quarter

_SHOWN_SALT = "reviews.item-shown"


def reviewer_choices():
    return (
        get_user_model()
        .objects.filter(groups__name=REVIEWER, is_active=True)
        .order_by("username")
        .distinct()
    )


class OpenCycleForm(forms.Form):
    department = DepartmentChoiceField(queryset=Department.objects.order_by("name"))
    quarter = forms.CharField(max_length=6, help_text="e.g. 2026Q3")
    starts_on = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Default: the quarter's first day. The window ends the day before.",
    )
    window_days = forms.IntegerField(min_value=1, max_value=366, initial=WINDOW_DAYS)
    size = forms.IntegerField(min_value=1, max_value=500, initial=CYCLE_SIZE)
    reviewers = forms.ModelMultipleChoiceField(
        queryset=reviewer_choices(), widget=forms.CheckboxSelectMultiple
    )

    def clean_quarter(self) -> str:
        quarter = self.cleaned_data["quarter"].strip().upper()
        try:
            parse_quarter(quarter)
        except QuarterError as error:
            raise forms.ValidationError(str(error)) from None
        return quarter


class ReassignForm(forms.Form):
    ranks = forms.CharField(
        max_length=1000, help_text="Ranks to move, e.g. 3, 7, 12-20", label="Items"
    )
    to_reviewer = forms.ModelChoiceField(queryset=reviewer_choices(), label="To")

    def clean_ranks(self) -> list[int]:
        ranks: set[int] = set()
        for part in self.cleaned_data["ranks"].replace(" ", "").split(","):
            if not part:
                continue
            low, _, high = part.partition("-")
            try:
                first, last = int(low), int(high or low)
            except ValueError:
                raise forms.ValidationError(f"{part!r} is not a rank or a range of ranks") from None
            if first < 1 or last < first or last - first > 1000:
                raise forms.ValidationError(f"{part!r} is not a range of ranks")
            ranks.update(range(first, last + 1))
        if not ranks:
            raise forms.ValidationError("name at least one rank")
        return sorted(ranks)


class CloseForm(forms.Form):
    allow_incomplete = forms.BooleanField(
        required=False, label="Close even though some items have no verdict"
    )


class VerdictForm(forms.Form):
    verdict = forms.ChoiceField(choices=Verdict.choices)
    duplicate_of = forms.IntegerField(required=False, min_value=1)
    note = forms.CharField(required=False, max_length=2000)
    version = forms.IntegerField(min_value=0)
    shown = forms.CharField(required=False, max_length=200)
    # Set by the confirmation form the duplicate guard shows (an original at stake).
    confirm = forms.BooleanField(required=False)


class UndoForm(forms.Form):
    version = forms.IntegerField(min_value=0)
    # "set": every verdict recorded with this one in a cluster action; "item": this one only.
    scope = forms.ChoiceField(choices=[("item", "item"), ("set", "set")], required=False)


def sign_shown(item_id: int, at: datetime) -> str:
    """When an item was put in front of its reviewer, signed so effort cannot be typed in."""
    return signing.dumps({"item": item_id, "at": at.timestamp()}, salt=_SHOWN_SALT)


def unsign_shown(value: str, item_id: int) -> datetime | None:
    """The time signed for this item, or None for anything forged, stale or for another item."""
    try:
        data = signing.loads(value, salt=_SHOWN_SALT, max_age=24 * 3600)
        if data["item"] != item_id:
            return None
        return datetime.fromtimestamp(float(data["at"]), tz=UTC)
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


class CommentForm(forms.Form):
    body = forms.CharField(max_length=5000, strip=True)


class UnsureForm(forms.Form):
    version = forms.IntegerField(min_value=0)
    note = forms.CharField(required=False, max_length=5000)


class BulkForm(forms.Form):
    """A bulk action's shape; the selection (ranks by hand, or every item the filter
    matches) is read by the view, the rules are the services'."""

    action = forms.ChoiceField(choices=ReviewBatch.Action.choices)
    select = forms.ChoiceField(choices=[("hand", "by hand"), ("filter", "by filter")])
    duplicate_of = forms.IntegerField(required=False, min_value=1)
    to_reviewer = forms.ModelChoiceField(queryset=reviewer_choices(), required=False)
    confirm = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if data.get("action") == ReviewBatch.Action.DUPLICATE and not data.get("duplicate_of"):
            self.add_error("duplicate_of", "pick the original the items duplicate")
        if data.get("action") == ReviewBatch.Action.ASSIGN and not data.get("to_reviewer"):
            self.add_error("to_reviewer", "pick the reviewer to assign them to")
        return data
