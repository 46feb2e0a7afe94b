"""Tests a candidate value must pass before it is a finding: not a placeholder or a documented
example, credential-shaped, random enough, a valid check digit, a routable address."""

from __future__ import annotations

import ipaddress
import re

from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)

_BASE64 = Base64HighEntropyString()
_HEX = HexHighEntropyString()
HEX_CHARS = frozenset("0123456789abcdefABCDEF")

# Values a lesson may quote without leaking anything: how people write "no real value here".
_PLACEHOLDER = re.compile(
    r"^(?:[\[<{(*$%]|x{3,}|\.{3}|-{3,})|(?:x{4,}|\*{3,}|\.{3})$"
    r"|^(?:none|null|nil|true|false|redacted|changeme|change-me|example|placeholder|secret|"
    r"password|passw0rd|token|undefined|empty|unset|dummy|sample|test|testing|foo|bar|foobar|"
    r"your[_-]?\w*|my[_-]?\w*|insert[_-]?\w*|replace[_-]?\w*|env|environ\w*|getenv\w*|"
    r"os\.environ\w*|process\.env\w*|settings\.\w+|config\.\w+|vault:\S*|secrets?\.\w+)$"
    r"|^(?:your|my|insert|replace|enter|put|paste|generate|add)[\w-]*$|[\w-]+[_-]here$"
    r"|^(?:os\.environ|os\.getenv|process\.env|getenv|env\(|env\[|ENV\[|settings\.|config\.|"
    r"secrets\.|vault:|ssm:|arn:aws:secretsmanager)"
    # references to a value kept elsewhere: Terraform, templates, CI and shell variables
    r"|^(?:var|local|data|module|each|self|inputs|vars|params|values|context)\.[\w.\[\]\"'-]+$"
    r"|^\$\{\{?[^}]*\}\}?$|^\{\{[^}]*\}\}$|^\$\w+$",
    re.IGNORECASE,
)
# Official documentation values (AWS, Stripe, GitHub docs …): quoting them leaks nothing.
DOCUMENTED_EXAMPLES = frozenset(
    (
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "AKIAI44QH8DHBEXAMPLE",
        "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
    )
)


# Card numbers the payment networks and processors publish for testing (Stripe, Adyen,
# Braintree docs): charging them is impossible, quoting them leaks nothing.
TEST_CARD_NUMBERS = frozenset(
    (
        "4242424242424242",
        "4000056655665556",
        "4111111111111111",
        "4012888888881881",
        "5555555555554444",
        "5105105105105100",
        "2223003122003222",
        "378282246310005",
        "371449635398431",
        "6011111111111117",
        "6011000990139424",
        "3056930009020004",
        "36227206271667",
        "3566002020360505",
        "6200000000000005",
        "4000000000000002",
        "4000000000009995",
        "4000000000000077",
        "4000002500003155",
    )
)


def is_placeholder(value: str) -> bool:
    value = value.strip("\"'`,;.")
    if not value or value in DOCUMENTED_EXAMPLES or "EXAMPLE" in value:
        return True
    if _PLACEHOLDER.search(value):
        return True
    # A value spelled out of one repeated character ("xxxxxxxx", "00000000") is a mask.
    return len(set(value.lower()) - set("-_.:")) <= 2


# Public halves of key pairs: safe to share (ssh-ed25519 AAAAC3NzaC1lZDI1NTE5…).
_PUBLIC_KEY = re.compile(
    r"^(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-ssh-\S+|AAAA(?:B3NzaC1|C3NzaC1|"
    r"E2VjZHNh|B3NzaC1yc2E))"
)


def is_public_key(value: str) -> bool:
    return bool(_PUBLIC_KEY.match(value.strip("\"'`")))


def character_classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def is_credential_like(value: str, *, min_length: int = 6) -> bool:
    """A value that could be a real credential: long enough, not a placeholder, and either
    mixing character classes or too random to be a word ("hunter2!", "Tr0ub4dor&3")."""
    value = value.strip("\"'`,;")
    if len(value) < min_length or is_placeholder(value):
        return False
    if character_classes(value) >= 2:
        return True
    return len(value) >= 12 and entropy(value) >= 3.5


def entropy(value: str) -> float:
    """Shannon entropy per character, over the base64 alphabet (detect-secrets' measure)."""
    return _BASE64.calculate_shannon_entropy(value)


def is_random_token(value: str) -> bool:
    """Random-looking by detect-secrets' own limits: base64 ≥ 4.5 bits, hex ≥ 3.0 bits a
    character, with the length a key has (a 40-hex git sha is ruled out by its caller's
    context, not here)."""
    if len(value) < 16 or is_placeholder(value):
        return False
    if set(value) <= HEX_CHARS:
        return len(value) >= 20 and _HEX.calculate_shannon_entropy(value) >= 3.0
    return len(value) >= 20 and character_classes(value) >= 2 and entropy(value) >= 4.0


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_valid(value: str) -> bool:
    """ISO 13616: the mod-97 check digits make a random code pass 1 time in 97."""
    compact = value.replace(" ", "").replace("-", "").upper()
    if not 15 <= len(compact) <= 34 or not compact[:2].isalpha() or not compact[2:4].isdigit():
        return False
    try:
        number = "".join(str(int(c, 36)) for c in compact[4:] + compact[:4])
    except ValueError:
        return False
    return int(number) % 97 == 1


def address_kind(value: str) -> str | None:
    """What a literal IP address discloses, or None when it discloses nothing: loopback,
    unspecified and the ranges reserved for documentation (RFC 5737, RFC 3849)."""
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return None
    # Loopback, link-local and multicast addresses name no one's network: every host has them.
    if address.is_loopback or address.is_unspecified or address.is_multicast:
        return None
    if address.is_link_local:
        return None
    if address.version == 4:
        if any(address in ipaddress.ip_network(n) for n in _DOC_V4):
            return None
        if address.is_private:
            return "private IPv4 address"
        if address == ipaddress.ip_address("255.255.255.255"):
            return None
        # A public address is reported too: in a lesson meant for other agents a literal IP is
        # infrastructure detail (a customer's server, a VPN egress) the lesson does not need.
        return "IPv4 address"
    if address in ipaddress.ip_network("2001:db8::/32"):
        return None
    if address.is_private:
        return "unique-local IPv6 address"
    return "IPv6 address"


_DOC_V4 = ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24")

# Mail domains that reach nobody: RFC 2606 / 6761 names reserved for examples and tests.
_DOCUMENTATION_DOMAIN = re.compile(
    r"(?:^|\.)(?:example\.(?:com|org|net|edu)|example|test|invalid|localhost|local)$",
    re.IGNORECASE,
)


def is_documentation_domain(domain: str) -> bool:
    return bool(_DOCUMENTATION_DOMAIN.search(domain.rstrip(".")))
