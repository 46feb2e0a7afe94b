"""The memory: departments, agents, reflections, retrievals, task runs and the state history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone


class Department(models.Model):
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=128)
    # People assigned to the department; reviewers and raters only see their departments.
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="departments", blank=True
    )

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class Agent(models.Model):
    name = models.CharField(max_length=128, unique=True)
    # Protocol reflections carry no department: it comes from here (editable by admins).
    department = models.ForeignKey(
        Department, on_delete=models.PROTECT, related_name="agents", null=True, blank=True
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class State(models.TextChoices):
    ACTIVE = "active", "Active"
    PROMOTED = "promoted", "Promoted"
    ARCHIVED = "archived", "Archived"
    DEPRECATED = "deprecated", "Deprecated"
    QUARANTINED = "quarantined", "Quarantined"


# The weight the orchestrator gives a reflection when ranking what to inject (DOMAIN §4).
STATE_MULTIPLIERS = {
    State.ACTIVE: 1.0,
    State.PROMOTED: 1.5,
    State.ARCHIVED: 0.3,
    State.DEPRECATED: 0.0,
    State.QUARANTINED: 0.0,
}


class Kind(models.TextChoices):
    FAILURE = "failure", "Failure"
    PARTIAL = "partial", "Partial"
    SUCCESS = "success", "Success procedure"
    DECISION = "decision", "Decision"


class Outcome(models.TextChoices):
    SUCCESS = "success", "Success"
    PARTIAL = "partial", "Partial"
    FAILURE = "failure", "Failure"


class Format(models.TextChoices):
    PROTOCOL = "protocol_md", "Reflexion-protocol Markdown"
    FRONTMATTER = "frontmatter_md", "Front-matter Markdown"
    EPISODIC = "episodic_json", "Episodic-memory JSON"
    HEURISTIC = "heuristic_jsonl", "Heuristic JSONL"


class Reflection(models.Model):
    # Identity: relative to the workspace root (DOMAIN §3.1); heuristics are "<file>#<scenario_id>".
    source_path = models.CharField(max_length=512, unique=True)
    format = models.CharField(max_length=20, choices=Format.choices)
    content_hash = models.CharField(max_length=64)
    # A heuristic's scenario_id (logs may reference it) or an episodic "<loop>/<iteration>".
    external_id = models.CharField(max_length=255, blank=True, default="")
    original_text = models.TextField()

    agent = models.ForeignKey(
        Agent, on_delete=models.PROTECT, related_name="reflections", null=True, blank=True
    )
    department = models.ForeignKey(Department, on_delete=models.PROTECT, related_name="reflections")
    task_type = models.CharField(max_length=128, blank=True, default="")
    task_id = models.CharField(max_length=255, blank=True, default="")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Decisions have no outcome: "".
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True, default="")
    created_at = models.DateTimeField()
    title = models.CharField(max_length=512)
    sections = models.JSONField(default=list)  # [{"heading": …, "body": …}] in source order
    body = models.TextField(blank=True, default="")  # sections joined: what text search reads
    tags = models.JSONField(default=list)
    skills = models.JSONField(default=list)
    tools = models.JSONField(default=list)  # tools / APIs the text names
    confidence = models.FloatField(null=True, blank=True)
    model_used = models.CharField(max_length=128, blank=True, default="")
    salience = models.FloatField(null=True, blank=True)  # as imported; policies may compute it
    # Written by the salience policy only, so an imported salience is never overwritten and
    # a re-run can tell the two apart (reflections.policies.salience).
    salience_computed = models.FloatField(null=True, blank=True)

    state = models.CharField(max_length=16, choices=State.choices, default=State.ACTIVE)
    deprecated_reason = models.CharField(max_length=255, blank=True, default="")
    # Set when the yearly retention run archived it (the end of that run's as_of day): the
    # daily decay keeps it archived until it is retrieved after this moment.
    retention_archived_at = models.DateTimeField(null=True, blank=True)

    # Denormalised from RetrievalEvent so ranking pages read a column instead of counting
    # millions of events per request; kept right by set-based refreshes (services).
    retrieval_count = models.PositiveIntegerField(default=0)
    last_retrieved_at = models.DateTimeField(null=True, blank=True)
    # Of those, retrievals whose task succeeded (DOMAIN §7 "useful"): the usefulness page
    # sums it per kind over all history, where joining 10M events to their tasks took 9 s.
    # All-time because the page has no date range; kept by the same services as above.
    useful_retrieval_count = models.PositiveIntegerField(default=0, db_default=0)
    # How many tasks it was injected into (TaskInjection rows): the usefulness page ranks the
    # lift table by it, where grouping 2.3M injections per request took 3 s. Kept by the
    # task imports by difference and recounted by the daily job (services).
    injection_count = models.PositiveIntegerField(default=0, db_default=0)

    imported_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # Reflection list across all departments (managers): newest first, and by
            # retrievals; -id is the list's tiebreak, so the index yields the page directly.
            models.Index(fields=["-created_at", "-id"], name="refl_created"),
            models.Index(fields=["-retrieval_count", "-id"], name="refl_retrievals"),
            # The usefulness page's lift table: the most injected first, ties by id.
            models.Index(fields=["-injection_count", "id"], name="refl_injections"),
            # Reflection list, default order for one department: newest first.
            models.Index(fields=["department", "-created_at"], name="refl_dept_created"),
            # Reflection list sorted by retrievals; review cycles' top-100 per department.
            models.Index(fields=["department", "-retrieval_count"], name="refl_dept_retrievals"),
            # Logs reference reflections by content hash.
            models.Index(fields=["content_hash"], name="refl_content_hash"),
            # Logs reference heuristics by bare scenario_id.
            models.Index(fields=["external_id"], name="refl_external_id"),
            # Filters by agent (retention is per agent, newest first).
            models.Index(fields=["agent", "-created_at"], name="refl_agent_created"),
            # Memory-health counts per state within a department.
            models.Index(fields=["state", "department"], name="refl_state_dept"),
        ]

    def __str__(self) -> str:
        return self.source_path

    @property
    def multiplier(self) -> float:
        return STATE_MULTIPLIERS[State(self.state)]

    @property
    def effective_salience(self) -> float | None:
        """The imported salience when the source stated one, else the policy's."""
        return self.salience if self.salience is not None else self.salience_computed

    @property
    def is_retrievable(self) -> bool:
        return self.multiplier > 0

    def change_state(self, to_state: str, *, by, why: str, deprecated_reason: str | None = None):
        """A person moves this reflection to `to_state` (and sets its deprecation reason, when
        given): one history row and one save; nothing happens when nothing would change."""
        reason = self.deprecated_reason if deprecated_reason is None else deprecated_reason
        if self.state == to_state and self.deprecated_reason == reason:
            return
        ReflectionHistory.objects.create(
            reflection=self,
            at=timezone.now(),
            change=ReflectionHistory.Change.STATE,
            actor=by,
            actor_label=by.get_username(),
            from_state=self.state,
            to_state=to_state,
            reason=why,
        )
        self.state, self.deprecated_reason = to_state, reason
        self.save(update_fields=["state", "deprecated_reason", "updated_at"])


