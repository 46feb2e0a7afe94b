"""Gunicorn's settings for every way the app is served (`make demo`, bench/load.py, production):
gunicorn reads this file from the working directory. Knobs: WEB_WORKERS, WEB_THREADS.

Threaded workers (gthread): a page spends part of its time waiting on the database; with
threads, the same two worker processes render another request meanwhile, so a burst of users
is served by both cores instead of queueing behind one slow page. Django is thread-safe; each
thread holds its own database connection (mind PostgreSQL's max_connections when raising
WEB_WORKERS times WEB_THREADS).
"""

import os

workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = int(os.environ.get("WEB_TIMEOUT", "120"))
