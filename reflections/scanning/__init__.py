"""Find secrets, personal data, internal infrastructure and prompt injection in reflection text.

The public interface; rules live in rules.py (the project's own) and vendor.py (detect-secrets).
"""

from reflections.scanning.findings import (
    CATEGORIES,
    INFRASTRUCTURE,
    INJECTION,
    PERSONAL,
    SECRET,
    Finding,
    describe_findings,
)
from reflections.scanning.rules import RULES
from reflections.scanning.scan import iter_findings, mask, scan_text

__all__ = [
    "CATEGORIES",
    "INFRASTRUCTURE",
    "INJECTION",
    "PERSONAL",
    "RULES",
    "SECRET",
    "Finding",
    "describe_findings",
    "iter_findings",
    "mask",
    "scan_text",
]
