"""URL map of the deprecation exports (CSV and JSON)."""

from django.urls import path

from reviews import views_export

app_name = "deprecations"

urlpatterns = [
    path("deprecations.csv", views_export.deprecations_csv, name="csv"),
    path("deprecations.json", views_export.deprecations_json, name="json"),
]
