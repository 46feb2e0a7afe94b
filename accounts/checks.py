"""Start-up checks of the single sign-on settings: a role map that names no role fails early."""

from __future__ import annotations

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured


def check_role_map(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if not settings.OIDC_ISSUER:
        return []
    from accounts.claims import parse_role_map

    try:
        parse_role_map(settings.OIDC_ROLE_MAP)
    except ImproperlyConfigured as exc:
        return [checks.Error(str(exc), id="accounts.E001")]
    return []
