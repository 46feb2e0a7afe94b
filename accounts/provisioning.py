"""Users from the identity provider: created at their first sign-in, their roles and departments
replaced by their claims at every sign-in, refused (with the reason) when the claims grant none."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from accounts.claims import ClaimMapping, username_from_claims
from accounts.models import ProviderIdentity
from reflections.access import ROLES
from reflections.models import Department

log = logging.getLogger(__name__)


class SignInRefused(Exception):
    """The provider vouched for the person, but they may not sign in here; says why."""


def sign_in_from_claims(*, issuer: str, claims: Mapping[str, object], mapping: ClaimMapping):
    """The user these claims (already verified by the caller) stand for, with exactly the roles
    and departments the claims grant now. A known user whose claims now grant no role loses
    their roles and departments and is refused; an unknown one is refused and not created."""
    user, roles = _apply_claims(issuer=issuer, claims=claims, mapping=mapping)
    if not roles:
        log.info("Single sign-on refused (no role): subject %r of %s", claims.get("sub"), issuer)
        raise SignInRefused(mapping.no_role_message())
    return user


@transaction.atomic
def _apply_claims(*, issuer: str, claims: Mapping[str, object], mapping: ClaimMapping):
    subject = str(claims["sub"])
    roles = mapping.roles(claims)
    identity = (
        ProviderIdentity.objects.select_for_update()
        .select_related("user")
        .filter(issuer=issuer, subject=subject)
        .first()
    )
    if identity is None:
        if not roles:
            return None, roles
        identity = _create_user(issuer=issuer, subject=subject, claims=claims)
    user = identity.user
    if not user.is_active:
        raise SignInRefused("Your Reflexion Review account is deactivated; ask your administrator.")

    # Only the role groups are the provider's to grant; any other group stays as it is.
    user.groups.remove(*Group.objects.filter(name__in=ROLES).exclude(name__in=roles))
    user.groups.add(*(Group.objects.get_or_create(name=role)[0] for role in sorted(roles)))
    # No role, no departments: a refused user keeps nothing the claims no longer grant.
    slugs = mapping.department_slugs(claims) if roles else frozenset()
    user.departments.set(_departments(slugs, subject=subject))
    _update_profile(user, claims)
    identity.last_sign_in_at = timezone.now()
    identity.save(update_fields=["last_sign_in_at"])
    # user_roles() caches what it read; this object's roles just changed.
    user.__dict__.pop("_reflexion_roles", None)
    return user, roles


def _create_user(*, issuer: str, subject: str, claims: Mapping[str, object]) -> ProviderIdentity:
    username = username_from_claims(claims)
    users = get_user_model().objects
    if users.filter(username__iexact=username).exists():
        # Never taken over by a provider's word: it may be a password user, or an admin.
        log.warning(
            "Single sign-on refused: username %r exists, not linked to %s", username, issuer
        )
        raise SignInRefused(
            f"An account named '{username}' exists already and is not linked to your identity "
            "provider; ask your administrator."
        )
    # No password: the provider is the only way in (create_user makes it unusable).
    user = users.create_user(username, email=_text(claims, "email"))
    log.info("Single sign-on created user %r for subject %r of %s", username, subject, issuer)
    return ProviderIdentity.objects.create(user=user, issuer=issuer, subject=subject)


def _departments(slugs: frozenset[str], *, subject: str) -> list[Department]:
    found = list(Department.objects.filter(slug__in=slugs))
    unknown = slugs - {department.slug for department in found}
    if unknown:
        # Departments come from imports and admins, never from a provider's claims.
        log.warning(
            "Single sign-on: unknown department slugs ignored for subject %r: %s",
            subject,
            ", ".join(sorted(unknown)),
        )
    return found


def _update_profile(user, claims: Mapping[str, object]) -> None:
    fields = {
        "email": _text(claims, "email"),
        "first_name": _text(claims, "given_name")[:150],
        "last_name": _text(claims, "family_name")[:150],
    }
    changed = [name for name, value in fields.items() if getattr(user, name) != value]
    for name in changed:
        setattr(user, name, fields[name])
    if changed:
        user.save(update_fields=changed)


def _text(claims: Mapping[str, object], name: str) -> str:
    value = claims.get(name)
    return value.strip() if isinstance(value, str) else ""
