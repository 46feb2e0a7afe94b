"""The API keeps answering when its cache fails (issue 30): the rate limiter counts in the
process instead, logs why, and still answers 429 past the limit; never 500."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
    }
}
ROOT = Path(__file__).resolve().parents[2]
MISSING_TABLE = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "no_such_cache_table",  # as after `migrate` on a database made before 0029
    }
}


@pytest.mark.parametrize("broken", [DEAD_REDIS, MISSING_TABLE], ids=["dead redis", "no table"])
def test_with_the_cache_down_the_api_answers_and_still_limits_the_rate(
    ingest, settings, caplog, broken
):
    settings.CACHES = broken
    settings.API_RATE_LIMIT = 2

    answers = [ingest.post("/tasks", []).status_code for _ in range(3)]

    assert answers == [200, 200, 429]
    assert "rate-limit cache unavailable" in caplog.text


def test_migrate_alone_makes_the_database_caches_table(tmp_path):
    """Django's test runner makes the table itself, so this migrates a database of its own."""
    database = tmp_path / "fresh.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    with sqlite3.connect(database) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert settings.CACHE_TABLE in tables
