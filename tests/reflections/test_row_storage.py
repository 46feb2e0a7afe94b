"""How a reflection's long values are stored on PostgreSQL (migration 0032)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.factories import ReflectionFactory

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="TOAST is PostgreSQL's storage"
)


def _compression_of(pk: int) -> list[str | None]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(original_text), pg_column_compression(body), "
            "pg_column_compression(search_document) FROM reflections_reflection WHERE id = %s",
            [pk],
        )
        return list(cursor.fetchone())


def _server_has_lz4() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        return bool(cursor.fetchone()[0])


@pytest.mark.django_db
def test_a_reflections_long_text_is_compressed_with_lz4_where_the_server_has_it():
    if not _server_has_lz4():
        pytest.skip("this PostgreSQL was built without LZ4: the default stays")
    text = "Check the transfers before the ledger is closed. " * 60  # ~3 kB each
    reflection = ReflectionFactory(original_text=text, body=text)

    assert _compression_of(reflection.pk)[:2] == ["lz4", "lz4"]


@pytest.mark.django_db
def test_a_short_reflection_is_stored_as_it_is():
    reflection = ReflectionFactory()

    assert _compression_of(reflection.pk) == [None, None, None]
