"""Reads for the retention page: per agent, the retained set and what the yearly run archives."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from reflections import access
from reflections.models import (
    Agent,
    Department,
    Reflection,
    State,
)
from reflections.policies import DEFAULT_CONFIG, PolicyConfig
from reflections.services.policy_runs import retention_candidates

RETENTION_CANDIDATES_SHOWN = 20


@dataclass(frozen=True)
class CandidateRow:
    position: int
    reflection: Reflection | None  # None: in a department this person does not see


@dataclass
class AgentRetentionRow:
    agent: Agent
    retained: int
    oldest_retained: Reflection | None
    candidates_total: int
    would_archive: int
    candidates: list[CandidateRow]

    @property
    def candidates_hidden(self) -> int:
        return self.candidates_total - len(self.candidates)


@dataclass
class RetentionReport:
    as_of: date
    agents: list[AgentRetentionRow]
    keep: int

    @property
    def would_archive(self) -> int:
        return sum(a.would_archive for a in self.agents)

    @property
    def candidates_total(self) -> int:
        return sum(a.candidates_total for a in self.agents)


def retention_report(
    *,
    user,
    departments: list[Department],
    all_departments: bool,
    as_of: date,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> RetentionReport:
    """Per agent of the departments shown: the retained count and the archive candidates.

    Agents belong to the page through their own department (retention counts an agent's
    reflections wherever they were filed); agents without a department are listed on the
    all-departments view only.
    """
    agents = Agent.objects.order_by("name")
    if not all_departments:
        agents = agents.filter(department__in=[d.pk for d in departments])
    agents = list(agents.select_related("department"))
    ranking = retention_candidates(as_of=as_of, config=config)
    ranking = {a.pk: ranking[a.pk] for a in agents if a.pk in ranking}

    shown_ids = set()
    for entry in ranking.values():
        if entry.retained:
            shown_ids.add(entry.retained[-1])
        shown_ids.update(entry.candidates[:RETENTION_CANDIDATES_SHOWN])
    shown = {}
    if shown_ids:
        shown = {
            r.pk: r
            for r in access.visible_reflections(user)
            .filter(pk__in=shown_ids)
            .only("id", "title", "created_at", "state", "retrieval_count", "agent_id")
        }
    # What archive_retention_candidates would change: candidates still active or promoted.
    archivable = set()
    if ranking:
        archivable = set(
            Reflection.objects.filter(
                agent_id__in=list(ranking), state__in=[State.ACTIVE, State.PROMOTED]
            ).values_list("id", flat=True)
        )

    rows = []
    for agent in agents:
        entry = ranking.get(agent.pk)
        if entry is None:
            continue
        keep = config.retention_keep
        rows.append(
            AgentRetentionRow(
                agent=agent,
                retained=len(entry.retained),
                oldest_retained=shown.get(entry.retained[-1]) if entry.retained else None,
                candidates_total=len(entry.candidates),
                would_archive=sum(1 for pk in entry.candidates if pk in archivable),
                candidates=[
                    CandidateRow(keep + i + 1, shown.get(pk))
                    for i, pk in enumerate(entry.candidates[:RETENTION_CANDIDATES_SHOWN])
                ],
            )
        )
    # Agents with something to archive first, then by name.
    rows.sort(key=lambda r: (-r.candidates_total, r.agent.name))
    return RetentionReport(as_of=as_of, agents=rows, keep=config.retention_keep)
