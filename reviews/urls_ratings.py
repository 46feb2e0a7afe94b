"""URL map of rating rounds and the rating page."""

app_name = "ratings"

urlpatterns: list = []
