"""What the demo seeding tests share: a small demo workspace written once per module."""

from __future__ import annotations

from pathlib import Path

import pytest

from demo.workspace import write_workspace


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("small-demo")
    write_workspace(root, scale="small")
    return root
