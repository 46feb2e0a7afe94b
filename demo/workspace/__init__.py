"""The demo workspace: write_workspace and the names its callers need."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from demo.scales import DEFAULT_START, SCALE_NAMES, SCALES, TODAY
from demo.workspace.formats import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
    FORMATS,
)
from demo.workspace.generator import MARKER, OWNED_PATHS, Generator
from demo.workspace.planting import UNSAFE_KINDS

__all__ = [
    "DEFAULT_START",
    "FORMATS",
    "FORMAT_EPISODIC",
    "FORMAT_FRONTMATTER",
    "FORMAT_HEURISTIC",
    "FORMAT_PROTOCOL",
    "MARKER",
    "OWNED_PATHS",
    "SCALES",
    "SCALE_NAMES",
    "TODAY",
    "UNSAFE_KINDS",
    "write_workspace",
]


def write_workspace(
    out: Path,
    *,
    scale: str = "default",
    seed: int = 7,
    start: date = DEFAULT_START,
    progress: Callable[[str], None] | None = None,
) -> dict:
    """Write a demo workspace under `out` and return what was written and planted.

    The same scale, seed and start always produce the same bytes. Nothing is dated after
    TODAY; a start too late for the scale's weeks shortens the window instead.
    """
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; expected one of {', '.join(SCALE_NAMES)}")
    return Generator(Path(out), SCALES[scale], seed, start, progress).run()
