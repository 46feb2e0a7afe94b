"""Fixtures of the memory's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def workspace(tmp_path, samples) -> Path:
    """A private copy of the sample inputs, so tests may change files (a test module may define
    its own workspace fixture instead)."""
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    return ws
