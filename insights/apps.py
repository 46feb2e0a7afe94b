"""App config for insights: managers' learning curves, usefulness, projection (DOMAIN §7)."""

from django.apps import AppConfig


class InsightsConfig(AppConfig):
    name = "insights"
    verbose_name = "Insights"
