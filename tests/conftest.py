"""Fixtures shared by every test module."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
SAMPLES = SHARED / "samples"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def samples() -> Path:
    assert SAMPLES.is_dir(), f"shared samples are missing at {SAMPLES}"
    return SAMPLES
