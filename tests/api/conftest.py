"""Fixtures of the API tests: tokens of each scope, a client that sends one, the samples as
request bodies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client

from api.security import LOCAL_WINDOWS
from api.services.tokens import create_token
from tests.factories import DepartmentFactory


class ApiClient:
    """A test client that sends a bearer token and JSON."""

    def __init__(self, token: str | None):
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params):
        return self.client.get(f"/api/v1{path}", params, headers=self.headers)

    def post(self, path: str, body, **kwargs):
        data = body if isinstance(body, bytes | str) else json.dumps(body)
        return self.client.post(
            f"/api/v1{path}",
            data,
            content_type="application/json",
            headers=self.headers,
            **kwargs,
        )


@pytest.fixture(autouse=True)
def _fresh_rate_counts():
    cache.clear()
    LOCAL_WINDOWS.clear()


@pytest.fixture
def ingest_token(db) -> str:
    return create_token(name="orchestrator", scope="ingest")[1]


@pytest.fixture
def retrieve_token(db) -> str:
    return create_token(name="runtime", scope="retrieve")[1]


@pytest.fixture
def ingest(ingest_token) -> ApiClient:
    return ApiClient(ingest_token)


@pytest.fixture
def runtime(retrieve_token) -> ApiClient:
    return ApiClient(retrieve_token)


@pytest.fixture
def departments(db):
    return {s: DepartmentFactory(slug=s, name=s.title()) for s in ("finance", "delivery", "sales")}


def files_of(root: Path, *relative: str) -> list[dict]:
    """Files of the samples as the API takes them: workspace-relative path and text."""
    return [{"path": r, "content": (root / r).read_text()} for r in relative]


def records_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def workspace_copy(tmp_path, samples) -> Path:
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    return ws
