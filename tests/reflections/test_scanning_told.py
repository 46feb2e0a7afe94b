"""What people type rather than paste: a password some words after its cue in every language
of the cue list, a secret wrapped onto the next line, national phone formats, addresses and
names written out, cluster-local and internal hosts, a one-line private key; and the
documented allow-list of well-known public values that are never findings."""

from __future__ import annotations

import pytest

from reflections.scanning import INFRASTRUCTURE, PERSONAL, SECRET, mask, scan_text
from reflections.scanning.fields import fitted_value, masked_source, scan_reflection

try:
    from reflections.scanning.public_values import PUBLIC_VALUES
except ImportError:
    PUBLIC_VALUES = ()
from tests.reflections.scanner_cases_told import NATIONAL_PHONES, PHONE_LOOKALIKES, TOLD_PASSWORDS


def _categories(text: str) -> set[str]:
    return {finding.category for finding in scan_text(text)}


@pytest.mark.parametrize(("text", "value", "prose"), TOLD_PASSWORDS)
def test_a_password_told_some_words_after_its_cue_is_found_and_masked(text, value, prose):
    findings = scan_text(text)
    assert SECRET in {f.category for f in findings}
    assert value not in mask(text, findings)


@pytest.mark.parametrize(("text", "value", "prose"), TOLD_PASSWORDS)
def test_ordinary_prose_after_the_same_cue_is_not_a_finding(text, value, prose):
    assert scan_text(prose) == []


@pytest.mark.parametrize(
    "prose",
    [
        "The password policy is strict about reuse.",
        "The password for the admin account is stored in the vault.",
        "The password manager we use is 1Password.",
        "The password for the new hire is twelve characters long.",
    ],
)
def test_english_prose_about_passwords_is_not_a_finding(prose):
    assert scan_text(prose) == []


def test_a_secret_key_wrapped_onto_the_next_line_is_found_and_masked_whole():
    first, second = "Rk2vQm8xTz1LpW9nHs4Y", "Jd6Fc3Gb7Aq0Ue5Io2Pk"
    text = f"aws_secret_access_key = {first}\n{second}\nregion = eu-west-1"
    findings = scan_text(text)
    (secret,) = [f for f in findings if f.category == SECRET]
    assert text[secret.start : secret.end] == f"{first}\n{second}"
    masked = mask(text, findings)
    assert first not in masked
    assert second not in masked
    assert "region = eu-west-1" in masked


def test_the_line_after_a_secret_stays_when_it_is_prose():
    text = "api_key = Rk2vQm8xTz1LpW9nHs4Y\nThanks\nrotated it next morning"
    masked = mask(text, scan_text(text))
    assert "Thanks" in masked


@pytest.mark.parametrize(("text", "value"), NATIONAL_PHONES)
def test_national_phone_formats_are_found_where_the_text_says_phone(text, value):
    findings = scan_text(text)
    assert PERSONAL in {f.category for f in findings}
    assert value not in mask(text, findings)


@pytest.mark.parametrize("text", PHONE_LOOKALIKES)
def test_the_same_digits_as_an_order_or_build_number_are_not_a_phone(text):
    assert PERSONAL not in _categories(text)


def test_a_full_name_next_to_a_customers_contact_details_is_a_finding():
    text = "Priya Raghunathan from Tallow & Finch wants calls on +44 7700 900461 only."
    spans = {text[f.start : f.end] for f in scan_text(text) if f.category == PERSONAL}
    assert "Priya Raghunathan" in spans


def test_capitalised_words_beside_a_phone_that_start_the_sentence_are_not_a_name():
    text = "Please Call +44 7700 900461 tomorrow."
    spans = {text[f.start : f.end] for f in scan_text(text) if f.category == PERSONAL}
    assert spans == {"+44 7700 900461"}


