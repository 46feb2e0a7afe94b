"""The scales (what each one generates), the demo's dates and the planted learning curves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from demo.library import DEPARTMENTS

# The real "today" of the reference deployment: nothing generated may lie after this day.
TODAY = date(2026, 11, 22)
DEFAULT_START = date(2025, 11, 24)
SCALE_NAMES = ("small", "default", "large")

# Department gains in percentage points after 24 weeks (reference deployment, seed 002 §12).
DEPARTMENT_GAIN = {
    "lead-generation": 18,
    "setting": 14,
    "sales": 21,
    "delivery": 13,
    "organization": 11,
    "finance": 24,
    "content": 15,
    "voice-channel": 9,
}
# Cross-agent retrieval reaches into these departments when the own department has no peer.
RELATED = {
    "lead-generation": ("sales", "content"),
    "setting": ("sales", "voice-channel"),
    "sales": ("delivery", "lead-generation", "setting"),
    "delivery": ("sales",),
    "organization": ("setting", "finance"),
    "finance": ("sales", "organization"),
    "content": ("lead-generation", "sales"),
    "voice-channel": ("setting",),
}


@dataclass(frozen=True)
class Scale:
    name: str
    departments: tuple[str, ...]
    agents: dict[str, tuple[str, ...]]  # per department; missing → the library's agents
    clones: int  # agents per library agent (large scale only)
    weeks: int
    tasks_per_dept_day: float
    reflections_per_dept_day: float
    k_weights: tuple[float, ...]  # probability of retrieving 0, 1, 2, … reflections per task
    duplicates: int
    outdated: int
    echoes: int
    unsafe: int
    fail_share: float  # at most this share of a day's reflections comes from failing tasks
    # Writes taper as the agents learn (write_factor). The small scale is too short to show it
    # and the large one keeps a flat rate, so that it holds its 100,000 reflections.
    taper: bool


ALL_DEPARTMENTS = tuple(DEPARTMENTS)
SCALES = {
    "small": Scale(
        "small", ("finance", "delivery"),
        {"finance": ("finance-agent",), "delivery": ("delivery-agent", "ralph-coder")},
        1, 8, 4.0, 1.0, (0.1, 0.15, 0.25, 0.25, 0.15, 0.1), 5, 4, 2, 2, 0.8, False,
    ),
    "default": Scale(
        "default", ALL_DEPARTMENTS, {}, 1, 52, 6.5, 3.0,
        (0.05, 0.07, 0.13, 0.2, 0.25, 0.3), 48, 27, 11, 6, 0.8, True,
    ),
    "large": Scale(
        "large", ALL_DEPARTMENTS, {}, 3, 52, 801.0, 34.34,
        (0.0,) * 8 + (0.05, 0.15, 0.3, 0.5), 400, 200, 36, 6, 0.6, False,
    ),
}  # fmt: skip

# Planted learning curves (DOMAIN §7 reference: success 0.71 → 0.83 at 24 weeks, asymptote
# ≈ 0.85; repeat-failure 0.34 → 0.09 at 24 weeks → 0.07 at 52).
SUCCESS_START = 0.70
SUCCESS_GAIN_24 = 0.13
SUCCESS_HALF_LIFE_WEEKS = 8.74  # puts the asymptote at ≈ 0.855
ROUTINE_SUCCESS = (0.945, 0.955)
PARTIAL_SHARE = (0.105, 0.092)  # helped tasks give some of theirs up (simulation step 2)
ROUTINE_PARTIAL = 0.045
REPEAT_START, REPEAT_FLOOR, REPEAT_PLATEAU_WEEKS, REPEAT_HALF_LIFE = 0.34, 0.068, 3, 5.51
# Routine task types carry more volume than their library weight says: with fewer, harder
# learning tasks, enough eligible tasks fail for a 0.34 repeat-failure rate in the first weeks.
ROUTINE_VOLUME = 1.5
ECHO_PENALTY = 0.2  # success lost by a task that was fed a flawed lesson
# An echo chamber's mechanism (DOMAIN §1): once an agent holds a flawed lesson, its retriever
# hands it that lesson for most of its later tasks of the same type (ranked first), while
# other agents only meet it through the ordinary cross-agent draws, at an ordinary weight.
ECHO_RETRIEVAL = 0.7
CROSS_AGENT = 0.14
# Why post-failure lessons are the useful ones (DOMAIN §7: useful retrievals per stored
# reflection ≈ 3.4 times post-success): a routine task seldom matches any lesson (each of its k
# draws happens with this chance); the retriever ranks a lesson learnt from a failure this many
# times above a success story; and a task fed one about its own task type succeeds more often
# (by LESSON_HELP against the department's other tasks that day).
ROUTINE_RETRIEVAL = 0.15
LESSON_WEIGHT = 20.0
LESSON_HELP = 0.2
# The runtime's retriever weighs a lesson down as it ages (halving every RECENCY_HALF_LIFE
# days) and by its decay state (DOMAIN §4: an archived one, older than 90 days and not
# retrieved in the last 30, at 0.3): old lessons fall out of use unless they keep earning it.
RECENCY_HALF_LIFE_DAYS = 60.0
ARCHIVED_MULTIPLIER = 0.3
# Writes taper as the agents learn (fewer failures to reflect on): a department writes
# WRITE_START * its daily rate in week 0, falling to WRITE_FLOOR * with this half-life, so that
# the active set after decay settles at ~150-200 per department (DOMAIN §7) while a year
# still writes about 900-1,100.
WRITE_START, WRITE_FLOOR, WRITE_HALF_LIFE_WEEKS = 1.93, 0.38, 12.0
DAY = 86_400


def saturation(week: int) -> float:
    """0 at week 0, 1 at week 23 (the 24th week), ≈ 1.19 at the asymptote."""
    return (1 - 2 ** (-week / SUCCESS_HALF_LIFE_WEEKS)) / (1 - 2 ** (-23 / SUCCESS_HALF_LIFE_WEEKS))


def write_factor(week: int) -> float:
    """The day's reflection quota as a multiple of the scale's daily rate."""
    return WRITE_FLOOR + (WRITE_START - WRITE_FLOOR) * 2 ** (-week / WRITE_HALF_LIFE_WEEKS)


def repeat_failure_target(week: int) -> float:
    if week <= REPEAT_PLATEAU_WEEKS:
        return REPEAT_START
    decay = 2 ** (-(week - REPEAT_PLATEAU_WEEKS) / REPEAT_HALF_LIFE)
    return REPEAT_FLOOR + (REPEAT_START - REPEAT_FLOOR) * decay
