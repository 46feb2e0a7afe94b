"""Every page under a mixed load, against the reflection list measured in the same run.

Usage (PostgreSQL; a demo database built by `make demo` with DATABASE_URL pointing at it):

    .venv/bin/python bench/load.py [--db reflexion_h7] [--port 8170] [--users 1,5,20]
                                   [--rounds 8] [--keep-copy] [--peer]
    .venv/bin/python bench/load.py --db reflexion_loaddemo --db reflexion_largedemo  # two scales

What it does (for each --db in turn; Label Studio beside the last):

1. Copies the database named by --db to a throwaway ``<db>_load`` (``CREATE DATABASE …
   TEMPLATE``, then a ``CHECKPOINT`` so that its writing is over before anything is timed):
   the queue steps record verdicts, and a run must not change the demo it reads. The copy is
   dropped at the end unless --keep-copy.
2. Sets the demo users' password on the copy (``create_demo_users --password``), runs the
   task worker until its queue is empty (``db_worker --batch``: an installation's worker
   prepares a cycle's evidence when it opens, and a database built without one, as the demo
   steps run by hand are, would otherwise be timed computing it on the first view of each
   item) and prepares what an upgrade of the evidence code left stale (``prepare_evidence
   --open --stale-only``, docs/operations.md), then serves the app with gunicorn, 2 workers
   (``reflexion_site.wsgi``), on loopback.
3. For each concurrency level (1, 5 and 20 users by default) runs a bounded mixed workload:
   every virtual user signs in and repeats a round of requests — the reflection list, a
   reflection's detail, a queue item, the next item fetched in the background as queue.js does
   while the item is read, and the verdict (an htmx POST naming the fetched item, answered by a
   small step when it is still current, else by the whole next item), then every page of
   bench/load_pages.py: memory health, every insights page, agreement, quality, calibration,
   the rating rounds and one round, the judge page, an open cycle's page with its signals, and
   a logged `GET /api/v1/retrieve` (a bench token of scope retrieve, rate limit off) —
   ``max(users, --rounds)`` rounds in all, shared out between the users. One round per worker
   process is run first and not counted (imports, connections).
4. Prints for each level and page the p50 and p95 in ms, the ratio p95(page) ÷ p95(reflection
   list) of the same level, the errors, and the throughput (requests/s) over the whole run and
   while every user of the level was busy (until the first finished its share: the run's end,
   when only the slower users are left, is not that level's concurrency); then throughput at
   the highest level ÷ at 1 user, both ways; and each worker's resident memory at the end.
5. With --peer (bench/load_peer.py), then Label Studio 1.23.2 (bench/peer.py) holding the same
   texts, and the same levels of users asking each side for the list, a detail, a search and
   the last page: per level each side's p95, ours ÷ peer, throughput, and memory.
6. With more than one --db (the demo scale first, then the large one), each page's p95 at
   the lowest level on each later database ÷ the first's (bench/load_report.py; target ≤ 1.5).

Absolute times drift on a shared machine; the ratios within one run are what we track
(docs/benchmarks.md, "Under load").
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import load_pages  # noqa: E402
import load_peer  # noqa: E402
from common import children_rss_mib, fetch_rows, manage  # noqa: E402
from load_report import LIST, QUEUE_PREFETCH, compare_scales, report  # noqa: E402

PASSWORD = "bench-load-password"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
FORM_FIELD = re.compile(r'<input type="hidden" name="(version|shown)" value="([^"]*)"')
UPCOMING = re.compile(r'id="queue-prefetch" hidden data-rank="(\d+)" data-url="([^"]+)"')


@dataclass
class Results:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)
    ended: list[float] = field(default_factory=list)  # when each request was answered
    verdicts: int = 0
    steps: int = 0  # verdicts answered by a step (the page held the next item)

    def add(self, page: str, seconds: float, error: str = "") -> None:
        with self.lock:
            self.times[page].append(seconds)
            self.ended.append(time.perf_counter())
            if error:
                self.errors[page].append(error)

    def verdict(self, response: requests.Response | None) -> None:
        with self.lock:
            self.verdicts += 1
            self.steps += bool(response is not None and response.headers.get("X-Queue-Step"))

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.times.values())


def admin_sql(server: str, statements: list[str]) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        for statement in statements:
            admin.execute(statement)


def sign_in(base: str, username: str) -> requests.Session:
    session = requests.Session()
    page = session.get(f"{base}/login/", timeout=120)
    token = CSRF_INPUT.search(page.text).group(1)
    answer = session.post(
        f"{base}/login/",
        data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base}/login/"},
        timeout=120,
        allow_redirects=False,
    )
    if answer.status_code != 302:
        raise SystemExit(f"could not sign in as {username}: HTTP {answer.status_code}")
    return session


class Dealer:
    """Deals the queue items out in turn, to whichever user asks next: no two users hold the
    same item at once (two tabs deciding one item is a conflict, not load)."""

    def __init__(self, items: list[tuple[int, int]]):
        # Ten ranks apart (1, 11, 21 …, then 2, 12 …), the cycles interleaved: the item a
        # verdict moves on to is not one another user holds meanwhile.
        spread = sorted(items, key=lambda item: (item[1] % 10, item[1], item[0]))
        self.items = itertools.cycle(spread) if items else None
        self.lock = threading.Lock()

    def __bool__(self) -> bool:
        return self.items is not None

    def next(self) -> tuple[int, int]:
        with self.lock:
            return next(self.items)


class VirtualUser:
    """One person at a keyboard: a manager's session for the dashboards, a reviewer's for
    the queue; the queue items are dealt out in turn so verdicts do not collide."""

    def __init__(self, base: str, index: int, details: list[int], items: Dealer, pages, token):
        self.base = base
        self.index = index
        self.details = details
        self.items = items
        self.pages = pages  # (name, path, "manager" or "api"): bench/load_pages.py
        self.api = requests.Session()
        self.api.headers["Authorization"] = f"Bearer {token}"
        self.manager = sign_in(base, "manager-demo")
        self.reviewer = sign_in(base, "reviewer-demo")
        self.step = 0

    def timed(self, results: Results | None, page: str, call) -> requests.Response | None:
        started = time.perf_counter()
        try:
            response = call()
            error = "" if response.status_code < 400 else f"HTTP {response.status_code}"
        except requests.RequestException as exc:
            response, error = None, type(exc).__name__
        if results is not None:
            results.add(page, time.perf_counter() - started, error)
        return response

    def round(self, results: Results | None) -> None:
        b, m = self.base, self.manager
        k = self.index + self.step * 997
        self.step += 1
        self.timed(results, LIST, lambda: m.get(f"{b}/reflections/", timeout=300))
        pk = self.details[k % len(self.details)]
        self.timed(results, "reflection detail", lambda: m.get(f"{b}/reflections/{pk}/"))
        if self.items:
            self.queue_step(results, *self.items.next())
        for page, path, who in self.pages:
            s = self.api if who == "api" else m
            self.timed(results, page, lambda path=path, s=s: s.get(f"{b}{path}", timeout=300))

    def queue_step(self, results: Results | None, cycle: int, rank: int) -> None:
        """A queue item, the next one fetched as queue.js fetches it while the item is read,
        and the verdict naming it."""
        r, url = self.reviewer, f"{self.base}/reviews/{cycle}/items/{rank}/"
        page = self.timed(results, "queue item", lambda: r.get(url))
        if page is None or page.status_code != 200:
            return
        fields = dict(FORM_FIELD.findall(page.text))
        token = r.cookies.get("csrftoken", "")
        headers = {"HX-Request": "true", "X-CSRFToken": token, "Referer": url}
        if upcoming := UPCOMING.search(page.text):
            ahead = {"HX-Request": "true", "X-Queue-Prefetch": "1"}
            next_url = f"{self.base}{upcoming[2]}"
            fetched = self.timed(results, QUEUE_PREFETCH, lambda: r.get(next_url, headers=ahead))
            if fetched is not None and fetched.status_code == 200:
                held = f"{upcoming[1]}@{dict(FORM_FIELD.findall(fetched.text))['version']}"
                headers["X-Queue-Held"] = held
        data = {"verdict": "keep", **fields}
        answer = self.timed(
            results,
            "queue verdict → next",
            lambda: r.post(f"{url}decide/", data=data, headers=headers),
        )
        if results is not None:
            results.verdict(answer)


@dataclass
class Level:
    results: Results
    started: float
    first_done: float  # when the first user finished its share: until then all were busy
    finished: float

    @property
    def seconds(self) -> float:
        return self.finished - self.started

    @property
    def busy_throughput(self) -> float:
        """Requests/s while every user of the level was busy: the run's end, when only the
        slower users are left, is not this level's concurrency."""
        answered = sum(1 for t in self.results.ended if t <= self.first_done)
        return answered / (self.first_done - self.started)


