"""The as_of date every memory page reads: today in UTC unless `?as_of=` names another."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from django.db import connection


def today() -> date:
    """The default as_of: today in UTC, the calendar the policies use."""
    return datetime.now(UTC).date()


def parse_as_of(value: str | None) -> date | None:
    """``?as_of=YYYY-MM-DD``; today (UTC) when absent; None when it is not a date."""
    if not value:
        return today()
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return None


def param(value: datetime):
    return connection.ops.adapt_datetimefield_value(value)


def week_start(day: date) -> date:
    """Monday of the ISO week ``day`` is in."""
    return day - timedelta(days=day.weekday())


def as_date(value) -> date:
    # TruncWeek yields a datetime on PostgreSQL and SQLite alike; be lenient with dates.
    return value.date() if isinstance(value, datetime) else value
