"""detect-secrets' vendor-shape plugins, each behind a cheap literal gate, as findings."""

from __future__ import annotations

import re
from collections.abc import Iterator

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

from reflections.scanning.findings import SECRET, Finding

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
DETECT_SECRETS: tuple[
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


def detect_secrets(text: str, lowered: str) -> Iterator[Finding]:
    lines: list[tuple[int, str]] | None = None
    for gates, patterns in DETECT_SECRETS:
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


def any_search(patterns: tuple[re.Pattern[str], ...], text: str) -> bool:
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
