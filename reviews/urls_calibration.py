"""URL map: calibration pages of the quality rubric."""

app_name = "calibration"

urlpatterns: list = []
