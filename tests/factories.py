"""factory_boy factories for the memory's models."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from reflections.models import (
    Agent,
    Department,
    Reflection,
    ReflectionHistory,
    RetrievalEvent,
    TaskInjection,
    TaskRun,
)


class DepartmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Department
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"department-{n}")
    name = factory.LazyAttribute(lambda d: d.slug.replace("-", " ").title())


class AgentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Agent
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"agent-{n}")
    department = factory.SubFactory(DepartmentFactory)


class ReflectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Reflection

    agent = factory.SubFactory(AgentFactory)
    department = factory.LazyAttribute(lambda r: r.agent.department)
    source_path = factory.Sequence(lambda n: f"memory/reflections/agent/2026-03-01-lesson-{n}.md")
    format = "protocol_md"
    kind = "failure"
    outcome = "failure"
    task_type = "reconciliation"
    created_at = factory.Sequence(lambda n: datetime(2026, 3, 1, tzinfo=UTC) + timedelta(hours=n))
    title = factory.Sequence(lambda n: f"Reconcile the ledger, attempt {n}")
    sections = factory.LazyAttribute(
        lambda r: [
            {"heading": "What happened?", "body": f"{r.title} did not balance."},
            {"heading": "What should I do differently?", "body": "Check transfers first."},
        ]
    )
    body = factory.LazyAttribute(
        lambda r: "\n\n".join(f"{s['heading']}\n{s['body']}" for s in r.sections)
    )
    original_text = factory.LazyAttribute(lambda r: f"# Reflection: {r.title}\n\n{r.body}\n")
    content_hash = factory.LazyAttribute(
        lambda r: hashlib.sha256(r.original_text.encode()).hexdigest()
    )


class TaskRunFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TaskRun

    task_id = factory.Sequence(lambda n: f"task-{n:05d}")
    agent = factory.SubFactory(AgentFactory)
    department = factory.LazyAttribute(lambda t: t.agent.department)
    task_type = "reconciliation"
    finished_at = datetime(2026, 3, 10, 12, tzinfo=UTC)
    outcome = "success"


class RetrievalEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RetrievalEvent

    reflection = factory.SubFactory(ReflectionFactory)
    retrieved_at = factory.Sequence(
        lambda n: datetime(2026, 3, 10, tzinfo=UTC) + timedelta(minutes=n)
    )
    task_id = factory.Sequence(lambda n: f"task-{n:05d}")
    agent = factory.LazyAttribute(lambda e: e.reflection.agent)


class TaskInjectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TaskInjection

    task_run = factory.SubFactory(TaskRunFactory)
    reflection = factory.SubFactory(ReflectionFactory)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"person-{n}")
    password = factory.django.Password("correct horse battery staple")

    @factory.post_generation
    def roles(self, create, extracted, **kwargs):
        for role in extracted or ():
            self.groups.add(Group.objects.get_or_create(name=role)[0])

    @factory.post_generation
    def departments(self, create, extracted, **kwargs):
        for department in extracted or ():
            self.departments.add(department)


class ReflectionHistoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ReflectionHistory

    reflection = factory.SubFactory(ReflectionFactory)
    at = factory.Sequence(lambda n: datetime(2026, 3, 2, tzinfo=UTC) + timedelta(hours=n))
    change = "state"
    actor = None
    actor_label = "policy:decay"
    from_state = "active"
    to_state = "archived"
