# A reflection's injections carry their run's finished_at, so that the reflection page reads
# them newest first, a page at a time, from one index range (issue 14 and 16).

from django.db import migrations, models

COPY = (
    "UPDATE reflections_taskinjection SET finished_at = t.finished_at "
    "FROM reflections_taskrun t WHERE t.id = reflections_taskinjection.task_run_id"
)


class Migration(migrations.Migration):

    dependencies = [
        ('reflections', '0023_covering_day_indexes'),
    ]

    operations = [
        migrations.AddField(
            model_name='taskinjection',
            name='finished_at',
            field=models.DateTimeField(null=True),
        ),
        migrations.RunSQL(COPY, migrations.RunSQL.noop),
        migrations.AlterField(
            model_name='taskinjection',
            name='finished_at',
            field=models.DateTimeField(),
        ),
        migrations.AddIndex(
            model_name='taskinjection',
            index=models.Index(fields=['reflection', 'finished_at', 'id'], name='injection_reflection_finished'),
        ),
    ]
