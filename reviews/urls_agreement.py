"""URL map: agreement pages of the quality rubric."""

app_name = "agreement"

urlpatterns: list = []
