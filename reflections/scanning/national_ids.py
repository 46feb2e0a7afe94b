"""Check digits and embedded dates of national identity numbers, one function per scheme.

Each takes the number without separators (upper-case) and says whether it is well formed.
A scheme with one check digit passes one random number in ten or eleven, so its rule also
wants the document's name nearby (rules_national); one with a date and a check digit, or two
check digits, is distinctive enough on its own.
"""

from __future__ import annotations

from datetime import date

from reflections.scanning.values import luhn_valid


def valid_date(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _digits(value: str) -> list[int]:
    return [int(c) for c in value]


def china_resident_id(v: str) -> bool:
    """GB 11643: 17 digits (the birth date is digits 7 to 14) and an ISO 7064 MOD 11-2
    check character."""
    if len(v) != 18 or not v[:17].isdigit() or not (v[17].isdigit() or v[17] == "X"):
        return False
    if not valid_date(int(v[6:10]), int(v[10:12]), int(v[12:14])) or int(v[6:10]) < 1900:
        return False
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(c) * w for c, w in zip(v[:17], weights, strict=True))
    return "10X98765432"[total % 11] == v[17]


def _yy_date(yymmdd: str, century: int) -> bool:
    return valid_date(century + int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:6]))


def _dd_date(ddmmyy: str, century: int) -> bool:
    return _yy_date(ddmmyy[4:6] + ddmmyy[2:4] + ddmmyy[:2], century)


def korea_rrn(v: str, *, check: bool = True) -> bool:
    """Birth date, a sex/century digit, and (before October 2020) a weighted check digit."""
    if len(v) != 13 or not v.isdigit() or v[6] not in "12345678":
        return False
    century = {"1": 1900, "2": 1900, "5": 1900, "6": 1900, "9": 1800, "0": 1800}.get(v[6], 2000)
    if not _yy_date(v[:6], century):
        return False
    if not check:
        return True
    weights = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    total = sum(int(c) * w for c, w in zip(v[:12], weights, strict=True))
    return (11 - total % 11) % 10 == int(v[12])


def turkey_tckn(v: str) -> bool:
    if len(v) != 11 or not v.isdigit() or v[0] == "0":
        return False
    d = _digits(v)
    tenth = (sum(d[0:9:2]) * 7 - sum(d[1:8:2])) % 10
    return d[9] == tenth and d[10] == sum(d[:10]) % 10


def poland_pesel(v: str) -> bool:
    if len(v) != 11 or not v.isdigit():
        return False
    d = _digits(v)
    month, offset = int(v[2:4]), 1900
    for start, century in ((80, 1800), (60, 2200), (40, 2100), (20, 2000), (0, 1900)):
        if month > start:
            month, offset = month - start, century
            break
    if not valid_date(offset + int(v[:2]), month, int(v[4:6])):
        return False
    weights = (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)
    return (10 - sum(a * b for a, b in zip(d, weights, strict=False)) % 10) % 10 == d[10]


def sweden_personnummer(v: str) -> bool:
    """YYMMDD(NNNC) with a Luhn check over the ten digits; a coordination number adds 60 to
    the day."""
    v = v[2:] if len(v) == 12 else v
    if len(v) != 10 or not v.isdigit():
        return False
    day = int(v[4:6])
    day = day - 60 if day > 60 else day
    if not valid_date(2000, int(v[2:4]), day) and not valid_date(1999, int(v[2:4]), day):
        return False
    return luhn_valid(v)


def norway_fodselsnummer(v: str) -> bool:
    if len(v) != 11 or not v.isdigit():
        return False
    d = _digits(v)
    for weights, position in (
        ((3, 7, 6, 1, 8, 9, 4, 5, 2), 9),
        ((5, 4, 3, 2, 7, 6, 5, 4, 3, 2), 10),
    ):
        check = 11 - sum(a * b for a, b in zip(d, weights, strict=False)) % 11
        if check == 10 or (check % 11) != d[position]:
            return False
    return True


def denmark_cpr(v: str) -> bool:
    return len(v) == 10 and v.isdigit() and _dd_date(v[:6], 1900)


def finland_hetu(v: str) -> bool:
    if len(v) == 10:  # written with "-", which the caller dropped as a separator
        v = v[:6] + "-" + v[6:]
    if len(v) != 11 or not v[:6].isdigit() or v[6] not in "+-ABCDEFUVWXY" or not v[7:10].isdigit():
        return False
    if not _dd_date(v[:6], 1900) and not _dd_date(v[:6], 2000):
        return False
    return "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(v[:6] + v[7:10]) % 31] == v[10]


def japan_my_number(v: str) -> bool:
    if len(v) != 12 or not v.isdigit():
        return False
    d = _digits(v)
    total = sum(d[10 - n] * (n + 2 if n < 6 else n - 4) for n in range(11))
    remainder = total % 11
    return d[11] == (0 if remainder <= 1 else 11 - remainder)


_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def india_aadhaar(v: str) -> bool:
    if len(v) != 12 or not v.isdigit() or v[0] in "01":
        return False
    check = 0
    for i, c in enumerate(reversed(v)):
        check = _VERHOEFF_D[check][_VERHOEFF_P[i % 8][int(c)]]
    return check == 0


def india_pan(v: str) -> bool:
    return (
        len(v) == 10
        and v[:5].isalpha()
        and v[3] in "PCHFATBLJG"
        and v[5:9].isdigit()
        and v[9].isalpha()
    )


def canada_sin(v: str) -> bool:
    return len(v) == 9 and v.isdigit() and v[0] not in "08" and luhn_valid(v)


