"""Masking, stricter than detection: wherever unsafe text is shown (the quarantine, the
redaction form, the admin, history), every finding is hidden and so is everything that looks
like a credential beside it, and a redaction is accepted only when nothing of that is left."""

from __future__ import annotations

import re
from collections.abc import Iterable

from reflections.scanning import structure
from reflections.scanning.findings import (
    CATEGORIES,
    INFRASTRUCTURE,
    INJECTION,
    PERSONAL,
    SECRET,
    Finding,
)
from reflections.scanning.rules_infra import PUBLIC_SERVICE
from reflections.scanning.rules_personal import INTRODUCED_NAME
from reflections.scanning.scan import scan_text
from reflections.scanning.values import (
    is_credential_like,
    is_documentation_domain,
    is_placeholder,
    is_random_token,
)

# A value under a name that says it is secret, whatever its shape.
_NAMED = re.compile(
    r"(?<![\w.-])[\w.-]*?(?:pass|pwd|secret|token|key|auth|credential|signature|cookie|session|"
    r"private|dsn|conn(?:ection)?[_-]?string|sig)[\w.-]*[\"'`\]]*\s*(?::=|=>|=|:)\s*[\"'`]?"
    r"(?P<value>[^\s\"'`,;<>\[\]]{4,})",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_.~-])[A-Za-z0-9+/=_.~-]{12,}(?![A-Za-z0-9+/=_.~-])")
# How far from a secret a credential-shaped token is taken for its partner (the secret half
# of a key pair on the next line, the password after a user name).
_NEAR_BEFORE, _NEAR_AFTER = 120, 300
_MARKER = re.compile(r"\[REDACTED:[a-z+]+\]")
# Where a text holds personal data, every capitalised run of two or three words may be the
# person's name ("Owen Castellano's order"): shown masked, never guessed at.
_UPPER = "A-ZÀ-ÖØ-Þ\u0100-\u017f"
_LOWER = "a-zß-öø-ÿ\u0100-\u017f'\u2019"
_NAME_LIKE = re.compile(
    rf"(?<![\w'\u2019])[{_UPPER}][{_LOWER}]+(?:-[{_UPPER}][{_LOWER}]+)?"
    rf"(?:\s+(?:(?:van|von|de|da|del|der|den|di|du|le|la|al|bin)\s+)?[{_UPPER}][{_LOWER}]+"
    rf"(?:-[{_UPPER}][{_LOWER}]+)?){{1,2}}"
)
_NAME_CAPS = re.compile(r"\b[A-Z]{2,}(?:\s+[A-Z]\.?)?\s+[A-Z]{2,}(?:-[A-Z]{2,})?\b")
# Beside personal data, any long number may be its account, phone or id number.
_NUMBER_LIKE = re.compile(r"(?<![\w])\d(?:[\d .\-/]{4,}\d)(?![\w])")
_PERSONAL_FIELD = re.compile(
    r"\b(?:cvv2?|cvc|csc|exp(?:iry|ires)?|valid thru|pin)\s*[=:]?\s*\d[\d/]{1,6}"
    r"|\b(?:cvv|cvc|csc|exp(?:iry)?|pin|name|holder|account|dob|ssn|address)\s*[=:]\s*[\"']?"
    r"[^\s\"',;]{2,}(?:\s+[^\s\"',;=]{1,20}){0,3}[\"']?",
    re.IGNORECASE,
)
# Lower-case path segments: a file path, however high its entropy.
_PATH_LIKE = re.compile(r"[a-z0-9_.~-]+(?:/[a-z0-9_.~-]+)+")
# Where a text discloses infrastructure, every name of the same kind is hidden with it:
# hostnames, cloud resource ids, account numbers, directory names, environment-named
# resources.
_HOSTNAME = re.compile(
    r"(?<![\w.@-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]"
    r"(?![\w-]|\.[a-z0-9])",
    re.IGNORECASE,
)
_INFRASTRUCTURE_LIKE = (
    _HOSTNAME,
    re.compile(
        r"\b(?:vpc|subnet|sg|igw|nat|rtb|eni|vol|snap|ami|i|lt|tgw|vpce|acl|eipalloc|lb|db|"
        r"cluster|fs|fsap|kms|key|r|rm|ecs|vsw)-[0-9a-z]{8,24}\b"
    ),
    re.compile(r"\barn:aws[\w-]*:[^\s\"'`<>)\]]+|\bocid1\.[\w.-]+|/subscriptions/[^\s\"'`]+"),
    re.compile(r"(?<![\w-])\d{12}(?![\w-])|\bip-\d{1,3}(?:-\d{1,3}){3}\b"),
    re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
    re.compile(
        r"(?<![\w.-])[a-z0-9]+(?:-[a-z0-9]+)*-(?:prod|production|prd|staging|stage|stg|dev|uat|"
        r"qa|int|internal)(?:-[a-z0-9]+)*(?![\w.-])",
        re.IGNORECASE,
    ),
    re.compile(r"(?:\b(?:CN|OU|DC|O|L|ST|C)=[^,\n;]+,\s*)+(?:CN|OU|DC|O|L|ST|C)=[^,\n;\s]+"),
    re.compile(r"\\\\[\w.$-]+(?:\\[^\s\"'`]*)?"),
    # The value of a key naming a resource: bucket = "…", dynamodb_table: …, cluster=…
    re.compile(
        r"\b[\w-]*(?:bucket|table|cluster|host(?:name)?|endpoint|server|queue|topic|database|"
        r"namespace|project(?:_id)?|resource_group|subscription(?:_id)?|account(?:_id)?|vpc|"
        r"subnet|registry|repository)[\w-]*[\"']?\s*[=:]\s*[\"']?[^\s\"',;]+",
        re.IGNORECASE,
    ),
)
# File names and the hosts everyone uses are not anyone's infrastructure.
_FILE_SUFFIX = re.compile(
    r"\.(?:py|md|json|jsonl|ya?ml|toml|ini|cfg|conf|txt|log|csv|sh|ps1|js|ts|tsx|jsx|go|rs|rb|"
    r"java|kt|php|html|css|sql|tf|tfvars|lock|xml|pdf|png|jpe?g|gif|zip|gz|tar|whl|exe|dll)$",
    re.IGNORECASE,
)


