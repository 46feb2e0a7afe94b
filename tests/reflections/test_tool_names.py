"""Tool names in any written form (reflections/tool_names.py): one key per name, all of a
department's names found in one pass, the longer name winning where two match."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reflections.tool_names import ToolMatcher, family_of, key_of

VOCABULARY = ["ledger-api-v1", "ledger-api-v2", "tms-classic", "CarrierQuote", "luigi", "csv"]


@pytest.mark.parametrize(
    "text",
    [
        "I followed the runbook in ledger-api-v1.",
        "I followed the runbook in `ledger-api-v1`.",
        "The Ledger API v1 timed out twice.",
        "ledger_api v1 returned a 502",
        "LEDGER-API-V1 is flaky on Mondays",
        "see ledger api v1's docs",
    ],
)
def test_a_versioned_name_is_found_in_every_common_form(text):
    assert ToolMatcher(VOCABULARY).keys_in(text) == ["ledger api v1"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Plan the route in tms-classic v4 before noon.", "tms classic"),
        ("TMS-CLASSIC dropped the stop.", "tms classic"),
        ("the TmsClassic export", "tms classic"),
        ("asked carrierquote API v1 for a rate", "carrierquote"),
        ("CarrierQuote was slow", "carrierquote"),
        ("luigi 3.x scheduled it twice", "luigi"),
    ],
)
def test_a_name_with_a_version_or_word_after_it_is_still_the_name(text, key):
    assert ToolMatcher(VOCABULARY).keys_in(text) == [key]


def test_a_family_named_without_a_version_is_the_family():
    matcher = ToolMatcher(VOCABULARY)
    assert "ledger api" in matcher.keys
    assert matcher.keys_in("the ledger API was slow") == ["ledger api"]


def test_names_are_found_at_word_boundaries_only():
    matcher = ToolMatcher(VOCABULARY)
    assert matcher.keys_in("the luigiX fork and a pluigi plugin") == []
    assert matcher.keys_in("multms-classical") == []


def test_generic_nouns_and_tiny_names_are_never_tools():
    matcher = ToolMatcher([*VOCABULARY, "db", "email"])
    assert matcher.keys_in("exported a csv and sent an email from the db") == []


def test_every_name_of_a_text_comes_once_in_order_of_mention():
    text = "luigi fed tms-classic, then luigi again and TMS classic once more; CarrierQuote"
    assert ToolMatcher(VOCABULARY).keys_in(text) == ["luigi", "tms classic", "carrierquote"]


def test_keys_and_families():
    assert key_of("Ledger_API v1") == "ledger api v1"
    assert family_of("ledger api v1") == "ledger api"
    assert family_of("luigi 3 x") == "luigi"
    assert family_of("luigi") is None
    assert family_of("v2") is None


@given(st.sampled_from(VOCABULARY[:5]), st.sampled_from(["-", "_", " "]), st.booleans())
def test_any_separator_and_case_name_the_same_tool(name, separator, upper):
    written = name.replace("-", separator)
    written = written.upper() if upper else written
    assert ToolMatcher(VOCABULARY).keys_in(f"we used {written} today")[0] == key_of(name)


PHARMACY = ["interax-4", "interax-5", "cvparse-v2", "docsense", "carrierquote", "dockplan"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Force a profile refresh in interax v4 before screening.", "interax 4"),
        ("Interax-V4 timed out", "interax 4"),
        ("interax 5 is faster", "interax 5"),
        ("The Ledger API 1 timed out twice.", "ledger api v1"),
    ],
)
def test_a_version_written_with_or_without_its_v_names_that_version_not_the_family(text, key):
    # The family "interax" lives on in interax-5: read as the family, a lesson that names
    # version 4 could never be outdated.
    assert ToolMatcher([*PHARMACY, *VOCABULARY]).keys_in(text) == [key]


@pytest.mark.parametrize(
    "text",
    ["the cv-parse 2 profile", "CV parse v2 dropped it", "cv_parse 2", "the cvparse-v2 extractor"],
)
def test_a_one_word_name_hyphenated_after_a_short_prefix_is_the_name(text):
    assert ToolMatcher(PHARMACY).keys_in(text) == ["cvparse v2"]


def test_a_one_word_name_split_into_two_long_words_or_a_stop_word_is_prose():
    matcher = ToolMatcher([*PHARMACY, "onboarding"])
    assert matcher.keys_in("ask for a carrier quote from the dock plan") == []
    assert matcher.keys_in("once on boarding the van") == []


def test_an_alias_is_found_as_the_tool_it_stands_for():
    aliases = {"medstock": "medstock classic"}
    matcher = ToolMatcher(["medstock-classic", "medstock"], aliases=aliases)
    assert matcher.keys_in("The Medstock vault balance report") == ["medstock classic"]
    assert matcher.key_for("MedStock") == "medstock classic"
    assert "medstock" not in matcher.keys


def test_an_alias_of_no_tool_of_the_vocabulary_is_ignored():
    matcher = ToolMatcher(["rxstock"], aliases={"medstock": "medstock classic"})
    assert matcher.keys_in("the Medstock report") == []
    assert matcher.key_for("medstock") is None


def test_a_first_word_written_as_a_product_name_names_the_one_tool_it_begins():
    matcher = ToolMatcher(["talentlink-ats", "hirewell-ats", "court-efile", "tms-classic"])
    assert matcher.keys_in("whenever a requisition is drafted in TalentLink") == ["talentlink ats"]
    assert matcher.keys_in("TalentLink and the talentlink-ats export") == ["talentlink ats"]


def test_a_first_word_in_plain_prose_or_shared_by_two_tools_is_not_a_tool():
    matcher = ToolMatcher(["talentlink-ats", "court-efile", "tms-classic", "tms-cloud"])
    assert matcher.keys_in("filed with the court before noon; the talentlink team") == []
    assert matcher.keys_in("planned in TmsCloud") == ["tms cloud"]  # the whole name, run together
    assert matcher.keys_in("planned in the TMS") == []
