"""Infrastructure rules: addresses, internal hostnames and URLs, cloud endpoints and resource
names that identify an account or a private network."""

from __future__ import annotations

import ipaddress
import re

from reflections.scanning.findings import INFRASTRUCTURE
from reflections.scanning.public_values import is_public_value
from reflections.scanning.rule import Rule, gates
from reflections.scanning.values import address_kind

_I = re.IGNORECASE

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4 = rf"(?<![\w.]){_OCTET}(?:\.{_OCTET}){{3}}(?!\w|\.\d)"
# A dotted number after these words is a version, not an address ("Python 3.12.1.2").
_VERSIONED = re.compile(
    r"\b(?:v|version|ver\.?|release|build|rev|python|node|java|php|ruby|go|kernel|chrome|"
    r"firefox|windows|macos|ios|android|sdk|api|firmware|os|patch)\s*\Z",
    _I,
)


# Further back on the line, these make a public dotted quad a version ("the ODBC driver from
# 18.3.2.1 to 17.10.5.1"); a private one stays an address whatever the words.
_VERSION_TALK = re.compile(
    r"\b(?:version|versions|driver|release|build|upgrade[ds]?|downgrade[ds]?|package|firmware|"
    r"patch|changelog|pinned|pinning|semver)\b[^\n]{0,60}\Z",
    _I,
)


def _ipv4(match: re.Match[str]) -> str | None:
    text, start, end = match.string, match.start(), match.end()
    if _VERSIONED.search(text, max(0, start - 12), start):
        return None
    # The private ranges as the RFC defines them (10.0.0.0/8 …) describe nobody's network;
    # any narrower block (10.40.0.0/16) is a piece of one.
    cidr = re.match(r"/(\d{1,2})\b", text[end : end + 3])
    if cidr and f"{match.group()}/{cidr.group(1)}" in _GENERIC_BLOCKS:
        return None
    kind = address_kind(match.group())
    if kind is None and cidr and _is_network_address(match.group(), int(cidr.group(1))):
        return None
    if kind == "IPv4 address" and _VERSION_TALK.search(text, max(0, start - 80), start):
        return None
    return kind or (
        "private IPv4 network"
        if cidr and match.group().startswith(("10.", "172.", "192.168."))
        else None
    )


_GENERIC_BLOCKS = frozenset(
    (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "0.0.0.0/0",
        "169.254.0.0/16",
        "127.0.0.0/8",
        "100.64.0.0/10",
    )
)


def _is_network_address(address: str, prefix: int) -> bool:
    try:
        return ipaddress.ip_network(f"{address}/{prefix}", strict=True) is not None
    except ValueError:
        return False


def _ipv6(match: re.Match[str]) -> str | None:
    return address_kind(match.group())


_INTERNAL_SUFFIXES = (
    r"(?:internal|intern|local|localdomain|corp|lan|intranet|intra|home\.arpa|cluster\.local|"
    r"consul|private|priv)"
)
_HOST_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
INTERNAL_HOST = (
    rf"(?:(?:{_HOST_LABEL}\.)+{_INTERNAL_SUFFIXES}(?![\w-]|\.[a-z0-9])"
    # a Kubernetes service's short name, service.namespace.svc (a WCF file is one.svc)
    rf"|(?:{_HOST_LABEL}\.){{2,}}svc(?![\w-]|\.[a-z0-9])"
    # service.svc with its port: ledger-api.svc:9000 (a file one.svc has no port)
    rf"|{_HOST_LABEL}\.svc(?=:[0-9]{{2,5}}(?![\w.]))"
    # an internal zone under a public domain: wiki.corp.example-co.com, jira.intranet.acme.io
    rf"|(?:{_HOST_LABEL}\.)*(?:corp|intranet|internal|intra|vpn|interno|interna|interne|intern|"
    rf"lan|priv)\.(?:{_HOST_LABEL}\.)+[a-z]{{2,}}"
    rf"|intranet\.(?:{_HOST_LABEL}\.)*{_HOST_LABEL})"
)
# Hostnames that name one account's database, cluster or load balancer.
CLOUD_ENDPOINT = (
    r"[\w.-]+\.(?:rds|eks|elb|cache|es|redshift|docdb|mq|kafka|aoss)\.[\w.-]*amazonaws\.com"
    r"|[\w-]+\.(?:database|redis\.cache|servicebus|vault\.azure|documents\.azure)\.(?:windows\.net|com)"
    r"|[\w.-]+\.hcp\.[\w-]+\.azmk8s\.io"
)


# Hosts everyone uses: naming them discloses nothing about anyone's infrastructure.
PUBLIC_SERVICE = re.compile(
    r"(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|pypi\.org|"
    r"npmjs\.(?:org|com)|docker\.(?:io|com)|googleapis\.com|google\.com|microsoft\.com|"
    r"amazon\.com|cloudflare\.com|python\.org|readthedocs\.io|"
    r"stackoverflow\.com|wikipedia\.org|mozilla\.org|apache\.org|kubernetes\.io|"
    r"example\.(?:com|org|net))$",
    _I,
)


def _internal_url(match: re.Match[str]) -> str | None:
    host = match.group("host")
    if is_public_value(host):
        return None
    if re.fullmatch(IPV4, host):
        kind = address_kind(host)
        return f"URL on a {kind}" if kind else None
    return "URL on an internal host"


