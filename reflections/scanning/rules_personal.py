"""Personal-data rules for reaching a person: email addresses, phone numbers, names where the
text introduces them, postal addresses; with the identity-number rules (rules_identity)."""

from __future__ import annotations

import re

from reflections.scanning.findings import PERSONAL
from reflections.scanning.rule import Rule
from reflections.scanning.rules_identity import IDENTITY_RULES
from reflections.scanning.rules_national import NATIONAL_ID_RULES
from reflections.scanning.values import is_documentation_domain

_I = re.IGNORECASE
_URL_AUTHORITY = re.compile(r"//[^\s/@]*\Z")


def _email(match: re.Match[str]) -> str | None:
    text, start = match.string, match.start()
    # "scheme://user:pass@host" is a URL's userinfo, not an address (the password rule covers
    # it); "mailto:a@b.c" has no "//" and stays an email.
    if _URL_AUTHORITY.search(text, max(0, start - 200), start):
        return None
    # git@github.com:org/repo.git is an SSH remote: the "user" is the service's login.
    if match.group("user").lower() == "git" and text[match.end() : match.end() + 1] == ":":
        return None
    if is_documentation_domain(match.group("domain")):
        return None
    # A role mailbox (notifications@, security@, noreply@) is an organisation's, not a person's.
    if _ROLE_MAILBOX.fullmatch(match.group("user")):
        return None
    return "email address"


_ROLE_MAILBOX = re.compile(
    r"(?:no-?reply|do-?not-?reply|notifications?|support|help|helpdesk|info|security|abuse|"
    r"postmaster|hostmaster|webmaster|privacy|legal|sales|billing|press|media|jobs|careers|"
    r"feedback|mailer-daemon|bounces?|alerts?|status|team|hello|contact|service|updates|news|"
    r"newsletter)(?:[+.-][\w.-]*)?",
    _I,
)


def _digits(value: str) -> int:
    return sum(c.isdigit() for c in value)


def _international_phone(match: re.Match[str]) -> str | None:
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
# Without a country code a number is a phone only where the text says so (an order or
# invoice number can have the same shape).
_PHONE_CUE = re.compile(
    r"(?:\b(?:phone|tel|call|mobile|cell|fax|number|ring|text|whatsapp|handy|telefon|téléphone|"
    r"tél|reach|contact|line|dial|extension|ext\.|nummer|numéro|celular|telefone|móvil|"
    r"hotline|numero|número|llam|chiam|gebeld|teruggebeld|bellen|anruf|rückruf|rappel|joindre|"
    r"ligar|risponde|responde|"
    r"телефон|тел|هاتف|جوال|फ़ोन|फोन|मोबाइल)|電話|☎|手机|手機|携帯|휴대폰|전화|연락처)"
    r"[^\n]{0,40}\Z",
    _I,
)


def _national_phone(match: re.Match[str]) -> str | None:
    text, start, end = match.string, match.start(), match.end()
    if _NUMBER_BEFORE.search(text, max(0, start - 2), start) or _NUMBER_AFTER.match(text, end):
        return None
    value = match.group()
    distinctive = value.startswith("(") or re.fullmatch(r"0[1-9](?:[ .][0-9]{2}){4}", value)
    if (
        not distinctive
        and not _PHONE_CUE.search(text, max(0, start - 60), start)
        and not _named_before(text, start)
    ):
        return None
    return "phone number"


_CAP = r"[A-Z][a-zà-ÿ'\u2019]+(?:-[A-Z][a-zà-ÿ'\u2019]+)?"
_PARTICLE = r"(?:(?:van|von|de|da|del|der|den|di|du|le|la|al|bin|ten|ter)\s+)?"
_FULL_NAME = rf"{_CAP}(?:\s+{_PARTICLE}{_CAP}){{1,2}}"
# A number right after a person's name ("customer Jane Roe (07700 900123)") is that person's.
_NAME_BEFORE = re.compile(rf"(?<![A-Za-z]){_FULL_NAME}\Z")


def _named_before(text: str, start: int) -> bool:
    before = text[max(0, start - 60) : start].rstrip(" \t(,:\u2013\u2014-")
    return bool(before) and before[-1].isalpha() and bool(_NAME_BEFORE.search(before))


_STREET_TYPES = (
    r"(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Boulevard|Blvd|Drive|Dr|Court|Ct|Place|Pl|Way|"
    r"Terrace|Close|Crescent|Square|Sq|Parkway|Pkwy|Highway|Hwy|Gardens|Grove|Row|Walk|Mews)"
)

