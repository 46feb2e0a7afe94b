"""Summaries kept beside the raw events so pages never aggregate millions of rows."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Coalesce

from reflections.models.memory import Department, Reflection


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
            # The reflection page reads every day of one reflection: the counts come from the
            # index alone, not from a heap page per day (days are stored as they arrive).
            models.Index(
                fields=["reflection", "day"],
                include=["retrievals", "cross_agent"],
                name="retrieval_day_counts",
            ),
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


class TaskOutcomeDay(models.Model):
    """Tasks of one department and task type finished on one UTC day, by outcome, with the
    eligible tasks and repeat failures of DOMAIN §7: what the learning curves, the overview
    and the queue's lift read instead of grouping millions of task runs per request.

    Days, not weeks, so a review window that starts mid-week is summed exactly; a page's weeks
    are a few hundred day rows. Kept equal to a recount of TaskRun by the event import (the
    pairs its tasks fall in), the reflection import (the pairs whose first lesson moved), the
    daily policy job and ``refresh_rollup``."""

    department = models.ForeignKey(Department, on_delete=models.CASCADE, related_name="+")
    task_type = models.CharField(max_length=128)
    day = models.DateField()
    finished = models.PositiveIntegerField()
    successes = models.PositiveIntegerField()
    partials = models.PositiveIntegerField()
    failures = models.PositiveIntegerField()
    # Tasks whose department and type had a failure/partial lesson written before they
    # finished, and of those, failures whose failure mode had failed before.
    eligible = models.PositiveIntegerField()
    repeats = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["department", "task_type", "day"], name="task_outcome_day_unique"
            ),
        ]
        # Pages read a department's (or every department's) days in a window.
        indexes = [models.Index(fields=["day", "department"], name="task_outcome_day_day")]

    def __str__(self) -> str:
        return f"{self.department_id} {self.task_type} {self.day}: {self.finished}"


class InjectionOutcomeDay(models.Model):
    """Tasks one reflection was injected into that finished on one UTC day, by outcome: what
    the reflection page's injection audit, the queue's lift and the usefulness lift table read
    instead of joining a reflection's injections (thousands for a busy one) to their task runs.

    Days, not weeks, so a review window that starts mid-week is summed exactly. Kept equal to
    a recount of TaskInjection ⨝ TaskRun by the event import (the injections it adds and
    those of the tasks it changes, by difference), single saves (signals), the daily policy
    job and ``refresh_rollup``."""

    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()  # the UTC day the injected task finished
    tasks = models.PositiveIntegerField()
    successes = models.PositiveIntegerField()
    partials = models.PositiveIntegerField()
    failures = models.PositiveIntegerField()

    class Meta:
        constraints = [
            # Its index serves every read: one reflection's (or a few's) days in a window.
            models.UniqueConstraint(fields=["reflection", "day"], name="injection_outcome_unique"),
        ]
        indexes = [
            # The reflection page reads every day of one reflection, from the index alone.
            models.Index(
                fields=["reflection", "day"],
                include=["tasks", "successes", "partials", "failures"],
                name="injection_outcome_counts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reflection_id} {self.day}: {self.tasks}"


class ActiveSetChange(models.Model):
    """How one reflection's membership of the active set (active or promoted) changed on one
    UTC day: +1 when it joined by the end of the day, -1 when it left. The active set at a
    midnight is the sum of the changes on the days before it, so the health page and the
    overview read a few rows per reflection instead of replaying the state history once per
    week they show. Days on which a reflection's membership did not change hold no row.

    Kept by whatever writes state history: the reflection import, the policies
    (write_state_changes), single saves (verdicts, quarantine: a post_save receiver); the
    daily job and ``refresh_rollup`` recount it whole, and the tests hold it equal to the
    history replayed."""

    # No index of their own: the unique constraint and `active_set_change_dept` lead with them
    # (each verdict and import writes these rows: two indexes fewer to keep).
    reflection = models.ForeignKey(
        Reflection, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    # The reflection's department now, copied so the pages group without a join.
    department = models.ForeignKey(
        Department, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    day = models.DateField()
    change = models.SmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["reflection", "day"], name="active_set_change_unique"),
        ]
        indexes = [
            models.Index(fields=["department", "day", "change"], name="active_set_change_dept"),
        ]

    def __str__(self) -> str:
        return f"{self.reflection_id} {self.day}: {self.change:+d}"


class DataVersion(models.Model):
    """A counter bumped whenever what the dashboards summarise changes (imports, policy runs,
    state changes, rollup recounts): cached figures are keyed by it, so a change makes every
    older entry unreachable instead of invalidating entries one by one. ``token`` is new each
    time the row is created, so a database emptied and refilled never meets old entries."""

    name = models.CharField(max_length=32, primary_key=True)
    number = models.BigIntegerField(default=0)
    token = models.CharField(max_length=32)

    def __str__(self) -> str:
        return f"{self.name} v{self.number}"
