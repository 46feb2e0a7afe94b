"""URL map of the managers' insights pages."""

app_name = "insights"

urlpatterns: list = []
