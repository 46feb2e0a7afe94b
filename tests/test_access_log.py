"""The access log keeps no credential: a token a client put in the URL (refused by the API)
or a bearer header never reaches gunicorn's access log."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from gunicorn.config import Config

from reflexion_site.access_log import HIDDEN, RedactingLogger, redact

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "rrapi_Zx8QpL3vT0kYw2mN5rS7uV9aB1cD4eF6gH"


def test_secret_values_in_a_query_string_are_replaced():
    assert redact(f"/api/v1/retrieve?task=x&token={TOKEN}&k=3") == (
        f"/api/v1/retrieve?task=x&token={HIDDEN}&k=3"
    )
    assert redact("/cb?code=abc123&state=s1") == f"/cb?code={HIDDEN}&state=s1"
    assert redact(f"/anything/{TOKEN}/x") == f"/anything/{HIDDEN}/x"
    assert redact("/reflections/?q=bearer+eyJhbGciOi") == f"/reflections/?q={HIDDEN}"
    assert redact("/reflections/?q=invoice&department=sales") == (
        "/reflections/?q=invoice&department=sales"
    )


def test_the_loggers_atoms_hold_no_credential():
    logger = RedactingLogger(Config())
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/api/v1/changes?access_token={TOKEN}",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "QUERY_STRING": f"access_token={TOKEN}",
        "PATH_INFO": "/api/v1/changes",
        "HTTP_REFERER": f"https://example.test/?token={TOKEN}",
        "HTTP_AUTHORIZATION": f"Bearer {TOKEN}",
    }
    resp = SimpleNamespace(status="401 Unauthorized", sent=10, headers=[])
    req = SimpleNamespace(headers=[("AUTHORIZATION", f"Bearer {TOKEN}")])
    atoms = logger.atoms(resp, req, environ, timedelta(milliseconds=5))
    assert TOKEN not in repr(atoms)
    assert atoms["r"] == f"GET /api/v1/changes?access_token={HIDDEN} HTTP/1.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gunicorn_serving_the_app_writes_no_token_to_its_access_log(tmp_path):
    port, log = free_port(), tmp_path / "access.log"
    server = subprocess.Popen(  # noqa: S603 (this interpreter, fixed arguments)
        [sys.executable, "-m", "gunicorn", "reflexion_site.wsgi", "-c", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--access-logfile", str(log)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/api/v1/retrieve?task=x&token={TOKEN}"
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=2)
            except urllib.error.HTTPError as refused:
                assert refused.code == 401
                break
            except OSError:
                time.sleep(0.1)
        for _ in range(50):
            if log.exists() and "/api/v1/retrieve" in log.read_text():
                break
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=10)
    written = log.read_text()
    assert "/api/v1/retrieve?task=x&token=[redacted]" in written
    assert TOKEN not in written
