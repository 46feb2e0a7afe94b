"""A GIN index for the reflection list's full-text search, on PostgreSQL only.

SQLite has no GIN indexes; it searches by substring (reflections.selectors.reflections.search_text).
"""

from django.db import migrations

from reflections.search import SEARCH_DOCUMENT_SQL

INDEX = "refl_search"
# The index expression may not name the table, so it is written unqualified here.
EXPRESSION = SEARCH_DOCUMENT_SQL.replace('"reflections_reflection".', "")


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON reflections_reflection USING gin (({EXPRESSION}))"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("reflections", "0003_list_order_indexes")]

    operations = [migrations.RunPython(create, drop)]
