"""Each gunicorn worker, once it has loaded the app, takes the objects it holds out of the
garbage collector's sight: no request pays for a full collection walking Django's objects."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# In a process of its own: freezing the test runner's objects would change every other test.
PROBE = """
import gc, json, runpy
from gunicorn.config import Config
config = Config()
for name, value in runpy.run_path("gunicorn.conf.py").items():
    if name in config.settings:
        config.set(name, value)  # as gunicorn loads the file, its checks included
garbage = [[]]
garbage[0].append(garbage)  # a cycle start-up left behind
del garbage
before = gc.get_freeze_count()
config.post_worker_init(None)
print(json.dumps({"before": before, "frozen": gc.get_freeze_count(), "left": gc.collect()}))
"""


def test_a_worker_collects_then_freezes_what_it_holds_once_started():
    out = subprocess.run(  # noqa: S603 (the running interpreter, a fixed probe)
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    seen = json.loads(out.strip().splitlines()[-1])

    assert seen["frozen"] > seen["before"] + 1000  # gunicorn's and the probe's objects
    assert seen["left"] == 0  # the cycle was collected first, not frozen
