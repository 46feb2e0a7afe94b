"""Secrets told in words: passwords with words between the cue and the value ("the password for
the staging database is …", "das Passwort für … lautet …", "le mot de passe de … est …", "la
contraseña de … es …") in every language of the password cues, and random strings next to the
word for key, password or token in other scripts (키, パスワード, 密钥, пароль …)."""

from __future__ import annotations

import re

from reflections.scanning.findings import SECRET
from reflections.scanning.rule import Rule
from reflections.scanning.rules_secret import PASSWORD_WORDS, _random_named
from reflections.scanning.values import character_classes, is_credential_like

_I = re.IGNORECASE

# The cue words: the word for a password in every language the cues cover.
_CUE_WORDS = PASSWORD_WORDS
# How the words after the cue begin when they say whose password it is: a preposition or the
# start of a relative clause ("for the build box", "we use for …", "für den Server", "de la
# base", "del servidor", "van de server", "dla konta", "till servern").
_OPENERS = (
    r"for|of|to|on|at|in|we|i|you|they|that|which|used|für|vom|von|zum|zur|des|der|den|dem|"
    r"de|du|d(?:'|\u2019)\S*|del|de la|da|do|dos|das|della|van|voor|dla|na|do|till|för|til|på|for|"
    r"som|jonka|que|qui|den|die|das"
)
# The verb that hands over the value, in the same languages.
_VERBS = (
    r"is|was|is now|ist|lautet|war|heißt|est|était|es|era|é|são|is nu|jest|to|brzmi|är|var|"
    r"er|var|on|oli"
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
    Rule(
        "secret.password_in_prose",
        SECRET,
        re.compile(
            rf"\b(?:{'|'.join(_CUE_WORDS)})(?:et|en)?\b"
            rf"(?P<gap>[ \t]+(?:{_OPENERS})(?:[ \t]+[^\s.;:!?,]{{1,30}}){{0,6}}?)"
            rf"[ \t]+(?:{_VERBS})[ \t]*:?[ \t]+[\"'`“«„]?"
            r"(?P<value>[^\s\"'`”»“,;)]{3,}[^\s\"'`”»“,;).!?])",
            _I,
        ),
        _told_password,
        cues=(_CUE_WORDS,),
        group="value",
        anchor_cues=True,
        window=(5, 220),
    ),
)
