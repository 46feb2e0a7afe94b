"""What a scan reports: the four categories, a finding (never the value), and findings in words."""

from __future__ import annotations

from dataclasses import dataclass

SECRET = "secret"  # noqa: S105 (a category name, not a credential)
PERSONAL = "personal"
INFRASTRUCTURE = "infrastructure"
INJECTION = "injection"
CATEGORIES = (SECRET, PERSONAL, INFRASTRUCTURE, INJECTION)


@dataclass(frozen=True)
class Finding:
    """One unsafe span of a text; `summary` never contains the matched secret or personal value."""

    rule: str
    category: str
    start: int
    end: int
    summary: str
    # "" for the reflection's text; otherwise the field the offsets point into ("tags[2]",
    # "json:evaluator_output.errors[0].message").
    field: str = ""


def describe_findings(findings) -> str:
    """Findings in words for a history row: categories and summaries, never the values."""
    return "; ".join(
        f"{f.category}: {f.summary}" + (f" (in {f.field})" if f.field else "") for f in findings[:5]
    ) + (f"; and {len(findings) - 5} more" if len(findings) > 5 else "")