class RetrievalEvent(models.Model):
    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="retrievals")
    retrieved_at = models.DateTimeField()
    # Links to TaskRun.task_id; either log may be imported first, so this is a plain key.
    task_id = models.CharField(max_length=255)
    # The retrieving agent, which may differ from the author (cross-agent sharing).
    agent = models.ForeignKey(Agent, on_delete=models.PROTECT, related_name="retrievals")
    department = models.ForeignKey(
        Department, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    rank = models.PositiveIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            # Re-importing a log is a no-op: the same retrieval is the same row.
            models.UniqueConstraint(
                fields=["reflection", "retrieved_at", "task_id", "agent"],
                name="retrieval_natural_key",
            ),
        ]
        indexes = [
            # The retrieval outcome join: a task's retrievals, a retrieval's task.
            models.Index(fields=["task_id"], name="retrieval_task"),
        ]
        # The unique constraint's index (reflection, retrieved_at, …) serves a reflection's
        # history and windowed counts per reflection. Pages that rank by retrievals read the
        # counter columns on Reflection, never this table: no time index is kept here, so
        # bulk imports of millions of rows maintain two indexes, not three.

    def __str__(self) -> str:
        return f"{self.reflection_id} @ {self.retrieved_at:%Y-%m-%d %H:%M}"


