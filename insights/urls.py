"""URL map of the managers' insights pages."""

from django.urls import include, path

from insights import views

app_name = "insights"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("learning/", views.learning, name="learning"),
    path("usefulness/", views.usefulness, name="usefulness"),
    path("projection/", include("insights.urls_projection")),
]
