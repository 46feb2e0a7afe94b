"""The allow-list of well-known public values: texts everyone quotes that disclose nothing about
anyone, dropped before a finding is made (scanning.scan). Each entry says what it is; add one
only for a value published for the whole world to use or copy."""

from __future__ import annotations

import re

PUBLIC_VALUES: frozenset[str] = frozenset(
    (
        # Public DNS resolvers: naming them says which public service a host asks, nothing
        # about the host's own network.
        "8.8.8.8",  # Google Public DNS, primary
        "8.8.4.4",  # Google Public DNS, secondary
        "2001:4860:4860::8888",  # Google Public DNS, IPv6 primary
        "2001:4860:4860::8844",  # Google Public DNS, IPv6 secondary
        "1.1.1.1",  # Cloudflare DNS, primary
        "1.0.0.1",  # Cloudflare DNS, secondary
        "2606:4700:4700::1111",  # Cloudflare DNS, IPv6 primary
        "2606:4700:4700::1001",  # Cloudflare DNS, IPv6 secondary
        "9.9.9.9",  # Quad9, primary
        "149.112.112.112",  # Quad9, secondary
        "2620:fe::fe",  # Quad9, IPv6
        "208.67.222.222",  # Cisco OpenDNS, primary
        "208.67.220.220",  # Cisco OpenDNS, secondary
        "94.140.14.14",  # AdGuard DNS, primary
        "94.140.15.15",  # AdGuard DNS, secondary
        "kubernetes.default.svc",  # the Kubernetes API server, as every cluster's pods name it
        "kubernetes.default.svc.cluster.local",  # the same, fully qualified
        # The sample token of jwt.io's debugger (HS256, secret "your-256-bit-secret", subject
        # "1234567890", name "John Doe"): printed in countless tutorials, it signs nothing real.
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
        ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
        ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        # jwt.io's newer sample (adds "admin": true; secret
        # "a-string-secret-at-least-256-bits-long").
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
        ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiYWRtaW4iOnRydWUsImlhdCI6MTUxNjIzOTAyMn0"
        ".KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30",
    )
)


# An occurrence standing alone: not part of a longer number, address or token.
_OCCURRENCE = re.compile(
    r"(?<![\w.:+-])(?:"
    + "|".join(re.escape(v) for v in sorted(PUBLIC_VALUES, key=len, reverse=True))
    + r")(?![\w:/+-]|\.\w)"
)


def is_public_value(value: str) -> bool:
    """Whether a value (a URL's host, say) is one of the well-known public values."""
    return value.strip("\"'`,;.()[]<>") in PUBLIC_VALUES


def public_spans(text: str) -> list[tuple[int, int]]:
    """Where the text quotes a well-known public value; a finding inside one is dropped (the
    scanner looks only where its one pass over cue words found one of the values)."""
    return [match.span() for match in _OCCURRENCE.finditer(text)]
