"""detect-secrets' vendor-shape plugins, each behind a cheap literal gate, as findings."""

from __future__ import annotations

import re
from collections.abc import Iterator

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
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
# Lower-case literals one of which every match of the plugin contains (case-insensitively),
# found with every other rule's cues in one pass (scanning.cues): a plugin whose cues are
# absent costs a set lookup. The shapes without a literal (Discord, Telegram and Twilio
# tokens) are looked for where the text names the service.
PLUGIN_CUES: dict[type[RegexBasedDetector], tuple[str, ...]] = {
    AWSKeyDetector: ("akia", "asia", "abia", "acca", "a3t", "aws"),
    AzureStorageKeyDetector: ("accountkey=",),
    DiscordBotTokenDetector: ("discord", "bot"),
    GitHubTokenDetector: ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    GitLabTokenDetector: (
        "glpat-",
        "gldt-",
        "glrt-",
        "glptt-",
        "glcbt-",
        "gloas-",
        "glsoat-",
        "glimt-",
        "glagent-",
        "glft-",
        "glffct-",
        "gr1348941",
    ),
    JwtTokenDetector: ("eyj",),
    MailchimpDetector: ("-us",),
    NpmDetector: ("_authtoken",),
    OpenAIDetector: ("t3blbkfj",),
    PrivateKeyDetector: ("private key", "putty-user-key"),
    PypiTokenDetector: ("pypi-age",),
    SendGridDetector: ("sg.",),
    SlackDetector: ("hooks.slack.com", "xox"),
    SquareOAuthDetector: ("sq0csp-",),
    StripeDetector: ("k_live_",),
    TelegramBotTokenDetector: ("telegram",),
    TwilioKeyDetector: ("twilio",),
}
DETECT_SECRETS: tuple[tuple[frozenset[str], tuple[tuple[str, str, re.Pattern[str]], ...]], ...] = (
    tuple(
        (
            frozenset(PLUGIN_CUES[plugin]),
            tuple(
                (f"detect-secrets:{plugin.__name__}", plugin.secret_type, regex)
                for regex in plugin().denylist
            ),
        )
        for plugin in _DETECT_SECRETS_PLUGINS
    )
)


def detect_secrets(text: str, cues_found: set[str]) -> Iterator[Finding]:
    lines: list[tuple[int, str]] | None = None
    for cues, patterns in DETECT_SECRETS:
        if cues_found.isdisjoint(cues):
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
