"""Personal-data rules for national identity numbers of many countries and the mobile-number
shapes of East Asia.

Numbers with a date and a check digit, or a distinctive letter pattern with one, are found
wherever they stand. Numbers with one check digit (one random number in ten passes it) are
found where the text names the document: "SIN 046 454 286", "BSN: 111222333", "マイナンバー …".
"""

from __future__ import annotations

import re

from reflections.scanning import national_ids as ids
from reflections.scanning.findings import PERSONAL
from reflections.scanning.rule import Rule

_NATIONAL_ID = "national identity number"


def _checked(check) -> callable:
    def summary(match: re.Match[str]) -> str | None:
        return _NATIONAL_ID if check(_compact(match.group())) else None

    return summary


def _compact(value: str) -> str:
    return re.sub(r"[\s./-]", "", value).upper()


# The words that name a document, in the languages its holders write, and the schemes each
# can mean. A number near one of them is checked against those schemes only.
_CONTEXT: tuple[tuple[str, tuple], ...] = (
    (r"social insurance|\bsin\b|assurance sociale", (ids.canada_sin,)),
    (r"\btfn\b|tax file", (ids.australia_tfn,)),
    (r"medicare", (ids.australia_medicare,)),
    (r"\bbsn\b|burgerservicenummer|sofinummer", (ids.netherlands_bsn,)),
    (r"pesel", (ids.poland_pesel,)),
    (r"kimlik|\btckn\b|\bt\.c\.", (ids.turkey_tckn,)),
    (r"personnummer|personnr|samordningsnummer|fødselsnummer|\bfnr\b",
     (ids.sweden_personnummer, ids.norway_fodselsnummer)),
    (r"\bcpr\b", (ids.denmark_cpr,)),
    (r"henkilötunnus|\bhetu\b", (ids.finland_hetu,)),
    (r"aadhaar|aadhar|आधार|uidai", (ids.india_aadhaar,)),
    (r"\bpan\b|permanent account", (ids.india_pan,)),
    (r"マイナンバー|個人番号|my ?number", (ids.japan_my_number,)),
    (r"身份证|身份證|居民身份", (ids.china_resident_id,)),
    (r"주민등록|주민번호|resident registration|\brrn\b",
     (lambda v: ids.korea_rrn(v, check=False),)),
    (r"\bnin\b|national identification number|nimc", (ids.digits_only(11),)),
    (r"\bnhs\b", (ids.uk_nhs_number,)),
    (r"steuer-?id|steuer-?identifikationsnummer|identifikationsnummer|\bidnr\b|tax id",
     (ids.germany_steuer_id,)),
    (r"codice fiscale|\bc\.?f\.?\b|fiscal code", (ids.italy_codice_fiscale,)),
    (r"\bcurp\b", (ids.mexico_curp,)),
    (r"\brfc\b", (ids.mexico_rfc,)),
    (r"\bnir\b|sécurité sociale|securite sociale|numéro de sécu|\binsee\b", (ids.france_nir,)),
    (r"\bnif\b|contribuinte", (ids.portugal_nif,)),
    (r"\brut\b", (ids.chile_rut,)),
    (r"\bnric\b", (ids.singapore_nric,)),
    (r"teudat|zehut|תעודת זהות|ת\.ז", (ids.israel_id,)),
    (r"rijksregister|registre national|numéro national", (ids.belgium_national_number,)),
    (r"id number|identity number|national id|identity no",
     (ids.south_africa_id, ids.china_resident_id, ids.turkey_tckn, ids.poland_pesel)),
)  # fmt: skip
_SCHEMES = [(re.compile(words), schemes) for words, schemes in _CONTEXT]


def _in_context(match: re.Match[str]) -> str | None:
    text, start = match.string, match.start()
    before = text[max(0, start - 80) : start].lower()
    value = _compact(match.group())
    for words, schemes in _SCHEMES:
        if words.search(before) and any(check(value) for check in schemes):
            return _NATIONAL_ID
    return None


# What the cue index looks for before the rule runs: a word of every line of _CONTEXT.
_CUE_WORDS = (
    "social insurance", "sin ", "sin:", "sin#", "assurance sociale", "tfn", "tax file", "medicare",
    "bsn", "burgerservicenummer", "sofinummer", "pesel", "kimlik", "tckn", "t.c.",
    "personnummer", "personnr", "samordningsnummer", "fødselsnummer", "fnr ", "fnr:", "cpr ",
    "cpr:", "cpr-", "henkilötunnus", "hetu", "aadhaar", "aadhar", "आधार", "uidai", "pan ",
    "pan:", "permanent account", "マイナンバー", "個人番号", "my number", "mynumber", "身份证",
    "身份證", "居民身份", "주민등록", "주민번호", "resident registration", "rrn", "nin ", "nin:",
    "national identification number", "nimc", "nhs ", "nhs:", "steuer", "identifikationsnummer",
    "idnr", "tax id", "codice fiscale", "c.f.", "cf ", "cf:", "fiscal code", "curp", "rfc ",
    "rfc:", "nir ", "nir:",
    "sécurité sociale", "securite sociale", "numéro de sécu", "insee", "nif ", "nif:",
    "contribuinte", "rut ", "rut:", "nric", "teudat", "zehut", "תעודת זהות", "ת.ז",
    "rijksregister", "registre national", "numéro national", "id number", "identity number",
    "national id", "identity no",
)  # fmt: skip


