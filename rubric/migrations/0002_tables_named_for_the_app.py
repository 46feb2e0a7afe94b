"""The rubric's tables take the rubric app's names (rubric_*), as a model created here would have."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('rubric', '0001_moved_from_reviews'),
    ]

    operations = [
        migrations.AlterModelTable(
            name='anchor',
            table=None,
        ),
        migrations.AlterModelTable(
            name='calibrationattempt',
            table=None,
        ),
        migrations.AlterModelTable(
            name='calibrationitem',
            table=None,
        ),
        migrations.AlterModelTable(
            name='calibrationpolicy',
            table=None,
        ),
        migrations.AlterModelTable(
            name='calibrationrating',
            table=None,
        ),
        migrations.AlterModelTable(
            name='calibrationset',
            table=None,
        ),
        migrations.AlterModelTable(
            name='criterion',
            table=None,
        ),
        migrations.AlterModelTable(
            name='goldscore',
            table=None,
        ),
        migrations.AlterModelTable(
            name='level',
            table=None,
        ),
        migrations.AlterModelTable(
            name='rating',
            table=None,
        ),
        migrations.AlterModelTable(
            name='ratingassignment',
            table=None,
        ),
        migrations.AlterModelTable(
            name='ratinground',
            table=None,
        ),
        migrations.AlterModelTable(
            name='rounditem',
            table=None,
        ),
        migrations.AlterModelTable(
            name='rubric',
            table=None,
        ),
    ]
