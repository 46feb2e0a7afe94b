"""URL map of the quarterly review: cycles, queues, reports."""

from django.urls import path  # noqa: F401

app_name = "reviews"

urlpatterns: list = []
