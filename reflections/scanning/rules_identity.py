"""Personal-data rules for numbers that identify a person: bank and card numbers, national
identity numbers, identity documents, dates of birth."""

from __future__ import annotations

import re

from reflections.scanning.findings import PERSONAL
from reflections.scanning.rule import Rule
from reflections.scanning.values import TEST_CARD_NUMBERS, iban_valid, luhn_valid

_I = re.IGNORECASE


def _cpf_valid(value: str) -> bool:
    digits = [int(c) for c in value if c.isdigit()]
    if len(set(digits)) == 1:
        return False
    for n in (9, 10):
        check = sum(d * w for d, w in zip(digits[:n], range(n + 1, 1, -1), strict=True)) * 10 % 11
        if check % 10 != digits[n]:
            return False
    return True


def _dni_valid(value: str) -> bool:
    compact = value.replace("-", "")
    number = compact[:-1].replace("X", "0").replace("Y", "1").replace("Z", "2")
    return number.isdigit() and "TRWAGMYFPDXBNJZSQVHLCKE"[int(number) % 23] == compact[-1]


def _iban(match: re.Match[str]) -> str | None:
    return "IBAN" if iban_valid(match.group()) else None


# Issuer prefixes and lengths of the card networks people paste (Visa, Mastercard, Amex,
# Discover, Diners, JCB, UnionPay, Maestro).
_CARD = re.compile(
    r"^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2[2-7]\d{14}|3[47]\d{13}|"
    r"6(?:011|5\d\d)\d{12,15}|3(?:0[0-5]|[68]\d)\d{11,16}|35\d{14}|62\d{14,17}|"
    r"(?:50|5[6-9]|6\d)\d{10,17})$"
)


def _card(match: re.Match[str]) -> str | None:
    digits = re.sub(r"[ -]", "", match.group())
    if digits in TEST_CARD_NUMBERS:
        return None
    return "payment card number" if _CARD.match(digits) and luhn_valid(digits) else None


_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = (
    rf"\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}"
    rf"|\d{{1,2}}\.? {_MONTHS},? \d{{4}}|{_MONTHS} \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}"
)


IDENTITY_RULES: tuple[Rule, ...] = (
    Rule(
        "personal.iban",
        PERSONAL,
        re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b"),
        _iban,
        shapes=(b"0000 0000", b"00 0000", b"0000000000"),
        anchor_shapes=True,
        window=(40, 40),
    ),
    Rule(
        "personal.card_number",
        PERSONAL,
        re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])"),
        _card,
        shapes=(b"0000 0000", b"0000-0000", b"000000 00000", b"000000-00000", b"0000000000000"),
        anchor_shapes=True,
        window=(25, 25),
    ),
    Rule(
        "personal.national_id",
        PERSONAL,
        re.compile(
            # US social security number: area not 000/666/9xx, group not 00, serial not 0000
            r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])"
        ),
        "national identity number",
        shapes=(b"000-00-0000",),
        anchor_shapes=True,
        window=(2, 2),
    ),
    Rule(
        "personal.national_id",
        PERSONAL,
        # UK National Insurance number
        re.compile(r"\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"),
        "national identity number",
        cues=(("insurance", "nino", "ni number", "ni no"),),
    ),
    Rule(
        "personal.national_id",
        PERSONAL,
        # Brazilian CPF (999.999.999-99) with its two check digits
        re.compile(r"(?<![\d.-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d-])"),
        lambda m: "national identity number" if _cpf_valid(m.group()) else None,
        shapes=(b"000.000.000-00",),
        anchor_shapes=True,
        window=(2, 2),
    ),
    Rule(
        "personal.national_id",
        PERSONAL,
        # Spanish DNI / NIE with its check letter
        re.compile(r"(?<![\w-])[XYZ]?\d{7,8}-?[A-Z](?![\w-])"),
        lambda m: "national identity number" if _dni_valid(m.group()) else None,
        cues=(("dni", "nie", "nif", "documento", "identidad"),),
    ),
    Rule(
        "personal.id_document",
        PERSONAL,
        re.compile(
            r"\b(?:passport|reisepass|passeport|pasaporte|id card|identity card"
            r"|driver'?s licen[cs]e|licen[cs]e number|medical record|mrn|patient id|tax id"
            r"|steuer-id|dni|nif)\b"
            r"[^\n]{0,30}?(?<![\w-])(?P<value>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{5,13})(?![\w-])",
            _I,
        ),
        "identity document number",
        cues=(
            (
                "passport",
                "reisepass",
                "passeport",
                "pasaporte",
                "id card",
                "identity card",
                "licence",
                "license",
                "medical record",
                "mrn",
                "patient id",
                "tax id",
                "steuer-id",
                "dni",
                "nif",
            ),
        ),
        group="value",
        anchor=re.compile(
            r"passport|reisepass|passeport|pasaporte|id card|identity card|licen|"
            r"medical record|mrn|patient id|tax id|steuer-id|dni|nif"
        ),
        window=(5, 80),
    ),
    Rule(
        "personal.date_of_birth",
        PERSONAL,
        re.compile(
            rf"\b(?:born|birth|dob|d\.o\.b|birthday|geboren|né|née|nacido)\b[^\n]{{0,25}}?"
            rf"(?P<value>{_DATE})",
            _I,
        ),
        "date of birth",
        cues=(("born", "birth", "dob", "d.o.b", "geboren", "né", "nacido"),),
        group="value",
    ),
)