def run_level(users: list[VirtualUser], rounds: int) -> Level:
    results = Results()
    shares = [
        rounds // len(users) + (1 if i < rounds % len(users) else 0) for i in range(len(users))
    ]
    done: list[float] = []

    def work(user: VirtualUser, n: int) -> None:
        for _ in range(n):
            user.round(results)
        done.append(time.perf_counter())

    threads = [
        threading.Thread(target=work, args=(u, n)) for u, n in zip(users, shares, strict=True)
    ]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return Level(results, started, min(done), time.perf_counter())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--db",
        action="append",
        help="the demo database to copy (default reflexion_h7); give it again for another scale "
        "(--db default --db large): each is run in turn, and each page's p95 at the lowest level "
        "is compared with the first's",
    )
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--port", type=int, default=8170)
    parser.add_argument("--users", default="1,5,20")
    parser.add_argument(
        "--rounds", type=int, default=8, help="rounds per level (at least one a user)"
    )
    parser.add_argument("--keep-copy", action="store_true")
    parser.add_argument("--no-copy", action="store_true", help="run on --db itself (it changes)")
    load_peer.add_arguments(parser)
    args = parser.parse_args()
    databases = args.db or ["reflexion_h7"]
    runs = {}
    for n, name in enumerate(databases):
        if n:
            print(f"\n{'=' * 30} next database: {name} {'=' * 30}")
        key = name if name not in runs else f"{name} ({n + 1})"  # one database twice: the noise
        # Label Studio once, beside the last database's server.
        runs[key] = run_database(args, name, peer=args.peer and n == len(databases) - 1)
    if len(runs) > 1:
        compare_scales(runs)


