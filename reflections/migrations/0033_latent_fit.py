"""The latent similarity backend's fit, stored beside the vectors it made (LatentFit), so a few
new texts are folded into it instead of refitting the whole installation."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('reflections', '0032_reflection_text_lz4'),
    ]

    operations = [
        migrations.CreateModel(
            name='LatentFit',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('identity', models.CharField(max_length=64, unique=True)),
                ('fitted', models.JSONField(default=dict)),
                ('folded', models.JSONField(default=dict)),
                ('model', models.BinaryField()),
                ('created_at', models.DateTimeField()),
            ],
        ),
    ]
