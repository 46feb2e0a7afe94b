"""The demo's accounts: one user per role, with a fresh (or the given) password."""

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from reflections.access import ROLES
from reflections.models import Department

# Reviewers and raters work in the departments they are given; two each shows the boundary.
DEMO_DEPARTMENTS = {"reviewer": ["sales", "finance"], "rater": ["content", "delivery"]}


@transaction.atomic
def create_demo_users(password: str | None = None) -> list[dict[str, str]]:
    """Create (or reset) `<role>-demo` for every role; their roles, usernames and passwords."""
    User = get_user_model()
    departments = {d.slug: d for d in Department.objects.all()}
    credentials = []
    for role in ROLES:
        username = f"{role}-demo"
        user, _ = User.objects.get_or_create(username=username)
        secret = password or secrets.token_urlsafe(9)
        user.set_password(secret)
        user.is_staff = role == "admin"
        user.is_superuser = role == "admin"
        user.save()
        # The role groups come with the migrations; recreate one an admin deleted.
        user.groups.set([Group.objects.get_or_create(name=role)[0]])
        wanted = DEMO_DEPARTMENTS.get(role)
        if wanted is not None:
            user.departments.set([departments[s] for s in wanted if s in departments])
        credentials.append({"role": role, "username": username, "password": secret})
    return credentials
