"""The project's own rules, by category: secrets, personal data, infrastructure, injection."""

from __future__ import annotations

import re

from reflections.scanning.findings import INFRASTRUCTURE, INJECTION, PERSONAL, SECRET
from reflections.scanning.rule import (
    INTERNAL_HOST,
    IPV4,
    Rule,
    assignment_summary,
    bearer_summary,
    email_summary,
    gates,
    iban_summary,
    internal_url_summary,
    international_phone_summary,
    ipv4_summary,
    national_phone_summary,
    quote,
    role_override_summary,
    sk_summary,
    url_password_summary,
)
from reflections.scanning.vendor import DETECT_SECRETS

_I = re.IGNORECASE
OWN_RULES: tuple[Rule, ...] = (
    # secrets
    Rule(
        "secret.aws_secret_access_key",
        SECRET,
        re.compile(
            r"aws[\w .-]{0,12}?secret[\w .-]{0,12}?[\s:=\"'`]{1,4}"
            r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
            _I,
        ),
        "AWS secret access key",
        cues=(("aws",), ("secret",)),
        group=1,
    ),
    Rule(
        "secret.bearer_token",
        SECRET,
        re.compile(r"\bbearer\s+([A-Za-z0-9\-._~+/]{16,}=*)", _I),
        bearer_summary,
        cues=(("bearer",),),
        group=1,
    ),
    Rule(
        "secret.private_key_block",
        SECRET,
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----[\s\S]*?"
            r"(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|\Z)"
        ),
        "private key block",
        cues=(("private key",),),
    ),
    Rule(
        "secret.url_password",
        SECRET,
        re.compile(
            r"\b[a-z][a-z0-9+.\-]*://(?P<cred>[^\s:/?#@\[\]]+:(?P<password>[^\s/?#@\[\]]+))@",
            _I,
        ),
        url_password_summary,
        cues=(("://",), ("@",)),
        group="cred",
    ),
    # Credential assignments, one rule per key family so that a common word ("key") only
    # costs the gate of its own family.
    *(
        Rule(
            "secret.assignment",
            SECRET,
            re.compile(
                rf"\b(?P<key>{pattern})[\"'`]?\s*(?:=|:)\s*[\"'`]?(?P<value>[^\s\"'`,;]{{6,}})", _I
            ),
            assignment_summary,
            cues=((cue,),),
            gates=gates(rf"{cue}[\w-]*[\"'`]?\s*[:=]"),
            group="value",
        )
        for cue, pattern in (
            ("pass", r"pass(?:word|wd|phrase)?"),
            ("pwd", r"pwd"),
            ("secret", r"(?:client[_-]?)?secret(?:[_-]?key)?"),
            ("key", r"(?:api|access|secret)[_-]?key|apikey"),
            ("token", r"(?:access|auth|refresh|api|bearer)?[_-]?token"),
        )
    ),
    Rule(
        "secret.sk_api_key",
        SECRET,
        re.compile(r"(?<![\w-])sk-(?:ant-(?:api\d\d-)?|proj-|live-|test-)?([A-Za-z0-9_\-]{20,})"),
        sk_summary,
        cues=(("sk-",),),
    ),
    # personal data
    Rule(
        "personal.email",
        PERSONAL,
        re.compile(
            r"(?<![\w.+%-])[A-Za-z0-9._%+\-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?\.)+"
            r"[A-Za-z]{2,24}(?![\w-])"
        ),
        email_summary,
        cues=(("@",),),
    ),
    Rule(
        "personal.phone_international",
        PERSONAL,
        # +CC then digit groups separated by one space, dot, dash or (…)
        re.compile(r"(?<![\w+])\+[1-9]\d{0,2}(?:[ .\-]?\(?\d{1,5}\)?){1,6}(?![\d.,:]\d|\w)"),
        international_phone_summary,
        cues=(("+",),),
    ),
    Rule(
        "personal.phone_national",
        PERSONAL,
        re.compile(
            # North American: (415) 555-0142, 415-555-0142, 415.555.0142, 415 555 0142
            r"(?:\([0-9]{3}\) ?|[0-9]{3}[ .\-])[0-9]{3}[ .\-][0-9]{4}"
            # European national: 030 1234 5678, 0171-234-5678, 020 7946 0958
            r"|0[0-9]{2,4}[ /\-][0-9]{3,4}[ \-][0-9]{3,4}"
        ),
        national_phone_summary,
        # Every match ends in two digit groups of 3+ joined by a space, dot or dash.
        shapes=(b"000 000", b"000-000", b"000.000"),
    ),
    Rule(
        "personal.iban",
        PERSONAL,
        re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b"),
        iban_summary,
        # Only where the text says IBAN: a digit-led scan of every text costs too much for an
        # optional rule, and an IBAN pasted into a lesson is nearly always labelled.
        cues=(("iban",),),
    ),
    # infrastructure
    Rule(
        "infrastructure.internal_url",
        INFRASTRUCTURE,
        re.compile(
            rf"\b(?:https?|wss?|ftp)://(?:[^\s/@]+@)?(?P<host>{IPV4}|{INTERNAL_HOST}|localhost)"
            r"(?::\d{1,5})?(?:[/?#][^\s<>\"'`)\]]*)?",
            _I,
        ),
        internal_url_summary,
        cues=(("://",),),
    ),
    Rule(
        "infrastructure.ipv4",
        INFRASTRUCTURE,
        re.compile(IPV4),
        ipv4_summary,
        gates=gates(r"\.\d{1,3}\.\d{1,3}\.\d"),
    ),
    Rule(
        "infrastructure.ipv6_internal",
        INFRASTRUCTURE,
        re.compile(
            r"(?<![\w:])(?:::1|f[cd][0-9a-f]{2}(?::[0-9a-f]{0,4}){2,7})(?![\w:])",
            _I,
        ),
        "loopback or unique-local IPv6 address",
        gates=gates(r"::1", r"f[cd][0-9a-f]{2}:[0-9a-f]{0,4}:"),
    ),
    Rule(
        "infrastructure.internal_host",
        INFRASTRUCTURE,
        re.compile(rf"(?<![\w.-]){INTERNAL_HOST}", _I),
        "internal hostname",
        cues=((".internal", ".local", ".corp", ".lan", "intranet.", "localhost:", ".home.arpa"),),
    ),
    # prompt injection
    Rule(
        "injection.ignore_instructions",
        INJECTION,
        re.compile(
            r"\b(?:ignore|forget|skip|override)\s+(?:(?:all|any|of|the|your|my|these|those)\s+)*"
            r"(?:previous|prior|above|earlier|preceding|former|original|existing)\s+"
            r"(?:instructions?|prompts?|rules|directions|directives|guidelines|messages)\b",
            _I,
        ),
        quote("instruction override"),
        cues=(
            ("ignore", "forget", "skip", "override"),
            (
                "previous",
                "prior",
                "above",
                "earlier",
                "preceding",
                "former",
                "original",
                "existing",
            ),
            ("instruction", "prompt", "rule", "direction", "directive", "guideline", "message"),
        ),
    ),
    Rule(
        "injection.disregard_instructions",
        INJECTION,
        re.compile(
            r"\bdisregard\s+(?:[\w'-]+\s+){0,4}?"
            r"(?:instructions?|prompts?|rules|guidelines|directives|guardrails|policy|policies)\b",
            _I,
        ),
        quote("instruction override"),
        cues=(
            ("disregard",),
            ("instruction", "prompt", "rule", "guideline", "directive", "guardrail", "polic"),
        ),
    ),
    # Role overrides, one rule in three parts so that each keeps a precheck on a rare word.
    Rule(
        "injection.role_override",
        INJECTION,
        re.compile(r"\byou\s+are\s+now\b|\bfrom\s+now\s+on,?\s+you\b", _I),
        quote("role override"),
        cues=(("you",), ("now",)),
    ),
    Rule(
        "injection.role_override",
        INJECTION,
        re.compile(r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b", _I),
        quote("role override"),
        cues=(("pretend",),),
    ),
    Rule(
        "injection.role_override",
        INJECTION,
        re.compile(r"\bact\s+as\s+(?:a|an|if|though|my|the)\b", _I),
        role_override_summary,
        cues=(("act",),),
        gates=gates(r"act\s+as\s"),
    ),
    Rule(
        "injection.system_prompt",
        INJECTION,
        re.compile(r"\b(?:system|developer|hidden)\s+(?:prompt|message|instructions)s?\b", _I),
        quote("reference to the system prompt"),
        cues=(("system", "developer", "hidden"), ("prompt", "message", "instruction")),
    ),
    Rule(
        "injection.developer_mode",
        INJECTION,
        re.compile(r"\b(?:developer|dev|god|dan)\s+mode\b|\bjailbreak", _I),
        quote("mode switch"),
        cues=(("mode", "jailbreak"), ("developer", "dev", "god", "dan", "jailbreak")),
    ),
    Rule(
        "injection.conceal_from_user",
        INJECTION,
        re.compile(
            r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|alert|notify|warn)\s+the\s+"
            r"(?:user|human|operator|reviewer|customer)s?\b"
            r"|\bwithout\s+(?:telling|informing|notifying)\s+the\s+(?:user|human|operator)s?\b",
            _I,
        ),
        quote("concealment from the user"),
        cues=(
            ("tell", "inform", "alert", "notify", "warn"),
            ("user", "human", "operator", "reviewer", "customer"),
        ),
    ),
    Rule(
        "injection.html_comment",
        INJECTION,
        re.compile(r"<!--[\s\S]*?(?:-->|\Z)"),
        "hidden HTML comment",
        cues=(("<!--",),),
    ),
    Rule(
        "injection.script",
        INJECTION,
        re.compile(r"<\s*script\b[\s\S]*?(?:<\s*/\s*script\s*>|\Z)", _I),
        "HTML script element",
        cues=(("<",), ("script",)),
    ),
    Rule(
        "injection.hidden_element",
        INJECTION,
        re.compile(
            r"<(?P<tag>[a-z][a-z0-9]*)\b[^>]*?(?:\shidden\b|display\s*:\s*none"
            r"|visibility\s*:\s*hidden|aria-hidden\s*=\s*[\"']?true)[^>]*>"
            r"[\s\S]*?(?:</(?P=tag)\s*>|\Z)",
            _I,
        ),
        "hidden HTML element",
        cues=(("<",), ("hidden", "none")),
    ),
    Rule(
        "injection.zero_width",
        INJECTION,
        # A byte order mark at the very start is an encoding artefact, not hidden text.
        re.compile(r"(?!\A\ufeff)[\u200b-\u200d\u2060\ufeff]+"),
        "zero-width characters",
        cues=(("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"),),
        non_ascii=True,
    ),
)

RULES: tuple[str, ...] = tuple(dict.fromkeys(rule.name for rule in OWN_RULES)) + tuple(
    dict.fromkeys(rule for _, patterns in DETECT_SECRETS for rule, _, _ in patterns)
)
