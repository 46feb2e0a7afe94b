"""Forms of the calibration pages: rating an item, building a set, editing the rubric, the
policy. They validate shapes; the services enforce the rules."""

from __future__ import annotations

from django import forms

from rubric.models import CRITERIA, LEVELS
from rubric.services.calibration_sets import (
    CSV_COLUMNS,
    parse_gold_csv,
    parse_level,
    resolve_gold_lines,
)
from rubric.services.rubric import level_label

LEVEL_FORM_CHOICES = [(level_label(v), level_label(v)) for v in LEVELS]


class LevelsForm(forms.Form):
    """One level per criterion, posted by templates/rubric/_criterion.html as
    `level_<criterion key>` radio groups."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key in CRITERIA:
            self.fields[f"level_{key}"] = forms.ChoiceField(
                choices=LEVEL_FORM_CHOICES,
                label=key.capitalize(),
                error_messages={"required": f"{key}: pick a level"},
            )

    def levels(self) -> dict[str, float]:
        return {key: parse_level(self.cleaned_data[f"level_{key}"]) for key in CRITERIA}

    def posted_levels(self) -> dict[str, float]:
        """What was ticked, valid or not, so a refused form keeps the rater's choices."""
        picked = {}
        for key in CRITERIA:
            try:
                picked[key] = parse_level(self.data.get(f"level_{key}", ""))
            except ValueError:
                continue
        return picked

    def problems(self) -> list[str]:
        return [str(e) for errors in self.errors.values() for e in errors]


class BuildSetForm(forms.Form):
    name = forms.CharField(max_length=128)
    rows = forms.CharField(
        label="Reflections and gold levels",
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "class": "mono"}),
        help_text=(
            f"One line per reflection: {','.join(CSV_COLUMNS)} — the reflection by id or source "
            "path, levels 0, 0.25, 0.5, 0.75 or 1. A header line is optional; 30 lines make a set."
        ),
    )
    activate = forms.BooleanField(
        required=False, initial=True, label="Make it the set new raters calibrate on"
    )

    def clean_rows(self):
        lines, errors = parse_gold_csv(self.cleaned_data["rows"])
        found, missing = resolve_gold_lines(lines)
        errors += missing
        if errors:
            # Sorted by line so the admin can work down the textarea.
            errors.sort(key=_line_number)
            raise forms.ValidationError(errors)
        return found


def _line_number(message: str) -> int:
    head = message.split(",")[0].split(":")[0]
    digits = "".join(ch for ch in head if ch.isdigit())
    return int(digits) if digits else 0


class RubricForm(forms.Form):
    """Every criterion's question, level descriptions and anchors ("level | text" lines),
    and the note that says what changed. Saving publishes the next version."""

    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="What changed and why; kept with the new version.",
    )

    def __init__(self, *args, spec: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.criteria = []
        for c in spec["criteria"]:
            key = c["key"]
            self.fields[f"question_{key}"] = forms.CharField(
                label=f"{c['name']}: question",
                initial=c["question"],
                widget=forms.Textarea(attrs={"rows": 2}),
            )
            level_fields = []
            for i, value in enumerate(LEVELS):
                name = f"description_{key}_{i}"
                self.fields[name] = forms.CharField(
                    label=f"Level {level_label(value)}",
                    initial=c["levels"].get(value, ""),
                    widget=forms.Textarea(attrs={"rows": 2}),
                )
                level_fields.append(name)
            self.fields[f"anchors_{key}"] = forms.CharField(
                label=f"{c['name']}: anchors",
                required=False,
                initial="\n".join(f"{level_label(v)} | {t}" for v, t in c["anchors"]),
                widget=forms.Textarea(attrs={"rows": 5}),
                help_text="One anchor per line: level | example text",
            )
            self.criteria.append(
                {
                    "key": key,
                    "name": c["name"],
                    "question": f"question_{key}",
                    "levels": level_fields,
                    "anchors": f"anchors_{key}",
                }
            )
        self.names = {c["key"]: c["name"] for c in spec["criteria"]}

    def criterion_fields(self):
        """The bound fields grouped by criterion, for the template."""
        return [
            {
                "key": c["key"],
                "name": c["name"],
                "question": self[c["question"]],
                "levels": [self[name] for name in c["levels"]],
                "anchors": self[c["anchors"]],
            }
            for c in self.criteria
        ]

    def clean(self):
        cleaned = super().clean()
        for key in self.names:
            field = f"anchors_{key}"
            if field not in cleaned:
                continue
            anchors, errors = [], []
            for number, line in enumerate(cleaned[field].splitlines(), start=1):
                if not line.strip():
                    continue
                level, bar, text = line.partition("|")
                if not bar or not text.strip():
                    errors.append(f"line {number}: write it as “level | text”")
                    continue
                try:
                    anchors.append((parse_level(level), text.strip()))
                except ValueError as error:
                    errors.append(f"line {number}: {error}")
            if errors:
                self.add_error(field, errors)
            else:
                cleaned[field] = anchors
        return cleaned

    def spec(self) -> dict:
        data = self.cleaned_data
        return {
            "criteria": [
                {
                    "key": key,
                    "name": name,
                    "question": data[f"question_{key}"],
                    "levels": {
                        value: data[f"description_{key}_{i}"] for i, value in enumerate(LEVELS)
                    },
                    "anchors": data[f"anchors_{key}"],
                }
                for key, name in self.names.items()
            ]
        }


class PolicyForm(forms.Form):
    pass_kappa = forms.FloatField(
        min_value=-1.0,
        max_value=1.0,
        label="Pass threshold (pooled quadratic-weighted κ)",
        help_text="A rater passes when their pooled κ against gold is at least this.",
        widget=forms.NumberInput(attrs={"step": "0.01"}),
    )
    require_each_quarter = forms.BooleanField(
        required=False,
        label="Require recalibration every quarter",
        help_text="Raters must have passed in the current quarter (UTC) to join rating rounds.",
    )
