"""App config for reviews: review cycles, verdicts, rubric ratings (filled by later issues)."""

from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    name = "reviews"
    verbose_name = "Reviews and ratings"
