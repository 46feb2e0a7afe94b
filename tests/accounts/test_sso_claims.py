"""The claim mapping read as pure functions: which claim values grant which role, department
slugs, the username of a new user, and role maps that are refused at start-up."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from hypothesis import given
from hypothesis import strategies as st

from accounts.claims import ClaimMapping, claim_values, parse_role_map, username_from_claims
from reflections.access import ROLES

AT_ACME = ClaimMapping(
    role_map=parse_role_map(
        "rr-reviewers=reviewer, rr-managers=manager,rr-admins=admin,rr-raters=rater"
    )
)


def test_without_a_role_map_each_role_name_grants_itself():
    mapping = ClaimMapping()

    assert mapping.roles({"groups": ["reviewer", "rater", "staff"]}) == {"reviewer", "rater"}


def test_a_role_map_grants_only_through_the_values_it_names():
    claims = {"groups": ["rr-reviewers", "reviewer", "rr-managers", "everyone"]}

    assert AT_ACME.roles(claims) == {"reviewer", "manager"}


def test_two_claim_values_may_grant_one_role():
    mapping = ClaimMapping(role_map=parse_role_map("ops=admin,/platform/admins=admin"))

    assert mapping.roles({"groups": ["/platform/admins"]}) == {"admin"}
    assert mapping.roles({"groups": ["ops"]}) == {"admin"}


def test_the_roles_claim_is_configurable_and_may_be_one_string():
    mapping = ClaimMapping(roles_claim="roles")

    assert mapping.roles({"roles": "manager", "groups": ["admin"]}) == {"manager"}


@pytest.mark.parametrize("claims", [{}, {"groups": None}, {"groups": []}, {"groups": ""}])
def test_no_groups_grant_no_role(claims):
    assert AT_ACME.roles(claims) == frozenset()


def test_department_slugs_come_from_their_own_claim():
    mapping = ClaimMapping(departments_claim="rr_departments")

    slugs = mapping.department_slugs({"rr_departments": ["coding", "ops", "coding"]})

    assert slugs == {"coding", "ops"}
    assert ClaimMapping().department_slugs({"groups": ["coding"]}) == frozenset()


def test_the_refusal_names_the_claim_that_was_read():
    assert ClaimMapping(roles_claim="roles").no_role_message() == (
        "Your identity provider grants you no role in Reflexion Review (claim 'roles'); "
        "ask your administrator."
    )


@pytest.mark.parametrize(
    ("claims", "username"),
    [
        ({"preferred_username": "ada", "email": "ada@example.org", "sub": "1"}, "ada"),
        ({"preferred_username": " ", "email": "ada@example.org", "sub": "1"}, "ada@example.org"),
        ({"sub": "f3a9"}, "f3a9"),
    ],
)
def test_the_username_is_the_preferred_one_else_the_email_else_the_subject(claims, username):
    assert username_from_claims(claims) == username


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("rr-bosses=boss", "names no role"),
        ("rr-reviewers", "is not claim-value=role"),
        ("=reviewer", "is not claim-value=role"),
        ("ops=admin,ops=rater", "mapped to two roles"),
    ],
)
def test_a_role_map_that_cannot_be_read_is_refused(text, problem):
    with pytest.raises(ImproperlyConfigured, match=problem):
        parse_role_map(text)


@given(st.lists(st.sampled_from([*ROLES, "staff", "", "rr-x"]), max_size=8))
def test_the_roles_granted_are_always_roles_and_all_the_named_ones(values):
    granted = ClaimMapping().roles({"groups": values})

    assert granted <= set(ROLES)
    assert granted == set(values) & set(ROLES)


def test_claim_values_are_strings():
    assert claim_values(["a", 3, None]) == ["a", "3"]
    assert claim_values(7) == ["7"]
