"""The echo-chamber signal, pure (DOMAIN §1): the author keeps retrieving its own lesson,
its own tasks do worse when they are handed it than when they are not, and it restates the
lesson while it is injected, with no other agent arriving at the same lesson on its own.

Measured with bench/signals.py on the default demo (docs/architecture.md, Benchmarks).
"""

from __future__ import annotations

from reviews.selectors.echo_facts import EchoFacts
from reviews.signals.base import Signal, clamp, pct

# A restatement repeats the lesson in other words: on the demo, echo followers score
# 0.50-0.87 against their seed (TF-IDF cosine), so 0.5 is where "says the same thing" starts.
ECHO_SIMILARITY = 0.5
# "Keeps retrieving": the lesson (or a restatement) was handed to its author for at least
# this share of the author's tasks of its kind since it was written. On the demo the planted
# echo chambers sit at 0.66-0.84; sound lessons injected beside them mostly below 0.2.
DOMINANCE = 0.5
# The author's own tasks of that kind did at least this many rate points worse fed than unfed
# (same agent, same task type, same months: a harm the lesson does not share with everything
# else in the prompt). Planted echo chambers: -0.17 to -0.49 on the demo.
HARM_CONTRAST = -0.15
SELF_SHARE = 0.5  # at least half of the retrievals of it and its restatements by the author
WEIGHTS = {"repeats": 0.25, "harm": 0.3, "dominance": 0.2, "self": 0.1, "alone": 0.15}


def score_echo(facts: EchoFacts) -> Signal:
    """Each part of the mechanism adds to the score; it is flagged only when all five are
    there: restated under injection, kept retrieved by its author, harmful to the author's
    own tasks, mostly self-retrieved, no independent support."""
    under = [r for r in facts.restatements if r.under_injection and r.similarity >= ECHO_SIMILARITY]
    echoes_of = [r for r in facts.restates if r.under_injection and r.similarity >= ECHO_SIMILARITY]
    links = len(under) + len(echoes_of)
    own = facts.own_tasks
    contrast = own.contrast()
    retrievals = facts.family_retrievals or facts.retrievals
    self_retrievals = facts.family_self_retrievals or facts.self_retrievals
    share = self_retrievals / retrievals if retrievals else 0.0
    parts = {
        "repeats": clamp(links / 2),
        "harm": clamp(-contrast / 0.3) if contrast is not None else 0.0,
        "dominance": clamp(own.coverage / 0.7),
        "self": clamp((share - 0.3) / 0.5) if retrievals else 0.0,
        "alone": 1.0 if facts.independent_agents == 0 else 0.0,
    }
    score = sum(WEIGHTS[k] * v for k, v in parts.items())
    restating = [r for r in facts.restatements if r.similarity >= ECHO_SIMILARITY]
    rate = len(restating) / facts.later_by_author if facts.later_by_author else 0.0
    kind = ", ".join(own.task_types) or "its task type"
    reasons = [
        f"handed to its author for {own.coverage:.0%} of the author's {kind} tasks since it "
        f"was written ({own.fed} of {own.total})",
        f"self-retrieval {share:.0%} ({self_retrievals} of {retrievals} retrievals of it"
        f"{' and its restatements' if echoes_of or under else ''} by its author; "
        f"{facts.retrieving_agents} agents, {facts.retrieving_tasks} tasks retrieved it)",
        f"repetition rate {rate:.0%}: {len(restating)} of the author's "
        f"{facts.later_by_author} later reflections restate it, {len(under)} of them written "
        "while it was injected",
    ]
    if echoes_of:
        reasons.append(
            f"itself restates {len(echoes_of)} earlier lesson(s) of its author, written while "
            "that lesson was injected"
        )
    if contrast is None:
        reasons.append(
            f"fed vs unfed unknown: {own.fed} of the author's tasks were handed it and "
            f"{own.unfed} were not; at least 5 of each are needed"
        )
    else:
        reasons.append(
            f"the author's tasks handed it succeeded {own.fed_successes} of {own.fed} times, "
            f"those not handed it {own.unfed_successes} of {own.unfed}: {pct(contrast)}"
        )
    if facts.family_lift is not None:
        reasons.append(
            f"lift {pct(facts.family_lift)} against the department over {facts.family_tasks} "
            "tasks it or its restatements were injected into"
        )
    reasons.append(
        "no other agent wrote the same lesson (no independent support)"
        if facts.independent_agents == 0
        else f"{facts.independent_agents} other agent(s) wrote the same lesson independently"
    )
    flagged = (
        links >= 1
        and own.coverage >= DOMINANCE
        and contrast is not None
        and contrast <= HARM_CONTRAST
        and share >= SELF_SHARE
        and facts.independent_agents == 0
    )
    return Signal("echo", round(score, 3), flagged, reasons)
