"""Find secrets, personal data, internal infrastructure and prompt injection in reflection text."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

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


# --- detect-secrets -------------------------------------------------------------------------
# Only the plugins that look for a vendor-specific shape. The high-entropy and keyword plugins
# are left out: they flag sha256 hashes, task ids and prose like "token: expired", and every
# false positive quarantines a reflection. Artifactory, Cloudant, IBM and SoftLayer are left
# out because their short prefixes ("AP…", "cl_key") match ordinary words; IPPublicDetector
# because the infrastructure rules below cover every literal IPv4 address.
_DETECT_SECRETS_PLUGINS: tuple[type[RegexBasedDetector], ...] = (
    AWSKeyDetector,
    AzureStorageKeyDetector,
    BasicAuthDetector,
    DiscordBotTokenDetector,
    GitHubTokenDetector,
    GitLabTokenDetector,
    JwtTokenDetector,
    MailchimpDetector,
    NpmDetector,
    OpenAIDetector,
    PrivateKeyDetector,
    PypiTokenDetector,
    SendGridDetector,
    SlackDetector,
    SquareOAuthDetector,
    StripeDetector,
    TelegramBotTokenDetector,
    TwilioKeyDetector,
)
# Literal-led patterns one of which every match of the plugin contains, searched before the
# plugin's own patterns run: a literal-led search costs about as much as `in`, while some
# plugin patterns cost 50 µs per KB. Searched on the original text, as the plugin patterns are
# case-sensitive; `_DETECT_SECRETS_LOWERED_GATES` are for the case-insensitive ones.
_DETECT_SECRETS_GATES: dict[type[RegexBasedDetector], tuple[str, ...]] = {
    AWSKeyDetector: (r"A(?:KIA|SIA|BIA|CCA|3T)",),
    AzureStorageKeyDetector: ("AccountKey=",),
    BasicAuthDetector: ("://",),
    DiscordBotTokenDetector: (r"\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}",),
    GitHubTokenDetector: (r"gh[pousr]_",),
    GitLabTokenDetector: (r"gl[a-z]{2,5}-", "GR1348941"),
    JwtTokenDetector: ("eyJ",),
    MailchimpDetector: (r"-us\d",),
    NpmDetector: ("_authToken",),
    OpenAIDetector: ("T3BlbkFJ",),
    PrivateKeyDetector: ("PRIVATE KEY", "PuTTY-User-Key"),
    PypiTokenDetector: ("pypi-AgE",),
    SendGridDetector: (r"SG\.",),
    SlackDetector: (r"hooks\.slack\.com",),
    SquareOAuthDetector: ("sq0csp-",),
    StripeDetector: ("k_live_",),
    TelegramBotTokenDetector: (r":[0-9A-Za-z_-]{35}",),
    # Twilio's patterns start with a literal ("AC", "SK"): they are their own precheck.
    TwilioKeyDetector: (r"AC[a-z0-9]{32}", r"SK[a-z0-9]{32}"),
}
_DETECT_SECRETS_LOWERED_GATES: dict[type[RegexBasedDetector], tuple[str, ...]] = {
    AWSKeyDetector: ("aws",),
    SlackDetector: ("xox",),
}
_Gate = tuple[re.Pattern[str], bool]  # (literal-led pattern, search the lower-cased text)
_DETECT_SECRETS: tuple[
    tuple[tuple[_Gate, ...], tuple[tuple[str, str, re.Pattern[str]], ...]], ...
] = tuple(
    (
        tuple((re.compile(gate), False) for gate in _DETECT_SECRETS_GATES[plugin])
        + tuple((re.compile(gate), True) for gate in _DETECT_SECRETS_LOWERED_GATES.get(plugin, ())),
        tuple(
            (f"detect-secrets:{plugin.__name__}", plugin.secret_type, regex)
            for regex in plugin().denylist
        ),
    )
    for plugin in _DETECT_SECRETS_PLUGINS
)


def _detect_secrets(text: str, lowered: str) -> Iterator[Finding]:
    lines: list[tuple[int, str]] | None = None
    for gates, patterns in _DETECT_SECRETS:
        for gate, on_lowered in gates:
            if gate.search(lowered if on_lowered else text) is not None:
                break
        else:
            continue
        for rule, secret_type, regex in patterns:
            # The plugins' patterns are meant for single lines (they use ^, $ and \s), so a
            # whole-text hit is confirmed line by line, as detect-secrets itself scans.
            if regex.search(text) is None:
                continue
            if lines is None:
                lines = _lines(text)
            for offset, line in lines:
                for match in regex.finditer(line):
                    # Patterns with a group capture the value; the rest is context.
                    start, end = _value_span(match)
                    yield Finding(rule, SECRET, offset + start, offset + end, secret_type)


def _any_search(patterns: tuple[re.Pattern[str], ...], text: str) -> bool:
    return any(pattern.search(text) is not None for pattern in patterns)


def _lines(text: str) -> list[tuple[int, str]]:
    out = []
    offset = 0
    for line in text.splitlines(keepends=True):
        out.append((offset, line))
        offset += len(line)
    return out


_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=.")


def _value_span(match: re.Match[str]) -> tuple[int, int]:
    """The span to mask: the captured value when a group holds it, widened to the whole token.

    Some plugin groups hold only a prefix ("ghp") and some patterns end lazily (a JWT without
    its signature), so the span grows over adjacent token characters until the value ends.
    """
    start, end = match.span()
    for i in range(1, (match.re.groups or 0) + 1):
        if match.group(i) and len(match.group(i)) >= 16:
            start, end = match.span(i)
            break
    line = match.string
    while end < len(line) and line[end] in _TOKEN_CHARS:
        end += 1
    while start > 0 and line[start - 1] in _TOKEN_CHARS and line[start - 1] != ".":
        start -= 1
    return start, end


# --- own rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    name: str
    category: str
    regex: re.Pattern[str]
    summary: str | Callable[[re.Match[str]], str | None]
    # Cheap prechecks on the lower-cased text, so that clean text never reaches the full
    # regex: one that starts with \b, a lookbehind, a class or an alternation is tried position
    # by position (20-60 µs per KB here), while `in` and a literal-led search skip ahead.
    # `cues`: groups of substrings, every group needs one hit. `gates`: literal-led patterns,
    # one must hit. Both must accept everything the regex matches.
    cues: tuple[tuple[str, ...], ...] = ()
    gates: tuple[re.Pattern[str], ...] = ()
    non_ascii: bool = False  # the rule only matches non-ASCII characters
    # Substrings of the text's digit shape (UTF-8, every ASCII digit turned into "0"), one of
    # which must occur: "000-000" finds digit groups in one memchr-speed pass.
    shapes: tuple[bytes, ...] = ()
    group: int | str = 0  # the capture group that holds the value (0: the whole match)

    def applies(self, lowered: str, ascii_only: bool, shape: bytes) -> bool:
        if self.non_ascii and ascii_only:
            return False
        if self.shapes and not any(cue in shape for cue in self.shapes):
            return False
        for group in self.cues:
            for cue in group:
                if cue in lowered:
                    break
            else:
                return False
        return not self.gates or _any_search(self.gates, lowered)

    def findings(self, text: str) -> Iterator[Finding]:
        for match in self.regex.finditer(text):
            summary = self.summary(match) if callable(self.summary) else self.summary
            if summary is None:  # rejected by the rule's own check
                continue
            start, end = match.span(self.group)
            yield Finding(self.name, self.category, start, end, summary)


_DIGIT_SHAPE = bytes.maketrans(b"0123456789", b"0" * 10)


def _gates(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in patterns)


_PLACEHOLDER = re.compile(
    r"^(?:[\[<{(*$%]|x{3,}|\.{3})|^(?:none|null|nil|true|false|redacted|changeme|example|"
    r"placeholder|secret|password|token|your[_-]?\w*)$",
    re.IGNORECASE,
)


def _is_credential_like(value: str) -> bool:
    """A value that could be a real credential: not a placeholder, mixes character classes."""
    if _PLACEHOLDER.search(value):
        return False
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )
    return classes >= 2


def _assignment_summary(match: re.Match[str]) -> str | None:
    if not _is_credential_like(match.group("value")):
        return None
    return f"credential assigned to '{match.group('key').lower()}'"


def _bearer_summary(match: re.Match[str]) -> str | None:
    return "bearer token" if _is_credential_like(match.group(1)) else None


def _url_password_summary(match: re.Match[str]) -> str | None:
    return "password in a URL" if _is_credential_like(match.group("password")) else None


def _sk_summary(match: re.Match[str]) -> str | None:
    body = match.group(1)
    if not (any(c.isdigit() for c in body) and any(c.isalpha() for c in body)):
        return None
    return "API key (sk-…)"


_URL_AUTHORITY = re.compile(r"//[^\s/@]*\Z")


def _email_summary(match: re.Match[str]) -> str | None:
    # "scheme://user:pass@host" is a URL's userinfo, not an address (the password rule covers
    # it); "mailto:a@b.c" has no "//" and stays an email.
    if _URL_AUTHORITY.search(match.string, max(0, match.start() - 200), match.start()):
        return None
    return "email address"


def _digits(value: str) -> int:
    return sum(c.isdigit() for c in value)


def _international_phone_summary(match: re.Match[str]) -> str | None:
    value = match.group()
    digits = _digits(value)
    # E.164 numbers have 8 to 15 digits. An unseparated "+20260514" is more likely a delta in
    # a log line than a number, so without separators it needs the length of a real one.
    if not 8 <= digits <= 15:
        return None
    if value[1:].isdigit() and digits < 10:
        return None
    return "phone number"


# Glued to other digits, dots or dashes, or one group of a longer run of digit groups (an
# IBAN, a card or order number), a match is part of an id, a date or an amount.
_NUMBER_BEFORE = re.compile(r"(?:[\w.,:/-]|[0-9][ .\-])\Z")
_NUMBER_AFTER = re.compile(r"\w|[ .,:/-][0-9]")


def _national_phone_summary(match: re.Match[str]) -> str | None:
    # Checked here rather than as lookarounds, which would cost the regex its fast scan.
    text, start, end = match.string, match.start(), match.end()
    if _NUMBER_BEFORE.search(text, max(0, start - 2), start):
        return None
    if _NUMBER_AFTER.match(text, end):
        return None
    return "phone number"


def _iban_summary(match: re.Match[str]) -> str | None:
    # The mod-97 check digits make a random code of this shape pass only 1 time in 97.
    compact = match.group().replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return None
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return "IBAN" if int(number) % 97 == 1 else None


_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4 = rf"(?<![\w.]){_OCTET}(?:\.{_OCTET}){{3}}(?!\w|\.\d)"


def _ipv4_kind(address: str) -> str:
    a, b, *_ = (int(part) for part in address.split("."))
    if a == 10 or (a == 172 and 16 <= b <= 31) or (a == 192 and b == 168):
        return "private IPv4 address"
    if a == 127:
        return "loopback IPv4 address"
    if a == 169 and b == 254:
        return "link-local IPv4 address"
    # A public address is reported too: in a lesson meant for other agents a literal IP is
    # always infrastructure detail (a customer's server, a VPN egress, a test box) that the
    # lesson does not need; the hostname or service name is what transfers.
    return "IPv4 address"


def _ipv4_summary(match: re.Match[str]) -> str:
    return _ipv4_kind(match.group())


_INTERNAL_SUFFIXES = r"(?:internal|local|localdomain|corp|lan|intranet|home\.arpa)"
_HOST_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_INTERNAL_HOST = (
    rf"(?:(?:{_HOST_LABEL}\.)+{_INTERNAL_SUFFIXES}(?![\w-]|\.[a-z0-9])"
    rf"|intranet\.(?:{_HOST_LABEL}\.)*{_HOST_LABEL}"
    r"|localhost(?=:\d))"
)


def _internal_url_summary(match: re.Match[str]) -> str:
    host = match.group("host")
    if re.fullmatch(_IPV4, host):
        return f"URL on a {_ipv4_kind(host)}"
    return "URL on an internal host"


def _quote(label: str) -> Callable[[re.Match[str]], str]:
    # Injection text is not secret, so the summary may quote it (whitespace normalised).
    def summary(match: re.Match[str]) -> str:
        phrase = " ".join(match.group().split())
        if len(phrase) > 60:
            phrase = phrase[:57] + "..."
        return f"{label}: '{phrase}'"

    return summary


_ADDRESSED = re.compile(r"(?:^|[.!?:;]|\byou\s+(?:must|should|will|now)|\bnow)\s*\Z", re.I)


def _role_override_summary(match: re.Match[str]) -> str | None:
    # "act as" is an override only when addressed to the model ("Act as a …", "you must act
    # as …"); "the cache acts as a buffer" or "it can act as a fallback" is ordinary prose.
    if match.group().lower().startswith("act"):
        before = match.string[max(0, match.start() - 20) : match.start()]
        if not _ADDRESSED.search(before):
            return None
    return _quote("role override")(match)


_I = re.IGNORECASE
_RULES: tuple[_Rule, ...] = (
    # secrets
    _Rule(
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
    _Rule(
        "secret.bearer_token",
        SECRET,
        re.compile(r"\bbearer\s+([A-Za-z0-9\-._~+/]{16,}=*)", _I),
        _bearer_summary,
        cues=(("bearer",),),
        group=1,
    ),
    _Rule(
        "secret.private_key_block",
        SECRET,
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----[\s\S]*?"
            r"(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|\Z)"
        ),
        "private key block",
        cues=(("private key",),),
    ),
    _Rule(
        "secret.url_password",
        SECRET,
        re.compile(
            r"\b[a-z][a-z0-9+.\-]*://(?P<cred>[^\s:/?#@\[\]]+:(?P<password>[^\s/?#@\[\]]+))@",
            _I,
        ),
        _url_password_summary,
        cues=(("://",), ("@",)),
        group="cred",
    ),
    # Credential assignments, one rule per key family so that a common word ("key") only
    # costs the gate of its own family.
    *(
        _Rule(
            "secret.assignment",
            SECRET,
            re.compile(
                rf"\b(?P<key>{pattern})[\"'`]?\s*(?:=|:)\s*[\"'`]?(?P<value>[^\s\"'`,;]{{6,}})", _I
            ),
            _assignment_summary,
            cues=((cue,),),
            gates=_gates(rf"{cue}[\w-]*[\"'`]?\s*[:=]"),
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
    _Rule(
        "secret.sk_api_key",
        SECRET,
        re.compile(r"(?<![\w-])sk-(?:ant-(?:api\d\d-)?|proj-|live-|test-)?([A-Za-z0-9_\-]{20,})"),
        _sk_summary,
        cues=(("sk-",),),
    ),
    # personal data
    _Rule(
        "personal.email",
        PERSONAL,
        re.compile(
            r"(?<![\w.+%-])[A-Za-z0-9._%+\-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?\.)+"
            r"[A-Za-z]{2,24}(?![\w-])"
        ),
        _email_summary,
        cues=(("@",),),
    ),
    _Rule(
        "personal.phone_international",
        PERSONAL,
        # +CC then digit groups separated by one space, dot, dash or (…)
        re.compile(r"(?<![\w+])\+[1-9]\d{0,2}(?:[ .\-]?\(?\d{1,5}\)?){1,6}(?![\d.,:]\d|\w)"),
        _international_phone_summary,
        cues=(("+",),),
    ),
    _Rule(
        "personal.phone_national",
        PERSONAL,
        re.compile(
            # North American: (415) 555-0142, 415-555-0142, 415.555.0142, 415 555 0142
            r"(?:\([0-9]{3}\) ?|[0-9]{3}[ .\-])[0-9]{3}[ .\-][0-9]{4}"
            # European national: 030 1234 5678, 0171-234-5678, 020 7946 0958
            r"|0[0-9]{2,4}[ /\-][0-9]{3,4}[ \-][0-9]{3,4}"
        ),
        _national_phone_summary,
        # Every match ends in two digit groups of 3+ joined by a space, dot or dash.
        shapes=(b"000 000", b"000-000", b"000.000"),
    ),
    _Rule(
        "personal.iban",
        PERSONAL,
        re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b"),
        _iban_summary,
        # Only where the text says IBAN: a digit-led scan of every text costs too much for an
        # optional rule, and an IBAN pasted into a lesson is nearly always labelled.
        cues=(("iban",),),
    ),
    # infrastructure
    _Rule(
        "infrastructure.internal_url",
        INFRASTRUCTURE,
        re.compile(
            rf"\b(?:https?|wss?|ftp)://(?:[^\s/@]+@)?(?P<host>{_IPV4}|{_INTERNAL_HOST}|localhost)"
            r"(?::\d{1,5})?(?:[/?#][^\s<>\"'`)\]]*)?",
            _I,
        ),
        _internal_url_summary,
        cues=(("://",),),
    ),
    _Rule(
        "infrastructure.ipv4",
        INFRASTRUCTURE,
        re.compile(_IPV4),
        _ipv4_summary,
        gates=_gates(r"\.\d{1,3}\.\d{1,3}\.\d"),
    ),
    _Rule(
        "infrastructure.ipv6_internal",
        INFRASTRUCTURE,
        re.compile(
            r"(?<![\w:])(?:::1|f[cd][0-9a-f]{2}(?::[0-9a-f]{0,4}){2,7})(?![\w:])",
            _I,
        ),
        "loopback or unique-local IPv6 address",
        gates=_gates(r"::1", r"f[cd][0-9a-f]{2}:[0-9a-f]{0,4}:"),
    ),
    _Rule(
        "infrastructure.internal_host",
        INFRASTRUCTURE,
        re.compile(rf"(?<![\w.-]){_INTERNAL_HOST}", _I),
        "internal hostname",
        cues=((".internal", ".local", ".corp", ".lan", "intranet.", "localhost:", ".home.arpa"),),
    ),
    # prompt injection
    _Rule(
        "injection.ignore_instructions",
        INJECTION,
        re.compile(
            r"\b(?:ignore|forget|skip|override)\s+(?:(?:all|any|of|the|your|my|these|those)\s+)*"
            r"(?:previous|prior|above|earlier|preceding|former|original|existing)\s+"
            r"(?:instructions?|prompts?|rules|directions|directives|guidelines|messages)\b",
            _I,
        ),
        _quote("instruction override"),
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
    _Rule(
        "injection.disregard_instructions",
        INJECTION,
        re.compile(
            r"\bdisregard\s+(?:[\w'-]+\s+){0,4}?"
            r"(?:instructions?|prompts?|rules|guidelines|directives|guardrails|policy|policies)\b",
            _I,
        ),
        _quote("instruction override"),
        cues=(
            ("disregard",),
            ("instruction", "prompt", "rule", "guideline", "directive", "guardrail", "polic"),
        ),
    ),
    # Role overrides, one rule in three parts so that each keeps a precheck on a rare word.
    _Rule(
        "injection.role_override",
        INJECTION,
        re.compile(r"\byou\s+are\s+now\b|\bfrom\s+now\s+on,?\s+you\b", _I),
        _quote("role override"),
        cues=(("you",), ("now",)),
    ),
    _Rule(
        "injection.role_override",
        INJECTION,
        re.compile(r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b", _I),
        _quote("role override"),
        cues=(("pretend",),),
    ),
    _Rule(
        "injection.role_override",
        INJECTION,
        re.compile(r"\bact\s+as\s+(?:a|an|if|though|my|the)\b", _I),
        _role_override_summary,
        cues=(("act",),),
        gates=_gates(r"act\s+as\s"),
    ),
    _Rule(
        "injection.system_prompt",
        INJECTION,
        re.compile(r"\b(?:system|developer|hidden)\s+(?:prompt|message|instructions)s?\b", _I),
        _quote("reference to the system prompt"),
        cues=(("system", "developer", "hidden"), ("prompt", "message", "instruction")),
    ),
    _Rule(
        "injection.developer_mode",
        INJECTION,
        re.compile(r"\b(?:developer|dev|god|dan)\s+mode\b|\bjailbreak", _I),
        _quote("mode switch"),
        cues=(("mode", "jailbreak"), ("developer", "dev", "god", "dan", "jailbreak")),
    ),
    _Rule(
        "injection.conceal_from_user",
        INJECTION,
        re.compile(
            r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|alert|notify|warn)\s+the\s+"
            r"(?:user|human|operator|reviewer|customer)s?\b"
            r"|\bwithout\s+(?:telling|informing|notifying)\s+the\s+(?:user|human|operator)s?\b",
            _I,
        ),
        _quote("concealment from the user"),
        cues=(
            ("tell", "inform", "alert", "notify", "warn"),
            ("user", "human", "operator", "reviewer", "customer"),
        ),
    ),
    _Rule(
        "injection.html_comment",
        INJECTION,
        re.compile(r"<!--[\s\S]*?(?:-->|\Z)"),
        "hidden HTML comment",
        cues=(("<!--",),),
    ),
    _Rule(
        "injection.script",
        INJECTION,
        re.compile(r"<\s*script\b[\s\S]*?(?:<\s*/\s*script\s*>|\Z)", _I),
        "HTML script element",
        cues=(("<",), ("script",)),
    ),
    _Rule(
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
    _Rule(
        "injection.zero_width",
        INJECTION,
        # A byte order mark at the very start is an encoding artefact, not hidden text.
        re.compile(r"(?!\A\ufeff)[\u200b-\u200d\u2060\ufeff]+"),
        "zero-width characters",
        cues=(("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"),),
        non_ascii=True,
    ),
)

RULES: tuple[str, ...] = tuple(dict.fromkeys(rule.name for rule in _RULES)) + tuple(
    dict.fromkeys(rule for _, patterns in _DETECT_SECRETS for rule, _, _ in patterns)
)


def iter_findings(text: str) -> Iterator[Finding]:
    """Every rule's findings, unmerged and unsorted (scan_text is what callers normally want)."""
    lowered = text.lower()
    ascii_only = text.isascii()
    shape = text.encode("utf-8", "surrogatepass").translate(_DIGIT_SHAPE)
    yield from _detect_secrets(text, lowered)
    for rule in _RULES:
        if rule.applies(lowered, ascii_only, shape):
            yield from rule.findings(text)