class TaskRun(models.Model):
    task_id = models.CharField(max_length=255, unique=True)
    agent = models.ForeignKey(Agent, on_delete=models.PROTECT, related_name="task_runs")
    department = models.ForeignKey(Department, on_delete=models.PROTECT, related_name="task_runs")
    task_type = models.CharField(max_length=128)
    finished_at = models.DateTimeField()
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    failure_mode = models.CharField(max_length=128, blank=True, default="")
    confidence_at_start = models.FloatField(null=True, blank=True)
    tools_used = models.JSONField(default=list)
    reflections_injected = models.ManyToManyField(
        Reflection, through="TaskInjection", related_name="injected_into"
    )

    class Meta:
        indexes = [
            # Learning curves: a department's tasks by week.
            models.Index(fields=["department", "finished_at"], name="task_dept_finished"),
            # Repeat-failure rate: earlier failures of the same department and task type.
            models.Index(
                fields=["department", "task_type", "finished_at"], name="task_dept_type_finished"
            ),
        ]

    def __str__(self) -> str:
        return self.task_id


class TaskInjection(models.Model):
    task_run = models.ForeignKey(TaskRun, on_delete=models.CASCADE, related_name="injections")
    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="injections")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task_run", "reflection"], name="injection_unique"),
        ]
        # The reflection detail page: the tasks a reflection was injected into.
        indexes = [models.Index(fields=["reflection", "task_run"], name="injection_reflection")]

    def __str__(self) -> str:
        return f"{self.reflection_id} → {self.task_run_id}"


class AppendOnlyQuerySet(models.QuerySet):
    """Rows that are evidence (history, audit trails) are added, never changed or removed."""

    def update(self, **kwargs):
        raise TypeError(
            f"{self.model._meta.verbose_name_plural}: append-only, never changed or removed"
        )

    def delete(self):
        raise TypeError(
            f"{self.model._meta.verbose_name_plural}: append-only, never changed or removed"
        )


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError(
                f"{self._meta.verbose_name_plural}: append-only, never changed or removed"
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(f"{self._meta.verbose_name_plural}: append-only, never changed or removed")


class ReflectionHistory(AppendOnlyModel):
    """One row per change to a reflection: its creation, content updates and state changes."""

    class Change(models.TextChoices):
        CREATED = "created", "Created"
        CONTENT = "content", "Content updated"
        STATE = "state", "State changed"

    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="history")
    at = models.DateTimeField()
    change = models.CharField(max_length=16, choices=Change.choices)
    # A person, or a process ("import", "policy:decay") when nobody clicked anything.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    actor_label = models.CharField(max_length=64)
    from_state = models.CharField(max_length=16, blank=True, default="")
    to_state = models.CharField(max_length=16, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    # For content updates: the hash before and after.
    from_hash = models.CharField(max_length=64, blank=True, default="")
    to_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]
        verbose_name_plural = "reflection history"
        # The detail page: one reflection's history in order.
        indexes = [models.Index(fields=["reflection", "at"], name="history_reflection_at")]

    def __str__(self) -> str:
        return f"{self.reflection_id}: {self.change} {self.from_state}→{self.to_state}"


class ImportRun(models.Model):
    """What one import command did, for admins who need to know where a row came from."""

    class Kind(models.TextChoices):
        REFLECTIONS = "reflections", "Reflections"
        EVENTS = "events", "Retrieval and task logs"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    paths = models.JSONField(default=list)
    counts = models.JSONField(default=dict)
    rejected = models.JSONField(default=list)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"{self.kind} import {self.started_at:%Y-%m-%d %H:%M}"


