"""Fixtures of the review tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def workspace(tmp_path, samples) -> Path:
    """A private copy of the sample inputs: the files write-back may change."""
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    return ws


# The duplicate guard's department, for its service and page tests.
from tests.reviews.guard_support import world  # noqa: E402, F401
