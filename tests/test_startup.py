"""What a process pays to start: the heavy libraries are imported where they are used, not
when Django starts or loads its URLs (issue 29: scikit-learn's metrics alone held 119 MiB of
every web worker and most of a command's start-up)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# requests: detect-secrets imports it for online checks the scanner never makes (9 MiB).
HEAVY = ("sklearn", "scipy", "altair", "krippendorff", "jsonschema", "requests")

PROBE = f"""
import json, sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns
from django.core.management import get_commands, load_command_class
load_command_class("reflections", "import_reflections")
print(json.dumps([name for name in {HEAVY!r} if name in sys.modules]))
"""


def test_starting_django_and_loading_every_url_and_command_imports_no_heavy_library():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reflexion_site.settings"}
    out = subprocess.run(  # noqa: S603 (the running interpreter, a fixed probe)
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []


def test_the_stop_words_read_without_scikit_learn_are_scikit_learns():
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from reflections.selectors.retrieval_text import ENGLISH_STOP_WORDS as read

    assert read == ENGLISH_STOP_WORDS


# A folder that does not exist: the command fails in its handle(), after the checks it runs.
IMPORT_PROBE = """
import json, sys
import django
django.setup()
from django.core.management import execute_from_command_line
try:
    execute_from_command_line(["manage.py", "import_reflections", "/no/such/folder"])
except SystemExit:
    pass
print("views loaded" if "reviews.views.queue" in sys.modules else "views not loaded")
print(json.dumps([name for name in ("ninja", "pydantic", "numpy") if name in sys.modules]))
"""


def test_an_import_command_does_not_load_the_sites_views_to_check_them():
    """The system checks load every URL and view (~0.5 s); data commands skip them."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reflexion_site.settings"}
    out = subprocess.run(  # noqa: S603 (the running interpreter, a fixed probe)
        [sys.executable, "-c", IMPORT_PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    ).stdout
    assert out.strip().splitlines()[-2] == "views not loaded"


def test_an_import_command_loads_neither_the_api_library_nor_numpy():
    """ninja and pydantic serve the API's URLs only, NumPy the similarity code: ~0.2 s of
    every command's start when they were loaded with the apps."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "reflexion_site.settings"}
    out = subprocess.run(  # noqa: S603 (the running interpreter, a fixed probe)
        [sys.executable, "-c", IMPORT_PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []


def test_make_install_compiles_every_package_of_the_project_ahead():
    """Where PYTHONDONTWRITEBYTECODE is set, a package missing from the Makefile's PACKAGES
    would be compiled again by every process that starts."""
    makefile = (ROOT / "Makefile").read_text()
    listed = next(line for line in makefile.splitlines() if line.startswith("PACKAGES :="))
    packages = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name != "tests"  # pytest compiles the tests itself (assertion rewriting)
    }
    assert set(listed.split(":=")[1].split()) == packages
    assert "compileall" in makefile.split("install: $(VENV)/.installed")[1].splitlines()[1]
