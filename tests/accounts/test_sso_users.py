"""Users from the identity provider (accounts.provisioning): created at the first sign-in with no
password, found again by issuer and subject, their roles and departments replaced by their claims
at every sign-in, refused when the claims grant no role; password users are never touched."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import get_user_model

from accounts.claims import ClaimMapping, parse_role_map
from accounts.models import ProviderIdentity
from accounts.provisioning import SignInRefused, sign_in_from_claims
from reflections.access import user_roles
from tests.factories import DepartmentFactory, UserFactory

pytestmark = pytest.mark.django_db

ISSUER = "https://id.example.org/realms/acme"
MAPPING = ClaimMapping(role_map=parse_role_map("rr-reviewers=reviewer,rr-managers=manager"))
NO_ROLE = (
    "Your identity provider grants you no role in Reflexion Review (claim 'groups'); "
    "ask your administrator."
)


def sign_in(claims: dict, *, issuer: str = ISSUER):
    user = sign_in_from_claims(issuer=issuer, claims=claims, mapping=MAPPING)
    return get_user_model().objects.get(pk=user.pk)  # as the next request will read it


def roles_of(user) -> set[str]:
    return set(get_user_model().objects.get(pk=user.pk).groups.values_list("name", flat=True))


def departments_of(user) -> set[str]:
    return set(user.departments.values_list("slug", flat=True))


@pytest.fixture
def coding():
    return DepartmentFactory(slug="coding")


@pytest.fixture
def ops():
    return DepartmentFactory(slug="ops")


def test_the_first_sign_in_creates_the_user_with_roles_departments_and_no_password(coding):
    user = sign_in(
        {
            "sub": "u-1",
            "preferred_username": "ada",
            "email": "ada@example.org",
            "given_name": "Ada",
            "groups": ["rr-reviewers", "staff"],
            "departments": ["coding"],
        }
    )

    assert (user.username, user.email, user.first_name) == ("ada", "ada@example.org", "Ada")
    assert not user.has_usable_password()
    assert roles_of(user) == {"reviewer"}
    assert departments_of(user) == {"coding"}
    identity = ProviderIdentity.objects.get(user=user)
    assert (identity.issuer, identity.subject) == (ISSUER, "u-1")
    assert identity.last_sign_in_at is not None


def test_unknown_department_slugs_are_ignored_logged_and_never_created(coding, caplog):
    with caplog.at_level(logging.WARNING, logger="accounts.provisioning"):
        user = sign_in({"sub": "u-1", "groups": ["rr-reviewers"], "departments": ["coding", "x"]})

    assert departments_of(user) == {"coding"}
    assert not user.departments.model.objects.filter(slug="x").exists()
    assert "unknown department slugs ignored for subject 'u-1': x" in caplog.text


def test_claims_that_grant_no_role_are_refused_and_create_nobody():
    with pytest.raises(SignInRefused) as refused:
        sign_in({"sub": "u-2", "preferred_username": "bo", "groups": ["staff"]})

    assert str(refused.value) == NO_ROLE
    assert not get_user_model().objects.filter(username="bo").exists()
    assert not ProviderIdentity.objects.exists()


def test_a_role_change_at_the_next_sign_in_replaces_the_old_roles_and_departments(coding, ops):
    first = sign_in({"sub": "u-1", "groups": ["rr-reviewers"], "departments": ["coding"]})

    second = sign_in({"sub": "u-1", "groups": ["rr-managers"], "departments": ["ops"]})

    assert second.pk == first.pk
    assert roles_of(second) == {"manager"}
    assert user_roles(second) == {"manager"}
    assert departments_of(second) == {"ops"}


def test_a_known_user_whose_claims_now_grant_no_role_loses_roles_and_departments(coding):
    user = sign_in({"sub": "u-1", "groups": ["rr-reviewers"], "departments": ["coding"]})

    with pytest.raises(SignInRefused, match="no role"):
        sign_in({"sub": "u-1", "groups": [], "departments": ["coding"]})

    assert roles_of(user) == set()
    assert departments_of(user) == set()


def test_groups_that_are_no_role_are_left_alone():
    user = sign_in({"sub": "u-1", "groups": ["rr-reviewers"]})
    user.groups.create(name="newsletter")

    sign_in({"sub": "u-1", "groups": ["rr-managers"]})

    assert roles_of(user) == {"manager", "newsletter"}


def test_a_changed_email_and_username_at_the_provider_is_still_the_same_user():
    first = sign_in(
        {"sub": "u-1", "preferred_username": "ada", "email": "ada@old.example"}
        | {"groups": ["rr-reviewers"]}
    )

    again = sign_in(
        {"sub": "u-1", "preferred_username": "ada.l", "email": "ada@new.example"}
        | {"groups": ["rr-reviewers"]}
    )

    assert again.pk == first.pk
    assert (again.username, again.email) == ("ada", "ada@new.example")  # the name stays
    assert get_user_model().objects.count() == 1


def test_the_same_subject_at_another_issuer_is_another_person():
    here = sign_in({"sub": "u-1", "preferred_username": "ada", "groups": ["rr-reviewers"]})

    with pytest.raises(SignInRefused, match="An account named 'ada' exists already"):
        sign_in(
            {"sub": "u-1", "preferred_username": "ada", "groups": ["rr-reviewers"]},
            issuer="https://elsewhere.example",
        )

    assert ProviderIdentity.objects.get().user == here


def test_a_password_user_of_the_same_name_is_never_taken_over():
    admin = UserFactory(username="root", roles=["admin"], is_superuser=True)

    with pytest.raises(SignInRefused, match="not linked to your identity provider"):
        sign_in({"sub": "evil", "preferred_username": "ROOT", "groups": ["rr-reviewers"]})

    admin.refresh_from_db()
    assert admin.has_usable_password()
    assert roles_of(admin) == {"admin"}
    assert not ProviderIdentity.objects.exists()


def test_a_deactivated_user_is_refused_and_keeps_what_they_had(coding):
    user = sign_in({"sub": "u-1", "groups": ["rr-reviewers"], "departments": ["coding"]})
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)

    with pytest.raises(SignInRefused, match="deactivated"):
        sign_in({"sub": "u-1", "groups": ["rr-managers"]})

    assert roles_of(user) == {"reviewer"}
