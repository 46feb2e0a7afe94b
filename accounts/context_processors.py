"""Template context of the sign-in page: the identity provider's button, when one is configured."""

from django.conf import settings


def single_sign_on(request):
    return {"single_sign_on": settings.OIDC_PROVIDER_NAME if settings.OIDC_ISSUER else None}
