"""Fixtures shared by every test module."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests.factories import (
    DepartmentFactory,
    ReflectionFactory,
    ReflectionHistoryFactory,
    UserFactory,
)

# Hypothesis' deadline is a timing assertion: on a loaded CI machine it fails tests that are right.
hypothesis_settings.register_profile("project", deadline=None)
hypothesis_settings.load_profile("project")

# The example inputs in every format that ship with the project (README: samples/).
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _factory_dates_count_from_each_test():
    """A reflection's default date is 2026-03-01 plus an hour for each one made before it. Counted
    over a whole worker's run it passed today after about 6,500, and a retrieval, which skips
    lessons written in the future, then answered nothing: every test counts from the start."""
    ReflectionFactory.reset_sequence()
    ReflectionHistoryFactory.reset_sequence()


@pytest.fixture(autouse=True)
def _charts_validated(settings):
    """Every chart a test builds is checked against the Vega-Lite schema (pages skip it)."""
    settings.CHARTS_VALIDATE = True


@pytest.fixture
def samples() -> Path:
    assert SAMPLES.is_dir(), f"the sample inputs are missing at {SAMPLES}"
    return SAMPLES


# The Sales department and its reviewer ana, as the review tests and the queue's browser tests
# use them (a module may define its own).
@pytest.fixture
def sales():
    return DepartmentFactory(slug="sales", name="Sales")


@pytest.fixture
def ana(sales):
    """A reviewer of Sales."""
    return UserFactory(username="ana", roles=["reviewer"], departments=[sales])
