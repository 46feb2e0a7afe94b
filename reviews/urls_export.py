"""URL map of the deprecation exports (CSV and JSON)."""

from django.urls import path  # noqa: F401

app_name = "deprecations"

urlpatterns: list = []
