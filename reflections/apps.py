"""App config for the memory."""

from django.apps import AppConfig


class ReflectionsConfig(AppConfig):
    name = "reflections"
    verbose_name = "Reflection memory"

    def ready(self) -> None:
        from reflections import receivers

        receivers.connect()