def run_database(args, source: str, *, peer: bool) -> dict[int, Level]:
    """Copies `source`, serves it, runs every level of users; returns each level's run."""
    db = source if args.no_copy else f"{source}_load"
    if not args.no_copy:
        admin_sql(
            args.server,
            [
                f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)',
                f'CREATE DATABASE "{db}" TEMPLATE "{source}"',
                # The copy went through the WAL (PostgreSQL 15's default strategy): write it out
                # now, not in a checkpoint in the middle of the measured run (8.5 GB at the
                # large scale).
                "CHECKPOINT",
            ],
        )
    url = f"{args.server}/{db}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "reflexion_site.settings",
        # Twenty users share one bench token: the API's per-token limit is not what is measured.
        "API_RATE_LIMIT": "0",
    }
    python = sys.executable
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")  # served as a deployment serves them
    manage(env, "create_demo_users", "--password", PASSWORD)
    started = time.perf_counter()
    manage(env, "db_worker", "--batch", "--queue-name", "*", "-v", "0")
    manage(env, "prepare_evidence", "--open", "--stale-only")
    print(f"task worker and stale evidence: done in {time.perf_counter() - started:.1f} s")
    details = [
        pk
        for (pk,) in fetch_rows(
            url,
            "SELECT id FROM reflections_reflection WHERE state <> 'quarantined' "
            "ORDER BY retrieval_count DESC, id LIMIT 200",
        )
    ]
    items = fetch_rows(
        url,
        "SELECT i.cycle_id, i.rank FROM reviews_reviewitem i "
        "JOIN reviews_reviewcycle c ON c.id = i.cycle_id "
        "JOIN auth_user u ON u.id = i.reviewer_id "
        "WHERE c.closed_at IS NULL AND u.username = 'reviewer-demo' ORDER BY i.cycle_id, i.rank",
    )
    if not items:
        print("note: reviewer-demo has no item in an open cycle; queue steps are left out")

    gunicorn = subprocess.Popen(
        [
            str(Path(python).parent / "gunicorn"),
            "reflexion_site.wsgi",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--timeout",
            "300",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(100):
            try:
                requests.get(f"{base}/login/", timeout=2)
                break
            except requests.RequestException:
                time.sleep(0.2)
        levels = [int(n) for n in args.users.split(",")]
        print(
            f"database {db} (copy of {source}); gunicorn 2 workers x "
            f"{os.environ.get('WEB_THREADS', '4')} threads (gunicorn.conf.py) on {base}; "
            f"{len(details)} detail pages, {len(items)} queue items"
        )
        dealer = Dealer(items)
        pages, token = load_pages.pages(url, fetch_rows), load_pages.retrieve_token(env)
        pool = [VirtualUser(base, i, details, dealer, pages, token) for i in range(max(levels))]
        # Warm both worker processes: imports, connections, first templates.
        warm = [threading.Thread(target=u.round, args=(None,)) for u in pool[:2]]
        for t in warm:
            t.start()
        for t in warm:
            t.join()
        throughput, runs = {}, {}
        for level in levels:
            runs[level] = run_level(pool[:level], max(level, args.rounds))
            throughput[level] = report(level, runs[level])
        if 1 in throughput and len(throughput) > 1:
            top = max(throughput)
            (busy_top, whole_top), (busy_one, whole_one) = throughput[top], throughput[1]
            print(
                f"\nthroughput at {top} users ÷ at 1 user: {busy_top / busy_one:.2f} while all "
                f"were busy ({whole_top / whole_one:.2f} over the whole run)"
            )
        rss = ", ".join(f"{mib:.0f}" for mib in children_rss_mib(gunicorn.pid))
        print(f"worker memory after every page: {rss} MiB resident (target ≤ 150 each)")
        if peer:  # after ours, with our server still up: bench/load_peer.py
            load_peer.run(args, url, base, gunicorn.pid, sign_in=sign_in, run_level=run_level)
        return runs
    finally:
        os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait(timeout=30)
        if not args.no_copy and not args.keep_copy:
            admin_sql(args.server, [f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'])


if __name__ == "__main__":
    main()
