"""URL map: calibration pages of the quality rubric."""

from django.urls import path

from reviews import views_calibration as views

app_name = "calibration"

urlpatterns = [
    path("", views.status, name="status"),
    path("start/", views.start, name="start"),
    path("attempts/<int:pk>/", views.attempt_detail, name="attempt"),
    path("attempts/<int:pk>/items/<int:position>/", views.item, name="item"),
    path("attempts/<int:pk>/items/<int:position>/rate/", views.rate, name="rate"),
    path("attempts/<int:pk>/submit/", views.submit, name="submit"),
    path("policy/", views.policy, name="policy"),
    path("rubric/", views.rubric, name="rubric"),
    path("rubric/v<int:version>/", views.rubric_version, name="rubric-version"),
    path("sets/", views.set_list, name="sets"),
    path("sets/new/", views.set_new, name="set-new"),
]
