"""What every insights read shares: the UTC day boundaries, date coercion and department scope."""

from __future__ import annotations

from datetime import UTC, date, datetime, time


def start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def as_date(value) -> date:
    # TruncWeek / TruncDate give datetimes or dates depending on the backend.
    return value.date() if isinstance(value, datetime) else value


def scoped(qs, department_ids: list[int] | None, path: str = "department_id"):
    return qs if department_ids is None else qs.filter(**{f"{path}__in": department_ids})
