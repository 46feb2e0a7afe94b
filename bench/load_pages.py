"""The pages bench/load.py requests besides the list, the detail and the queue: every page the
four roles use, with the ids they need read from the database under test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (name, path, who asks): "manager" pages with the manager's session, "api" with a bearer
# token of scope retrieve.
FIXED = [
    ("memory health", "/reflections/health/", "manager"),
    ("insights overview", "/insights/", "manager"),
    ("learning curves", "/insights/learning/", "manager"),
    ("usefulness", "/insights/usefulness/", "manager"),
    ("projection", "/insights/projection/", "manager"),
    ("agreement", "/agreement/", "manager"),
    ("quality", "/quality/", "manager"),
    ("calibration policy", "/calibration/policy/", "manager"),
    ("rating rounds", "/ratings/", "manager"),
    ("judges", "/reviews/judges/", "manager"),
]
NAMES = [name for name, _, _ in FIXED] + ["rating round", "cycle (signals)", "API /retrieve"]


def pages(url: str, fetch_rows) -> list[tuple[str, str, str]]:
    """FIXED, then a rating round, the first open cycle's page (its signals and their cuts)
    and a logged /retrieve for a task of the department's most common type."""
    found = list(FIXED)
    rounds = fetch_rows(url, "SELECT id FROM rubric_ratinground ORDER BY id LIMIT 1")
    if rounds:
        found.append(("rating round", f"/ratings/{rounds[0][0]}/", "manager"))
    cycles = fetch_rows(
        url, "SELECT id FROM reviews_reviewcycle WHERE closed_at IS NULL ORDER BY id LIMIT 1"
    )
    if cycles:
        found.append(("cycle (signals)", f"/reviews/{cycles[0][0]}/", "manager"))
    task = fetch_rows(
        url,
        "SELECT a.name, r.task_type FROM reflections_reflection r "
        "JOIN reflections_agent a ON a.id = r.agent_id WHERE r.task_type <> '' "
        "GROUP BY a.name, r.task_type ORDER BY COUNT(*) DESC LIMIT 1",
    )
    if task:
        agent, task_type = task[0]
        query = f"task=the+next+{task_type}+task&task_type={task_type}&agent={agent}&k=3"
        found.append(("API /retrieve", f"/api/v1/retrieve?{query}", "api"))
    return found


def retrieve_token(env: dict) -> str:
    """A new token of scope retrieve in the database under test (shown once, like the page)."""
    code = (
        "from api.services.tokens import create_token; "
        "print(create_token(name='bench-load', scope='retrieve', user=None)[1])"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.strip().splitlines()[-1]
