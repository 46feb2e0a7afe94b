"""One scanning rule (a gated regular expression and how it words its finding), and the
checks that tell a real value from a look-alike."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from reflections.scanning.findings import Finding
from reflections.scanning.vendor import any_search

# --- own rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
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
        return not self.gates or any_search(self.gates, lowered)

    def findings(self, text: str) -> Iterator[Finding]:
        for match in self.regex.finditer(text):
            summary = self.summary(match) if callable(self.summary) else self.summary
            if summary is None:  # rejected by the rule's own check
                continue
            start, end = match.span(self.group)
            yield Finding(self.name, self.category, start, end, summary)


DIGIT_SHAPE = bytes.maketrans(b"0123456789", b"0" * 10)


def gates(*patterns: str) -> tuple[re.Pattern[str], ...]:
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


def assignment_summary(match: re.Match[str]) -> str | None:
    if not _is_credential_like(match.group("value")):
        return None
    return f"credential assigned to '{match.group('key').lower()}'"


def bearer_summary(match: re.Match[str]) -> str | None:
    return "bearer token" if _is_credential_like(match.group(1)) else None


def url_password_summary(match: re.Match[str]) -> str | None:
    return "password in a URL" if _is_credential_like(match.group("password")) else None


def sk_summary(match: re.Match[str]) -> str | None:
    body = match.group(1)
    if not (any(c.isdigit() for c in body) and any(c.isalpha() for c in body)):
        return None
    return "API key (sk-…)"


_URL_AUTHORITY = re.compile(r"//[^\s/@]*\Z")


def email_summary(match: re.Match[str]) -> str | None:
    # "scheme://user:pass@host" is a URL's userinfo, not an address (the password rule covers
    # it); "mailto:a@b.c" has no "//" and stays an email.
    if _URL_AUTHORITY.search(match.string, max(0, match.start() - 200), match.start()):
        return None
    return "email address"


def _digits(value: str) -> int:
    return sum(c.isdigit() for c in value)


def international_phone_summary(match: re.Match[str]) -> str | None:
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


def national_phone_summary(match: re.Match[str]) -> str | None:
    # Checked here rather than as lookarounds, which would cost the regex its fast scan.
    text, start, end = match.string, match.start(), match.end()
    if _NUMBER_BEFORE.search(text, max(0, start - 2), start):
        return None
    if _NUMBER_AFTER.match(text, end):
        return None
    return "phone number"


def iban_summary(match: re.Match[str]) -> str | None:
    # The mod-97 check digits make a random code of this shape pass only 1 time in 97.
    compact = match.group().replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return None
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return "IBAN" if int(number) % 97 == 1 else None


_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4 = rf"(?<![\w.]){_OCTET}(?:\.{_OCTET}){{3}}(?!\w|\.\d)"


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


def ipv4_summary(match: re.Match[str]) -> str:
    return _ipv4_kind(match.group())


_INTERNAL_SUFFIXES = r"(?:internal|local|localdomain|corp|lan|intranet|home\.arpa)"
_HOST_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
INTERNAL_HOST = (
    rf"(?:(?:{_HOST_LABEL}\.)+{_INTERNAL_SUFFIXES}(?![\w-]|\.[a-z0-9])"
    rf"|intranet\.(?:{_HOST_LABEL}\.)*{_HOST_LABEL}"
    r"|localhost(?=:\d))"
)


def internal_url_summary(match: re.Match[str]) -> str:
    host = match.group("host")
    if re.fullmatch(IPV4, host):
        return f"URL on a {_ipv4_kind(host)}"
    return "URL on an internal host"


def quote(label: str) -> Callable[[re.Match[str]], str]:
    # Injection text is not secret, so the summary may quote it (whitespace normalised).
    def summary(match: re.Match[str]) -> str:
        phrase = " ".join(match.group().split())
        if len(phrase) > 60:
            phrase = phrase[:57] + "..."
        return f"{label}: '{phrase}'"

    return summary


_ADDRESSED = re.compile(r"(?:^|[.!?:;]|\byou\s+(?:must|should|will|now)|\bnow)\s*\Z", re.I)


def role_override_summary(match: re.Match[str]) -> str | None:
    # "act as" is an override only when addressed to the model ("Act as a …", "you must act
    # as …"); "the cache acts as a buffer" or "it can act as a fallback" is ordinary prose.
    if match.group().lower().startswith("act"):
        before = match.string[max(0, match.start() - 20) : match.start()]
        if not _ADDRESSED.search(before):
            return None
    return quote("role override")(match)
