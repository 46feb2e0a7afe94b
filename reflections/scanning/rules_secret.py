"""Secret rules for credentials in prose, config and commands,
and random strings where the text says they are keys."""

from __future__ import annotations

import re

from detect_secrets.plugins.keyword import DENYLIST

from reflections.scanning.findings import SECRET
from reflections.scanning.rule import Rule, gates
from reflections.scanning.rules_vendor import VENDOR_RULES, checked
from reflections.scanning.values import (
    character_classes,
    is_credential_like,
    is_public_key,
    is_random_token,
)

# The word for a password in the languages the cues cover (English, German, French, Spanish,
# Portuguese, Dutch, Polish, the Nordic ones): the password rule's cues begin with the first
# ten, and the told-in-a-sentence rule (rules_prose_secrets) reads them all.
PASSWORD_WORDS = (
    "password",
    "passphrase",
    "passcode",
    "passwort",
    "kennwort",
    "mot de passe",
    "contraseña",
    "senha",
    "wachtwoord",
    "hasło",
    "lösenord",
    "passord",
    "adgangskode",
    "salasana",
)

_I = re.IGNORECASE


def _aws_secret_next_to_id(match: re.Match[str]) -> str | None:
    return "AWS secret access key" if is_random_token(match.group("value")) else None


def _credential(label: str, *, min_length: int = 6):
    def summary(match: re.Match[str]) -> str | None:
        return label if is_credential_like(match.group("value"), min_length=min_length) else None

    return summary


_NOT_A_KEY = re.compile(r"sha\d*|md5|hash|checksum|digest|commit|etag|uuid|fingerprint|\bid\b", _I)


def _random_named(match: re.Match[str]) -> str | None:
    value = match.group("value").rstrip("=")
    text, start, end = match.string, match.start("value"), match.end("value")
    # Part of a URL or a path ("…/id_credentials_access-keys.html") is not a value.
    left = text.rfind(" ", 0, start) + 1
    right = next((i for i in range(end, len(text)) if text[i].isspace()), len(text))
    if "://" in text[left:right] or ("/" in value and re.search(r"[a-z]{5,}", value)):
        return None
    if _NOT_A_KEY.search(match.group("gap")) or is_public_key(value) or not is_random_token(value):
        return None
    return "random string named as a key"


def _prose_password(match: re.Match[str]) -> str | None:
    value = match.group("value")
    if not is_credential_like(value) or value.rstrip(".!?:").isalpha():
        return None  # a word ending its sentence ("the password was removed.") is prose
    # Without "is" or ":" the word after "password" is usually prose ("password reset"): only
    # a value mixing three kinds of character reads as the password itself.
    if not match.group("sep").strip() and (character_classes(value) < 3 or not value[0].isalnum()):
        return None
    return "password in the text"


_AUTH_SCHEMES = frozenset(("bearer", "basic", "token", "digest", "negotiate", "hmac"))


def _named_credential(match: re.Match[str]) -> str | None:
    value = match.group("value")
    if value.lower() in _AUTH_SCHEMES or is_public_key(value) or not is_credential_like(value):
        return None
    return f"credential assigned to '{match.group('key').lower()[:40]}'"


# Key names that hold secrets: detect-secrets' keyword list, and the names config files use.
_SECRET_KEY_NAMES = "|".join(
    (
        *DENYLIST,
        r"pass(?:word|wd|phrase|code)?",
        r"(?:access|auth|refresh|api|bearer|session|id|client|webhook|signing)?[_-]?token",
        r"(?:client|api|app|webhook|signing|shared|jwt|encryption|master)[_-]?secret",
        r"(?:access|secret|signing|encryption|master|app|application|license|account|"
        r"shared[_-]?access)[_-]?key",
        r"credentials?",
        r"auth",
        r"signature",
    )
)
_KEY = rf"[\w.-]*?(?:{_SECRET_KEY_NAMES})[\w.-]*"

