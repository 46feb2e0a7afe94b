"""Who may see what: roles are Django groups, departments are assigned per person."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from reflections.models import Department, Reflection, State

REVIEWER, RATER, MANAGER, ADMIN = "reviewer", "rater", "manager", "admin"
ROLES = (REVIEWER, RATER, MANAGER, ADMIN)
# These roles oversee the whole memory; the others work in the departments they are given.
ALL_DEPARTMENT_ROLES = frozenset({MANAGER, ADMIN})


def user_roles(user) -> frozenset[str]:
    if not user.is_authenticated or not user.is_active:
        return frozenset()
    cached = getattr(user, "_reflexion_roles", None)
    if cached is None:
        cached = frozenset(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        if user.is_superuser:
            cached |= {ADMIN}
        user._reflexion_roles = cached
    return cached


def sees_all_departments(user) -> bool:
    return bool(user_roles(user) & ALL_DEPARTMENT_ROLES)


def visible_departments(user) -> QuerySet[Department]:
    if sees_all_departments(user):
        return Department.objects.all()
    if not user_roles(user):
        return Department.objects.none()
    return Department.objects.filter(members=user)


def require_any_role(user, roles=ROLES) -> frozenset[str]:
    held = user_roles(user)
    if not held & set(roles):
        raise PermissionDenied("Your account has no role that may see this page.")
    return held


def visible_reflections(user) -> QuerySet[Reflection]:
    """Every reflection the user may open: their departments; quarantined ones for admins only."""
    qs = Reflection.objects.all()
    if not sees_all_departments(user):
        qs = qs.filter(department__in=visible_departments(user))
    if ADMIN not in user_roles(user):
        # Quarantined text may hold secrets; only admins handle it (DOMAIN §3.4).
        qs = qs.exclude(state=State.QUARANTINED)
    return qs


def get_reflection_for_user(
    user, pk: int, queryset: QuerySet[Reflection] | None = None
) -> Reflection:
    """The reflection, if the user's roles and departments allow it; 404 hides the rest."""
    require_any_role(user)
    qs = visible_reflections(user)
    if queryset is not None:
        qs = queryset & qs
    return get_object_or_404(qs, pk=pk)
