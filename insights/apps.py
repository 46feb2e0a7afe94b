"""App config for insights: managers' learning curves, usefulness, projection (DOMAIN §7)."""

from django.apps import AppConfig


class InsightsConfig(AppConfig):
    name = "insights"
    verbose_name = "Insights"

    def ready(self) -> None:
        import altair as alt

        # altair's debug mode validates every encoding and mark against the Vega-Lite schema
        # as it is made: ~120 ms of a chart page. The whole spec is validated once at the end
        # where it matters (CHARTS_VALIDATE: every test), so the piecewise checks go.
        alt.utils.schemapi.disable_debug_mode()