CREDENTIAL_RULES: tuple[Rule, ...] = (
    Rule(
        "secret.aws_secret_access_key",
        SECRET,
        re.compile(
            r"aws[\w .-]{0,12}?secret[\w .-]{0,12}?[\s:=\"'`]{1,4}"
            r"(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
            _I,
        ),
        checked("AWS secret access key"),
        cues=(("aws",), ("secret",)),
        group="value",
    ),
    Rule(
        # The partner of a key id: the 40-character secret people paste right after it.
        "secret.aws_key_pair",
        SECRET,
        re.compile(
            r"(?<![A-Z0-9])A(?:KIA|SIA)[A-Z2-7]{16}(?![A-Z0-9])[\s\S]{1,300}?"
            r"(?<![A-Za-z0-9/+])(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        _aws_secret_next_to_id,
        cues=(("akia", "asia"),),
        gates=gates(r"a(?:kia|sia)[a-z2-7]{16}"),
        group="value",
    ),
    Rule(
        "secret.bearer_token",
        SECRET,
        re.compile(r"\b(?:bearer|token)\s+(?P<value>[A-Za-z0-9\-._~+/]{16,}=*)", _I),
        _credential("bearer token", min_length=16),
        cues=(("bearer", "token"),),
        group="value",
    ),
    Rule(
        "secret.authorization_header",
        SECRET,
        re.compile(
            r"\b(?:proxy-)?authorization\s*[:=]\s*[\"']?(?:basic|bearer|token|digest|apikey|"
            r"sharedkey|hmac)?\s*(?P<value>[A-Za-z0-9\-._~+/:]{8,}=*)",
            _I,
        ),
        _credential("authorization header", min_length=8),
        cues=(("authorization",),),
        group="value",
    ),
    Rule(
        "secret.private_key_block",
        SECRET,
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----"
            # a body with a line of key material, or a short body between BEGIN and END
            r"(?:(?=(?:\\n|[\s:,\w-])*?[A-Za-z0-9+/=]{40})"
            r"|(?=[ \t]*(?:\\n)?[ \t]*[A-Za-z0-9+/=]{8,}[^\n]{0,400}?-----END [A-Z0-9 ]*PRIVATE))"
            r"[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|\Z)"
        ),
        "private key block",
        cues=(("private key",),),
    ),
    Rule(
        "secret.url_password",
        SECRET,
        re.compile(
            r"\b[a-z][a-z0-9+.\-]*://(?P<cred>[^\s:/?#@\[\]]*:(?P<value>[^\s/?#@\[\]]+))@",
            _I,
        ),
        _credential("password in a URL", min_length=4),
        cues=(("://",), ("@",)),
        group="cred",
    ),
    Rule(
        "secret.command_password",
        SECRET,
        re.compile(
            r"(?:\bcurl\b[^\n]*?\s(?:-u|--user)\s*[\"']?[^\s:\"']+:[\"']?"
            r"|\bsshpass\s+-p\s*[\"']?|\bmysql(?:dump)?\b[^\n]*?\s-p"
            r"|\bredis-cli\b[^\n]*?\s(?:-a|--pass)\s+[\"']?"
            r"|\bmachine\s+\S+\s+login\s+\S+\s+password\s+)"
            r"(?P<value>[^\s\"']{4,})",
            _I,
        ),
        _credential("password on a command line", min_length=4),
        cues=(("curl", "sshpass", "mysql", "machine", "redis-cli"),),
        group="value",
    ),
    Rule(
        # KEY=value, key: value, "key": "value", key := value — detect-secrets' keyword list.
        "secret.assignment",
        SECRET,
        re.compile(
            rf"(?<![\w.-])(?P<key>{_KEY})[\"'`\]]*\s*(?::=|=>|->|=|:)\s*[\"'`]?"
            r"(?P<value>[^\s\"'`,;<>]{6,})",
            _I,
        ),
        _named_credential,
        cues=(
            (
                "password",
                "passwd",
                "passphrase",
                "pass:",
                "pass=",
                "pass =",
                "pwd",
                "secret",
                "token:",
                "token=",
                "token =",
                'token"',
                "_token",
                "-token",
                "key:",
                "key=",
                "key =",
                'key"',
                "key'",
                "auth:",
                "auth=",
                "_auth",
                "authorization",
                "credential",
                "signature",
                "contrase",
                "apikey",
                "accountkey",
                "accesskey",
                "private_key",
                "private-key",
                "priv_key",
            ),
        ),
        group="value",
        anchor=re.compile(
            "(?:pass|pwd|secret|token|key|auth|credential|signature|contrase)[\\w.-]*[\\\"'`\\]]*\\s*(?::=|=>|->|=|:)"
        ),
        window=(80, 140),
    ),
    Rule(
        # "the password is …", "pw: …", "Passwort ist …", "mot de passe : …", "login pw X"
        "secret.password_in_prose",
        SECRET,
        re.compile(
            r"\b(?:password|passphrase|passcode|passwort|kennwort|mot de passe|contraseña|senha|"
            r"wachtwoord|hasło|pw|pwd|pass|pin|login)\b(?:\s+(?:for|of|to)\s+[^\s,.;]{1,40})?"
            r"\s*(?P<sep>(?:(?:is|was|ist|war|est|es|era|é|now|set to|became|reads|lautet|heißt|"
            r"är|er|jest|reset to|changed to|updated to|rotated to|new|=|:|->)"
            r"\s*){0,3})"
            r"[\"'`“«]?(?P<value>[^\s\"'`”»,;)]{4,})",
            _I,
        ),
        _prose_password,
        cues=(
            (
                *PASSWORD_WORDS[:10],
                " pw",
                "pwd",
                "pass:",
                "pass=",
                "pass ",
                "pin:",
                "pin=",
                "pin ",
                "login",
            ),
        ),
        group="value",
        anchor=re.compile(
            r"password|passphrase|passcode|passwort|kennwort|mot de passe|contraseña|"
            r"senha|wachtwoord|hasło|pw|pwd|pass|pin|login"
        ),
        window=(5, 140),
    ),
    Rule(
        # "creds: admin / hunter2!", "login admin:S3cret!", "user/pass = ops / Tr0ub4dor"
        "secret.credential_pair",
        SECRET,
        re.compile(
            r"\b(?:creds?|credentials|login|logins|user\s*/\s*pass(?:word)?|u/p|account)\b[^\n]{0,40}?"
            r"[:=\-]\s*[\"'`]?[\w.@-]{2,40}[\"'`]?\s*(?:/|:|\|)\s*[\"'`]?(?P<value>[^\s\"'`,;]{6,})",
            _I,
        ),
        _credential("user name and password", min_length=6),
        cues=(("cred", "login", "user/pass", "user / pass", "u/p", "account:", "account ="),),
        group="value",
        anchor_cues=True,
        window=(12, 150),
    ),
    Rule(
        # A random string the line calls a key, token, secret or signature.
        "secret.high_entropy",
        SECRET,
        re.compile(
            r"\b(?:key|keys|secret|token|password|passwd|credential|auth|signature|signing|apikey|"
            r"api[ _-]key|app[ _-]key|private)\b(?P<gap>[^\n]{0,60}?)"
            r"(?<![A-Za-z0-9+/=_-])(?P<value>[A-Za-z0-9+/=_-]{20,})(?![A-Za-z0-9+/=_-])",
            _I,
        ),
        _random_named,
        cues=(
            (
                "key",
                "secret",
                "token",
                "password",
                "passwd",
                "credential",
                "auth",
                "signature",
                "signing",
                "private",
            ),
        ),
        group="value",
        anchor=re.compile("key|secret|token|pass|credential|auth|signature|signing|private"),
        window=(5, 150),
    ),
    Rule(
        # <password>…</password>, <apiKey>…</apiKey>: XML config (Maven, .NET, Tomcat).
        "secret.xml_element",
        SECRET,
        re.compile(
            r"<(?P<tag>[\w:.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|"
            r"access[_-]?key|private[_-]?key|client[_-]?secret|credential)[\w.-]*)\s*>"
            r"\s*(?P<value>[^<\s]{4,})\s*</(?P=tag)\s*>",
            _I,
        ),
        _credential("credential in an XML element", min_length=4),
        cues=(("</",),),
        group="value",
    ),
    Rule(
        # sqlplus scott/Tiger_2024@//db:1521/ORCL, rman target sys/…@…: Oracle's user/password.
        "secret.command_password",
        SECRET,
        re.compile(
            r"\b(?:sqlplus|sqlldr|rman|expdp|impdp|exp|imp|dgmgrl|connect|conn)\s+(?:-\w+\s+)*"
            r"(?:target\s+)?[\w$#]+/(?P<value>[^\s/@\"']{4,})@",
            _I,
        ),
        _credential("password on a command line", min_length=4),
        cues=(("sqlplus", "sqlldr", "rman", "expdp", "impdp", "exp ", "imp ", "dgmgrl", "conn"),),
        group="value",
    ),
    Rule(
        "secret.sk_api_key",
        SECRET,
        re.compile(
            r"(?<![\w-])sk-(?:ant-(?:api\d\d-)?|proj-|svcacct-|admin-|live-|test-)?"
            r"(?P<value>[A-Za-z0-9_\-]{20,})"
        ),
        lambda m: (
            "API key (sk-…)"
            if any(c.isdigit() for c in m.group("value"))
            and any(c.isalpha() for c in m.group("value"))
            else None
        ),
        cues=(("sk-",),),
    ),
    Rule(
        "secret.datadog_key",
        SECRET,
        re.compile(
            r"\b(?:datadog|dd[_-]?(?:api|app|application)[_-]?key|dd_api|dd_app)\b[^\n]{0,40}?"
            r"(?<![a-f0-9])(?P<value>[a-f0-9]{32}(?:[a-f0-9]{8})?)(?![a-f0-9])",
            _I,
        ),
        checked("Datadog key"),
        cues=(("datadog", "dd_", "dd-"),),
        group="value",
    ),
    Rule(
        "secret.twilio_auth_token",
        SECRET,
        re.compile(
            r"\b(?:twilio|auth[_ ]?token)\b[^\n]{0,60}?(?<![a-f0-9])(?P<value>[a-f0-9]{32})"
            r"(?![a-f0-9])",
            _I,
        ),
        checked("Twilio auth token"),
        cues=(("twilio", "auth"),),
        group="value",
    ),
)

SECRET_RULES: tuple[Rule, ...] = VENDOR_RULES + CREDENTIAL_RULES
