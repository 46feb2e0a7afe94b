"""Gunicorn's settings for every way the app is served (`make demo`, bench/load.py, production):
gunicorn reads this file from the working directory. Knobs: WEB_WORKERS, WEB_THREADS,
WEB_TIMEOUT, WEB_KEEPALIVE.

Threaded workers (gthread): a page spends part of its time waiting on the database; with
threads, the same two worker processes render another request meanwhile, so a burst of users
is served by both cores instead of queueing behind one slow page. Django is thread-safe; each
thread holds its own database connection (mind PostgreSQL's max_connections when raising
WEB_WORKERS times WEB_THREADS).
"""

import gc
import os

workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = int(os.environ.get("WEB_TIMEOUT", "120"))
# How long an idle keep-alive connection stays open. Gunicorn's default (2 s) closes it while
# a browser or proxy may be sending the next request on it, which the client sees as a dropped
# connection (bench/load.py met one at 20 users when pages took over 2 s); a proxy's upstream
# pool or a browser keeps connections for longer than that, so the server should too.
keepalive = int(os.environ.get("WEB_KEEPALIVE", "75"))
# The access log never keeps a credential a client put in a URL or a header
# (reflexion_site/access_log.py).
logger_class = "reflexion_site.access_log.RedactingLogger"


def post_worker_init(worker) -> None:
    """Once a worker has loaded the app: collect what start-up left behind, then take every
    object that exists now out of the garbage collector's sight (`gc.freeze`). Otherwise each
    full collection walks all of Django's and the app's objects again, a pause that lands in
    whatever request is running: ~70 ms with ~140,000 objects (bench/bulk.py's process, the
    large demo), 2 ms frozen. What requests make is collected as before."""
    gc.collect()
    gc.freeze()
