"""URL map: quality pages of the quality rubric."""

from django.urls import path

from reviews import views_quality

app_name = "quality"

urlpatterns = [
    path("", views_quality.quality_page, name="page"),
]
