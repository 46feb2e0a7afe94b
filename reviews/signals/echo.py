"""The echo-chamber signal, pure (DOMAIN §1): the author keeps retrieving its own lesson,
its own tasks do worse when they are handed it than when they are not while it starts them
surer of itself, and it restates the lesson while it is injected.

The score is a weighted sum of five parts (reviews.signals.base.weighted); a part whose
evidence is missing carries no weight, and the reasons say which. The weights were chosen on
the development corpora (demo seeds 7 and 11, an independent corpus's first seed), where each
part's separation of planted chambers from the rest was measured:

* **harm** (0.45): the author's own tasks of its kind succeeded less often when handed the
  lesson (or a restatement) than in the same four weeks when not, as a one-sided z statistic
  of the two success rates (so a gap measured on a handful of tasks counts for little); full
  at z = 2 on at least 12 fed tasks (on fewer, in proportion: a habit is not a handful, and
  among a department's hundred items a lesson weeks old whose five fed tasks happened to
  fail reaches z = 2 by chance; demo seeds 7 and 11: 6 of 11 false flags, no chamber lost on
  any development corpus). The mechanism's consequence and the best single separator on every
  development corpus, hence the largest weight. Missing when fewer than 5 tasks of either side
  can be compared. When the lesson has restatements, the lesson alone must not contradict it: a
  text model reads an opposite rule on the same topic as a restatement, but tasks handed the
  opposite rule do not fare worse, so when the lesson alone did no worse fed than unfed the
  lower of the two counts. When it did worse, even on too few tasks to be sure, the family's
  figure counts: a follower is handed a few times before the review, and its own thin
  record says nothing against the chamber's (seed-1 of the independent corpus: recall 0.63 →
  0.74 from this alone).
* **surer** (0.2): the author started those tasks more confident than unfed tasks that ended
  the same way; full at +0.08. The second separator where confidence is logged; missing
  (not zero) where it is not, which is most agents of some corpora.
* **dominance** (0.25): the share of the author's tasks of its kind it was handed since it was
  written; full at 40 %. A chamber is the author's habit, but a moderate one is handed a
  quarter of the time, so it is graded, never a threshold. Missing under 10 tasks.
* **self-retrieval** (0.05): the author's share of the retrievals of it and its restatements
  in the window, from 25 % (nothing) to 75 % (full). Small: demo agents retrieve mostly their
  own lessons whatever they are, so it separates little there.
* **repeats** (0.05): later reflections of the author restate it, written while it was
  injected (or it restates an earlier one that way); full at two. Small because a text model
  finds restatements told in other words unreliably; missing when the author wrote nothing
  after it (no chance to repeat it yet is not evidence against).

Independent support (another agent's lesson as alike as a restatement must be) is reported,
not weighed: a text model cannot tell another agent's same lesson from its opposite rule on
the same topic. The cut is CUT (docs/signals.md, with the figures in and out of
sample).
"""

from __future__ import annotations

import math

from reviews.selectors.echo_facts import EchoFacts, OwnTasks
from reviews.signals.base import HeldOut, Part, Signal, clamp, missing_note, pct, share, weighted

# A restatement repeats the lesson: a later reflection of its author at the backend's
# `restated` similarity or more (reflections.similarity.backends.Calibration), or from its
# `alike_from` when it repeats a run of RESTATED_WORDS words of it verbatim (the rule itself,
# told inside another task's story). Another agent's lesson at `restated` or more is
# independent support. echo_facts reads them: every Restatement it returns qualifies.
RESTATED_WORDS = 8
WEIGHTS = {
    "harm": 0.45,
    "surer": 0.2,
    "dominance": 0.25,
    "self-retrieval": 0.05,
    "repeats": 0.05,
}
HARM_FULL_Z = 2.0  # z of "fed did worse than unfed" for the whole part
HARM_FULL_FED = 12  # fed tasks compared for the whole part; fewer count in proportion
SURER_FULL = 0.08
SURER_MIN_TASKS = 5  # fed and unfed tasks with a logged confidence, per outcome
DOMINANCE_FULL = 0.4
SELF_FROM, SELF_FULL = 0.25, 0.75
CUT = 0.8
# Right / wrong / missed flags, pooled, on the corpora of other authors with the default
# backend, each run before its misses were read (signals-dev seed 2 20/0/4, the fourth author
# 14/5/8, the fifth 17/2/5, the sixth 10/2/17, the seventh 8/0/16, the eighth 22/1/4;
# docs/signals.md): shown under the cut on the cycle page, with the score's lowest AUC there
# (0.99, 0.95, 0.97, 0.95, 0.99, 0.99): it orders chambers well where the cut misses many.
HELD_OUT = HeldOut(corpora=6, right=91, wrong=10, missed=54, ranks_from=0.95)
MIN_OWN_TASKS = 10  # the author's tasks of its kind needed to say how often it was handed


