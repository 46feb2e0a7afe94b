"""A GIN index for the reflection list's full-text search, on PostgreSQL only.

SQLite has no GIN indexes; it searches by substring (reflections.selectors.reflections.search_text).
"""

from django.db import migrations

# The index on the expression, as it was then (0030 replaced it by a stored column's index).
SEARCH_INDEX = "refl_search"
CREATE_SEARCH_INDEX_SQL = (
    f"CREATE INDEX IF NOT EXISTS {SEARCH_INDEX} ON reflections_reflection USING gin "
    "((to_tsvector('english'::regconfig, translate(\"source_path\", '/._', '   ') || ' ' || "
    '"title" || \' \' || "body")))'
)


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE_SEARCH_INDEX_SQL)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {SEARCH_INDEX}")


class Migration(migrations.Migration):
    dependencies = [("reflections", "0003_list_order_indexes")]

    operations = [migrations.RunPython(create, drop)]