CONTACT_RULES: tuple[Rule, ...] = (
    Rule(
        "personal.email",
        PERSONAL,
        re.compile(
            r"(?<![\w.+%-])(?P<user>[A-Za-z0-9._%+\-]+)@"
            r"(?P<domain>(?:[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,24})(?![\w-])"
        ),
        _email,
        cues=(("@",),),
    ),
    Rule(
        "personal.phone_international",
        PERSONAL,
        # +CC then digit groups separated by one space, dot, dash or (…)
        re.compile(r"(?<![\w+])\+[1-9]\d{0,2}(?:[ .\-]?\(?\d{1,8}\)?){1,6}(?![\d.,:]\d|\w)"),
        _international_phone,
        cues=(("+",),),
    ),
    Rule(
        # Shapes that are phone numbers wherever they stand: (415) 555-0142, 06 12 34 56 78.
        "personal.phone_national",
        PERSONAL,
        re.compile(r"\([0-9]{3}\) ?[0-9]{3}[ .\-][0-9]{4}|(?<![\d.])0[1-9](?:[ .][0-9]{2}){4}"),
        _national_phone,
        shapes=(b") 000", b")000", b"00 00 00 00"),
        anchor_shapes=True,
        window=(8, 12),
    ),
    Rule(
        # Other national shapes only where the text says it is a phone number (an order or
        # invoice number can look the same).
        "personal.phone_national",
        PERSONAL,
        re.compile(
            # The national formats of the countries whose ids the scanner knows, longest first.
            # Sweden, Turkey: 070-123 45 67, 0532 123 45 67
            r"0[0-9]{1,3}[ \-][0-9]{3}[ \-][0-9]{2}[ \-][0-9]{2}"
            # Mexico 55 1234 5678; Netherlands mobile 06-12345678 (China's and Japan's mobiles
            # are phones wherever they stand: rules_national)
            r"|[1-9][0-9] [0-9]{4} [0-9]{4}"
            r"|06[ \-]?[0-9]{8}"
            # North American: 415-555-0142, 415.555.0142, 415 555 0142
            r"|[0-9]{3}[ .\-][0-9]{3}[ .\-][0-9]{4}"
            # European national: 030 1234 5678, 0171-234-5678, 020 7946 0958, UK mobile
            # 07911 238604, Australia 0412 345 678
            r"|0[0-9]{2,4}[ /\-]?[0-9]{3,4}[ \-]?[0-9]{3,4}"
            # India mobile 98765 43210; Spain, Poland 612 345 678; Singapore 9123 4567
            r"|[6-9][0-9]{4}[ \-][0-9]{5}|[1-9][0-9]{2} [0-9]{3} [0-9]{3}|[689][0-9]{3} [0-9]{4}"
        ),
        _national_phone,
        cues=(
            (
                "phone",
                "tel",
                "call",
                "mobile",
                "cell",
                "fax",
                "number",
                "ring",
                "text",
                "whatsapp",
                "handy",
                "telefon",
                "téléphone",
                "tél",
                "reach",
                "contact",
                "line",
                "dial",
                "extension",
                "ext.",
                "nummer",
                "numéro",
                "hotline",
                "numero",
                "número",
                "llam",
                "chiam",
                "gebeld",
                "risponde",
                "responde",
                "bellen",
                "anruf",
                "rückruf",
                "rappel",
                "joindre",
                "ligar",
                "celular",
                "telefone",
                "móvil",
                "電話",
                "☎",
                "手机",
                "手機",
                "携帯",
                "휴대폰",
                "전화",
                "연락처",
                "телефон",
                "тел",
                "هاتف",
                "جوال",
                "फ़ोन",
                "फोन",
                "मोबाइल",
            ),
        ),
        shapes=(b"000 000", b"000-000", b"000.000", b"00000000"),
        anchor_shapes=True,
        window=(8, 12),
    ),
    Rule(
        "personal.name",
        PERSONAL,
        re.compile(
            rf"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Sr|Sra|Mme|Mlle)\.?\s+(?P<value>{_CAP}"
            rf"(?:\s+{_PARTICLE}{_CAP}){{0,2}})"
        ),
        "a person's name",
        cues=(
            (
                "mr ",
                "mr.",
                "mrs ",
                "mrs.",
                "ms ",
                "ms.",
                "miss ",
                "mx ",
                "mx.",
                "dr ",
                "dr.",
                "prof ",
                "prof.",
                "herr ",
                "frau ",
                "sr ",
                "sr.",
                "sra ",
                "sra.",
                "mme ",
                "mlle ",
            ),
        ),
        group="value",
        anchor=re.compile("(?:mr|mrs|ms|miss|mx|dr|prof|herr|frau|sr|sra|mme|mlle)\\.?\\s"),
        window=(5, 80),
    ),
    Rule(
        "personal.postal_address",
        PERSONAL,
        re.compile(
            rf"\b\d{{1,5}}[a-z]?\s+(?:{_CAP}\s+){{1,3}}{_STREET_TYPES}\b\.?"
            r"(?:,?\s+(?:Apt|Suite|Unit|Flat)\.?\s*\w+)?"
            r"(?:,\s*[A-Z][\w .'-]{1,30}(?:,\s*[A-Z]{2})?(?:\s+\d{5}(?:-\d{4})?)?)?"
        ),
        "postal address",
        # A number, capitalised words, then one of these: sought only around them.
        cues=(
            (
                "street",
                " st ",
                " st.",
                " st,",
                "avenue",
                " ave",
                "road",
                " rd",
                "lane",
                " ln",
                "boulevard",
                "blvd",
                "drive",
                " dr ",
                " dr.",
                "court",
                " ct",
                "place",
                " pl ",
                " pl.",
                " way",
                "terrace",
                "close",
                "crescent",
                "square",
                " sq",
                "parkway",
                "pkwy",
                "highway",
                "hwy",
                "gardens",
                "grove",
                " row",
                " walk",
                "mews",
            ),
        ),
        anchor_cues=True,
        window=(100, 100),
    ),
    Rule(
        "personal.postal_address",
        PERSONAL,
        # German and Dutch style: Hauptstraße 12, 10115 Berlin
        re.compile(
            r"\b[A-ZÄÖÜÅØÆ][a-zäöüßåøæéè]+(?:stra(?:ß|ss)e|str\.|weg|gasse|platz|allee|straat|laan|"
            r"vägen|väg|gatan|gata|vej|gade|veien|vegen|gate|tie|katu)\s+\d{1,4}[a-z]?"
            r"(?:,\s*\d{3}\s?\d{2}\s+[A-ZÄÖÜÅ][a-zäöüßå]+|,\s*\d{4,5}\s+[A-ZÄÖÜÅ][a-zäöüßå]+)?"
        ),
        "postal address",
        cues=(
            (
                "straße",
                "strasse",
                "str.",
                "weg ",
                "gasse",
                "platz",
                "allee",
                "straat",
                "laan",
                "vägen",
                "väg ",
                "gatan",
                "gata ",
                "vej ",
                "gade",
                "veien",
                "vegen",
                "katu",
            ),
        ),
    ),
    Rule(
        "personal.postal_address",
        PERSONAL,
        # Japanese: 〒154-0011 東京都世田谷区…
        re.compile(r"〒\s?\d{3}-?\d{4}\s*[^\s\u3001\u3002,\uff0c]{0,40}"),
        "postal address",
        cues=(("〒",),),
        non_ascii=True,
    ),
    Rule(
        "personal.name",
        PERSONAL,
        # a Japanese or Chinese name with an honorific: 山本 美咲 様
        re.compile(
            r"[\u4e00-\u9fff\u3040-\u30ff]{1,4}\s?[\u4e00-\u9fff\u3040-\u30ff]{1,4}\s?"
            r"(?:様|さん|氏|先生|殿)"
        ),
        "a person's name",
        cues=(("様", "さん", "氏", "先生", "殿"),),
        non_ascii=True,
    ),
    Rule(
        "personal.postal_address",
        PERSONAL,
        # UK postcode, where the text gives one
        re.compile(r"\b(?:[A-Z]{1,2}\d[A-Z\d]?|GIR) ?\d[ABD-HJLNP-UW-Z]{2}\b"),
        "postal address",
        shapes=(b"0 0",),
        anchor_shapes=True,
        window=(5, 5),
    ),
)


# A name after a word that introduces a person ("customer Aisling Brennan"): too uncertain to
# quarantine on (and every support lesson says "customer"), but masked wherever personal data
# is shown (scanning.masking).
INTRODUCED_NAME = re.compile(
    rf"\b(?:customer|client|patient|caller|tenant|employee|applicant|candidate|buyer|"
    rf"guest|account holder|cardholder|beneficiary|recipient|named|called|dear|signed|"
    rf"regards,|thanks,|attn:?|name:|contact person|contact:)[\s,:]+(?:is\s+|was\s+)?"
    rf"(?P<value>(?-i:{_FULL_NAME}))",
    _I,
)

PERSONAL_RULES: tuple[Rule, ...] = CONTACT_RULES + IDENTITY_RULES + NATIONAL_ID_RULES
