"""Write-back as pure text edits, per format: the keys go in (and come out again) without
disturbing anything else the author wrote; twice is once."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from reviews.writeback.deprecation import Deprecation, WriteBackUnsupported
from reviews.writeback.episodic import restore_episodic, write_back_episodic
from reviews.writeback.formats import restore_text, write_back_text, written_back_keys
from reviews.writeback.markdown import (
    restore_frontmatter,
    restore_protocol,
    write_back_frontmatter,
    write_back_protocol,
)
from tests.reviews.writeback_support import (
    DEPRECATIONS,
    EPISODIC,
    FORMATS,
    FRONTMATTER,
    ORIGINAL,
    PROTOCOL,
)

# --------------------------------------------------------------------------- pure writers


def test_front_matter_gains_the_keys_after_every_other_key_it_keeps(samples):
    text = (samples / FRONTMATTER).read_text()

    written = write_back_frontmatter(text, Deprecation("outdated"))

    front, body = written.split("\n---\n", 1)
    assert front.split("\n")[-2:] == ["deprecated_reason: outdated", "archived: true"]
    # Every original line is still there, in order, and the body is byte for byte the same.
    assert front.split("\n")[:-2] == text.split("\n---\n", 1)[0].split("\n")
    assert body == text.split("\n---\n", 1)[1]
    meta = yaml.safe_load(front.removeprefix("---\n"))
    assert meta["deprecated_reason"] == "outdated"
    assert meta["archived"] is True
    assert meta["tags"] == ["wise", "internal-transfer", "classification"]


def test_a_duplicate_names_the_original_by_its_source_path(samples):
    text = (samples / FRONTMATTER).read_text()

    written = write_back_frontmatter(text, Deprecation("duplicate", ORIGINAL))

    meta = yaml.safe_load(written.split("\n---\n", 1)[0].removeprefix("---\n"))
    assert meta["deprecated_reason"] == "duplicate"
    assert meta["duplicate_of"] == ORIGINAL


def test_a_changed_verdict_replaces_the_reason_and_drops_a_stale_duplicate_of(samples):
    once = write_back_frontmatter(
        (samples / FRONTMATTER).read_text(), Deprecation("duplicate", ORIGINAL)
    )

    again = write_back_frontmatter(once, Deprecation("echo_chamber"))

    meta = yaml.safe_load(again.split("\n---\n", 1)[0].removeprefix("---\n"))
    assert meta["deprecated_reason"] == "echo_chamber"
    assert "duplicate_of" not in meta
    assert again == write_back_frontmatter(
        (samples / FRONTMATTER).read_text(), Deprecation("echo_chamber")
    )


def test_existing_keys_are_edited_in_place_keeping_comments():
    text = (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "archived: false  # decay said so\n"
        "tags:\n"
        "- wise\n"
        "- ledger\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )

    written = write_back_frontmatter(text, Deprecation("outdated"))

    assert written == (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "archived: true  # decay said so\n"
        "tags:\n"
        "- wise\n"
        "- ledger\n"
        "deprecated_reason: outdated\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )


def test_a_value_yaml_would_misread_is_quoted():
    written = write_back_frontmatter(
        "---\noutcome: failure\n---\nbody\n", Deprecation("duplicate", "memory/x: y #1.md")
    )

    meta = yaml.safe_load(written.split("\n---\n", 1)[0].removeprefix("---\n"))
    assert meta["duplicate_of"] == "memory/x: y #1.md"


def test_front_matter_this_edit_cannot_change_safely_is_unsupported_not_mangled():
    flow = "---\n{outcome: failure, tags: [a]}\n---\nbody\n"

    with pytest.raises(WriteBackUnsupported, match="add the keys by hand"):
        write_back_frontmatter(flow, Deprecation("outdated"))


def test_protocol_markdown_gains_a_front_matter_block_above_the_h1(samples):
    text = (samples / PROTOCOL).read_text()

    written = write_back_protocol(text, Deprecation("outdated"))

    assert written == "---\ndeprecated_reason: outdated\narchived: true\n---\n" + text


def test_episodic_json_gains_top_level_keys_in_the_files_own_style(samples):
    text = (samples / EPISODIC).read_text()

    written = write_back_episodic(text, Deprecation("duplicate", ORIGINAL))

    data = json.loads(written)
    original = json.loads(text)
    assert list(data) == [*original, "deprecated_reason", "archived", "duplicate_of"]
    assert {k: data[k] for k in original} == original
    # The members before are untouched (one-line arrays stay on one line); ours follow them
    # with the same two-space indentation and ": ".
    head, tail = written.rsplit("  },\n", 1)
    assert text.startswith(head)
    assert tail == (
        '  "deprecated_reason": "duplicate",\n'
        '  "archived": true,\n'
        f'  "duplicate_of": "{ORIGINAL}"\n'
        "}\n"
    )


def test_compact_json_stays_compact():
    written = write_back_episodic('{"iteration":0,"x":[1, 2]}', Deprecation("outdated"))

    assert written == '{"iteration":0,"x":[1, 2],"deprecated_reason":"outdated","archived":true}'


def test_json_keys_already_present_change_value_in_place():
    text = '{\n  "archived": false,\n  "iteration": 3,\n  "duplicate_of": "a.md"\n}\n'

    written = write_back_episodic(text, Deprecation("echo_chamber"))

    assert written == (
        '{\n  "archived": true,\n  "iteration": 3,\n  "deprecated_reason": "echo_chamber"\n}\n'
    )


def test_heuristic_jsonl_is_unsupported_with_a_reason():
    with pytest.raises(WriteBackUnsupported, match="one per line"):
        write_back_text(
            '{"scenario_id": "s"}\n', fmt="heuristic_jsonl", deprecation=Deprecation("outdated")
        )


@pytest.mark.parametrize(
    ("path", "fmt"),
    [(FRONTMATTER, "frontmatter_md"), (PROTOCOL, "protocol_md"), (EPISODIC, "episodic_json")],
)
@pytest.mark.parametrize(
    "deprecation", [Deprecation("outdated"), Deprecation("duplicate", ORIGINAL)], ids=str
)
def test_writing_back_twice_gives_the_same_text(samples, path, fmt, deprecation):
    once = write_back_text((samples / path).read_text(), fmt=fmt, deprecation=deprecation)

    assert write_back_text(once, fmt=fmt, deprecation=deprecation) == once


_scalars = st.one_of(
    st.booleans(),
    st.integers(-1000, 1000),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20),
)
_keys = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
_meta = st.dictionaries(_keys, st.one_of(_scalars, st.lists(_scalars, max_size=3)), max_size=6)
_deprecations = st.one_of(
    st.sampled_from([Deprecation("outdated"), Deprecation("echo_chamber")]),
    st.builds(
        lambda p: Deprecation("duplicate", p),
        st.from_regex(r"[a-z0-9/._ #:-]{1,30}", fullmatch=True),
    ),
)


@given(meta=_meta, deprecation=_deprecations, block_style=st.booleans())
def test_any_front_matter_keeps_its_keys_and_gains_the_deprecation_once(
    meta, deprecation, block_style
):
    front = yaml.safe_dump(meta, sort_keys=False, default_flow_style=False if block_style else None)
    text = f"---\n{front}---\n## What happened?\nbody\n"
    try:
        written = write_back_frontmatter(text, deprecation)
    except WriteBackUnsupported:
        return  # refusing is allowed; a wrong edit is not

    loaded = yaml.safe_load(written.split("\n---\n", 1)[0].removeprefix("---\n"))
    expected = dict(meta, **deprecation.keys())
    if not deprecation.duplicate_of:
        expected.pop("duplicate_of", None)
    assert loaded == expected
    assert written.endswith("---\n## What happened?\nbody\n")
    assert write_back_frontmatter(written, deprecation) == written


# --------------------------------------------------------------------------- restoring: pure


@pytest.mark.parametrize(("path", "fmt"), FORMATS)
@pytest.mark.parametrize("deprecation", DEPRECATIONS, ids=str)
def test_restoring_gives_back_exactly_the_text_before_write_back(samples, path, fmt, deprecation):
    text = (samples / path).read_text()
    written = write_back_text(text, fmt=fmt, deprecation=deprecation)

    restored = restore_text(written, fmt=fmt)

    assert restored == text
    assert written_back_keys(restored, fmt=fmt) == {}
    assert restore_text(restored, fmt=fmt) == restored  # restoring twice is restoring once


@pytest.mark.parametrize(("path", "fmt"), FORMATS)
def test_text_never_written_back_is_left_as_it_is(samples, path, fmt):
    text = (samples / path).read_text()

    assert restore_text(text, fmt=fmt) == text


def test_front_matter_loses_only_the_write_back_lines():
    text = (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "deprecated_reason: duplicate\n"
        "tags:\n"
        "- wise\n"
        "archived: true  # decay said so\n"
        "duplicate_of: 'memory/x: y.md'\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )

    assert restore_frontmatter(text) == (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "tags:\n"
        "- wise\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )


def test_keys_named_in_keep_stay():
    text = "---\noutcome: failure\narchived: true\ndeprecated_reason: outdated\n---\nbody\n"

    assert restore_frontmatter(text, keep=("archived",)) == (
        "---\noutcome: failure\narchived: true\n---\nbody\n"
    )
    assert restore_episodic(
        '{"a": 1, "archived": true, "deprecated_reason": "outdated"}', keep=("archived",)
    ) == ('{"a": 1, "archived": true}')


def test_a_protocol_block_goes_as_a_whole_and_one_with_other_keys_is_unsupported():
    body = "# Reflection: 2026-03-12 - researcher-agent - x\n\n## What happened?\nA.\n"

    assert restore_protocol("---\narchived: true\ndeprecated_reason: outdated\n---\n" + body) == (
        body
    )
    with pytest.raises(WriteBackUnsupported, match="never writes"):
        restore_protocol("---\ndeprecated_reason: outdated\nowner: ana\n---\n" + body)


def test_json_members_go_with_their_separator_wherever_they_are():
    text = '{\n  "archived": true,\n  "iteration": 3,\n  "deprecated_reason": "outdated"\n}\n'

    assert restore_episodic(text) == '{\n  "iteration": 3\n}\n'
    assert restore_episodic('{"deprecated_reason":"outdated","archived":true}') == "{}"
    assert restore_episodic('{"iteration":0,"deprecated_reason":"outdated","archived":true}') == (
        '{"iteration":0}'
    )


def test_a_flow_front_matter_is_unsupported_not_mangled():
    with pytest.raises(WriteBackUnsupported, match="remove these keys by hand"):
        restore_frontmatter("---\n{outcome: failure, deprecated_reason: outdated}\n---\nbody\n")


@given(meta=_meta, deprecation=_deprecations, block_style=st.booleans())
def test_any_front_matter_written_back_restores_to_itself(meta, deprecation, block_style):
    meta = {k: v for k, v in meta.items() if k not in ("deprecated_reason", "archived")}
    meta.pop("duplicate_of", None)
    front = yaml.safe_dump(meta, sort_keys=False, default_flow_style=False if block_style else None)
    text = f"---\n{front}---\n## What happened?\nbody\n"
    try:
        written = write_back_frontmatter(text, deprecation)
    except WriteBackUnsupported:
        return

    assert restore_frontmatter(written) == text
