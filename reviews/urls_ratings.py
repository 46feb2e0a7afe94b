"""URL map of rating rounds and the rating page."""

from django.urls import path

from reviews import views_ratings as views

app_name = "ratings"

urlpatterns = [
    path("", views.round_list, name="list"),
    path("new/", views.round_new, name="new"),
    path("<int:pk>/", views.round_detail, name="round"),
    path("<int:pk>/close/", views.round_close, name="close"),
    path("<int:pk>/rate/", views.rate, name="rate"),
    path("<int:pk>/rate/<int:assignment>/", views.rate_submit, name="submit"),
]
