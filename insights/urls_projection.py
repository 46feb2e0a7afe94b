"""URL map: the success projection page (included by insights.urls under /insights/projection/)."""

from django.urls import path

from insights import views_projection

app_name = "projection"

urlpatterns = [
    path("", views_projection.projection_page, name="page"),
]
