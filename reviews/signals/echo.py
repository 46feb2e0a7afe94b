"""The echo-chamber signal, pure (DOMAIN §1): the author keeps retrieving its own lesson,
its own tasks do worse when they are handed it than when they are not while it starts them
surer of itself, and it restates the lesson while it is injected, with no other agent
arriving at the same lesson on its own.

Measured with bench/signals.py on the default demo (docs/architecture.md, Benchmarks),
precision / recall: seed 7 1.00 / 0.89, seed 11 0.95 / 0.78, seed 23 0.91 / 0.89.
"""

from __future__ import annotations

from reviews.selectors.echo_facts import EchoFacts, Restatement
from reviews.signals.base import Signal, clamp, pct

# A restatement repeats the lesson: on the demo, echo followers score 0.44-0.87 against their
# seed (TF-IDF cosine; the tasks told around the lesson differ), so a later reflection of its
# author restates it at 0.5 or more, or from 0.4 when it repeats a run of RESTATED_WORDS words
# of it verbatim (the rule itself: "when an email thread has more than five recipients, reply
# to all by default"). Another agent's lesson at 0.5 or more is independent support.
ECHO_SIMILARITY = 0.5
RESTATEMENT_FLOOR = 0.4
RESTATED_WORDS = 8
# "Keeps retrieving": the lesson (or a restatement) was handed to its author for at least
# this share of the author's tasks of its kind since it was written. On the demo the planted
# echo chambers sit at 0.5-0.86; sound lessons injected beside them mostly below 0.2.
DOMINANCE = 0.5
# The author's own tasks of that kind did at least this many rate points worse fed than unfed
# (same agent, same task type, same four weeks: a harm the lesson does not share with
# everything else in the prompt, and not the learning curve's climb).
HARM_CONTRAST = -0.1
# ... while the author started them at least this much surer of itself than unfed tasks that
# ended the same way (confidence_at_start; not weighed when the task log has none).
SURER = 0.02
SELF_SHARE = 0.5  # at least half of the retrievals of it and its restatements by the author
WEIGHTS = {
    "repeats": 0.2,
    "harm": 0.35,
    "dominance": 0.15,
    "surer": 0.05,
    "self": 0.1,
    "alone": 0.15,
}


def restates_it(r: Restatement) -> bool:
    return r.similarity >= ECHO_SIMILARITY or (
        r.similarity >= RESTATEMENT_FLOOR and r.shared_words >= RESTATED_WORDS
    )


def score_echo(facts: EchoFacts) -> Signal:
    """Each part of the mechanism adds to the score; it is flagged only when all are there:
    restated under injection, kept retrieved by its author, harmful to the author's own
    tasks while making it surer (when confidence is logged), mostly self-retrieved, no
    independent support."""
    under = [r for r in facts.restatements if r.under_injection and restates_it(r)]
    echoes_of = [r for r in facts.restates if r.under_injection and restates_it(r)]
    links = len(under) + len(echoes_of)
    own = facts.own_tasks
    contrast = own.contrast()
    surer = own.sureness()
    retrievals = facts.family_retrievals or facts.retrievals
    self_retrievals = facts.family_self_retrievals or facts.self_retrievals
    share = self_retrievals / retrievals if retrievals else 0.0
    parts = {
        "repeats": clamp(links / 2),
        "harm": clamp(-contrast / 0.3) if contrast is not None else 0.0,
        "dominance": clamp(own.coverage / 0.7),
        "surer": clamp(surer / 0.05) if surer is not None else 0.5,
        "self": clamp((share - 0.3) / 0.5) if retrievals else 0.0,
        "alone": 1.0 if facts.independent_agents == 0 else 0.0,
    }
    score = sum(WEIGHTS[k] * v for k, v in parts.items())
    restating = [r for r in facts.restatements if restates_it(r)]
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
    both = own.compared
    if contrast is None or both is None:
        reasons.append(
            f"fed vs unfed unknown: in the weeks that had both, {both.fed if both else 0} of the "
            f"author's tasks were handed it and {both.unfed if both else 0} were not; at least "
            "5 of each are needed"
        )
    else:
        reasons.append(
            f"the author's tasks handed it succeeded {both.fed_successes} of {both.fed} times, "
            f"those not handed it in the same weeks {both.unfed_successes} of {both.unfed}: "
            f"{pct(contrast)} against the same four weeks"
        )
    if surer is None:
        reasons.append("confidence at the start of its tasks not logged for enough of them")
    else:
        reasons.append(
            f"the author started the tasks handed it {surer:+.2f} more confident than those not "
            "handed it that ended the same way"
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
        and (surer is None or surer >= SURER)
        and share >= SELF_SHARE
        and facts.independent_agents == 0
    )
    return Signal("echo", round(score, 3), flagged, reasons)
