"""App config for the demo: deterministic demo data and the commands that seed it."""

from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "demo"
    verbose_name = "Demo data"
