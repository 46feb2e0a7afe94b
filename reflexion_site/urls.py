"""URL map: sign-in, each app's pages under its prefix, admin."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from accounts import urls as accounts
from api import urls as agent_api
from api.main import api
from reflections import urls as memory
from reviews import urls as review
from rubric import urls as rubric
from webhooks import urls as webhooks

sign_out = auth_views.LogoutView.as_view()
single_sign_on = []
if settings.OIDC_ISSUER:
    # Single sign-on (accounts/oidc.py): its pages under /oidc/, and signing out through it.
    # Imported only here: without a provider nothing of it (nor mozilla-django-oidc) loads.
    from accounts import oidc

    sign_out = oidc.SignOut.as_view()
    single_sign_on = [path("oidc/", include(oidc.sign_in_pages))]

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="reflections:list", permanent=False)),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", sign_out, name="logout"),
    *single_sign_on,
    path("reflections/", include(memory.memory)),
    path("quarantine/", include(memory.quarantine_pages)),
    path("imports/", include(memory.import_pages)),
    path("reviews/", include(review.cycles)),
    path("deprecations/", include(review.deprecations)),
    path("ratings/", include(rubric.rounds)),
    path("calibration/", include(rubric.calibration_pages)),
    path("quality/", include(rubric.quality_pages)),
    path("agreement/", include(rubric.agreement_pages)),
    path("insights/", include("insights.urls")),
    path("api-tokens/", include(agent_api.token_pages)),
    path("sign-in-lockouts/", include(accounts.lockout_pages)),
    path("webhooks/", include(webhooks.endpoint_pages)),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
]
