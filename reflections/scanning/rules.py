"""Every rule the scanner runs, by category, and their names (for tests and the docs' table)."""

from __future__ import annotations

from reflections.scanning.rule import Rule
from reflections.scanning.rules_authority import AUTHORITY_RULES
from reflections.scanning.rules_channels import CHANNEL_RULES
from reflections.scanning.rules_contacts import SPELLED_CONTACT_RULES
from reflections.scanning.rules_hidden import HIDDEN_HTML_RULES, HIDDEN_TEXT_RULES
from reflections.scanning.rules_infra import INFRASTRUCTURE_RULES
from reflections.scanning.rules_injection import INJECTION_RULES as OVERRIDE_RULES
from reflections.scanning.rules_personal import PERSONAL_RULES
from reflections.scanning.rules_prose_secrets import PROSE_SECRET_RULES
from reflections.scanning.rules_secret import SECRET_RULES
from reflections.scanning.rules_standing import STANDING_RULES
from reflections.scanning.vendor import DETECT_SECRETS

# Injection rules read the text as written and its normalised views (scanning.normalise).
INJECTION_RULES: tuple[Rule, ...] = (
    OVERRIDE_RULES + STANDING_RULES + AUTHORITY_RULES + CHANNEL_RULES + HIDDEN_HTML_RULES
)
# Every rule run on the text as written.
OWN_RULES: tuple[Rule, ...] = (
    SECRET_RULES
    + PROSE_SECRET_RULES
    + PERSONAL_RULES
    + SPELLED_CONTACT_RULES
    + INFRASTRUCTURE_RULES
    + INJECTION_RULES
    + HIDDEN_TEXT_RULES
)

RULES: tuple[str, ...] = tuple(dict.fromkeys(rule.name for rule in OWN_RULES)) + tuple(
    dict.fromkeys(rule for _, patterns in DETECT_SECRETS for rule, _, _ in patterns)
)
