"""The database cache's table, made by `migrate` itself (issue 31): a database made by
`migrate` alone had none, and every page logged a warning until `createcachetable` ran.
Nothing to do when the cache is Redis (REDIS_URL); `createcachetable` skips a table that
exists, so running it again is harmless."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("reflections", "0028_import_job_progress")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
