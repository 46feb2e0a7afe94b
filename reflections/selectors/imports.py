"""Reading web-import jobs and their reports for the import pages."""

from __future__ import annotations

import re
from collections import Counter

from reflections.models import ImportJob

MAX_SHOWN_ROWS = 500
COMMON_REASONS = 5
# A reason starts with the field it is about ("outcome: unknown outcome …").
_FIELD = re.compile(r"^(?:record \d+: )?([A-Za-z_][\w\[\]. ]{0,40}): ")


def recent_jobs(limit: int = 10) -> list[ImportJob]:
    return list(ImportJob.objects.select_related("user")[:limit])


def _reason(item: dict) -> str:
    """What a report row says: a rejection's `reason`, or a warning's `message` (importers.base)."""
    return item.get("reason") or item.get("message") or ""


def _rows(items: list[dict]) -> list[dict]:
    out = []
    for item in items[:MAX_SHOWN_ROWS]:
        reason = _reason(item)
        match = _FIELD.match(reason)
        out.append(
            {
                "path": item.get("path", ""),
                "line": item.get("line"),
                "field": match.group(1) if match else "",
                "reason": reason,
            }
        )
    return out


def _common_reasons(items: list[dict]) -> list[tuple[str, int]]:
    """The reasons given more than once, most frequent first (at most COMMON_REASONS), counted
    over every rejection, not only the rows listed: a cause that refuses thousands of files or
    lines (a department nobody created) is seen at once."""
    counts = Counter(_reason(item) for item in items)
    return [(reason, n) for reason, n in counts.most_common(COMMON_REASONS) if n > 1]


def _totals(refl: dict, outcomes: Counter | None) -> dict:
    """Each reflection counted once, as the per-file list counts it: a new or changed one the
    scanner flagged is quarantined, not also created or updated (the import's own totals
    count it in both). Reports without the per-file outcomes keep the import's totals."""
    rejected = len(refl.get("rejected", []))
    if outcomes is None:
        counts = {k: refl.get(k, 0) for k in ("created", "updated", "unchanged")}
        return counts | {"quarantined": refl.get("quarantined", 0), "rejected": rejected}
    keys = ("created", "updated", "unchanged", "quarantined")
    return {k: outcomes.get(k, 0) for k in keys} | {"rejected": rejected}


def job_report(job: ImportJob) -> dict:
    """The stored report shaped for the page: totals, the per-file outcomes, every rejection
    and warning with its file, line and field (the first 500 of each; counts are whole)."""
    report = job.report or {}
    refl = report.get("reflections", {})
    logs = report.get("logs", {})
    read = refl.get("files") or {}
    rejected = (
        report.get("refused_uploads", []) + refl.get("rejected", []) + logs.get("rejected", [])
    )
    warnings = refl.get("warnings", []) + logs.get("warnings", [])
    outcomes = Counter(read.values())
    # A file the import refused was read too: listed with its outcome, so the list never says
    # "no file was read" beside a rejection (the reason is in the Rejected table).
    files = dict(read)
    for item in refl.get("rejected", []):
        files.setdefault(item.get("path", ""), "rejected")
    return {
        "reflections": _totals(refl, outcomes if read else None),
        "logs": {
            "retrievals": logs.get("retrievals", {}),
            "tasks": logs.get("tasks", {}),
            "rejected": len(logs.get("rejected", [])),
            "files": report.get("log_files", []),
        },
        "files": sorted(files.items())[:MAX_SHOWN_ROWS],
        "file_count": len(files),
        "file_outcomes": dict(Counter(files.values())),
        "rejected": _rows(rejected),
        "rejected_count": len(rejected),
        "common_reasons": _common_reasons(rejected),
        "warnings": _rows(warnings),
        "warning_count": len(warnings),
        "limit": MAX_SHOWN_ROWS,
        "runs": report.get("runs", []),
        "neighbours": report.get("neighbours", []),
        "neighbours_refit": report.get("neighbours_refit", False),
    }