def harm_of(tasks: OwnTasks) -> float | None:
    """How surely the fed tasks did worse than the unfed in the same blocks of weeks: the
    block-weighted contrast over its standard error (pooled rate, both sides' counts), in
    proportion to the fed tasks compared below HARM_FULL_FED."""
    contrast, both = tasks.contrast(), tasks.compared
    if contrast is None or both is None:
        return None
    rate = (both.fed_successes + both.unfed_successes) / (both.fed + both.unfed)
    # A rate of 0 or 1 would make any gap infinitely sure: the variance is floored.
    error = math.sqrt(max(rate * (1 - rate), 0.05) * (1 / both.fed + 1 / both.unfed))
    return clamp(-contrast / error / HARM_FULL_Z) * min(1.0, both.fed / HARM_FULL_FED)


def _points_the_same_way(alone: OwnTasks) -> bool:
    """The lesson alone did worse when fed, however few its tasks (a restatement's weak
    agreement is noise, its opposite is a contradiction)."""
    contrast = alone.contrast()
    return contrast is not None and contrast < 0


def echo_parts(facts: EchoFacts) -> list[Part]:
    """The parts of the score, each in [0, 1] or None when its evidence is missing."""
    under = [r for r in facts.restatements if r.under_injection]
    echoes_of = [r for r in facts.restates if r.under_injection]
    own = facts.own_tasks
    surer = own.sureness(min_tasks=SURER_MIN_TASKS)
    retrievals = facts.family_retrievals or facts.retrievals
    self_retrievals = facts.family_self_retrievals or facts.self_retrievals
    could_repeat = facts.later_by_author or facts.restates
    harm = harm_of(own)
    alone = facts.alone_tasks
    if harm is None or (alone is not None and not _points_the_same_way(alone)):
        known = [h for h in (harm, harm_of(alone) if alone else None) if h is not None]
        harm = min(known) if known else None
    values = {
        "harm": harm,
        "surer": clamp(surer / SURER_FULL) if surer is not None else None,
        "dominance": (clamp(own.coverage / DOMINANCE_FULL) if own.total >= MIN_OWN_TASKS else None),
        "self-retrieval": (
            clamp((self_retrievals / retrievals - SELF_FROM) / (SELF_FULL - SELF_FROM))
            if retrievals
            else None
        ),
        "repeats": clamp((len(under) + len(echoes_of)) / 2) if could_repeat else None,
    }
    return [Part(name, WEIGHTS[name], values[name]) for name in WEIGHTS]


def score_echo(facts: EchoFacts) -> Signal:
    """The weighted parts (echo_parts) and, for the reviewer, what each rests on."""
    parts = echo_parts(facts)
    under = [r for r in facts.restatements if r.under_injection]
    echoes_of = [r for r in facts.restates if r.under_injection]
    own = facts.own_tasks
    contrast = own.contrast()
    surer = own.sureness(min_tasks=SURER_MIN_TASKS)
    retrievals = facts.family_retrievals or facts.retrievals
    self_retrievals = facts.family_self_retrievals or facts.self_retrievals
    self_share = self_retrievals / retrievals if retrievals else 0.0
    restating = facts.restatements
    rate = len(restating) / facts.later_by_author if facts.later_by_author else 0.0
    kind = ", ".join(own.task_types) or "its task type"
    reasons = [
        f"handed to its author for {share(own.coverage)} of the author's {kind} tasks since it "
        f"was written ({own.fed} of {own.total})",
        f"self-retrieval {share(self_share)} ({self_retrievals} of {retrievals} retrievals of it"
        f"{' and its restatements' if echoes_of or under else ''} by its author; "
        f"{facts.retrieving_agents} agents, {facts.retrieving_tasks} tasks retrieved it)",
        f"repetition rate {share(rate)}: {len(restating)} of the author's "
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
            + (
                f" (on fewer than {HARM_FULL_FED} fed tasks: counts for {both.fed} of "
                f"{HARM_FULL_FED})"
                if both.fed < HARM_FULL_FED
                else ""
            )
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
    missing = missing_note(parts)
    if missing:
        reasons.append(missing)
    return Signal.scored("echo", weighted(parts), CUT, reasons, parts)