INFRASTRUCTURE_RULES: tuple[Rule, ...] = (
    Rule(
        "infrastructure.internal_url",
        INFRASTRUCTURE,
        re.compile(
            rf"\b(?:https?|wss?|ftp|ssh|smb|rdp|ldaps?)://(?:[^\s/@]+@)?"
            rf"(?P<host>{IPV4}|{INTERNAL_HOST}|{CLOUD_ENDPOINT})"
            r"(?::\d{1,5})?(?:[/?#][^\s<>\"'`)\]]*)?",
            _I,
        ),
        _internal_url,
        cues=(("://",),),
    ),
    Rule(
        "infrastructure.ipv4",
        INFRASTRUCTURE,
        re.compile(IPV4),
        _ipv4,
        gates=gates(r"\.\d{1,3}\.\d{1,3}\.\d"),
    ),
    Rule(
        "infrastructure.ipv6",
        INFRASTRUCTURE,
        re.compile(r"(?<![\w:.])(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![\w:])", _I),
        _ipv6,
        counts=((":", 7),),
        gates=gates(r":[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:"),
    ),
    Rule(
        "infrastructure.ipv6",
        INFRASTRUCTURE,
        re.compile(
            r"(?<![\w:.])(?:(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,5})?"
            r"|::(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})(?![\w:])",
            _I,
        ),
        _ipv6,
        cues=(("::",),),
    ),
    Rule(
        "infrastructure.internal_host",
        INFRASTRUCTURE,
        re.compile(rf"(?<![\w.-]){INTERNAL_HOST}", _I),
        "internal hostname",
        cues=(
            (
                ".internal",
                ".intern",
                ".svc",
                ".local",
                ".corp",
                ".lan",
                "intranet.",
                ".intra",
                ".home.arpa",
                ".consul",
                ".private",
                ".priv",
                "corp.",
                "internal.",
                "intra.",
                "vpn.",
                "interno.",
                "interna.",
                "interne.",
                "intern.",
                "lan.",
                "priv.",
            ),
        ),
    ),
    Rule(
        "infrastructure.cloud_endpoint",
        INFRASTRUCTURE,
        re.compile(rf"(?<![\w.-])(?:{CLOUD_ENDPOINT})", _I),
        "cloud resource endpoint",
        cues=(("amazonaws.com", "windows.net", "azure.com", "azmk8s.io"),),
    ),
    Rule(
        "infrastructure.account_resource",
        INFRASTRUCTURE,
        re.compile(
            r"\barn:aws[\w-]*:[\w-]+:[\w-]*:\d{0,12}:[^\s\"'<>,)]+"
            r"|\bs3://[\w.-]*\d{12}[\w.-]*(?:/[^\s\"'<>,)]*)?"
            r"|\b[\w.-]*\d{12}[\w.-]*\.s3[.-][\w.-]*amazonaws\.com"
            r"|\b\d{12}\.dkr\.ecr\.[\w-]+\.amazonaws\.com",
            _I,
        ),
        "cloud resource name",
        cues=(("arn:aws", "s3", "ecr"),),
    ),
    Rule(
        # Oracle Cloud ids: ocid1.<type>.<realm>.[region].<unique>
        "infrastructure.account_resource",
        INFRASTRUCTURE,
        re.compile(r"\bocid1\.[a-z0-9]+\.oc\d+\.[a-z0-9-]*\.[a-z0-9]{20,}", _I),
        "cloud resource name",
        cues=(("ocid1.",),),
    ),
    Rule(
        "infrastructure.account_resource",
        INFRASTRUCTURE,
        # Azure resource ids: /subscriptions/<id>/resourceGroups/<name>/…
        re.compile(
            r"/subscriptions/[0-9a-f-]{36}(?:/resourceGroups/[\w.()-]+)?(?:/[^\s\"'<>,]*)?", _I
        ),
        "cloud resource name",
        cues=(("/subscriptions/",),),
    ),
    Rule(
        # A host a command or config connects to: psql -h db01.acme.net, host=…, remote vpn…
        "infrastructure.service_host",
        INFRASTRUCTURE,
        re.compile(
            r"(?:\s-h\s*|--host[= ]|\b(?:db_?)?host(?:name)?\s*[=:]\s*[\"']?|\bremote\s+"
            r"|\bproxy_pass\s+https?://|\bupstream\s+)"
            r"(?P<value>(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.){2,}[a-z]{2,})(?![\w-])",
            _I,
        ),
        lambda m: None if PUBLIC_SERVICE.search(m.group("value")) else "host a service runs on",
        cues=(("-h", "host", "remote", "proxy_pass", "upstream"),),
        group="value",
        anchor=re.compile("-h|--host|host|remote|proxy_pass|upstream"),
        window=(5, 130),
    ),
    Rule(
        "infrastructure.cluster_endpoint",
        INFRASTRUCTURE,
        # a kubeconfig's API server, whatever its host
        re.compile(r"(?m)^\s*server:\s*(?P<value>https?://\S+)"),
        "cluster API endpoint",
        cues=(("server:",),),
        group="value",
    ),
)
