"""The scanner never imports `requests`, which detect-secrets imports only to verify a secret
online, yet a library that reads it later gets the real module."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

from reflections.scanning.deferred import deferred

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from reflections.scanning import scan_text
found = [f.rule for f in scan_text("the key AKIAIOSFODNN7EXAMPLF leaked")]
loaded = "requests" in sys.modules
import detect_secrets.plugins.base as base
print(json.dumps({
    "found": found,
    "loaded_by_scanning": loaded,
    "read_through_stand_in": base.requests.exceptions.RequestException.__name__,
}))
"""


def test_scanning_finds_a_vendor_key_without_importing_requests():
    out = subprocess.run(  # noqa: S603 (the running interpreter, a fixed probe)
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    probe = json.loads(out.strip().splitlines()[-1])
    assert probe["found"] == ["detect-secrets:AWSKeyDetector"]
    assert probe["loaded_by_scanning"] is False
    assert probe["read_through_stand_in"] == "RequestException"


def test_a_deferred_module_is_imported_when_something_of_it_is_read(monkeypatch):
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    with deferred("colorsys"):
        import colorsys as stand_in

        assert "hls_to_rgb" not in vars(stand_in)
    assert "colorsys" not in sys.modules
    assert stand_in.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    import colorsys

    assert isinstance(colorsys, types.ModuleType) and colorsys is not stand_in


def test_a_module_imported_already_is_left_as_it_is():
    import json as real

    with deferred("json"):
        import json

        assert json is real
    assert sys.modules["json"] is real
