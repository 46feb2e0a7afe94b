"""Keyset (cursor) pagination: a page is the rows after (or before) the last row seen, found
through the sort's index, so page 1,000 costs what page 1 costs (OFFSET reads and skips every
row before it).

An order is a tuple of `Key`s ending on a unique one (the id). A cursor is the sort values of
a boundary row, base64url JSON, opaque to the user and checked on the way in. "After the
cursor" is one row-value comparison, `(a, b, id) < (x, y, z)`, which PostgreSQL and SQLite
answer with an index range scan; every key of an order shares one direction so that a single
comparison holds. A key whose column can be NULL sorts its NULLs last and is paged in two
steps: the rows with a value, then the NULL rows by the rest of the keys.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection
from django.db.models import BooleanField, F, Q, QuerySet
from django.db.models.expressions import RawSQL

# An exact count above this would read the whole filtered table; past it the page says so.
COUNT_CAP = 10_000


@dataclass(frozen=True)
class Key:
    field: str  # a concrete column of the queryset's model
    descending: bool = True
    nullable: bool = False  # NULLs sort last


@dataclass
class Page:
    rows: list
    next_cursor: str | None  # rows after this page; None on the last page
    previous_cursor: str | None  # rows before it; None on the first page
    is_first: bool
    is_last: bool


class BadCursor(ValueError):
    """A cursor this order did not make (edited, or from another sort)."""


def order_by(keys: Sequence[Key]) -> list:
    """NULLS LAST only where a key can be NULL: on a NOT NULL column it would not match the
    column's index (`created_at DESC` is NULLS FIRST), and PostgreSQL would sort the table."""
    return [
        (F(k.field).desc(nulls_last=True) if k.descending else F(k.field).asc(nulls_last=True))
        if k.nullable
        else (F(k.field).desc() if k.descending else F(k.field).asc())
        for k in keys
    ]


def page(
    qs: QuerySet,
    keys: Sequence[Key],
    *,
    size: int,
    after: str | None = None,
    before: str | None = None,
    last: bool = False,
) -> Page:
    """One page of `qs` in the order of `keys`: the first, the one after `after`, the one
    before `before`, or the last."""
    if sum(bool(x) for x in (after, before, last)) > 1:
        raise BadCursor("give one of after, before and last")
    if before or last:
        boundary = _decode(before, keys) if before else None
        rows = _fetch(qs, keys, boundary, backwards=True, limit=size + 1)
        more_before = len(rows) > size
        rows = rows[:size][::-1]
        is_first, is_last = not more_before, bool(last)
    else:
        boundary = _decode(after, keys) if after else None
        rows = _fetch(qs, keys, boundary, backwards=False, limit=size + 1)
        more_after = len(rows) > size
        rows = rows[:size]
        is_first, is_last = boundary is None, not more_after
    return Page(
        rows=rows,
        next_cursor=None if is_last or not rows else encode(rows[-1], keys),
        previous_cursor=None if is_first or not rows else encode(rows[0], keys),
        is_first=is_first,
        is_last=is_last,
    )


def encode(row, keys: Sequence[Key]) -> str:
    return cursor_of([getattr(row, k.field) for k in keys])


def cursor_of(values: Sequence) -> str:
    """The cursor of a row with these sort values (a jump: a row that need not exist)."""
    raw = json.dumps([_plain(v) for v in values], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def capped_count(qs: QuerySet, cap: int = COUNT_CAP) -> tuple[int, bool]:
    """(count, exact): the exact count up to `cap` rows, else `cap` and False."""
    n = qs.order_by().values("pk")[: cap + 1].count()
    return (n, True) if n <= cap else (cap, False)


def estimated_count(qs: QuerySet) -> int | None:
    """The planner's estimate of the rows (PostgreSQL), read without counting them."""
    if connection.vendor != "postgresql":
        return None
    sql, params = qs.order_by().values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return int(plan[0]["Plan"]["Plan Rows"])


def _fetch(qs, keys, boundary, *, backwards: bool, limit: int) -> list:
    flipped = [Key(k.field, k.descending != backwards, k.nullable) for k in keys]
    nullable = next((i for i, k in enumerate(keys) if k.nullable), None)
    if nullable is None:
        if boundary is not None:
            qs = qs.filter(_beyond(qs, flipped, boundary))
        return list(qs.order_by(*order_by(flipped))[:limit])
    # NULLs last: going forward, the valued rows come first, then the NULL ones.
    field = keys[nullable].field
    valued = qs.filter(**{f"{field}__isnull": False})
    nulls = qs.filter(**{f"{field}__isnull": True})
    rest = [k for i, k in enumerate(flipped) if i != nullable]
    # The valued part holds no NULL: ordered without NULLS LAST, it is a plain index's order.
    present = [Key(k.field, k.descending) for k in flipped]
    parts = [(valued, present), (nulls, rest)]
    if backwards:
        parts.reverse()
    rows: list = []
    for part_qs, part_keys in parts:
        positioned = part_qs
        if boundary is not None:
            in_nulls = boundary[nullable] is None
            if (part_qs is nulls) != in_nulls:
                # The boundary lies in the other part: this part comes wholly after it, or
                # wholly before it (then it is skipped).
                if (part_qs is nulls) != backwards:
                    positioned = part_qs
                else:
                    continue
            else:
                values = boundary if part_qs is valued else [
                    v for i, v in enumerate(boundary) if i != nullable
                ]  # fmt: skip
                positioned = part_qs.filter(_beyond(part_qs, part_keys, values))
        rows += list(positioned.order_by(*order_by(part_keys))[: limit - len(rows)])
        if len(rows) >= limit:
            break
    return rows


def _beyond(qs: QuerySet, keys: Sequence[Key], values: Sequence) -> Q:
    """Rows strictly after `values` in the order of `keys` (which share one direction)."""
    table = connection.ops.quote_name(qs.model._meta.db_table)
    columns = ", ".join(
        f"{table}.{connection.ops.quote_name(qs.model._meta.get_field(k.field).column)}"
        for k in keys
    )
    marks = ", ".join(["%s"] * len(keys))
    op = "<" if keys[0].descending else ">"
    return Q(
        RawSQL(  # noqa: S611 - columns come from model metadata; values are bound parameters
            f"({columns}) {op} ({marks})",
            [_adapted(v) for v in values],
            output_field=BooleanField(),
        )
    )


def _adapted(value):
    """A value as the column stores it (SQLite keeps datetimes as naive UTC text)."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    if isinstance(value, date):
        return connection.ops.adapt_datefield_value(value)
    return value


def _decode(cursor: str, keys: Sequence[Key]) -> list:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise BadCursor("not a cursor") from None
    if not isinstance(values, list) or len(values) != len(keys):
        raise BadCursor("a cursor of another order")
    return [_typed(v) for v in values]


def _plain(value):
    if isinstance(value, datetime):
        return {"t": value.isoformat()}
    if isinstance(value, date):
        return {"d": value.isoformat()}
    return value


def _typed(value):
    if isinstance(value, dict):
        if "t" in value:
            return datetime.fromisoformat(value["t"])
        if "d" in value:
            return date.fromisoformat(value["d"])
        raise BadCursor("a cursor value of an unknown kind")
    if value is not None and not isinstance(value, int | float | str):
        raise BadCursor("a cursor value of an unknown kind")
    return value
