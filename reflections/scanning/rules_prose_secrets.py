"""Secrets told in words: passwords with words between the cue and the value ("the password for
the staging database is …", "das Passwort für … lautet …", "le mot de passe de … est …", "la
contraseña de … es …") in every language of the password cues, and random strings next to the
word for key, password or token in other scripts (키, パスワード, 密钥, пароль …)."""

from __future__ import annotations

import re

from reflections.scanning.findings import SECRET
from reflections.scanning.rule import Rule
from reflections.scanning.rules_secret import PASSWORD_WORDS, _random_named
from reflections.scanning.values import character_classes, is_credential_like, is_random_token

_I = re.IGNORECASE

# The cue words: the word for a password in every language the cues cover, and the phrases
# some languages use instead (Italian "parola d'ordine", Portuguese "palavra-passe").
_CUE_WORDS = (*PASSWORD_WORDS, "parola d'ordine", "palavra-passe", "clave de acceso")
# How the words after the cue begin when they say whose password it is: a preposition or the
# start of a relative clause ("for the build box", "we use for …", "für den Server", "de la
# base", "del servidor", "van de server", "dla konta", "till servern").
_OPENERS = (
    r"for|of|to|on|at|in|we|i|you|they|that|which|used|für|vom|von|zum|zur|des|der|den|dem|"
    r"de|du|(?:d|dell|all|nell|sull|l)(?:'|\u2019)\S*|del|de la|da|do|dos|das|della|dello|"
    r"van|voor|dla|na|do|till|för|til|på|for|som|jonka|que|qui|den|die|das|che|per|di|sul|"
    r"sulla|para|pour|dat|op|bij|the|our|my|their|actuel|actual|attuale|atual|current|new|old|neue|alte|nouveau"
)
# How many words may stand between the cue and the verb ("the password we ended up using for
# the staging database is …": nine).
_GAP_WORDS = 12
# The verb that hands over the value, in the same languages.
_VERBS = (
    r"is|was|is now|ist|lautet|war|heißt|est|était|es|era|é|são|is nu|jest|to|brzmi|är|var|"
    r"er|var|on|oli|è|sono|ser|siendo|sind|zijn|blijft|wordt|wurde|sei|reste|resta|rimane|"
    r"became|becomes|remains"
)
# Words that may stand between the verb and the value ("lautet übrigens", "is still",
# "war die ganze Zeit", "is sinds vorige week", "est désormais", "ahora es"): any three short
# words of the clause; the value test (below) is what keeps ordinary prose out.
_AFTER_VERB = r"(?:[ \t]+[^\s.;:!?,\d]{1,12}){0,3}?"
# The value holds a digit or a symbol somewhere before its end: the words the clause may still
# hold after the verb ("is still", "est désormais") are skipped, not taken for the value.
_NOT_A_WORD = r"(?=[^\s\"'`”»“,;)]*[0-9!@#$%^&*+=?~/\\|<>{}\[\]_-][^\s\"'`”»“,;)]*[^\s.!?])"
# German puts the verb last: "das Passwort für den Benutzer etl_loader inzwischen … ist".
_VERB_LAST = r"ist|war|lautet|sei|wäre|heißt"


_LOGIN_WORDS = (
    r"login|log-in|logins|credentials|creds|zugangsdaten|anmeldedaten|identifiants|"
    r"credenciales|credenziali|inloggegevens|credenciais"
)
_LOGIN_CUES = (
    "login", "log-in", "credentials", "creds", "zugangsdaten", "anmeldedaten", "identifiants",
    "credenciales", "credenziali", "inloggegevens", "credenciais",
)  # fmt: skip
_FIRST = r"first|1st|erste|ersten|première|premier|primera|primer|prima|primo|eerste|primeira"
# The cue is the second half's label, a phrase: the words alone ("part", "first") are in
# every other text ("department"), and each hit the cue pass reports costs time.
_SECOND_PARTS = tuple(
    f"{second} {part}"
    for second in ("second", "2nd", "zweite", "zweiter", "seconde", "deuxième", "segunda",
                   "segundo", "seconda", "secondo", "tweede")
    for part in ("half", "part", "piece", "hälfte", "teil", "moitié", "partie", "mitad",
                 "parte", "metà", "helft", "deel", "metade")
)  # fmt: skip
_SECOND = r"second|2nd|zweite|zweiten|seconde|deuxième|segunda|segundo|seconda|secondo|tweede"
_PART = r"half|part|piece|hälfte|teil|moitié|partie|mitad|parte|metà|helft|deel|metade"


def _halves(match: re.Match[str]) -> str | None:
    """Both halves random-looking once joined: a key that was split, not two labels."""
    pieces = re.findall(
        r"[A-Za-z0-9+/=_-]{8,64}(?=[ \t]*(?:\r?\n|\Z))|[A-Za-z0-9+/=_-]{8,64}\Z",
        match.group("value"),
    )
    joined = "".join(pieces[:1] + pieces[-1:])
    return "secret split across lines" if len(pieces) >= 2 and is_random_token(joined) else None


