"""The peer in the benchmarks: Label Studio 1.23.2 in a virtual environment of its own, started on
loopback, importing texts through its HTTP API, timed as its user waits for it.

Label Studio runs on another Django than ours, so it never shares the project's venv: the first
use creates bench/out/peer-venv with the project's Python and installs the pin of the optional
dependency group `peer` in pyproject.toml there (`label-studio==1.23.2`, a few minutes).
`start()` runs `label-studio start` as its documentation shows (Django's server; SQLite in a
fresh data dir under bench/out/peer-data unless `database="postgresql"`) on 127.0.0.1 and a
free port, with a user and a legacy API token set through its environment variables, and no
browser. `import_texts(texts)` creates a project with a text labeling config and imports the
texts as one JSON upload (`POST /api/projects/<id>/import`, which the Community edition stores
before it answers), timed from the request until the project counts every task; the project is
deleted afterwards, untimed, so every round starts from the same empty server (and `start()`
imports ten texts once, untimed: a server in use has loaded what an import needs);
`import_project(texts)` keeps it (bench/load_peer.py requests its tasks). `stop()` ends the
server (its process group).

    .venv/bin/python bench/peer.py [--n 2000] [--database sqlite|postgresql]

prints the peer's rows/s for N short texts: a quick check that the peer installs and runs.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench/out"
VENV = OUT / "peer-venv"
DATA = OUT / "peer-data"
LOG = OUT / "peer.log"


def _pinned() -> str:
    """The peer's pin, from the optional dependency group `peer` in pyproject.toml."""
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as f:
        (pin,) = tomllib.load(f)["project"]["optional-dependencies"]["peer"]
    return pin


PIN = _pinned()  # label-studio==1.23.2
VERSION = PIN.split("==")[1]
PEER_DB = "bench_peer_label_studio"  # with database="postgresql"
DEFAULT_PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
EMAIL = "bench@localhost"
# What a reviewer of reflections would label: one verdict per text.
LABEL_CONFIG = """<View>
  <Text name="text" value="$text"/>
  <Choices name="verdict" toName="text" choice="single">
    <Choice value="keep"/><Choice value="revise"/><Choice value="drop"/>
  </Choices>
</View>"""
# Label Studio accepts 250 MB in one request (DATA_UPLOAD_MAX_MEMORY_SIZE); larger imports go
# in several uploads, as its user would have to split them.
MAX_UPLOAD_BYTES = 200 * 1024 * 1024
STARTUP_SECONDS = 600  # the first start migrates an empty database: a minute or two


@dataclass
class Server:
    process: subprocess.Popen
    url: str
    token: str


_server: Server | None = None


def ensure_installed() -> Path:
    """The `label-studio` executable of the peer's own venv, installed on first use."""
    python = VENV / "bin/python"
    if not python.exists():
        print(f"creating the peer's venv in {VENV} …", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if _installed_version(python) != VERSION:
        print(f"installing {PIN} into {VENV} (a few minutes) …", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", PIN], check=True)
    return VENV / "bin/label-studio"


def _installed_version(python: Path) -> str | None:
    found = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('label-studio'))"],
        capture_output=True,
        text=True,
    )
    return found.stdout.strip() if found.returncode == 0 else None


