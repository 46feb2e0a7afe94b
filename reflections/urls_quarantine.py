"""Quarantine pages (admins only)."""

from django.urls import path

from reflections import views_quarantine as views

app_name = "quarantine"
urlpatterns = [
    path("", views.quarantine_list, name="list"),
    path("<int:pk>/", views.quarantine_detail, name="detail"),
    path("<int:pk>/findings/<int:finding_pk>/dismiss/", views.dismiss, name="dismiss"),
    path("<int:pk>/redact/", views.redact, name="redact"),
]
