"""Figures that stay expensive, cached under the data's version (Django's cache framework:
the database cache by default, Redis when REDIS_URL is set; reflexion_site.settings)."""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from contextlib import nullcontext

from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import IntegrityError, connection, transaction
from django.db.models import F

from reflections.models import DataVersion

log = logging.getLogger(__name__)
MEMORY = "memory"  # reflections, their states and history, retrievals, tasks
# What happened, not what reviewers decided: reflections written, retrievals, tasks and their
# injections, neighbours. Bumped by imports and recounts but not by state changes, so figures
# bound to a past window (a review item's prepared evidence) survive every verdict.
EVENTS = "events"
# What a past window's figures read (a review item's prepared evidence): moved with EVENTS by
# every change to what happened, but not by a release's migrate, since those figures carry
# the version of the code that computed them (reviews.services.evidence.code_version). Moved
# by each release too, a large installation's open cycles were computed again item by item
# as reviewers opened them (1.1 s an item at 100,000 reflections).
WINDOWS = "windows"
TIMEOUT = 24 * 3600  # a version no one bumps still expires within a day


def data_version(name: str = MEMORY) -> str:
    """The current version of ``name``'s data, as a key part: one primary-key read."""
    row = DataVersion.objects.filter(name=name).values_list("number", "token").first()
    return f"{row[1]}.{row[0]}" if row else "0"


def bump_data_version(*names: str) -> None:
    """Make every figure cached under the current version of ``names`` (default MEMORY)
    unreachable; EVENTS moves WINDOWS with it. Inside the writer's transaction: readers keep
    the old version (and old figures) until the change commits."""
    names = names or (MEMORY,)
    for name in names:
        _bump(name)
    if EVENTS in names and WINDOWS not in names:
        _bump(WINDOWS)


def bump_for_release() -> None:
    """A release's migrate: every figure cached under MEMORY or EVENTS goes (the code that
    computed it may have changed); WINDOWS stays (prepared evidence names its code's version)."""
    _bump(MEMORY)
    _bump(EVENTS)


def _bump(name: str) -> None:
    if DataVersion.objects.filter(name=name).update(number=F("number") + 1):
        return
    try:
        with transaction.atomic():
            DataVersion.objects.create(name=name, number=1, token=secrets.token_hex(8))
    except IntegrityError:  # created meanwhile by another writer
        DataVersion.objects.filter(name=name).update(number=F("number") + 1)


def guarded():
    """A savepoint around a database cache's statements inside a transaction, so a failed one
    (the cache table missing) does not abort the page's transaction; nothing for Redis."""
    if isinstance(caches["default"], DatabaseCache) and connection.in_atomic_block:
        return transaction.atomic()
    return nullcontext()


def cached[T](what: str, key_parts: tuple, compute: Callable[[], T], *, name: str = MEMORY) -> T:
    """``compute()``, or its result stored under (what, the data's version, key_parts).

    A cache that cannot be reached (a Redis restart, the cache table missing) costs the
    computation, never the page."""
    digest = hashlib.sha256(repr(key_parts).encode()).hexdigest()[:24]
    try:
        key = f"{what}:{data_version(name)}:{digest}"
        with guarded():
            hit = cache.get(key)
    except Exception as error:
        log.warning("cache unavailable (%s): computing %s", type(error).__name__, what)
        return compute()
    if hit is not None:
        return hit
    value = compute()
    try:
        with guarded():
            cache.set(key, value, TIMEOUT)
    except Exception as error:
        log.warning("cache unavailable (%s): %s not stored", type(error).__name__, what)
    return value
