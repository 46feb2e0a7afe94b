"""Keyset pagination: paging forward from the first page, backward from the last, or from any
cursor, meets every row exactly once in the order the keys give, ties and NULLs included."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reflections.models import Reflection
from reflections.selectors.reflections import LIST_SORTS
from reflexion_site import keyset
from reflexion_site.keyset import Key
from tests.factories import AgentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 3, 1, tzinfo=UTC)
ORDERS = {
    "newest first": (Key("created_at"), Key("id")),
    "oldest first": (Key("created_at", False), Key("id", False)),
    "most retrieved": (Key("retrieval_count"), Key("id")),
    "recently retrieved": (Key("last_retrieved_at", nullable=True), Key("id")),
}


def expected(keys) -> list[int]:
    """The order the keys mean, computed in Python: NULLs last, ties by id."""
    rows = list(Reflection.objects.all())

    def sort_key(row):
        parts = []
        for k in keys:
            value = getattr(row, k.field)
            if k.nullable:
                parts.append(value is None)  # NULLs last whatever the direction
                value = value if value is not None else T0
            if isinstance(value, datetime):
                value = value.timestamp()
            parts.append(-value if k.descending else value)
        return parts

    return [row.pk for row in sorted(rows, key=sort_key)]


def forward(keys, size) -> list[int]:
    seen, cursor = [], None
    while True:
        page = keyset.page(Reflection.objects.all(), keys, size=size, after=cursor)
        seen += [r.pk for r in page.rows]
        if page.is_last:
            return seen
        cursor = page.next_cursor


def backward(keys, size) -> list[int]:
    page = keyset.page(Reflection.objects.all(), keys, size=size, last=True)
    seen = [r.pk for r in page.rows]
    while not page.is_first:
        page = keyset.page(Reflection.objects.all(), keys, size=size, before=page.previous_cursor)
        seen = [r.pk for r in page.rows] + seen
    return seen


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 2), st.one_of(st.none(), st.integers(0, 3))),
        min_size=0,
        max_size=14,
    ),
    size=st.integers(1, 5),
)
def test_every_row_once_in_order_forward_and_backward(rows, size):
    Reflection.objects.all().delete()
    agent = AgentFactory()
    for created, count, retrieved in rows:
        ReflectionFactory(
            agent=agent,
            created_at=T0 + timedelta(days=created),
            retrieval_count=count,
            last_retrieved_at=None if retrieved is None else T0 + timedelta(days=retrieved),
        )
    for keys in ORDERS.values():
        assert forward(keys, size) == expected(keys)
        assert backward(keys, size) == expected(keys)


def test_a_cursor_of_another_order_is_refused():
    ReflectionFactory()
    cursor = keyset.cursor_of([1])

    with pytest.raises(keyset.BadCursor):
        keyset.page(Reflection.objects.all(), ORDERS["newest first"], size=2, after=cursor)


def test_a_count_stops_at_its_cap():
    for _ in range(4):
        ReflectionFactory()

    assert keyset.capped_count(Reflection.objects.all(), cap=3) == (3, False)
    assert keyset.capped_count(Reflection.objects.all(), cap=10) == (4, True)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
@pytest.mark.parametrize("sort", sorted(LIST_SORTS))
def test_every_list_order_is_read_from_an_index_not_sorted(sort):
    """With sorting made a last resort, the first page of each of the list's orders still
    needs no sort: an index holds the order (the valued part of a nullable key included)."""
    ReflectionFactory.create_batch(3, last_retrieved_at=T0)
    ReflectionFactory.create_batch(2)
    keys = LIST_SORTS[sort][1]
    with CaptureQueriesContext(connection) as ctx:
        keyset.page(Reflection.objects.all(), keys, size=2)
    statements = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        for sql in statements:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
            assert "Sort Key" not in plan, plan
