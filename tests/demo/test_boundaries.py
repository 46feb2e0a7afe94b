"""The demo app stays outside the product: no product module imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT_APPS = ("reflexion_site", "reflections", "reviews", "rubric", "insights")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """No database here: replace the project-wide Django settings fixture."""


@pytest.mark.parametrize("app", PRODUCT_APPS)
def test_no_product_module_imports_the_demo(app):
    modules = sorted((ROOT / app).rglob("*.py"))
    assert modules
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name for name in imported_modules(path) if name == "demo" or name.startswith("demo.")
        )
        for path in modules
    }
    assert {path: names for path, names in offenders.items() if names} == {}
