"""The memory's models, one module per kind of row; import them from here."""

from reflections.models.discussion import Comment, Mention
from reflections.models.events import EventPrune, RetrievalEvent, TaskInjection, TaskRun
from reflections.models.findings import ScanFinding
from reflections.models.history import (
    AppendOnlyModel,
    AppendOnlyQuerySet,
    ImportRun,
    ReflectionHistory,
)
from reflections.models.jobs import ImportJob
from reflections.models.memory import (
    ACTIVE_SET_STATES,
    STATE_MULTIPLIERS,
    Agent,
    Department,
    Format,
    Kind,
    Outcome,
    Reflection,
    State,
)
from reflections.models.rollups import (
    ActiveSetChange,
    DataVersion,
    InjectionOutcomeDay,
    Neighbour,
    RetrievalDay,
    RetrievalFlowDay,
    TaskOutcomeDay,
)
from reflections.models.runs import ReflexionRun
from reflections.models.vectors import LatentFit, ReflectionVector

__all__ = [
    "ACTIVE_SET_STATES",
    "STATE_MULTIPLIERS",
    "ActiveSetChange",
    "Agent",
    "AppendOnlyModel",
    "AppendOnlyQuerySet",
    "Comment",
    "DataVersion",
    "Department",
    "EventPrune",
    "Format",
    "ImportJob",
    "ImportRun",
    "InjectionOutcomeDay",
    "Kind",
    "LatentFit",
    "Mention",
    "Neighbour",
    "Outcome",
    "Reflection",
    "ReflectionHistory",
    "ReflectionVector",
    "ReflexionRun",
    "RetrievalDay",
    "RetrievalEvent",
    "RetrievalFlowDay",
    "ScanFinding",
    "State",
    "TaskInjection",
    "TaskOutcomeDay",
    "TaskRun",
]
