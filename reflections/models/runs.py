"""A Reflexion run imported from the reference implementation's logs (ReflexionRun)."""

from __future__ import annotations

from django.db import models

from reflections.models.memory import Agent, Department


class ReflexionRun(models.Model):
    """One run: its problems' attempts are TaskRuns, its reflections Reflections, each use of a
    reflection in a later attempt a RetrievalEvent (reflections.services.reflexion_run_import).
    What the paper reports per run is kept here, counted at import from the log itself: how
    many problems were attempted and solved in each trial, and solved by then."""

    class Kind(models.TextChoices):
        PROGRAMMING = "programming", "Programming"
        ALFWORLD = "alfworld", "ALFWorld"

    label = models.CharField(max_length=255, unique=True)  # the file or folder name
    slug = models.SlugField(max_length=120, unique=True)  # the prefix of its task ids
    kind = models.CharField(max_length=16, choices=Kind.choices)
    benchmark = models.CharField(max_length=120)
    strategy = models.CharField(max_length=60)  # "reflexion", "simple" (a baseline) …
    model_name = models.CharField(max_length=120, blank=True, default="")
    language = models.CharField(max_length=16, blank=True, default="")
    department = models.ForeignKey(Department, on_delete=models.PROTECT, related_name="runs")
    agent = models.ForeignKey(Agent, on_delete=models.PROTECT, related_name="runs")
    started_at = models.DateTimeField()  # trial 0; trial N is N trial intervals later
    trial_days = models.PositiveSmallIntegerField()
    problems = models.PositiveIntegerField()
    reflections = models.PositiveIntegerField()
    # Per trial, in order: problems attempted, problems solved in that trial, solved by then.
    attempted = models.JSONField(default=list)
    solved = models.JSONField(default=list)
    solved_by_trial = models.JSONField(default=list)
    content_hash = models.CharField(max_length=64)  # of what was read: a re-import compares it
    imported_at = models.DateTimeField()

    class Meta:
        ordering = ["department__slug", "label"]

    def __str__(self) -> str:
        return self.label

    @property
    def short_name(self) -> str:
        """ "humaneval-py reflexion gpt-4": what a chart's legend calls it."""
        return " ".join(part for part in (self.benchmark, self.strategy, self.model_name) if part)

    @property
    def baseline(self) -> bool:
        """A run to compare Reflexion with: the reference implementation's `simple` strategy
        (its ALFWorld `base_run_logs` read as such), or any run that wrote no reflection."""
        return self.reflections == 0 or self.strategy == "simple"

    @property
    def solved_share(self) -> float | None:
        """The share of problems solved by the run's last trial (the paper's pass@1)."""
        if not self.problems or not self.solved_by_trial:
            return None
        return self.solved_by_trial[-1] / self.problems