_CUES = "|".join(_CUE_WORDS)
_WORD = r"[ \t]+[^\s.;:!?,]{1,30}"  # one word of the clause
_VALUE = r"(?P<value>[^\s\"'`”»“,;)]{3,}[^\s\"'`”»“,;).!?])"


def _told(pattern: str, cues: tuple[str, ...]) -> Rule:
    """A password told in a sentence, found near its cue words (`pattern` holds a `value`)."""
    return Rule(
        "secret.password_in_prose",
        SECRET,
        re.compile(pattern, _I),
        _told_password,
        cues=(cues,),
        group="value",
        anchor_cues=True,
        window=(5, 320),
    )


def _told_password(match: re.Match[str]) -> str | None:
    value = match.group("value")
    if not is_credential_like(value):
        return None
    # Ordinary prose after the verb ("is strict", "is stored in Vault") is one kind of
    # character; a password told in a sentence mixes three, or letters and digits at length.
    classes = character_classes(value)
    has_digit = any(c.isdigit() for c in value)
    has_letter = any(c.isalpha() for c in value)
    if classes >= 3 or (has_digit and has_letter and len(value) >= 8):
        return "password in the text"
    return None


PROSE_SECRET_RULES: tuple[Rule, ...] = (
    Rule(
        # A random string next to the word for key, password or token in other scripts:
        # "REST API 키는 3004…", "パスワードは…", "密钥 …", "пароль: …".
        "secret.high_entropy",
        SECRET,
        re.compile(
            r"(?:키|비밀번호|암호|토큰|キー|パスワード|トークン|鍵|密钥|秘钥|密码|口令|令牌|"
            r"ключ|пароль|токен|مفتاح|كلمة المرور|رمز|कुंजी|पासवर्ड|टोकन)"
            r"(?P<gap>[^\n]{0,30}?)"
            r"(?<![A-Za-z0-9+/=_-])(?P<value>[A-Za-z0-9+/=_-]{20,})(?![A-Za-z0-9+/=_-])",
        ),
        _random_named,
        non_ascii=True,
        cues=(
            (
                "키",
                "비밀번호",
                "암호",
                "토큰",
                "キー",
                "パスワード",
                "トークン",
                "鍵",
                "密钥",
                "秘钥",
                "密码",
                "口令",
                "令牌",
                "ключ",
                "пароль",
                "токен",
                "مفتاح",
                "كلمة المرور",
                "رمز",
                "कुंजी",
                "पासवर्ड",
                "टोकन",
            ),
        ),
        group="value",
    ),
    # "the password for the staging database is still …", "le mot de passe … est désormais …"
    _told(
        rf"\b(?:{_CUES})(?:et|en)?\b"
        rf"(?P<gap>[ \t]+(?:{_OPENERS})(?:{_WORD}){{0,{_GAP_WORDS}}}?)?"
        rf"[ \t]+(?:{_VERBS}){_AFTER_VERB}[ \t]*:?[ \t]+[\"'`“«„]?{_NOT_A_WORD}{_VALUE}",
        _CUE_WORDS,
    ),
    # "das Passwort für den Benutzer etl_loader inzwischen … ist"
    _told(
        rf"\b(?:{_CUES})\b(?:{_WORD}){{1,{_GAP_WORDS}}}?[ \t]+(?=[^\s]*[0-9]){_VALUE}"
        rf"[ \t]+(?:{_VERB_LAST})\b",
        _CUE_WORDS,
    ),
    # "the login for the Grafana box is admin / Falcon-Canyon-42", "die Zugangsdaten für das
    # NAS sind backup / …": a user name, a slash or colon, and the password.
    _told(
        rf"\b(?:{_LOGIN_WORDS})\b(?:{_WORD}){{0,{_GAP_WORDS}}}?"
        rf"[ \t]+(?:{_VERBS}|are|sont|son)[ \t]*:?[ \t]+[\w.@-]{{2,40}}[ \t]*[/:][ \t]*{_VALUE}",
        _LOGIN_CUES,
    ),
    Rule(
        # A key told in two halves on two lines: "first half: FPA1…", "second half: 7rsT…".
        "secret.split_across_lines",
        SECRET,
        re.compile(
            rf"\b(?:{_FIRST})[ \t]+(?:{_PART})\b[^\n\w]{{0,4}}"
            r"(?P<value>[A-Za-z0-9+/=_-]{8,64}[ \t]*\r?\n[^\n]{0,40}?"
            rf"\b(?:{_SECOND})[ \t]+(?:{_PART})\b[^\n\w]{{0,4}}[A-Za-z0-9+/=_-]{{8,64}})",
            _I,
        ),
        _halves,
        cues=(_SECOND_PARTS,),
        group="value",
        anchor_cues=True,
        window=(140, 100),
    ),
)
