"""App config for the quality rubric: versions, calibration, rating rounds, agreement, quality."""

from django.apps import AppConfig


class RubricConfig(AppConfig):
    name = "rubric"
    verbose_name = "Quality rubric"

    def ready(self) -> None:
        from reflections import panels
        from rubric.panels import quality_panel

        panels.register(quality_panel)
