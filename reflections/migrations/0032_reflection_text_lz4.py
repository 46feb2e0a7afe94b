"""A reflection's long values compressed with LZ4 rather than PostgreSQL's default pglz, on
PostgreSQL servers built with it (every packaged PostgreSQL since 14 is).

A row is ~3 kB: the file as written, its body, its sections and the search document. Past 2 kB
PostgreSQL compresses the largest values on write and decompresses them on every read; pglz
costs several times LZ4's CPU both ways. The 10,000-file import: 3.59 → 3.43 s (median of four,
alternating; docs/benchmarks.md). Keeping such rows whole in their page instead
(toast_tuple_target 8160) gained twice that on the import but made every counter update
copy the whole text (a rollup's UPDATE of 100,000 reflections 10-20 % slower) and the table 11 %
larger: rejected. Applies to values written from now on; nothing is rewritten.
"""

from django.db import migrations

COLUMNS = ("original_text", "body", "sections", "search_document", "tags", "skills", "tools")


def _lz4_available(schema_editor) -> bool:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def _set(schema_editor, method: str) -> None:
    alters = ", ".join(f"ALTER COLUMN {column} SET COMPRESSION {method}" for column in COLUMNS)
    schema_editor.execute(f"ALTER TABLE reflections_reflection {alters}")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql" and _lz4_available(schema_editor):
        _set(schema_editor, "lz4")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        _set(schema_editor, "DEFAULT")


class Migration(migrations.Migration):
    dependencies = [("reflections", "0031_reflection_fk_indexes_covered")]

    operations = [migrations.RunPython(forwards, backwards)]
