"""Fixtures of the rollup tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reflections.rollups.support import imported_samples


@pytest.fixture
def workspace(tmp_path, samples) -> Path:
    """The sample inputs' reflections imported, with an empty retrieval log the tests write to."""
    return imported_samples(tmp_path, samples)
