"""URL map: sign-in, the memory pages, admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="reflections:list", permanent=False)),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("reflections/", include("reflections.urls")),
    path("quarantine/", include("reflections.urls_quarantine")),
    path("reviews/", include("reviews.urls")),
    path("deprecations/", include("reviews.urls_export")),
    path("ratings/", include("reviews.urls_ratings")),
    path("calibration/", include("reviews.urls_calibration")),
    path("quality/", include("reviews.urls_quality")),
    path("agreement/", include("reviews.urls_agreement")),
    path("insights/", include("insights.urls")),
    path("admin/", admin.site.urls),
]
