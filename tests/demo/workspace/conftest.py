"""The small and default demo workspaces, generated once per test session and worker."""

from __future__ import annotations

import pytest

from tests.demo.workspace.support import Workspace, generate


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """These tests touch no database: replace the project-wide Django settings fixture."""


@pytest.fixture(scope="session")
def small(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return generate(tmp_path_factory, "small")


@pytest.fixture(scope="session")
def default(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return generate(tmp_path_factory, "default")


@pytest.fixture(params=["small", "default"])
def any_ws(request: pytest.FixtureRequest) -> Workspace:
    return request.getfixturevalue(request.param)
