"""Expensive figures are cached under the data's version and recomputed after a change."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from reflections.caching import bump_data_version, cached, data_version
from reflections.models import DataVersion, Department, State
from reflections.selectors.health import memory_health
from tests.factories import ReflectionFactory

pytestmark = pytest.mark.django_db


def counting(calls: list):
    def compute():
        calls.append(1)
        return len(calls)

    return compute


def test_a_figure_is_computed_once_per_version_and_key():
    calls: list = []
    assert cached("figure", ("a",), counting(calls)) == 1
    assert cached("figure", ("a",), counting(calls)) == 1
    assert cached("figure", ("b",), counting(calls)) == 2

    bump_data_version()

    assert cached("figure", ("a",), counting(calls)) == 3


def test_the_version_starts_with_a_new_token_each_time_its_row_is_created():
    bump_data_version()
    first = data_version()
    DataVersion.objects.all().delete()  # a database emptied and filled again
    bump_data_version()

    assert data_version() != first
    assert data_version().endswith(".1")


def test_memory_health_shows_a_state_change_at_once_though_it_is_cached():
    reflection = ReflectionFactory()
    department = Department.objects.get(pk=reflection.department_id)
    as_of = date(2026, 11, 21)

    def active() -> int:
        health = memory_health(departments=[department], all_departments=False, as_of=as_of)
        return next(s.count for s in health.states if s.state == State.ACTIVE)

    assert active() == 1
    version = data_version()
    assert active() == 1 and data_version() == version  # served from the cache

    reflection.change_state(
        State.DEPRECATED, by=get_user_model().objects.create_user("r"), why="outdated"
    )

    assert data_version() != version
    assert active() == 0


def test_the_overviews_active_set_follows_a_state_change_though_it_is_cached():
    from insights.selectors.overview import overview

    reflection = ReflectionFactory()
    department = Department.objects.get(pk=reflection.department_id)

    def active_now() -> int:
        row = overview(departments=[department], as_of=date(2026, 11, 21)).rows[0]
        return row.active_set.change.now

    assert active_now() == 1
    assert active_now() == 1  # served from the cache

    reflection.change_state(
        State.DEPRECATED, by=get_user_model().objects.create_user("r"), why="duplicate"
    )

    assert active_now() == 0


def test_an_unreachable_cache_costs_the_computation_not_the_page(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "no_such_cache_table",
        }
    }
    calls: list = []
    assert cached("figure", ("a",), counting(calls)) == 1
    assert cached("figure", ("a",), counting(calls)) == 2
    assert ReflectionFactory().pk  # the transaction is still usable


@pytest.mark.django_db
def test_a_release_computes_its_figures_again_as_it_runs_migrate():
    # A new release may compute a figure differently; what the old code cached must go.
    from django.core.management import call_command

    calls = []
    cached("figure", ("a",), lambda: calls.append(1) or 7)
    call_command("migrate", verbosity=0)
    cached("figure", ("a",), lambda: calls.append(1) or 7)

    assert len(calls) == 2
