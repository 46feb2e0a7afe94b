"""Forms of the memory's own pages: the web import."""

from __future__ import annotations

from pathlib import Path

from django import forms

from reflections.form_fields import DepartmentChoiceField
from reflections.models import Department
from reflections.services.web_import import MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES, UPLOAD_SUFFIXES


class _MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class _MultipleFileField(forms.FileField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", _MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)] if data else []


class ImportForm(forms.Form):
    files = _MultipleFileField(
        label="Files",
        help_text="A zip of a workspace tree (memory/, .aiwg/, heuristics/, logs/), or reflection "
        "files (.md, .json, .jsonl), retrieval and task logs (.jsonl, .csv) and trajectory "
        f"pools (.json). Up to {MAX_UPLOAD_FILES} files of {MAX_UPLOAD_BYTES // 2**20} MB each.",
    )
    default_department = DepartmentChoiceField(
        queryset=Department.objects.order_by("name"),
        to_field_name="slug",
        required=False,
        empty_label="(none)",
        help_text="For reflections and task runs whose agent has no department (protocol "
        "Markdown and the trajectory pool name none).",
    )
    create_departments = forms.BooleanField(
        required=False,
        label="Create departments the files name that do not exist yet",
        help_text="Otherwise each file or line naming an unknown department is rejected.",
    )

    def clean_files(self):
        files = self.cleaned_data["files"]
        if not files:
            raise forms.ValidationError("Choose at least one file.")
        if len(files) > MAX_UPLOAD_FILES:
            raise forms.ValidationError(
                f"{len(files)} files; upload at most {MAX_UPLOAD_FILES} (zip the rest)."
            )
        for f in files:
            suffix = Path(f.name).suffix.lower()
            if suffix not in UPLOAD_SUFFIXES:
                raise forms.ValidationError(
                    f"{f.name}: a {suffix or 'file without an extension'} cannot be imported; "
                    f"expected {', '.join(UPLOAD_SUFFIXES)}."
                )
            if f.size > MAX_UPLOAD_BYTES:
                raise forms.ValidationError(
                    f"{f.name}: {f.size:,} bytes; the limit is {MAX_UPLOAD_BYTES:,} per file."
                )
        return files
