"""A first run of the Python client against `make demo`: post one reflection, ask for the
reflections a task gets, and walk the change feed to its end.

    export REFLEXION_URL=http://127.0.0.1:8000
    export REFLEXION_TOKEN=rrapi_…            # scope ingest (API tokens page, as an admin)
    export REFLEXION_RETRIEVE_TOKEN=rrapi_…   # scope retrieve
    python clients/python/examples/quickstart.py

A token has one scope, so the example takes one of each; with only one, it runs the part that
token may call and says which it skipped. REFLEXION_DEPARTMENT (default `finance`) must exist:
the API never creates a department.
"""

from __future__ import annotations

import os
import sys

from reflexion_review import ApiError, Client, ConnectionFailed

# The path is the reflection's identity: running the example again finds it `unchanged`.
PATH = "memory/reflexions/2026-11/20-quickstart-0001.md"  # YYYY-MM/DD-<task id>: its date
REFLECTION = """\
---
task_type: reconciliation
outcome: failure
department: {department}
agent: quickstart-agent
---
## What happened?
The monthly Wise export was reconciled against the ledger before the bank's late postings
arrived, so two transfers looked missing.

## What did I learn?
Reconcile a Wise export only after the bank's cut-off time for the month has passed.
"""


def ingest(url: str, token: str, department: str) -> None:
    with Client(url, token) as client:
        summary = client.ingest_reflections(
            {"path": PATH, "content": REFLECTION.format(department=department)}
        )
    counts = ", ".join(f"{summary[k]} {k}" for k in ("created", "updated", "unchanged"))
    print(f"POST /reflections: {counts}")
    for rejected in summary["rejected"]:
        print(f"  rejected [{rejected['index']}] {rejected['field']}: {rejected['reason']}")


def retrieve_and_follow(url: str, token: str, department: str) -> None:
    with Client(url, token) as client:
        answer = client.retrieve(
            "reconcile the November Wise export",
            task_type="reconciliation",
            agent="quickstart-agent",
            department=department,
            k=3,
        )
        found = answer["reflections"]
        print(f"GET /retrieve: {len(found)} reflections ({answer['logged']} logged)")
        for r in found:
            print(f"  {r['rank']}. [{r['state']}] {r['score']:.3f} {r['title'][:60]!r}")
            print(f"     {r['source_path']}")

        feed = client.changes(limit=1000)
        seen = evicted = 0
        last = None
        for change in feed:
            seen += 1
            evicted += change["evict"]
            last = change
        print(f"GET /changes: {seen} state changes, {evicted} say evict")
        if last:
            moved = last["reflection"]
            print(f"  last: {last['at']} #{moved['id']} {last['from_state']} → {last['to_state']}")
        print(f"  resume with since={feed.cursor}")


def main() -> int:
    url = os.environ.get("REFLEXION_URL", "http://127.0.0.1:8000")
    ingest_token = os.environ.get("REFLEXION_TOKEN") or os.environ.get("REFLEXION_INGEST_TOKEN")
    retrieve_token = os.environ.get("REFLEXION_RETRIEVE_TOKEN")
    department = os.environ.get("REFLEXION_DEPARTMENT", "finance")
    if not ingest_token and not retrieve_token:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if ingest_token:
            ingest(url, ingest_token, department)
        else:
            print("(no REFLEXION_TOKEN of scope ingest: skipping the ingest)")
        if retrieve_token:
            retrieve_and_follow(url, retrieve_token, department)
        else:
            print("(no REFLEXION_RETRIEVE_TOKEN of scope retrieve: skipping retrieve and changes)")
    except (ApiError, ConnectionFailed) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