def start(database: str = "sqlite", server: str = DEFAULT_PG) -> str:
    """Start Label Studio on a fresh database and wait until its API answers; returns its URL."""
    global _server
    if _server is not None:
        raise RuntimeError("the peer is already running")
    executable = ensure_installed()
    shutil.rmtree(DATA, ignore_errors=True)
    DATA.mkdir(parents=True)
    port = _free_port()
    token = secrets.token_hex(20)
    env = {
        key: value
        for key, value in os.environ.items()
        # Ours, not the peer's: it reads DATABASE_NAME, HOST, PORT and USERNAME too.
        if key not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "VIRTUAL_ENV", "PYTHONPATH"}
        and not key.startswith(("LABEL_STUDIO_", "POSTGRE_", "DJANGO_"))
    }
    env.update(
        LABEL_STUDIO_BASE_DATA_DIR=str(DATA),
        LABEL_STUDIO_USERNAME=EMAIL,
        LABEL_STUDIO_PASSWORD=secrets.token_urlsafe(16),
        LABEL_STUDIO_USER_TOKEN=token,
        LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK="true",
        COLLECT_ANALYTICS="false",
        LOG_LEVEL="WARNING",
        DEBUG="false",
    )
    if database == "postgresql":
        _fresh_postgres(server)
        env.update(
            DJANGO_DB="postgresql",
            POSTGRE_NAME=PEER_DB,
            POSTGRE_USER=_pg_part(server, "user"),
            POSTGRE_PASSWORD="",
            POSTGRE_HOST=_pg_part(server, "host"),
            POSTGRE_PORT=_pg_part(server, "port"),
        )
    elif database != "sqlite":
        raise ValueError(f"database: sqlite or postgresql, not {database!r}")
    command = [
        str(executable),
        "start",
        "--no-browser",
        "--internal-host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(DATA),
        "--enable-legacy-api-token",
        "--log-level",
        "WARNING",
    ]
    log = LOG.open("wb")
    process = subprocess.Popen(
        command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    _server = Server(process, f"http://127.0.0.1:{port}", token)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        if process.poll() is not None:
            _server = None
            raise RuntimeError(f"Label Studio exited with {process.returncode}; see {LOG}")
        try:
            _request("GET", "/api/current-user/whoami")
            break
        except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
            if time.monotonic() > deadline:
                stop()
                raise RuntimeError(f"Label Studio did not answer in time; see {LOG}") from exc
            time.sleep(1)
    # A server its user has been using: the first import's lazy imports are not its cost.
    try:
        import_texts(["warming up"] * 10)
    except BaseException:
        stop()
        raise
    return f"http://127.0.0.1:{port}"


def import_texts(texts: list[str]) -> float:
    """Seconds Label Studio takes to import `texts` as the tasks of a new project: the upload
    request(s) until the project counts every task. The project is deleted afterwards."""
    project, seconds = import_project(texts)
    _request("DELETE", f"/api/projects/{project}")
    return seconds


def import_project(texts: list[str]) -> tuple[int, float]:
    """`import_texts` without the deletion: the project is kept (its tasks in the order of
    `texts`), for what is measured on it next; returns its id and the import's seconds."""
    project = _request(
        "POST", "/api/projects", {"title": "reflections", "label_config": LABEL_CONFIG}
    )["id"]
    # The user's file exists before they upload it: the bodies are not timed.
    bodies = list(_uploads(texts))
    started = time.perf_counter()
    for body in bodies:
        _request("POST", f"/api/projects/{project}/import", raw=body)
    stored = _request("GET", f"/api/projects/{project}")["task_number"]
    seconds = time.perf_counter() - started
    if stored != len(texts):
        raise RuntimeError(f"Label Studio stored {stored} tasks of {len(texts)}")
    return project, seconds


def running() -> Server:
    """The server `start()` started: its URL, API token and process (the group's leader)."""
    assert _server is not None, "start() the peer first"
    return _server


def stop() -> None:
    """End the server started by `start()` (its process group: the server and its children)."""
    global _server
    if _server is None:
        return
    process, _server = _server.process, None
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _uploads(texts: list[str]):
    batch, size = [], 2
    for text in texts:
        task = json.dumps({"text": text}).encode()
        if batch and size + len(task) + 1 > MAX_UPLOAD_BYTES:
            yield b"[" + b",".join(batch) + b"]"
            batch, size = [], 2
        batch.append(task)
        size += len(task) + 1
    yield b"[" + b",".join(batch) + b"]"


def _request(method: str, path: str, payload: object = None, *, raw: bytes | None = None):
    assert _server is not None, "start() the peer first"
    body = raw if raw is not None else None if payload is None else json.dumps(payload).encode()
    request = urllib.request.Request(
        _server.url + path,
        data=body,
        method=method,
        headers={"Authorization": f"Token {_server.token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=3600) as response:
        answer = response.read()
    return json.loads(answer) if answer else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pg_part(server: str, part: str) -> str:
    from urllib.parse import urlsplit

    url = urlsplit(server)
    return {"user": url.username or "postgres", "host": url.hostname, "port": str(url.port)}[part]


def _fresh_postgres(server: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{PEER_DB}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{PEER_DB}"')


def drop_postgres(server: str = DEFAULT_PG) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{PEER_DB}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=2000, help="texts to import")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    texts = [
        f"Reflection {i}: the agent retried the call without reading the error; next time "
        f"read the error first and change one thing before retrying (task {i % 97})."
        for i in range(args.n)
    ]
    started = time.perf_counter()
    url = start(args.database)
    print(f"Label Studio {VERSION} answering on {url} after {time.perf_counter() - started:.0f} s")
    try:
        seconds = import_texts(texts)
    finally:
        stop()
        if args.database == "postgresql":
            drop_postgres()
    print(f"imported {len(texts):,} texts in {seconds:.2f} s: {len(texts) / seconds:,.0f} rows/s")


if __name__ == "__main__":
    main()
