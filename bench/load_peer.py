"""`bench/load.py --peer`: the reflection list, a reflection, a search and the list's last page
under the same load, ours against Label Studio 1.23.2 (bench/peer.py) holding the same texts.

After load.py's levels, with its gunicorn still serving: the body text of every reflection the
manager sees (every one not quarantined) is read from our copy with SQL and imported, untimed,
into one Label Studio project that is kept (`peer.import_project`), on PostgreSQL when the peer
starts on it, else on its default SQLite (the output says which). Then, level by level (the
same --users and --rounds), ours and then the peer run the same bounded workload: every virtual
user repeats a round of four requests, `max(users, --rounds)` rounds shared out between them,
one round a user first and not counted. The requests are what each UI asks its server for:

    ours (a manager's session)          Label Studio (Authorization: Token …)
    list       /reflections/                  /api/tasks?page=1&page_size=30&view=V&project=P
    detail     /reflections/<id>/             /api/tasks/<id>
    search     /reflections/?q=<word>         /api/tasks?page=1&page_size=30&view=S&project=P
    last page  /reflections/?last=1           /api/tasks?page=<last>&page_size=30&view=V&…

Label Studio's data manager (web/dist/apps/labelstudio/main.js: gateway /api/dm, tasks
"/../tasks") asks for 30 tasks a page of its selected tab (`view`, created once as its UI
creates the Default tab); its search is a tab filter, data.text "contains" (`__icontains` in
data_manager/managers.py), saved in the tab before the tasks are asked for (saved once here,
untimed). Detail ids are spread over the list: the i-th reflection by id and the i-th task are
the same text. The search word is the word of six letters or more found in the number of texts
nearest 5 % (ours searches words, stemmed; the peer substrings: the output gives both counts).

Prints per level a table (p95 of each side, ours ÷ peer: below 1 is ours faster), the
throughput of each side while all its users were busy, highest level ÷ 1 user, and each side's
server memory (our workers' RSS; the RSS of the peer's process group: Django's runserver).
The peer is stopped at the end, always, and its PostgreSQL database dropped.
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from collections import Counter

import requests
from common import children_rss_mib, fetch_rows, group_rss_mib, percentile

REQUESTS = ["list", "detail", "search", "last page"]
PEER_PAGE = 30  # the data manager's page size (Bi("tasks", 30) in its bundle)
WORD = re.compile(r"[a-z]{6,}")
COUNT = re.compile(r'class="result-count">\s*(?:About |More than )?<strong>([\d,]+)</strong>')
# Our list's page as served (settings.REFLECTIONS_LIST_PAGE_SIZE, from the same environment).
PAGE_SIZE = os.environ.get("REFLECTIONS_LIST_PAGE_SIZE", "50")


def add_arguments(parser) -> None:
    parser.add_argument(
        "--peer",
        action="store_true",
        help="then the list, a detail, a search and the last page against Label Studio "
        "(bench/load_peer.py)",
    )


class Client:
    """One virtual user of one side: its session and the URL of each request of a round."""

    def __init__(self, session: requests.Session, index: int, urls: dict):
        self.session, self.index, self.urls, self.step = session, index, urls, 0

    def round(self, results) -> None:
        k = self.index + self.step * 997
        self.step += 1
        for name in REQUESTS:
            url = self.urls[name](k)
            if url is None:
                continue
            started = time.perf_counter()
            try:
                response = self.session.get(url, timeout=300)
                error = "" if response.status_code < 400 else f"HTTP {response.status_code}"
            except requests.RequestException as exc:
                error = type(exc).__name__
            if results is not None:
                results.add(name, time.perf_counter() - started, error)


def search_word(texts: list[str]) -> str:
    """The word of six letters or more found in the number of texts nearest 5 %."""
    found = Counter(word for text in texts for word in set(WORD.findall(text.lower())))
    return min(sorted(found), key=lambda word: abs(found[word] - len(texts) / 20))


def start_peer(peer, server: str) -> str:
    """PostgreSQL if the peer starts on it, else its default SQLite; returns which."""
    try:
        peer.start("postgresql", server)
        return "postgresql"
    except Exception as exc:
        print(f"  the peer did not start on PostgreSQL ({exc}); SQLite instead", flush=True)
        peer.stop()
        peer.drop_postgres(server)
        peer.start("sqlite")
        return "sqlite"


def peer_clients(peer, texts: list[str], word: str, users: int) -> tuple[list[Client], dict]:
    """The project (kept), its Default tab and a tab filtered on the word, as the data
    manager makes them; one client a user. Returns them and what the setup found."""
    project, seconds = peer.import_project(texts)
    running = peer.running()
    api = requests.Session()
    api.headers["Authorization"] = f"Token {running.token}"
    base = running.url

    # The tab's hidden columns as the data manager sets them on a new tab: those the columns
    # API says are hidden by default, per mode (every other column is computed for each task).
    hidden: dict[str, list[str]] = {"explore": [], "labeling": []}
    columns = api.get(f"{base}/api/dm/columns", params={"project": project}).json()["columns"]
    for column in columns:
        name = f"{column['parent']}.{column['id']}" if column.get("parent") else column["id"]
        for mode, shown in (column.get("visibility_defaults") or {}).items():
            if not shown:
                hidden.setdefault(mode, []).append(f"{column['target']}:{name}")

    def tab(title: str, items: list[dict]) -> int:
        data = {
            "title": title,
            "type": "list",
            "target": "tasks",
            "ordering": [],
            "filters": {"conjunction": "and", "items": items},
            "hiddenColumns": hidden,
        }
        answer = api.post(f"{base}/api/dm/views", json={"project": project, "data": data})
        answer.raise_for_status()
        return answer.json()["id"]

    default = tab("Default", [])
    contains = {
        "filter": "filter:tasks:data.text",
        "operator": "contains",
        "type": "String",
        "value": word,
    }
    search = tab("Search", [contains])
    task_ids = []
    page = 1
    while len(task_ids) < len(texts):
        answer = api.get(
            f"{base}/api/tasks",
            params={"project": project, "view": default, "page": page, "page_size": 1000},
        ).json()
        task_ids += [task["id"] for task in answer["tasks"]]
        page += 1
    task_ids.sort()
    found = api.get(
        f"{base}/api/tasks",
        params={"project": project, "view": search, "page": 1, "page_size": PEER_PAGE},
    ).json()
    last = math.ceil(len(texts) / PEER_PAGE)
    tasks = f"{base}/api/tasks?page_size={PEER_PAGE}&project={project}"
    urls = {
        "list": lambda k: f"{tasks}&page=1&view={default}",
        "detail": lambda k: f"{base}/api/tasks/{task_ids[k % len(task_ids)]}",
        "search": lambda k: f"{tasks}&page=1&view={search}",
        "last page": lambda k: f"{tasks}&page={last}&view={default}",
    }
    clients = []
    for i in range(users):
        session = requests.Session()
        session.headers["Authorization"] = f"Token {running.token}"
        clients.append(Client(session, i, urls))
    setup = {"import": seconds, "found": found.get("total"), "last": last, "project": project}
    return clients, setup


def ours_clients(base: str, sign_in, ids: list[int], word: str, users: int) -> list[Client]:
    urls = {
        "list": lambda k: f"{base}/reflections/",
        "detail": lambda k: f"{base}/reflections/{ids[k % len(ids)]}/",
        "search": lambda k: f"{base}/reflections/?q={word}",
        "last page": lambda k: f"{base}/reflections/?last=1",
    }
    return [Client(sign_in(base, "manager-demo"), i, urls) for i in range(users)]


def warm(clients: list[Client]) -> None:
    threads = [threading.Thread(target=c.round, args=(None,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def report(level: int, ours, theirs) -> None:
    print(
        f"\n{level} concurrent user(s), the four requests: ours {ours.results.requests} in "
        f"{ours.seconds:.1f} s, {ours.busy_throughput:.2f} requests/s while all were busy; "
        f"peer {theirs.results.requests} in {theirs.seconds:.1f} s, "
        f"{theirs.busy_throughput:.2f} requests/s while all were busy"
    )
    print(f"  {'request':<10} {'ours p95 ms':>11} {'peer p95 ms':>11} {'ours ÷ peer':>11}  errors")
    for name in REQUESTS:
        mine, other = ours.results.times.get(name), theirs.results.times.get(name)
        if not mine or not other:
            continue
        a, b = percentile(mine, 95), percentile(other, 95)
        errors = [
            f"{len(side.results.errors.get(name, []))} "
            f"({', '.join(sorted(set(side.results.errors[name])))})"
            if side.results.errors.get(name)
            else "0"
            for side in (ours, theirs)
        ]
        print(
            f"  {name:<10} {a * 1000:>11.0f} {b * 1000:>11.0f} {a / b:>11.2f}  {' / '.join(errors)}"
        )


def run(args, url: str, base: str, gunicorn_pid: int, *, sign_in, run_level) -> None:
    """Everything --peer adds, once load.py's levels are done (its gunicorn still serving)."""
    import peer  # bench/peer.py

    rows = fetch_rows(
        url,
        "SELECT id, body FROM reflections_reflection WHERE state <> 'quarantined' ORDER BY id",
    )
    ids, texts = [pk for pk, _ in rows], [body for _, body in rows]
    word = search_word(texts)
    levels = [int(n) for n in args.users.split(",")]
    print(f"\n--peer: starting Label Studio {peer.VERSION} …", flush=True)
    database = start_peer(peer, args.server)
    try:
        clients, setup = peer_clients(peer, texts, word, max(levels))
        print(
            f"Label Studio {peer.VERSION} on {database} ({peer.running().url}, Django's "
            f"runserver), project {setup['project']}: {len(texts):,} texts imported in "
            f"{setup['import']:.1f} s (untimed here); search {word!r}: "
            f"{sum(word in t.lower() for t in texts):,} texts hold it, {setup['found']} tasks "
            f"found by the peer; last page {setup['last']} ({PEER_PAGE} tasks a page; ours "
            f"?last=1, {PAGE_SIZE} a page)"
        )
        ours = ours_clients(base, sign_in, ids, word, max(levels))
        page = ours[0].session.get(ours[0].urls["search"](0), timeout=300).text
        print(f"  ours finds {(COUNT.search(page) or ['', '?'])[1]} reflections for {word!r}")
        warm(ours[:2])
        warm(clients[:2])
        throughput = {}
        for level in levels:
            rounds = max(level, args.rounds)
            mine = run_level(ours[:level], rounds)
            theirs = run_level(clients[:level], rounds)
            report(level, mine, theirs)
            throughput[level] = (mine.busy_throughput, theirs.busy_throughput)
        print(
            "\nthroughput while all were busy, requests/s (ours ÷ peer above 1: ours serves more)"
        )
        print(f"  {'users':>5} {'ours':>8} {'peer':>8} {'ours ÷ peer':>11}")
        for level, (a, b) in throughput.items():
            print(f"  {level:>5} {a:>8.2f} {b:>8.2f} {a / b:>11.2f}")
        if 1 in throughput and len(throughput) > 1:
            top = max(throughput)
            (a_top, b_top), (a_one, b_one) = throughput[top], throughput[1]
            print(
                f"  at {top} users ÷ at 1 user: ours {a_top / a_one:.2f}, peer {b_top / b_one:.2f}"
            )
        rss = ", ".join(f"{mib:.0f}" for mib in children_rss_mib(gunicorn_pid))
        print(
            f"server memory at the end: ours {rss} MiB (2 gunicorn workers), peer "
            f"{group_rss_mib(peer.running().process.pid):.0f} MiB (its process group)"
        )
    finally:
        peer.stop()
        if database == "postgresql":
            peer.drop_postgres(args.server)
