"""Imported Reflexion runs side by side: per trial, the problems attempted and solved, the share
of attempts solved, and the cumulative share of problems solved (the paper's Table 1 and
Figure 3), with each run's repetition rate."""

from __future__ import annotations

from dataclasses import dataclass

from reflections.models import ReflexionRun
from reflections.selectors.runs import Repetition, repetition


@dataclass(frozen=True)
class TrialRow:
    run: str
    trial: int
    attempted: int
    solved: int
    solved_by_then: int
    problems: int

    @property
    def success_rate(self) -> float | None:
        return self.solved / self.attempted if self.attempted else None

    @property
    def cumulative_share(self) -> float | None:
        return self.solved_by_then / self.problems if self.problems else None


@dataclass(frozen=True)
class RunRow:
    run: ReflexionRun
    repetition: Repetition

    @property
    def trials(self) -> int:
        return len(self.run.solved_by_trial)

    @property
    def solved(self) -> str:
        """ "150 of 164 (91.5 %)": the paper's pass@1, to the tenth of a point it reports."""
        run = self.run
        if run.solved_share is None:
            return "—"
        return f"{run.solved_by_trial[-1]} of {run.problems} ({100 * run.solved_share:.1f} %)"


def runs(department_ids: list[int] | None = None) -> list[ReflexionRun]:
    queryset = ReflexionRun.objects.select_related("department", "agent")
    if department_ids is not None:
        queryset = queryset.filter(department_id__in=department_ids)
    return list(queryset.order_by("benchmark", "strategy", "label"))


def run_rows(found: list[ReflexionRun]) -> list[RunRow]:
    """Each run with its repetition rate (two queries a run)."""
    return [RunRow(run, repetition(run)) for run in found]


def trial_rows(run: ReflexionRun) -> list[TrialRow]:
    return [
        TrialRow(run.label, trial, attempted, solved, by_then, run.problems)
        for trial, (attempted, solved, by_then) in enumerate(
            zip(run.attempted, run.solved, run.solved_by_trial, strict=True)
        )
    ]


def default_pair(found: list[ReflexionRun]) -> tuple[ReflexionRun | None, ReflexionRun | None]:
    """What to compare when nothing is chosen: a Reflexion run and a baseline of its
    benchmark, else the first two runs."""
    for run in found:
        if not run.baseline:
            base = next((r for r in found if r.baseline and r.benchmark == run.benchmark), None)
            if base is not None:
                return run, base
    return (found[0] if found else None), (found[1] if len(found) > 1 else None)
