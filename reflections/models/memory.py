"""The memory itself: departments, agents and reflections with their state."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from reflections.models.history import ReflectionHistory
from reflections.scanning.fields import masked_path


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


# The working memory, the active set: what the orchestrator injects at full weight or more.
ACTIVE_SET_STATES = (State.ACTIVE, State.PROMOTED)


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
    REFLEXION_RUN = "reflexion_run", "Reflexion run log"


class Reflection(models.Model):
    # Identity: relative to the workspace root (DOMAIN §3.1); heuristics are "<file>#<scenario_id>".
    source_path = models.CharField(max_length=512, unique=True)
    format = models.CharField(max_length=20, choices=Format.choices)
    content_hash = models.CharField(max_length=64)
    # A heuristic's scenario_id (logs may reference it) or an episodic "<loop>/<iteration>".
    external_id = models.CharField(max_length=255, blank=True, default="")
    original_text = models.TextField()

    # No index of their own: refl_agent_rank and refl_dept_created lead with them, and each
    # index more is written by every import and every state change (issue 29).
    agent = models.ForeignKey(
        Agent,
        on_delete=models.PROTECT,
        related_name="reflections",
        null=True,
        blank=True,
        db_index=False,
    )
    department = models.ForeignKey(
        Department, on_delete=models.PROTECT, related_name="reflections", db_index=False
    )
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
            # ... and recently retrieved first (the never-retrieved, NULL, come after: the
            # keyset pages them apart, so the index holds the page of retrieved ones).
            models.Index(fields=["-last_retrieved_at", "-id"], name="refl_last_retrieved"),
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
            # Filters by agent (retention is per agent, newest first). With the id and the
            # state in the index, the reflection page counts an agent's place in retention
            # from the index alone (PostgreSQL; SQLite ignores INCLUDE).
            models.Index(
                fields=["agent", "-created_at", "-id"], include=["state"], name="refl_agent_rank"
            ),
            # Memory-health counts per state within a department.
            models.Index(fields=["state", "department"], name="refl_state_dept"),
            # Dashboards count reflections by department, state, kind and week written, and
            # sum their useful retrievals: on PostgreSQL an index-only scan of this narrow
            # index, never the wide rows (texts, sections) that a seq scan would read.
            models.Index(
                fields=["department", "state", "kind", "created_at"],
                include=["id", "useful_retrieval_count"],
                name="refl_dashboard_counts",
            ),
        ]

    def __str__(self) -> str:
        return self.shown_path

    @property
    def shown_path(self) -> str:
        """The source path as a page shows it: masked while quarantined, since a re-scan with
        newer rules can find something in a path the import accepted."""
        if self.state != State.QUARANTINED:
            return self.source_path
        return masked_path(self.source_path)

    @property
    def task_key(self) -> str:
        """The task this reflection was learnt on, as far as its source says: its task id, or
        for a pass of an episodic loop (`<loop-id>/<iteration>`) the loop, and for a Reflexion
        run's reflection (`<problem>#<n>`) the problem, since one loop is one task tried again
        (a run's task ids name the trial); "" when unknown."""
        if self.format == Format.REFLEXION_RUN and "#" in self.external_id:
            return "problem:" + self.external_id.rsplit("#", 1)[0]
        if self.task_id:
            return self.task_id
        if self.format == Format.EPISODIC and "/" in self.external_id:
            return "loop:" + self.external_id.rsplit("/", 1)[0]
        return ""

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
        row = self.state_change(to_state, by=by, why=why, deprecated_reason=deprecated_reason)
        if row is not None:
            self.store_state_change(row)

    def state_change(
        self, to_state: str, *, by, why: str, deprecated_reason: str | None = None
    ) -> ReflectionHistory | None:
        """change_state in memory: this reflection moved and its history row, unsaved (None
        when nothing would change), for store_state_change, or for a batch to store many at
        once (reflections.services.state_changes)."""
        reason = self.deprecated_reason if deprecated_reason is None else deprecated_reason
        if self.state == to_state and self.deprecated_reason == reason:
            return None
        from_state = self.state
        self.state, self.deprecated_reason = to_state, reason
        return ReflectionHistory(
            reflection=self,
            at=timezone.now(),
            change=ReflectionHistory.Change.STATE,
            actor=by,
            actor_label=by.get_username(),
            from_state=from_state,
            to_state=to_state,
            reason=why,
        )

    def store_state_change(self, row: ReflectionHistory) -> None:
        self.save(update_fields=["state", "deprecated_reason", "updated_at"])
        # After the save: whoever the row is announced to (reflections.announcements) reads
        # the reflection as it is now.
        row.save()