def _private_host(name: str) -> bool:
    return not (
        _FILE_SUFFIX.search(name) or PUBLIC_SERVICE.search(name) or is_documentation_domain(name)
    )


# A date is no one's number: "2026-05-14" or "2026-05-14 10:30" stays readable.
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?")
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")


def strict_findings(text: str, findings: Iterable[Finding] | None = None) -> list[Finding]:
    """The findings, plus every value a secret-named key holds, every random string, and every
    credential-shaped token next to a secret finding."""
    found = list(scan_text(text) if findings is None else findings)
    extra: list[Finding] = []
    for match in _NAMED.finditer(text):
        value = match.group("value")
        if not is_placeholder(value) and not _MARKER.fullmatch(value):
            start, end = match.span("value")
            extra.append(Finding("mask.named_value", SECRET, start, end, "value of a secret name"))
    secrets = [f for f in found if f.category == SECRET]
    for match in _TOKEN.finditer(text):
        token = match.group()
        start, end = match.span()
        # memory/reflexions/2026-05/14-x.md is a path, random only by its entropy.
        if not _PATH_LIKE.fullmatch(token) and is_random_token(token.strip("=.-")):
            extra.append(Finding("mask.random_string", SECRET, start, end, "random string"))
        elif is_credential_like(token, min_length=12) and any(
            f.start - _NEAR_BEFORE <= start and end <= f.end + _NEAR_AFTER for f in secrets
        ):
            extra.append(Finding("mask.near_secret", SECRET, start, end, "next to a secret"))
    if any(f.category == PERSONAL for f in found):
        extra += [
            Finding("mask.name_like", PERSONAL, m.start(), m.end(), "a possible name")
            for pattern in (_NAME_LIKE, _NAME_CAPS, _NUMBER_LIKE, _PERSONAL_FIELD, INTRODUCED_NAME)
            for m in pattern.finditer(text)
            if pattern is not _NUMBER_LIKE
            or (sum(c.isdigit() for c in m.group()) >= 6 and not _ISO_DATE.match(text, m.start()))
        ]
    if any(f.category == INFRASTRUCTURE for f in found):
        extra += [
            Finding("mask.infrastructure_like", INFRASTRUCTURE, m.start(), m.end(), "a name")
            for pattern in _INFRASTRUCTURE_LIKE
            for m in pattern.finditer(text)
            if pattern is not _HOSTNAME or _private_host(m.group())
        ]
    # Injected text is hidden whole: the sentence that carries it, not only the phrase.
    extra += [_sentence_of(text, f) for f in found if f.category == INJECTION]
    return found + extra


def _sentence_of(text: str, finding: Finding) -> Finding:
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, finding.start)), default=0)
    # Inside a quoted string (a YAML or JSON value, a quotation) the sentence ends at the quotes.
    line_start = text.rfind("\n", 0, finding.start) + 1
    opening = text.rfind('"', line_start, finding.start)
    if opening >= 0 and text.count('"', line_start, finding.start) % 2 == 1:
        closing = text.find('"', finding.end)
        if closing > 0:
            return Finding("mask.injected_sentence", INJECTION, opening + 1, closing, "injected")
    # A full stop ends the sentence with it; a line break ends it before itself.
    end = next(
        (
            m.end() if m.group() != "\n" else m.start()
            for m in _SENTENCE_END.finditer(text, finding.end)
        ),
        len(text),
    )
    while start < finding.start and text[start].isspace():
        start += 1
    return Finding("mask.injected_sentence", INJECTION, start, max(end, finding.end), "injected")


def mask(text: str, findings: Iterable[Finding] | None = None) -> str:
    """`text` with each finding's span, and everything strict_findings adds, replaced by
    `[REDACTED:<category>]`.

    Spans of different categories can overlap (a password in a URL on an internal host);
    overlapping spans become one marker naming every category involved. A marker can give a
    neighbouring value the word boundary a rule waits for ("DE89…00gho_…" → "DE89…00[…"), so
    the result is scanned again and whatever the masking exposed is masked too.
    """
    masked = _mask_once(text, strict_findings(text, findings))
    for _ in range(_MASK_ROUNDS):
        exposed = strict_findings(masked)
        if not exposed:
            break
        masked = _mask_once(masked, exposed)
    return masked


# Each round only replaces text with markers, so a second round is already rare.
_MASK_ROUNDS = 5


def _mask_once(text: str, findings: Iterable[Finding]) -> str:
    spans = sorted(structure.fit(text, findings))
    out: list[str] = []
    position = 0
    i = 0
    while i < len(spans):
        start, end, category, quoted = spans[i]
        categories = [category]
        i += 1
        while i < len(spans) and spans[i][0] < end:
            end = max(end, spans[i][1])
            quoted = quoted or spans[i][3]
            if spans[i][2] not in categories:
                categories.append(spans[i][2])
            i += 1
        start = max(start, position)
        out.append(text[position:start])
        categories.sort(key=CATEGORIES.index)
        marker = f"[REDACTED:{'+'.join(categories)}]"
        out.append(f'"{marker}"' if quoted else marker)
        position = max(position, end)
    out.append(text[position:])
    return structure.requote("".join(out))
