"""URL map: agreement pages of the quality rubric."""

from django.urls import path

from reviews import views_agreement

app_name = "agreement"

urlpatterns = [
    path("", views_agreement.agreement_page, name="page"),
]
