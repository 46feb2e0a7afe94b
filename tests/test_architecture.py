"""The layout keeps its promises: arrows between apps point one way, no two modules import each
other (directly or round a loop), the product never imports the demo, and modules stay small."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "reflections",
    "reviews",
    "rubric",
    "insights",
    "api",
    "accounts",
    "webhooks",
    "demo",
    "reflexion_site",
)
# Which apps each app may import. The memory knows nothing of the people who audit, rate or
# chart it; the demo is never imported by the product; reflexion_site holds the settings and
# the URL map (which wires every app) and small helpers every app may use.
ALLOWED = {
    "reflections": {"reflexion_site"},
    "reviews": {"reflections", "reflexion_site"},
    "rubric": {"reflections", "reflexion_site"},
    "insights": {"reflections", "reviews", "rubric", "reflexion_site"},
    # The agents' API: imports into the memory, answers from it; only the URL map imports it.
    "api": {"reflections", "reviews", "reflexion_site"},
    # Sign-in protection: reads the roles (reflections.access); only the URL map imports it.
    "accounts": {"reflections", "reflexion_site"},
    # Signed webhooks: listens to the memory's and the review's announcements (Django signals
    # they send without knowing who listens); only the URL map imports it.
    "webhooks": {"reflections", "reviews", "reflexion_site"},
    "demo": {"reflections", "reviews", "rubric", "insights", "reflexion_site"},
    "reflexion_site": set(),
}
# The composition root: the URL map includes every app's pages.
WIRING = {"reflexion_site.urls"}
MAX_LINES = 420  # "about 400": a module a newcomer can hold in their head
BENCH_OUT = ROOT / "bench/out"  # generated: workspaces, the peer's venv (bench/peer.py)


def modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports_of(path: Path, name: str, *, top_level_only: bool) -> set[str]:
    """Modules `path` imports (absolute names), at module level only or anywhere."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


MODULES = modules()


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_module_imports_only_the_apps_its_app_may_use(name):
    app = name.split(".")[0]
    if name in WIRING:
        return
    used = {m.split(".")[0] for m in imports_of(MODULES[name], name, top_level_only=False)}
    forbidden = (used & set(APPS)) - ALLOWED[app] - {app}
    assert not forbidden, f"{name} imports {sorted(forbidden)}; {app} may use {ALLOWED[app]}"


def test_no_module_import_loop_lazy_or_not():
    """An import inside a function counts: a loop hidden that way still ties two modules."""
    graph = {
        name: {m for m in imports_of(path, name, top_level_only=False) if m in MODULES} - {name}
        for name, path in MODULES.items()
    }
    loops = []
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            # A package's __init__ importing its own submodules is how a package re-exports.
            if node == nxt.rpartition(".")[0]:
                continue
            if state.get(nxt) == 1:
                loops.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not loops, "import loops: " + "; ".join(" → ".join(loop) for loop in loops)


@pytest.mark.parametrize(
    "path",
    sorted(
        p
        for p in [
            *MODULES.values(),
            *(ROOT / "tests").rglob("*.py"),
            *(ROOT / "bench").rglob("*.py"),
            *(ROOT / "clients").rglob("*.py"),  # the API's clients, their tests and examples
        ]
        if "migrations" not in p.parts
        and BENCH_OUT not in p.parents
        and not {"build", ".venv"} & set(p.relative_to(ROOT).parts)
    ),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_each_module_is_small_and_says_what_it_owns(path):
    text = path.read_text()
    lines = text.count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines (at most {MAX_LINES})"
    if text.strip():
        docstring = ast.get_docstring(ast.parse(text))
        assert docstring, f"{path.relative_to(ROOT)} does not open with a line saying what it owns"


def test_the_python_client_stands_alone():
    """It is installed on its own, by agents' runtimes: it imports none of the project's apps."""
    sources = sorted((ROOT / "clients/python/src").rglob("*.py"))
    assert sources, "the Python client's sources are missing"
    used = {
        str(path.relative_to(ROOT)): sorted(
            {m.split(".")[0] for m in imports_of(path, "", top_level_only=False)} & set(APPS)
        )
        for path in sources
    }
    assert not {path: apps for path, apps in used.items() if apps}


def test_no_module_hides_behind_a_package_of_the_same_name():
    shadowed = [
        str(init.parent.relative_to(ROOT)) + ".py"
        for app in APPS
        for init in (ROOT / app).rglob("__init__.py")
        if init.parent.with_suffix(".py").exists()
    ]
    assert not shadowed, f"packages shadow these modules: {shadowed}"


def where_is_paths() -> list[str]:
    """Every file or folder README.md's "Where is …" table names; a bare name continues the
    folder of the path before it in the same cell ("rollups.py, `task_rollup.py`")."""
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Where is", 1)[1].split("\n## ", 1)[0]
    found = []
    for row in table.splitlines():
        cells = row.split("|")
        if len(cells) < 4 or set(cells[2].strip()) <= {"-", " "}:
            continue
        folder = ""
        for name in re.findall(r"`([^`\s]+)`", cells[2]):
            if "<" in name or not re.search(r"[/.]", name):
                continue  # a pattern (templates/<app>/) or a symbol (`typed`)
            if "/" in name:
                folder = name.rsplit("/", 1)[0] if "." in name.rsplit("/", 1)[-1] else name
                found.append(name)
            elif folder:
                found.append(f"{folder.rstrip('/')}/{name}")
    return found


@pytest.mark.parametrize("path", where_is_paths())
def test_every_place_the_readme_points_a_newcomer_to_exists(path):
    candidates = [ROOT / path, ROOT / "clients/python" / path]
    assert any(c.exists() for c in candidates), path
