"""Write-back by format: which writer and restorer serve a file, and what a file holds now."""

from __future__ import annotations

from collections.abc import Iterable

from reflections.importers.base import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
    FORMAT_REFLEXION_RUN,
)
from reviews.writeback.deprecation import KEYS, Deprecation, WriteBackUnsupported
from reviews.writeback.episodic import load_json_object, restore_episodic, write_back_episodic
from reviews.writeback.markdown import (
    front_matter_end,
    load_front_matter,
    restore_frontmatter,
    restore_protocol,
    write_back_frontmatter,
    write_back_protocol,
)

# --------------------------------------------------------------------------- restoring


def written_back_keys(text: str, *, fmt: str) -> dict[str, object]:
    """The write-back keys (deprecated_reason, archived, duplicate_of) the text holds now, with
    their values: what `restore_text` would remove."""
    if fmt == FORMAT_EPISODIC:
        current = load_json_object(text)
    elif fmt in (FORMAT_FRONTMATTER, FORMAT_PROTOCOL):
        lines = text.split("\n")
        end = front_matter_end(lines, protocol=fmt == FORMAT_PROTOCOL)
        current = load_front_matter(lines[1:end]) if end else {}
    else:
        raise WriteBackUnsupported(unsupported_reason(fmt))
    return {key: current[key] for key in KEYS if key in current}


# --------------------------------------------------------------------------- dispatch

WRITERS = {
    FORMAT_PROTOCOL: write_back_protocol,
    FORMAT_FRONTMATTER: write_back_frontmatter,
    FORMAT_EPISODIC: write_back_episodic,
}
UNSUPPORTED_REASONS = {
    FORMAT_HEURISTIC: (
        "a heuristic JSONL file holds many lessons, one per line, and its format has no field "
        "for a deprecation; the export (export_deprecations) lists it instead"
    ),
    FORMAT_REFLEXION_RUN: (
        "a Reflexion run's log records what happened in a past run and has no field for a "
        "deprecation; the export (export_deprecations) lists it instead"
    ),
}


def unsupported_reason(fmt: str) -> str:
    return UNSUPPORTED_REASONS.get(fmt, f"write-back does not know the format {fmt!r}")


def write_back_text(text: str, *, fmt: str, deprecation: Deprecation) -> str:
    """The text of a reflection file of format `fmt` with the deprecation written into it."""
    writer = WRITERS.get(fmt)
    if writer is None:
        raise WriteBackUnsupported(unsupported_reason(fmt))
    return writer(text, deprecation)


RESTORERS = {
    FORMAT_PROTOCOL: restore_protocol,
    FORMAT_FRONTMATTER: restore_frontmatter,
    FORMAT_EPISODIC: restore_episodic,
}


def restore_text(text: str, *, fmt: str, keep: Iterable[str] = ()) -> str:
    """The text of a reflection file of format `fmt` without the keys write-back adds
    (deprecated_reason, archived, duplicate_of; those named in `keep` stay): what the file said
    before a deprecation was written back, when write-back added the keys rather than edited
    them. Text holding none of them comes back unchanged, so restoring twice is restoring once.
    """
    restorer = RESTORERS.get(fmt)
    if restorer is None:
        raise WriteBackUnsupported(unsupported_reason(fmt))
    return restorer(text, keep)
