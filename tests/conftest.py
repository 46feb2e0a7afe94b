"""Fixtures shared by every test module."""

from __future__ import annotations

from pathlib import Path

import pytest

# The example inputs in every format that ship with the project (README: samples/).
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def samples() -> Path:
    assert SAMPLES.is_dir(), f"the sample inputs are missing at {SAMPLES}"
    return SAMPLES