def scan_text(text: str) -> list[Finding]:
    """The findings in `text`, sorted by start, overlapping spans of one category merged."""
    merged: list[Finding] = []
    by_category: dict[str, list[Finding]] = {}
    for finding in iter_findings(text):
        if finding.end > finding.start:
            by_category.setdefault(finding.category, []).append(finding)
    for findings in by_category.values():
        # The earliest, then widest, span names the merged finding.
        findings.sort(key=lambda f: (f.start, -f.end))
        current = findings[0]
        for finding in findings[1:]:
            if finding.start < current.end:
                if finding.end > current.end:
                    current = Finding(
                        current.rule, current.category, current.start, finding.end, current.summary
                    )
            else:
                merged.append(current)
                current = finding
        merged.append(current)
    merged.sort(key=lambda f: (f.start, f.end, CATEGORIES.index(f.category)))
    return merged


def mask(text: str, findings: Iterable[Finding]) -> str:
    """`text` with each finding's span replaced by `[REDACTED:<category>]`.

    Spans of different categories can overlap (a password in a URL on an internal host);
    overlapping spans become one marker naming every category involved. A marker can give a
    neighbouring value the word boundary a rule waits for ("DE89…00gho_…" → "DE89…00[…"), so
    the result is scanned again and whatever the masking exposed is masked too.
    """
    masked = _mask_once(text, findings)
    for _ in range(_MASK_ROUNDS):
        exposed = scan_text(masked)
        if not exposed:
            break
        masked = _mask_once(masked, exposed)
    return masked


# Each round only replaces text with markers, so a second round is already rare.
_MASK_ROUNDS = 5


def _mask_once(text: str, findings: Iterable[Finding]) -> str:
    spans = sorted((f.start, f.end, f.category) for f in findings if f.end > f.start)
    out: list[str] = []
    position = 0
    i = 0
    while i < len(spans):
        start, end, category = spans[i]
        categories = [category]
        i += 1
        while i < len(spans) and spans[i][0] < end:
            end = max(end, spans[i][1])
            if spans[i][2] not in categories:
                categories.append(spans[i][2])
            i += 1
        start = max(start, position)
        out.append(text[position:start])
        categories.sort(key=CATEGORIES.index)
        out.append(f"[REDACTED:{'+'.join(categories)}]")
        position = max(position, end)
    out.append(text[position:])
    return "".join(out)


def describe_findings(findings) -> str:
    """Findings in words for a history row: categories and summaries, never the values."""
    return "; ".join(f"{f.category}: {f.summary}" for f in findings[:5]) + (
        f"; and {len(findings) - 5} more" if len(findings) > 5 else ""
    )
