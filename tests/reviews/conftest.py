"""Fixtures of the review tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.factories import DepartmentFactory, UserFactory


@pytest.fixture
def workspace(tmp_path, samples) -> Path:
    """A private copy of the sample inputs: the files write-back may change."""
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    return ws


@pytest.fixture
def sales():
    return DepartmentFactory(slug="sales", name="Sales")


@pytest.fixture
def ana(sales):
    """A reviewer of Sales."""
    return UserFactory(username="ana", roles=["reviewer"], departments=[sales])


# The duplicate guard's department, for its service and page tests.
from tests.reviews.guard_support import world  # noqa: E402, F401