class ScanFinding(models.Model):
    """Something unsafe in a reflection's text (DOMAIN §3.4). Never stores the value itself:
    only where it is (offsets into the text whose hash is recorded) and what kind it is."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DISMISSED = "dismissed", "Dismissed"
        REDACTED = "redacted", "Redacted"

    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="findings")
    content_hash = models.CharField(max_length=64)  # the text the offsets point into
    rule = models.CharField(max_length=80)
    category = models.CharField(max_length=20)
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    summary = models.CharField(max_length=255)
    detected_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["reflection_id", "start"]
        constraints = [
            # Scanning the same text twice finds the same spans once.
            models.UniqueConstraint(
                fields=["reflection", "content_hash", "rule", "start", "end"],
                name="finding_unique_span",
            ),
        ]
        # The quarantine page: open findings, newest first.
        indexes = [models.Index(fields=["status", "-detected_at"], name="finding_open")]

    def __str__(self) -> str:
        return f"{self.reflection_id}: {self.rule} [{self.start}:{self.end}]"


class RetrievalDay(models.Model):
    """Retrievals of one reflection on one UTC day: the rollup that pages and policies read
    instead of aggregating ten million raw events per request (PERFORMANCE.md). Kept equal to
    a recount of RetrievalEvent by the event import and the daily policy job."""

    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="+")
    # The reflection's department, copied so a department's days are one index range.
    department = models.ForeignKey(Department, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    retrievals = models.PositiveIntegerField()
    # Of those, retrievals by an agent other than the reflection's author (DOMAIN §7).
    cross_agent = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["reflection", "day"], name="retrieval_day_unique"),
        ]
        indexes = [
            # Health page, review cycles: one department's days in a window.
            models.Index(fields=["department", "day"], name="retrieval_day_dept"),
            # Decay: every reflection's recent days.
            models.Index(fields=["day"], name="retrieval_day_day"),
        ]

    def __str__(self) -> str:
        return f"{self.reflection_id} {self.day}: {self.retrievals}"


class Neighbour(models.Model):
    """A reflection of the same department whose text is close to this one (TF-IDF cosine),
    computed after imports and by the policy job, never at page time. Stored in both
    directions so either reflection's neighbours are one index lookup."""

    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="neighbours")
    neighbour = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="+")
    similarity = models.FloatField()
    rank = models.PositiveSmallIntegerField()  # 1 = most similar
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["reflection_id", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["reflection", "neighbour"], name="neighbour_unique"),
            models.CheckConstraint(
                condition=~models.Q(reflection=models.F("neighbour")), name="neighbour_not_self"
            ),
        ]
        indexes = [models.Index(fields=["reflection", "rank"], name="neighbour_rank")]

    def __str__(self) -> str:
        return f"{self.reflection_id} ~ {self.neighbour_id} ({self.similarity:.2f})"


class RetrievalFlowDay(models.Model):
    """Retrievals on one UTC day from one department's agents of another department's
    reflections: the usefulness page's flows, read as a few thousand rows instead of grouping
    ten million events. A day per row so imports add their new events' days and a recount can
    be limited to days; kept equal to a recount of RetrievalEvent by the event import, the
    reflection import (moves) and the daily policy job."""

    day = models.DateField()
    # The retriever's department: the one the log states, else the retrieving agent's; null
    # when neither is known.
    retriever_department = models.ForeignKey(
        Department, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    reflection_department = models.ForeignKey(
        Department, on_delete=models.CASCADE, related_name="+"
    )
    retrievals = models.PositiveIntegerField()

    class Meta:
        constraints = [
            # One row per day and pair, the unknown retriever included (NULLs would not
            # collide in a plain unique index). Its leading day serves recounts from a day on.
            models.UniqueConstraint(
                models.F("day"),
                models.F("reflection_department"),
                Coalesce("retriever_department", models.Value(0)),
                name="retrieval_flow_day_unique",
            ),
        ]
        # The page sums every row (about 23 pairs by 365 days at 10M events): no other index.

    def __str__(self) -> str:
        return (
            f"{self.day}: {self.retriever_department_id} → {self.reflection_department_id} "
            f"{self.retrievals}"
        )


# Imports write events, tasks and injections in SQL and keep the usefulness aggregates
# themselves (reflections.services); these keep them when a single row is saved through the ORM
# instead (the admin changing a task's outcome or adding an injection, tests' factories).
# Deletes are not followed: a signal on delete would stop cascades from deleting millions of
# events in one statement, and the daily recount corrects them.
@receiver(post_save, sender=RetrievalEvent, dispatch_uid="count_saved_retrieval")
def _count_saved_retrieval(sender, instance, created, raw, **kwargs):
    if created and not raw:
        from reflections.services import count_saved_retrieval

        count_saved_retrieval(event=instance)


@receiver(post_save, sender=TaskInjection, dispatch_uid="count_saved_injection")
def _count_saved_injection(sender, instance, created, raw, **kwargs):
    if created and not raw:
        from reflections.services import count_saved_injection

        count_saved_injection(injection=instance)


@receiver(post_save, sender=TaskRun, dispatch_uid="recount_useful_of_task")
def _recount_useful_of_task(sender, instance, raw, **kwargs):
    if not raw:
        from reflections.services import recount_useful_of_task

        recount_useful_of_task(task_id=instance.task_id)
