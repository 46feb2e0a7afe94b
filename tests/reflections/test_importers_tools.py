"""Tool and API names in reflection text: precise enough to flag outdated lessons."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reflections.importers.tools import MAX_TOOLS, extract_tools
from tests.conftest import SAMPLES


def sample(path: str) -> str:
    return (SAMPLES / path).read_text()


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("memory/reflections/researcher-agent/2026-03-01-api-timeout-handling.md",
         ["fetch", "rendered-page"]),
        ("memory/reflections/researcher-agent/2026-03-04-partial-citation-check.md", []),
        ("memory/reflections/researcher-agent/2026-03-12-choose-data-source.md", []),
        ("memory/reflexions/2026-05/14-fin-20260514-0031.md", ["wise", "isinternaltransfer"]),
        ("memory/reflexions/2026-05/21-sal-20260521-0107.md", []),
    ],
)  # fmt: skip
def test_sample_markdown_names_exactly_these_tools(path, expected):
    assert extract_tools(sample(path)) == expected


def test_episodic_sample_names_the_method_it_called():
    data = json.loads(sample(".aiwg/ralph/reflections/ralph-task-123/001.json"))
    assert extract_tools(data["self_reflection"]["reflection_text"]) == ["map", "userdata"]


def test_heuristic_sample_names_its_tools():
    [first, _] = sample("heuristics/gaia2-universe-27.jsonl").splitlines()
    assert extract_tools(first) == ["email", "contacts"]


@pytest.mark.parametrize(
    "text",
    [
        "Change the tool or the budget first.",
        "I picked a different tool, then the same tool, then another tool.",
        "Guard every API response; the API was slow.",
        "Use the REST API or a public API.",
        "If no edit API exists, create the replacement first.",
        "Billing export is the better source.",
        "Call `the whole thing` and read `src/auth/login.ts` and `config.yaml`.",
        "Check the reflection(s) before the run.",
    ],
)
def test_generic_words_and_prose_are_not_tools(text):
    assert extract_tools(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Call the Stripe API before the charge.", ["stripe"]),
        ("While reconciling the May Wise export, I failed.", ["wise"]),
        ("Ran the gh CLI and then the HubSpot webhook.", ["gh", "hubspot"]),
        ("Use `send_email` with the `/v1/charges` endpoint.", ["send_email", "/v1/charges"]),
        ("Use requests.get(url), fetch_page() or .map()", ["requests.get", "fetch_page", "map"]),
        ("Set isInternalTransfer before the ledger rule.", ["isinternaltransfer"]),
        ("The search tool beat the browse tool.", ["search", "browse"]),
    ],
)  # fmt: skip
def test_strong_signals_are_tools(text, expected):
    assert extract_tools(text) == expected


def test_tools_are_lowercased_deduplicated_and_in_order_of_first_mention():
    text = "The Search tool failed; `search` again; then the email tool and the search tool."
    assert extract_tools(text) == ["search", "email"]


def test_at_most_twelve_tools_are_kept():
    text = " ".join(f"the tool{i} tool" for i in range(20))
    assert extract_tools(text) == [f"tool{i}" for i in range(MAX_TOOLS)]


WORDS = [
    "the", "a", "tool", "API", "endpoint", "export", "CLI", "Wise", "gh", "`x_y`", "`a b`",
    "foo()", ".map()", "isThing", "/v1/a", "Stripe", ".", "\n", "-", "(s)", "Fetch", "é",
]  # fmt: skip


@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=40).map(" ".join))
def test_every_tool_is_taken_from_the_text_itself(text):
    tools = extract_tools(text)
    assert len(tools) <= MAX_TOOLS
    assert len(tools) == len(set(tools))
    for tool in tools:
        assert tool == tool.lower()
        assert tool in text.lower()
