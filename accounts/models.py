"""Who an identity provider's user is here: the issuer and subject a user signed in with."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ProviderIdentity(models.Model):
    """One user at one OpenID Connect provider. The subject (`sub`) never changes for a person
    at an issuer, unlike their email or username, so later sign-ins find the same user by it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provider_identities"
    )
    issuer = models.CharField(max_length=255)
    subject = models.CharField(max_length=255)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sign_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Every sign-in looks the pair up; the unique index serves it.
            models.UniqueConstraint(fields=["issuer", "subject"], name="accounts_identity_unique")
        ]
        verbose_name_plural = "provider identities"

    def __str__(self) -> str:
        return f"{self.subject} at {self.issuer}"