NATIONAL_ID_RULES: tuple[Rule, ...] = (
    Rule(
        # Chinese resident identity number: birth date and an ISO 7064 check character.
        "personal.national_id",
        PERSONAL,
        re.compile(r"(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])"),
        _checked(ids.china_resident_id),
        shapes=(b"00000000000000000",),
        anchor_shapes=True,
        window=(2, 4),
    ),
    Rule(
        # Korean resident registration number with its check digit.
        "personal.national_id",
        PERSONAL,
        re.compile(r"(?<![\d-])\d{6}-[1-8]\d{6}(?![\d-])"),
        _checked(ids.korea_rrn),
        shapes=(b"000000-0000000",),
        anchor_shapes=True,
        window=(2, 2),
    ),
    Rule(
        # Swedish personnummer written YYMMDD-NNNN or YYYYMMDD-NNNN (Luhn).
        "personal.national_id",
        PERSONAL,
        re.compile(r"(?<![\d-])(?:19|20)?\d{6}[-+]\d{4}(?![\d-])"),
        _checked(ids.sweden_personnummer),
        shapes=(b"000000-0000", b"000000+0000"),
        anchor_shapes=True,
        window=(4, 2),
    ),
    Rule(
        # French NIR: sex, year, month, place, order and a two-digit key.
        "personal.national_id",
        PERSONAL,
        re.compile(r"(?<![\d])[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\d])"),
        _checked(ids.france_nir),
        shapes=(b"0 00 00 00 000 000 00", b"000000000000000"),
        anchor_shapes=True,
        window=(2, 2),
    ),
    Rule(
        # Finnish henkilötunnus DDMMYY-NNNC, Belgian YY.MM.DD-NNN.CC, Chilean RUT 12.345.678-K.
        "personal.national_id",
        PERSONAL,
        re.compile(
            r"(?<![\w-])\d{6}[-+A]\d{3}[0-9A-Y](?![\w-])"
            r"|(?<![\d.])\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}(?![\d.])"
            r"|(?<![\d.])\d{1,2}\.\d{3}\.\d{3}-[\dkK](?![\w-])"
        ),
        _checked(
            lambda v: ids.finland_hetu(v) or ids.belgium_national_number(v) or ids.chile_rut(v)
        ),
        shapes=(b"000000-000", b"000000A000", b"000000+000", b"00.00.00-000.00", b".000.000-"),
        anchor_shapes=True,
        window=(4, 4),
    ),
    Rule(
        # CURP and NRIC: letter patterns around a date or seven digits, with a check character.
        "personal.national_id",
        PERSONAL,
        re.compile(r"\b[A-Z][AEIOUX][A-Z]{2}\d{6}[HMX][A-Z]{5}[0-9A-Z]\d\b|\b[STFGM]\d{7}[A-Z]\b"),
        _checked(lambda v: ids.mexico_curp(v) or ids.singapore_nric(v)),
        shapes=(b"000000",),
        anchor_shapes=True,
        window=(5, 12),
    ),
    Rule(
        # One-check-digit numbers (and the Nigerian NIN, which has none) where the text names
        # the document.
        "personal.national_id",
        PERSONAL,
        # Groups of letters and digits, each with a digit: "5596 3369 4949", "JKVPR0147S"
        re.compile(r"(?<![\w-])[0-9A-Z]*\d[0-9A-Z]*(?:[ .\-/][0-9A-Z]*\d[0-9A-Z]*){0,5}(?![\w-])"),
        _in_context,
        cues=(_CUE_WORDS,),
        anchor_cues=True,
        window=(0, 60),
    ),
    Rule(
        # Mobile numbers of Japan (090-1234-5678), Korea (010-1234-5678) and China
        # (139 1234 5678): shapes nothing else has.
        "personal.phone_national",
        PERSONAL,
        re.compile(
            r"(?<![\d-])(?:0[789]0-\d{4}-\d{4}|01[016789]-\d{3,4}-\d{4}|1[3-9]\d[ -]\d{4}[ -]\d{4})"
            r"(?![\d-])"
        ),
        "phone number",
        shapes=(b"000-0000-0000", b"000-000-0000", b"000 0000 0000"),
        anchor_shapes=True,
        window=(2, 2),
    ),
    Rule(
        # Postal addresses as Japan, China and Korea write them: region, city, district, then
        # the block and house numbers (東京都世田谷区桜新町2-14-7, 杭州市西湖区文三路 88 号,
        # 서울특별시 강남구 테헤란로 123).
        "personal.postal_address",
        PERSONAL,
        re.compile(
            r"(?:[\u4e00-\u9fff]{1,3}[都道府県])?[\u4e00-\u9fff\u3040-\u30ff]{1,6}[市区町村郡]"
            r"[\u4e00-\u9fff\u3040-\u30ff]{0,8}\d{1,4}(?:[-\u2212\u2010の]|丁目|番地?|号){1,2}\d{1,4}"
            r"(?:(?:[-\u2212\u2010の]|番地?|号)\d{1,4})*"
            r"|[\u4e00-\u9fff]{2,8}[市区县][\u4e00-\u9fff]{1,10}(?:路|街|道|巷|里)\s?\d{1,5}\s?号"
            r"|[가-힣]{2,6}(?:특별시|광역시|시|도)\s[가-힣]{1,6}(?:구|군|시)\s[가-힣0-9]{1,10}"
            r"(?:로|길|동)\s?\d{1,5}(?:-\d{1,5})?"
        ),
        "postal address",
        non_ascii=True,
        cues=(("市", "区", "町", "村", "郡", "县", "시", "도"),),
    ),
)
