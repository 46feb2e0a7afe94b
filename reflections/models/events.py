"""What happened to reflections in the field: retrievals, task runs and injections."""

from __future__ import annotations

from datetime import date

from django.db import models

from reflections.models.memory import Agent, Department, Outcome, Reflection


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


class EventPrune(models.Model):
    """A retention run (``prune_events``) that deleted every retrieval event before a month:
    on PostgreSQL by dropping the month partitions. The rollups of those days are kept, and
    every recount leaves the days before the latest prune alone. Append-only by use."""

    before = models.DateField()  # the first day of the oldest month still held as events
    at = models.DateTimeField()
    events = models.BigIntegerField()  # the events deleted
    partitions = models.JSONField(default=list)  # the partitions dropped (PostgreSQL)

    def __str__(self) -> str:
        return f"events before {self.before:%Y-%m} pruned at {self.at:%Y-%m-%d %H:%M}"

    @classmethod
    def kept_from(cls) -> date | None:
        """The first day whose events are still all held (None: nothing was ever pruned)."""
        return cls.objects.aggregate(m=models.Max("before"))["m"]


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
    # From the trajectory pool: the run's own lesson note and the model that ran it.
    lessons = models.TextField(blank=True, default="")
    model_used = models.CharField(max_length=128, blank=True, default="")
    reflections_injected = models.ManyToManyField(
        Reflection, through="TaskInjection", related_name="injected_into"
    )

    class Meta:
        indexes = [
            # Learning curves: a department's tasks by week.
            models.Index(fields=["department", "finished_at"], name="task_dept_finished"),
            # Runs by when they finished, any department. Added for the reflection page's newest
            # injections, which now read their own copy (TaskInjection.finished_at); kept for
            # the window filters on task_run__finished_at (review evidence, echo facts) until
            # their plans at the large scale show they do without it.
            models.Index(fields=["finished_at"], name="task_finished"),
            # Repeat-failure rate: earlier failures of the same department and task type.
            models.Index(
                fields=["department", "task_type", "finished_at"], name="task_dept_type_finished"
            ),
        ]

    def __str__(self) -> str:
        return self.task_id

    def save(self, *args, **kwargs):
        moved = not self._state.adding
        super().save(*args, **kwargs)
        if moved:  # its injections are paged by when it finished: keep their copy of it
            self.injections.exclude(finished_at=self.finished_at).update(
                finished_at=self.finished_at
            )


class TaskInjection(models.Model):
    task_run = models.ForeignKey(TaskRun, on_delete=models.CASCADE, related_name="injections")
    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="injections")
    position = models.PositiveSmallIntegerField(default=0)
    # Its run's finished_at, copied (by the task import, save() and refresh_rollup) so that a
    # reflection's injections are read newest first, a page at a time, from one index range
    # instead of sorting its runs (tens of thousands for the most injected).
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task_run", "reflection"], name="injection_unique"),
        ]
        indexes = [
            # The reflection's tasks (lift, echo facts).
            models.Index(fields=["reflection", "task_run"], name="injection_reflection"),
            # The reflection page's injections, newest first, paged by (finished_at, id).
            models.Index(
                fields=["reflection", "finished_at", "id"], name="injection_reflection_finished"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reflection_id} → {self.task_run_id}"

    def save(self, *args, **kwargs):
        if self.finished_at is None:
            self.finished_at = self.task_run.finished_at
        super().save(*args, **kwargs)