@pytest.mark.parametrize(
    "text",
    [
        "Prometheus scraped loki.observability.svc:3100 every 15 s.",
        "The job pushed to registry.tools.svc.cluster.local:5000 without auth.",
        "Artifacts sit on nexus.build.intern behind the proxy.",
        "Mail relays through smtp.ops.internal now.",
        "Tickets live on jira.acme.corp.",
        "The NAS is nas01.office.lan.",
        "The printer answers as hp-2f.local.",
        "The router is gw.home.arpa.",
    ],
)
def test_cluster_local_names_and_internal_tld_hosts_are_infrastructure(text):
    assert INFRASTRUCTURE in _categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "The WCF endpoint Service1.svc answered 500.",
        "Our summer intern.  She fixed the flaky test.",
        "Loki.svc files are not a thing.",
    ],
)
def test_a_wcf_file_and_the_word_intern_are_not_hosts(text):
    assert INFRASTRUCTURE not in _categories(text)


def test_a_private_key_with_a_short_inline_body_quarantines_the_reflection():
    text = (
        "Pasted by mistake: -----BEGIN EC PRIVATE KEY----- MHcCAQEEIBy7kQ2r "
        "-----END EC PRIVATE KEY----- while debugging TLS."
    )
    findings = scan_reflection(text, {})
    assert SECRET in {f.category for f in findings}
    assert "MHcCAQEEIBy7kQ2r" not in mask(text, findings)


def test_a_key_header_with_a_placeholder_body_is_not_a_finding():
    text = "A key file starts -----BEGIN EC PRIVATE KEY----- ... -----END EC PRIVATE KEY-----."
    assert SECRET not in _categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "Fallback resolvers are Google's 8.8.8.8 and 8.8.4.4.",
        "We pointed the container at Cloudflare's 1.1.1.1 and Quad9's 9.9.9.9.",
        "OpenDNS answers on 208.67.222.222.",
        "The in-cluster client talks to https://kubernetes.default.svc by default.",
        "jwt.io's sample eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c decodes to John Doe.",
    ],
)
def test_well_known_public_values_are_never_findings(text):
    assert scan_text(text) == []


def test_an_address_next_to_a_public_resolver_is_still_found():
    text = "The VPN egress 18.8.8.81 used 8.8.8.8 for DNS."
    spans = {text[f.start : f.end] for f in scan_text(text)}
    assert spans == {"18.8.8.81"}


def test_every_allowed_public_value_is_commented_in_its_module():
    from pathlib import Path

    import reflections.scanning.public_values as module

    source = Path(module.__file__).read_text()
    for value in PUBLIC_VALUES:
        if len(value) < 40:  # the tokens are written in pieces, commented above them
            line = next(line for line in source.splitlines() if f'"{value}"' in line)
            assert "#" in line, value


@pytest.mark.parametrize(
    "text",
    [
        '{"department": "Customer Care (escalations: Sophie Lambert, 06 03 20 12 83)", "x": 1}',
        "---\ndepartment: Customer Care (escalations: Sophie Lambert, 06 03 20 12 83)\n---\nbody",
    ],
)
def test_a_short_field_that_markers_would_overgrow_is_masked_as_its_markers_alone(text):
    findings = scan_reflection(text, {})
    masked = masked_source(text, findings)
    assert "Sophie" not in masked and "06 03" not in masked
    assert '"[REDACTED:personal]"' in masked
    assert "Customer Care" not in masked  # the whole value, or it would outgrow 64 characters


def test_a_short_field_with_a_marker_that_still_fits_keeps_its_words():
    text = '{"agent": "ops bot 06 03 20 12 83", "text": "call 06 03 20 12 83 phone"}'
    masked = masked_source(text, scan_reflection(text, {}))
    assert "06 03" not in masked
    assert '"agent": "ops bot [REDACTED:' in masked


def test_a_masked_value_too_long_for_its_column_is_its_markers_never_half_a_marker():
    value = "ops (" + ", ".join(["[REDACTED:personal]", "[REDACTED:secret]"] * 4) + ")"
    assert fitted_value(value, 64) == "[REDACTED:secret+personal]"
    assert fitted_value("a" * 70, 64) == "a" * 64
    assert fitted_value("short [REDACTED:secret]", 64) == "short [REDACTED:secret]"
