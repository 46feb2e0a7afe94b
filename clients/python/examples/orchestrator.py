"""The loop an orchestrator runs against Reflexion Review, end to end, with the Python client:

1. before each task, ask which lessons to inject (`retrieve`, logged as retrievals);
2. after it, post how it went (`ingest_tasks`, with the lessons that were injected);
3. keep a local store of injectable lessons and drop what a reviewer deprecated — told at once
   by a signed webhook (verified with `verify_webhook`), and by polling the change feed from a
   saved cursor in case a webhook was missed.

Against `make demo` (it starts the task worker that sends webhooks, and allows loopback
receivers), as an admin: API tokens → one of scope ingest, one of scope retrieve; Webhooks →
an endpoint at http://127.0.0.1:8765/ for reflection.deprecated (copy its secret). Then:

    export REFLEXION_URL=http://127.0.0.1:8000
    export REFLEXION_TOKEN=rrapi_…            # scope ingest
    export REFLEXION_RETRIEVE_TOKEN=rrapi_…   # scope retrieve
    export REFLEXION_WEBHOOK_SECRET=whsec_…   # optional: without it, polling alone
    python clients/python/examples/orchestrator.py --tasks 5 --listen 30

Deprecate one of the printed reflections in the review queue while it listens: the webhook
arrives within seconds and the lesson leaves the local store. Everything the example posts
is idempotent (same task ids, same content): running it again changes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from reflexion_review import (
    ApiError,
    Client,
    ConnectionFailed,
    WebhookVerificationError,
    verify_webhook,
)

AGENT, DEPARTMENT, TASK_TYPE = "finance-agent", "finance", "reconciliation"
TASKS = [
    "reconcile the November Wise export against the ledger",
    "match the card statement to the expense reports",
    "close the books for the EMEA entity",
    "explain a missing transfer in the bank feed",
    "reconcile the payroll run with the bank debit",
]
CURSOR_FILE = Path(os.environ.get("REFLEXION_CURSOR_FILE", ".orchestrator-cursor"))


class Store:
    """The lessons the orchestrator may inject, by reflection id (its own copy, as a runtime
    that caches what it retrieved keeps one)."""

    def __init__(self) -> None:
        self.lessons: dict[int, str] = {}
        self.lock = threading.Lock()

    def keep(self, reflection: Any) -> None:
        with self.lock:
            self.lessons[reflection["id"]] = reflection["title"]

    def evict(self, reflection_id: int, why: str) -> None:
        with self.lock:
            title = self.lessons.pop(reflection_id, None)
        if title is not None:
            print(f"  evicted #{reflection_id} {title[:60]!r} ({why})")


def run_tasks(client: Client, ingest: Client, store: Store, count: int) -> None:
    day = datetime.now(UTC).strftime("%Y%m%d")
    for n, task in enumerate(TASKS[:count], start=1):
        task_id = f"orchestrator-{day}-{n:04d}"
        answer = client.retrieve(
            task, agent=AGENT, task_type=TASK_TYPE, department=DEPARTMENT, k=3, task_id=task_id
        )
        injected = answer["reflections"]
        for r in injected:
            store.keep(r)
        # The agent would run here with the lessons in its prompt; the example says it succeeded.
        ingest.ingest_tasks(
            [
                {
                    "task_id": task_id,
                    "agent": AGENT,
                    "department": DEPARTMENT,
                    "task_type": TASK_TYPE,
                    "finished_at": datetime.now(UTC).isoformat(),
                    "outcome": "success",
                    "reflections_injected": [r["source_path"] for r in injected],
                }
            ]
        )
        titles = "; ".join(f"#{r['id']} {r['title'][:40]!r}" for r in injected) or "none"
        print(f"task {task_id}: injected {titles} ({answer['logged']} retrievals logged)")


def follow_changes(client: Client, store: Store) -> None:
    """Everything that changed since the saved cursor; the cursor is saved after."""
    since = CURSOR_FILE.read_text().strip() if CURSOR_FILE.exists() else None
    feed = client.changes(since=since, department=DEPARTMENT, limit=1000)
    seen = 0
    for change in feed:
        seen += 1
        if change["evict"]:
            store.evict(change["reflection"]["id"], f"change feed: {change['to_state']}")
    if feed.cursor:
        CURSOR_FILE.write_text(feed.cursor)
    print(f"change feed: {seen} changes since the last run; cursor saved in {CURSOR_FILE}")


def receiver(secret: str, events: queue.Queue[dict[str, Any]]) -> type[BaseHTTPRequestHandler]:
    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                event = verify_webhook(body, dict(self.headers), secret)
            except WebhookVerificationError as refused:
                self.send_response(401)
                self.end_headers()
                print(f"webhook refused: {refused}")
                return
            self.send_response(204)
            self.end_headers()
            events.put(event)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the example prints what matters

    return Receiver


def listen(secret: str, port: int, seconds: float, store: Store) -> None:
    events: queue.Queue[dict[str, Any]] = queue.Queue()
    server = ThreadingHTTPServer(("127.0.0.1", port), receiver(secret, events))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening for signed webhooks on http://127.0.0.1:{port}/ for {seconds:.0f} s")
    deadline = time.monotonic() + seconds
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=min(left, 1.0))
            except queue.Empty:
                continue
            data = event["data"]
            sent = datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00"))
            late = (datetime.now(UTC) - sent).total_seconds()
            print(f"webhook {event['type']}, verified, {late:.1f} s after the change:")
            print(f"  {json.dumps(data)[:150]}…")
            if event["type"] == "reflection.deprecated":
                store.evict(data["reflection"]["id"], "webhook")
    finally:
        server.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=len(TASKS), help="tasks to run (1-5)")
    parser.add_argument("--listen", type=float, default=0, help="seconds to wait for webhooks")
    parser.add_argument("--port", type=int, default=8765, help="the webhook receiver's port")
    args = parser.parse_args()
    url = os.environ.get("REFLEXION_URL", "http://127.0.0.1:8000")
    ingest_token = os.environ.get("REFLEXION_TOKEN") or os.environ.get("REFLEXION_INGEST_TOKEN")
    retrieve_token = os.environ.get("REFLEXION_RETRIEVE_TOKEN")
    secret = os.environ.get("REFLEXION_WEBHOOK_SECRET", "")
    if not ingest_token or not retrieve_token:
        print(__doc__, file=sys.stderr)
        return 2
    store = Store()
    try:
        with Client(url, retrieve_token) as client, Client(url, ingest_token) as ingest:
            run_tasks(client, ingest, store, max(1, min(args.tasks, len(TASKS))))
            follow_changes(client, store)
            print(f"local store: {len(store.lessons)} injectable lessons")
            if args.listen and secret:
                listen(secret, args.port, args.listen, store)
                follow_changes(client, store)  # anything a missed webhook would have said
            elif args.listen:
                print("(no REFLEXION_WEBHOOK_SECRET: not listening for webhooks)")
    except (ApiError, ConnectionFailed) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"local store: {len(store.lessons)} injectable lessons")
    return 0


if __name__ == "__main__":
    sys.exit(main())