def australia_tfn(v: str) -> bool:
    if not v.isdigit() or len(v) not in (8, 9):
        return False
    weights = (10, 7, 8, 4, 6, 3, 5, 1) if len(v) == 8 else (1, 4, 3, 7, 5, 8, 6, 9, 10)
    return sum(a * b for a, b in zip(_digits(v), weights, strict=True)) % 11 == 0


def australia_medicare(v: str) -> bool:
    if len(v) not in (10, 11) or not v.isdigit() or v[0] not in "23456":
        return False
    d = _digits(v)
    return sum(a * b for a, b in zip(d[:8], (1, 3, 7, 9, 1, 3, 7, 9), strict=True)) % 10 == d[8]


def netherlands_bsn(v: str) -> bool:
    if len(v) != 9 or not v.isdigit() or set(v) == {"0"}:
        return False
    d = _digits(v)
    return (sum(d[i] * (9 - i) for i in range(8)) - d[8]) % 11 == 0


def france_nir(v: str) -> bool:
    """Sex digit, birth year and month, place, order, and the 97-complement key."""
    if len(v) != 15 or v[0] not in "123478" or not v[13:].isdigit():
        return False
    if not (1 <= int(v[3:5]) <= 12 or 20 <= int(v[3:5]) <= 99):
        return False
    body = v[:13].replace("2A", "19").replace("2B", "18")
    return body.isdigit() and 97 - int(body) % 97 == int(v[13:])


def germany_steuer_id(v: str) -> bool:
    if len(v) != 11 or not v.isdigit() or v[0] == "0":
        return False
    counts = sorted((v[:10].count(c) for c in set(v[:10])), reverse=True)
    if counts[0] not in (2, 3) or (counts[1:] and counts[1] != 1):
        return False
    product = 10
    for c in v[:10]:
        total = (int(c) + product) % 10 or 10
        product = (2 * total) % 11
    return (11 - product) % 10 == int(v[10])


_CF_ODD = dict(
    zip(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        (1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11,
         3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23),
        strict=True,
    )
)  # fmt: skip


def italy_codice_fiscale(v: str) -> bool:
    if len(v) != 16 or not v.isalnum():
        return False
    total = 0
    for i, c in enumerate(v[:15]):
        if i % 2 == 0:
            total += _CF_ODD[c]
        else:
            total += int(c) if c.isdigit() else ord(c) - ord("A")
    return chr(ord("A") + total % 26) == v[15]


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def mexico_curp(v: str) -> bool:
    if len(v) != 18 or not v[:4].isalpha() or not v[4:10].isdigit():
        return False
    if not _yy_date(v[4:10], 1900):
        return False
    try:
        total = sum(_CURP_CHARS.index(c) * (18 - i) for i, c in enumerate(v[:17]))
    except ValueError:
        return False
    return v[17].isdigit() and (10 - total % 10) % 10 == int(v[17])


def mexico_rfc(v: str) -> bool:
    """A person's (4 letters) or a company's (3) RFC: a valid date and a 3-character key."""
    letters = 4 if len(v) == 13 else 3 if len(v) == 12 else 0
    return (
        letters > 0
        and v[:letters].isalpha()
        and v[letters : letters + 6].isdigit()
        and _yy_date(v[letters : letters + 6], 1900)
        and v[-3:].isalnum()
    )


def portugal_nif(v: str) -> bool:
    if len(v) != 9 or not v.isdigit() or v[0] not in "1235689":
        return False
    check = 11 - sum(int(c) * (9 - i) for i, c in enumerate(v[:8])) % 11
    return (0 if check >= 10 else check) == int(v[8])


def belgium_national_number(v: str) -> bool:
    if len(v) != 11 or not v.isdigit():
        return False
    check = int(v[9:])
    return 97 - int(v[:9]) % 97 == check or 97 - int("2" + v[:9]) % 97 == check


def chile_rut(v: str) -> bool:
    body, check = v[:-1], v[-1]
    if not 7 <= len(body) <= 8 or not body.isdigit():
        return False
    total = sum(int(c) * (2 + i % 6) for i, c in enumerate(reversed(body)))
    expected = 11 - total % 11
    return {11: "0", 10: "K"}.get(expected, str(expected)) == check


def singapore_nric(v: str) -> bool:
    if len(v) != 9 or v[0] not in "STFGM" or not v[1:8].isdigit():
        return False
    total = sum(int(c) * w for c, w in zip(v[1:8], (2, 7, 6, 5, 4, 3, 2), strict=True))
    total += {"T": 4, "G": 4, "M": 3}.get(v[0], 0)
    letters = "JZIHGFEDCBA" if v[0] in "ST" else "XWUTRQPNMLK" if v[0] in "FG" else "KLJNPQRTUWX"
    return letters[total % 11] == v[8]


def south_africa_id(v: str) -> bool:
    return len(v) == 13 and v.isdigit() and _yy_date(v[:6], 1900) and luhn_valid(v)


def uk_nhs_number(v: str) -> bool:
    if len(v) != 10 or not v.isdigit():
        return False
    check = 11 - sum(int(c) * (10 - i) for i, c in enumerate(v[:9])) % 11
    return check != 10 and check % 11 == int(v[9])


def israel_id(v: str) -> bool:
    if not v.isdigit() or not 5 <= len(v) <= 9:
        return False
    v = v.zfill(9)
    total = 0
    for i, c in enumerate(v):
        n = int(c) * (1 + i % 2)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def digits_only(length: int):
    def check(v: str) -> bool:
        return len(v) == length and v.isdigit()

    return check
