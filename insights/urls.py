"""URL map of the managers' insights pages."""

from django.urls import include, path

from insights.views import learning, overview, projection, runs, usefulness

app_name = "insights"

# The projection keeps a namespace of its own (insights:projection:page).
projection_pages = ([path("", projection.projection_page, name="page")], "projection")

urlpatterns = [
    path("", overview.overview, name="overview"),
    path("learning/", learning.learning, name="learning"),
    path("usefulness/", usefulness.usefulness, name="usefulness"),
    path("projection/", include(projection_pages)),
    path("runs/", runs.runs_page, name="runs"),
]
