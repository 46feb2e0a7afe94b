"""Form fields the apps share."""

from __future__ import annotations

from django import forms


class DepartmentChoiceField(forms.ModelChoiceField):
    """A department picked by the name people know it by (`Department.__str__` is its slug, the
    name files and commands use)."""

    def label_from_instance(self, obj) -> str:
        return obj.name
