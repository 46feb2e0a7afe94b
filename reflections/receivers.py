"""Counters kept when a single row is saved through the ORM; connected in ReflectionsConfig.ready.

Imports write events, tasks and injections in SQL and keep the usefulness aggregates themselves
(reflections.services); these receivers keep them when one row is saved through the ORM instead
(the admin changing a task's outcome or adding an injection, tests' factories). Deletes are not
followed: a signal on delete would stop cascades from deleting millions of events in one
statement, and the daily recount corrects them.
"""

from __future__ import annotations

from django.db.models.signals import post_save

from reflections.announcements import announce_history_row
from reflections.caching import EVENTS, MEMORY, bump_data_version
from reflections.models import (
    Agent,
    Kind,
    Reflection,
    ReflectionHistory,
    RetrievalEvent,
    TaskInjection,
    TaskRun,
)
from reflections.services.active_set import refresh_active_set
from reflections.services.counters import (
    count_saved_injection,
    count_saved_retrieval,
    recount_useful_of_task,
)
from reflections.services.injection_rollup import (
    recount_injection_days_of_task,
    refresh_injection_outcome_days,
)
from reflections.services.task_rollup import refresh_task_outcome_days


def _count_saved_retrieval(sender, instance, created, raw, **kwargs):
    if created and not raw:
        count_saved_retrieval(event=instance)
        bump_data_version(EVENTS)


def _count_saved_injection(sender, instance, created, raw, **kwargs):
    if created and not raw:
        count_saved_injection(injection=instance)
        bump_data_version(EVENTS)


def _recount_injection_days_of_injection(sender, instance, raw, **kwargs):
    if not raw:
        refresh_injection_outcome_days(reflection_ids=[instance.reflection_id])


def _recount_injection_days_of_task(sender, instance, raw, **kwargs):
    # Its day or outcome may have changed: the days of the reflections injected into it.
    if not raw:
        recount_injection_days_of_task(task_run_id=instance.pk)


def _recount_useful_of_task(sender, instance, raw, **kwargs):
    if not raw:
        recount_useful_of_task(task_id=instance.task_id)


def _recount_task_days_of_task(sender, instance, raw, **kwargs):
    if not raw:
        refresh_task_outcome_days(pairs=[(instance.department_id, instance.task_type)])


def _recount_task_days_of_lesson(sender, instance, created, raw, **kwargs):
    # A new failure/partial lesson may make earlier-finished tasks of its pair eligible.
    if created and not raw and instance.kind in (Kind.FAILURE, Kind.PARTIAL):
        refresh_task_outcome_days(pairs=[(instance.department_id, instance.task_type)])


def _recount_active_set_of_history(sender, instance, created, raw, **kwargs):
    # A verdict, a quarantine, a redaction: one history row at a time.
    if created and not raw:
        if instance.to_state:
            refresh_active_set([instance.reflection_id])  # bumps the data version too
            announce_history_row(instance)
        else:
            bump_data_version(MEMORY, EVENTS)  # a title or text changed: lists name it


def _recount_active_set_of_reflection(sender, instance, created, raw, **kwargs):
    if created and not raw:
        refresh_active_set([instance.pk])
        bump_data_version(EVENTS)  # a lesson written in a past window counts there


def _bump_events_of_agent(sender, instance, raw, **kwargs):
    # Renamed or moved department: prepared review evidence names its agents, and the
    # list's filter offers them by department (reflections.selectors.reflections).
    if not raw:
        bump_data_version(MEMORY, EVENTS)


def connect() -> None:
    post_save.connect(_bump_events_of_agent, sender=Agent, dispatch_uid="bump_events_of_agent")
    post_save.connect(
        _count_saved_retrieval, sender=RetrievalEvent, dispatch_uid="count_saved_retrieval"
    )
    post_save.connect(
        _count_saved_injection, sender=TaskInjection, dispatch_uid="count_saved_injection"
    )
    post_save.connect(
        _recount_injection_days_of_injection,
        sender=TaskInjection,
        dispatch_uid="recount_injection_days_of_injection",
    )
    post_save.connect(
        _recount_useful_of_task, sender=TaskRun, dispatch_uid="recount_useful_of_task"
    )
    post_save.connect(
        _recount_injection_days_of_task,
        sender=TaskRun,
        dispatch_uid="recount_injection_days_of_task",
    )
    post_save.connect(
        _recount_task_days_of_task, sender=TaskRun, dispatch_uid="recount_task_days_of_task"
    )
    post_save.connect(
        _recount_task_days_of_lesson, sender=Reflection, dispatch_uid="recount_task_days_of_lesson"
    )
    post_save.connect(
        _recount_active_set_of_history,
        sender=ReflectionHistory,
        dispatch_uid="recount_active_set_of_history",
    )
    post_save.connect(
        _recount_active_set_of_reflection,
        sender=Reflection,
        dispatch_uid="recount_active_set_of_reflection",
    )
