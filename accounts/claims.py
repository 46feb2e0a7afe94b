"""What an identity provider's claims mean here: roles, department slugs and a username, as pure
functions over the claims (OIDC_ROLES_CLAIM, OIDC_ROLE_MAP, OIDC_DEPARTMENTS_CLAIM)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from reflections.access import ROLES

USERNAME_MAX_LENGTH = 150  # django.contrib.auth's


def parse_role_map(text: str) -> dict[str, str]:
    """ "rr-reviewers=reviewer,rr-admins=admin" → {claim value: role}. Empty: each role's own
    name stands for it. Several claim values may grant one role; a value grants one role."""
    if not text.strip():
        return {role: role for role in ROLES}
    mapping: dict[str, str] = {}
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        value, equals, role = (s.strip() for s in entry.rpartition("="))
        if not equals or not value:
            raise ImproperlyConfigured(f"OIDC_ROLE_MAP: {entry!r} is not claim-value=role")
        if role not in ROLES:
            raise ImproperlyConfigured(
                f"OIDC_ROLE_MAP: {entry!r} names no role (roles: {', '.join(ROLES)})"
            )
        if mapping.get(value, role) != role:
            raise ImproperlyConfigured(f"OIDC_ROLE_MAP: {value!r} is mapped to two roles")
        mapping[value] = role
    return mapping


def claim_values(value: object) -> list[str]:
    """A claim as a list of strings: providers send a list, or one string when there is one
    value; anything else (absent, null, a number) counts as its text or as nothing."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list | tuple | set | frozenset):
        return [str(item) for item in value if item is not None and str(item)]
    return [str(value)]


@dataclass(frozen=True)
class ClaimMapping:
    roles_claim: str = "groups"
    role_map: Mapping[str, str] = field(default_factory=lambda: parse_role_map(""))
    departments_claim: str = "departments"

    def roles(self, claims: Mapping[str, object]) -> frozenset[str]:
        """The roles the claims grant; values the map does not name grant nothing."""
        values = claim_values(claims.get(self.roles_claim))
        return frozenset(self.role_map[v] for v in values if v in self.role_map)

    def department_slugs(self, claims: Mapping[str, object]) -> frozenset[str]:
        return frozenset(claim_values(claims.get(self.departments_claim)))

    def no_role_message(self) -> str:
        return (
            "Your identity provider grants you no role in Reflexion Review "
            f"(claim '{self.roles_claim}'); ask your administrator."
        )


def mapping_from_settings() -> ClaimMapping:
    return ClaimMapping(
        roles_claim=settings.OIDC_ROLES_CLAIM,
        role_map=parse_role_map(settings.OIDC_ROLE_MAP),
        departments_claim=settings.OIDC_DEPARTMENTS_CLAIM,
    )


def username_from_claims(claims: Mapping[str, object]) -> str:
    """The name a new user gets: preferred_username, else email, else the subject. Only used
    when the user is created; later sign-ins find them by issuer and subject instead."""
    for name in ("preferred_username", "email", "sub"):
        value = claims.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()[:USERNAME_MAX_LENGTH]
    raise ValueError("claims: no preferred_username, email or sub")
