"""URL map: quality pages of the quality rubric."""

app_name = "quality"

urlpatterns: list = []
