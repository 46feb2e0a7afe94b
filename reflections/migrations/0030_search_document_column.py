"""The full-text search document as a stored generated column with the GIN index on it, on
PostgreSQL only (reflections/search.py says why). Rewrites the reflection table once."""

from django.db import migrations

# As migration 0004 created it: the index on the expression.
EXPRESSION_INDEX_SQL = (
    "CREATE INDEX IF NOT EXISTS refl_search ON reflections_reflection USING gin "
    "((to_tsvector('english'::regconfig, translate(\"source_path\", '/._', '   ') || ' ' || "
    '"title" || \' \' || "body")))'
)
EXPRESSION = (
    "to_tsvector('english'::regconfig, "
    "translate(source_path, '/._', '   ') || ' ' || title || ' ' || body)"
)


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE reflections_reflection ADD COLUMN IF NOT EXISTS search_document "
            f"tsvector GENERATED ALWAYS AS ({EXPRESSION}) STORED"
        )
        schema_editor.execute("DROP INDEX IF EXISTS refl_search")
        schema_editor.execute(
            "CREATE INDEX refl_search ON reflections_reflection USING gin (search_document)"
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS refl_search")
        schema_editor.execute(
            "ALTER TABLE reflections_reflection DROP COLUMN IF EXISTS search_document"
        )
        schema_editor.execute(EXPRESSION_INDEX_SQL)


class Migration(migrations.Migration):
    dependencies = [("reflections", "0029_cache_table")]

    operations = [migrations.RunPython(forwards, backwards)]
