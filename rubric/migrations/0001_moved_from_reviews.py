"""The rubric's models move here from the reviews app, where migration 0002 created their tables.

Nothing changes in the database: the models enter this app's state with their existing
`reviews_*` tables (reviews 0003 takes them out of that app's state), their content types move
with them so permissions and admin history stay attached, and 0002 renames the tables.
"""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = (
    "anchor",
    "calibrationattempt",
    "calibrationitem",
    "calibrationpolicy",
    "calibrationrating",
    "calibrationset",
    "criterion",
    "goldscore",
    "level",
    "rating",
    "ratingassignment",
    "ratinground",
    "rounditem",
    "rubric",
)


def _relabel(apps, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    taken = set(content_type.objects.filter(app_label=new).values_list("model", flat=True))
    content_type.objects.filter(app_label=old, model__in=set(MODELS) - taken).update(
        app_label=new
    )


def move_content_types(apps, schema_editor):
    _relabel(apps, "reviews", "rubric")


def reverse_content_types(apps, schema_editor):
    _relabel(apps, "rubric", "reviews")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('reflections', '0009_injection_count'),
        ('reviews', '0002_rubric_and_ratings'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name='Criterion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(choices=[('specificity', 'Specificity'), ('actionability', 'Actionability'), ('transferability', 'Transferability'), ('accuracy', 'Accuracy')], max_length=32)),
                ('name', models.CharField(max_length=64)),
                ('question', models.TextField()),
                ('position', models.PositiveSmallIntegerField()),
            ],
            options={
                'db_table': 'reviews_criterion',
                'ordering': ['rubric_id', 'position'],
            },
        ),
        migrations.CreateModel(
            name='CalibrationPolicy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('pass_kappa', models.FloatField(default=0.6, validators=[django.core.validators.MinValueValidator(-1.0), django.core.validators.MaxValueValidator(1.0)])),
                ('require_each_quarter', models.BooleanField(default=False)),
                ('updated_at', models.DateTimeField(blank=True, null=True)),
                ('updated_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'reviews_calibrationpolicy',
            },
        ),
        migrations.CreateModel(
            name='CalibrationSet',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=128)),
                ('is_active', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField()),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'reviews_calibrationset',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='CalibrationItem',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('reflection', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='reflections.reflection')),
                ('calibration_set', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='items', to='rubric.calibrationset')),
            ],
            options={
                'db_table': 'reviews_calibrationitem',
                'ordering': ['calibration_set_id', 'position'],
            },
        ),
        migrations.CreateModel(
            name='Anchor',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('value', models.FloatField(choices=[(0.0, '0'), (0.25, '0.25'), (0.5, '0.5'), (0.75, '0.75'), (1.0, '1')])),
                ('text', models.TextField()),
                ('criterion', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='anchors', to='rubric.criterion')),
            ],
            options={
                'db_table': 'reviews_anchor',
                'ordering': ['criterion_id', '-value', 'id'],
            },
        ),
        migrations.CreateModel(
            name='GoldScore',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('criterion', models.CharField(choices=[('specificity', 'Specificity'), ('actionability', 'Actionability'), ('transferability', 'Transferability'), ('accuracy', 'Accuracy')], max_length=32)),
                ('level', models.FloatField(choices=[(0.0, '0'), (0.25, '0.25'), (0.5, '0.5'), (0.75, '0.75'), (1.0, '1')])),
                ('item', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='gold', to='rubric.calibrationitem')),
            ],
            options={
                'db_table': 'reviews_goldscore',
            },
        ),
        migrations.CreateModel(
            name='Level',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('value', models.FloatField(choices=[(0.0, '0'), (0.25, '0.25'), (0.5, '0.5'), (0.75, '0.75'), (1.0, '1')])),
                ('description', models.TextField()),
                ('criterion', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='levels', to='rubric.criterion')),
            ],
            options={
                'db_table': 'reviews_level',
                'ordering': ['criterion_id', 'value'],
            },
        ),
        migrations.CreateModel(
            name='RatingRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=128)),
                ('size', models.PositiveIntegerField()),
                ('raters_per_item', models.PositiveSmallIntegerField(default=3)),
                ('seed', models.BigIntegerField()),
                ('created_at', models.DateTimeField()),
                ('closed_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('raters', models.ManyToManyField(related_name='rating_rounds', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'reviews_ratinground',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='RoundItem',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveIntegerField()),
                ('stratum', models.CharField(max_length=255)),
                ('rating_round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='items', to='rubric.ratinground')),
                ('reflection', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='reflections.reflection')),
            ],
            options={
                'db_table': 'reviews_rounditem',
                'ordering': ['rating_round_id', 'position'],
            },
        ),
        migrations.CreateModel(
            name='RatingAssignment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('comment', models.TextField(blank=True, default='')),
                ('shown_at', models.DateTimeField(blank=True, null=True)),
                ('submitted_at', models.DateTimeField(blank=True, null=True)),
                ('rater', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rating_assignments', to=settings.AUTH_USER_MODEL)),
                ('item', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assignments', to='rubric.rounditem')),
            ],
            options={
                'db_table': 'reviews_ratingassignment',
                'ordering': ['item_id', 'rater_id'],
            },
        ),
        migrations.CreateModel(
            name='Rubric',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField(unique=True)),
                ('note', models.TextField(blank=True, default='')),
                ('created_at', models.DateTimeField()),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'reviews_rubric',
                'ordering': ['-version'],
            },
        ),
        migrations.AddField(
            model_name='ratinground',
            name='rubric',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='rubric.rubric'),
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('criterion', models.CharField(choices=[('specificity', 'Specificity'), ('actionability', 'Actionability'), ('transferability', 'Transferability'), ('accuracy', 'Accuracy')], max_length=32)),
                ('level', models.FloatField(choices=[(0.0, '0'), (0.25, '0.25'), (0.5, '0.5'), (0.75, '0.75'), (1.0, '1')])),
                ('rated_at', models.DateTimeField()),
                ('source', models.CharField(choices=[('round', 'Rating round'), ('import', 'Imported')], max_length=8)),
                ('rater', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ratings', to=settings.AUTH_USER_MODEL)),
                ('reflection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='reflections.reflection')),
                ('assignment', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='rubric.ratingassignment')),
                ('rubric', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='rubric.rubric')),
            ],
            options={
                'db_table': 'reviews_rating',
                'ordering': ['reflection_id', 'criterion', 'rater_id'],
            },
        ),
        migrations.AddField(
            model_name='criterion',
            name='rubric',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='criteria', to='rubric.rubric'),
        ),
        migrations.CreateModel(
            name='CalibrationAttempt',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('started_at', models.DateTimeField()),
                ('submitted_at', models.DateTimeField(blank=True, null=True)),
                ('kappa', models.JSONField(default=dict)),
                ('exact', models.JSONField(default=dict)),
                ('pass_kappa', models.FloatField(blank=True, null=True)),
                ('passed', models.BooleanField(null=True)),
                ('rater', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='calibration_attempts', to=settings.AUTH_USER_MODEL)),
                ('calibration_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='attempts', to='rubric.calibrationset')),
                ('rubric', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='rubric.rubric')),
            ],
            options={
                'db_table': 'reviews_calibrationattempt',
                'ordering': ['-started_at'],
            },
        ),
        migrations.CreateModel(
            name='CalibrationRating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('criterion', models.CharField(choices=[('specificity', 'Specificity'), ('actionability', 'Actionability'), ('transferability', 'Transferability'), ('accuracy', 'Accuracy')], max_length=32)),
                ('level', models.FloatField(choices=[(0.0, '0'), (0.25, '0.25'), (0.5, '0.5'), (0.75, '0.75'), (1.0, '1')])),
                ('rated_at', models.DateTimeField()),
                ('attempt', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='rubric.calibrationattempt')),
                ('item', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='rubric.calibrationitem')),
            ],
            options={
                'db_table': 'reviews_calibrationrating',
                'constraints': [models.UniqueConstraint(fields=('attempt', 'item', 'criterion'), name='calibration_rating_unique')],
            },
        ),
        migrations.AddConstraint(
            model_name='calibrationset',
            constraint=models.UniqueConstraint(condition=models.Q(('is_active', True)), fields=('is_active',), name='one_active_set'),
        ),
        migrations.AddConstraint(
            model_name='calibrationitem',
            constraint=models.UniqueConstraint(fields=('calibration_set', 'reflection'), name='calibration_item_unique'),
        ),
        migrations.AddConstraint(
            model_name='goldscore',
            constraint=models.UniqueConstraint(fields=('item', 'criterion'), name='gold_unique'),
        ),
        migrations.AddConstraint(
            model_name='level',
            constraint=models.UniqueConstraint(fields=('criterion', 'value'), name='level_unique_value'),
        ),
        migrations.AddConstraint(
            model_name='rounditem',
            constraint=models.UniqueConstraint(fields=('rating_round', 'reflection'), name='round_item_unique'),
        ),
        migrations.AddIndex(
            model_name='ratingassignment',
            index=models.Index(fields=['rater', 'submitted_at'], name='assignment_queue'),
        ),
        migrations.AddConstraint(
            model_name='ratingassignment',
            constraint=models.UniqueConstraint(fields=('item', 'rater'), name='assignment_unique'),
        ),
        migrations.AddIndex(
            model_name='rating',
            index=models.Index(fields=['reflection', 'criterion'], name='rating_reflection'),
        ),
        migrations.AddIndex(
            model_name='rating',
            index=models.Index(fields=['rated_at'], name='rating_rated_at'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('rater', 'reflection', 'criterion', 'rated_at'), name='rating_unique'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(condition=models.Q(('assignment__isnull', False)), fields=('assignment', 'criterion'), name='rating_unique_in_assignment'),
        ),
        migrations.AddConstraint(
            model_name='criterion',
            constraint=models.UniqueConstraint(fields=('rubric', 'key'), name='criterion_unique_key'),
        ),
        migrations.AddIndex(
            model_name='calibrationattempt',
            index=models.Index(fields=['rater', '-submitted_at'], name='calibration_rater'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(move_content_types, reverse_content_types),
    ]
