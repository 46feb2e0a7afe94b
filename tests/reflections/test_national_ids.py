"""National identity numbers: each scheme takes a published (or computed) valid number and
refuses the same number with one digit changed."""

from __future__ import annotations

import pytest

from reflections.scanning import national_ids as ids
from reflections.scanning import scan_text

VALID = [
    (ids.china_resident_id, "11010519491231002X"),
    (ids.korea_rrn, "8001011234560"),
    (ids.turkey_tckn, "10000000146"),
    (ids.poland_pesel, "44051401359"),
    (ids.sweden_personnummer, "8112289874"),
    (ids.norway_fodselsnummer, "01010750160"),
    (ids.finland_hetu, "131052-308T"),
    (ids.japan_my_number, "123456789018"),
    (ids.india_aadhaar, "234123412346"),
    (ids.canada_sin, "130692544"),
    (ids.australia_tfn, "123456782"),
    (ids.australia_medicare, "2123456701"),
    (ids.netherlands_bsn, "111222333"),
    (ids.france_nir, "255081416802538"),
    (ids.germany_steuer_id, "86095742719"),
    (ids.italy_codice_fiscale, "RSSMRA85T10A562S"),
    (ids.mexico_curp, "HEGG560427MVZRRL04"),
    (ids.portugal_nif, "123456789"),
    (ids.belgium_national_number, "85073003328"),
    (ids.chile_rut, "123456785"),
    (ids.singapore_nric, "S1234567D"),
    (ids.south_africa_id, "8001015009087"),
    (ids.uk_nhs_number, "9434765919"),
    (ids.israel_id, "123456782"),
]


def _one_digit_off(value: str) -> str:
    i = next(i for i in range(len(value) - 2, -1, -1) if value[i].isdigit())
    return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]


@pytest.mark.parametrize(("check", "value"), VALID, ids=[c.__name__ for c, _ in VALID])
def test_a_valid_number_passes_and_one_digit_off_does_not(check, value):
    assert check(value)
    assert not check(_one_digit_off(value))


@pytest.mark.parametrize(
    "text",
    [
        "Her resident ID 11010519491231002X was on the form.",
        "주민등록번호 800101-1234560 을 확인했다.",
        "The codice fiscale RSSMRA85T10A562S was rejected.",
        "Kunden har personnummer 811228-9874.",
        "Henkilötunnus 131052-308T oli väärin.",
        "Her SIN is 130 692 544 and the form wants it again.",
        "BSN: 111222333 stond in de export.",
        "マイナンバー「1234 5678 9018」が二重登録されていた。",
        "Call me on 090-1288-1025 after six.",
        "住所は東京都世田谷区桜新町2-14-7です。",
    ],
)
def test_a_national_number_or_east_asian_contact_in_prose_is_personal_data(text):
    assert {f.category for f in scan_text(text)} == {"personal"}


@pytest.mark.parametrize(
    "text",
    [
        "Order 130692544 shipped; invoice 111222333 was paid.",  # no document named
        "Build 20240612-3091 passed; run id 8112289874 in the log.",
        "The SIN function returned 0.5 for 30 degrees.",
    ],
)
def test_a_number_with_a_valid_check_digit_but_no_document_named_is_not_a_finding(text):
    assert not scan_text(text)
