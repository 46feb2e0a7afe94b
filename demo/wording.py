"""The prose around the lessons: sentence frames, vocabulary, synonyms, small text helpers."""

from __future__ import annotations

import random
import re

MODELS = (
    ("claude-sonnet-4-5", 5),
    ("gpt-4.1", 3),
    ("claude-opus-4-1", 1),
    ("claude-haiku-4-5", 2),
    ("gpt-4.1-mini", 2),
    ("gemini-2.5-pro", 1),
)
CURRENCIES = ("EUR", "EUR", "EUR", "USD", "USD", "GBP", "CHF")
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
CAUSE_LABEL = {
    "strategy": "Wrong strategy",
    "input": "Bad input",
    "knowledge": "Missing knowledge",
    "external": "External failure",
    "edge": "Wrong strategy",
}
EPISODIC_CATEGORY = {
    "strategy": "wrong_strategy",
    "input": "bad_input",
    "knowledge": "missing_knowledge",
    "external": "external_failure",
    "edge": "edge_case_miss",
}
VERIFICATION = {"programming": "unit_tests", "finance": "ledger_balance_check"}

# Sentence frames: the lesson itself comes from the content library, these only vary the prose.
FAIL_HAPPENED = (
    "I was asked to {task}. {result}",
    "The task was to {task}. {result}",
    "My assignment was to {task}. {result}",
    "I had to {task}. {result}",
)
FAIL_RESULT = (
    "The run finished, but the result was rejected at the final check.",
    "It failed partway through, with {n_done} of {n_total} steps done.",
    "The output went out and came back with corrections the same {daypart}.",
    "I stopped when the check at the end did not pass.",
    "Nothing was sent, because the last check failed.",
    "A reviewer caught the problem {hours} hours later.",
)
PARTIAL_RESULT = (
    "I got through {n_done} of the {n_total} items on my list and stopped there.",
    "Part of the work was done; the rest was handed back.",
    "The task ended half done, and I said so in the summary.",
)
SUCCESS_HAPPENED = (
    "I was asked to {task}, and it went through on the first pass.",
    "The task was to {task}. It was accepted without changes.",
    "I had to {task}; the result passed every check.",
)
WRONG_FRAMES = (
    "{wrong}.",
    "At step {step}, {wrong}.",
    "{wrong}; I only noticed when the final check ran.",
    "{wrong}, and I did not catch it myself.",
)
QUAL_FRAMES = (" It happened {qual}.", " This was {qual}.", " The case came up {qual}.")
WHY_FRAMES = ("{label}: {why}.", "{why}.", "{label} — {why}.", "The root cause: {why}.")
PARTIAL_WHY = (
    "I planned for the whole batch to fit into one run and had no plan for the part that did not.",
    "I worked in the original order instead of putting the most important {unit} first.",
    "Nothing in my plan said what to do with {unit} that could not be finished in time.",
)
DO_FRAMES = (
    "Next time I will {action}.",
    "I should {action}.",
    "From now on I will {action}.",
    "{action}, and list anything left over in the run summary.",
)
RULE_FRAMES = (
    "When {trigger}, {action}.",
    "Always {action} when {trigger}.",
    "Whenever {trigger}, {action}.",
)
STRATEGY_FRAMES = ("{strategy}.", "{strategy}, and kept a note of every exception.", "{strategy}.")
WORKED_FRAMES = (
    "{why}.",
    "It worked because {why}.",
    "{why}, which is what made the difference.",
)
PRINCIPLES = (
    "a repeated failure with identical inputs is not a retry, it is a loop",
    "the record written by the system that did the work beats anyone's summary of it",
    "when two sources disagree, I find out why before picking one",
    "I check what I am about to change right before I change it, not an hour earlier",
    "a smaller verified result is worth more than a larger unverified one",
    "I report what is missing instead of leaving it out quietly",
    "the person who owns a decision should hear about a problem from me first",
    "a shortcut that saves time once must still be checked against the exceptions",
    "I state the assumption I am making so the next reader can test it",
    "an error message tells me where to look, not what the cause is",
    "a fix is finished when the check that caught the problem passes",
    "when I am unsure, I prefer the step that can be undone",
)
VERIFY_STEPS = (
    "Compare the result with the source before closing the task.",
    "Run the final check again and keep its output with the task.",
    "Write down anything left open in the run summary.",
    "Ask the owner to confirm when the result changes something they rely on.",
)
GENERIC_INSIGHTS = (
    "Report anything left over instead of dropping it",
    "Check the source record before trusting a cached copy",
    "Stop after the second identical failure and change the approach",
    "Write down the assumption behind every shortcut",
)
# Situation sentences: what makes one reflection's story differ from another's with the same lesson.
DETAILS = (
    "The batch had {n_total} {unit}, more than usual for a {weekday}.",
    "The request came in on {weekday} {daypart} with a same-day deadline.",
    "It was the first task of this kind for {cp} this quarter.",
    "{cp} was waiting on the result the same {daypart}.",
    "I had about {mins} minutes for it between two other tasks.",
    "The previous run on the same input had been {days} days earlier.",
    "A colleague had already handled {k} of the {unit} by hand.",
    "The input arrived {hours} hours later than planned.",
    "{cp2} was waiting on me at the same time.",
    "The same kind of task had gone smoothly {k} times that week.",
    "The instructions were two lines long and left the details to me.",
    "It was the last task before the {weekday} handover.",
    "Part of the input came in a layout I had not seen before.",
    "The owner of the task was out until {weekday}, so there was nobody to ask.",
    "I ran it twice: a dry run first, then the real one.",
    "The deadline had moved forward by {days} days.",
    "There were {k} open questions left from the previous attempt.",
    "{cp} wanted it done before their own {weekday} meeting.",
    "I worked from the notes of the last run instead of starting fresh.",
    "Volume was about {pct} percent above a normal {weekday}.",
    "The work was split with another agent, and my share was {n_total} {unit}.",
    "Nothing similar had come up for {days} days.",
)
DERIVED_STRATEGY = (
    "This task had the usual trap ({trigger}), so I made sure to {action}",
    "I applied the lesson for the case where {trigger}: I made sure to {action}",
)
DERIVED_WHY = (
    "the {title} problem that caught me before could not happen this time",
    "checking for it first took a few minutes and saved a round of corrections",
    "the earlier reflection on {title} told me exactly where to look",
)
SUCCESS_SUFFIX = ("", "", " I would do the same again.", " It saved a round of corrections.")

# Light rewording for planted duplicates: the same lesson, different words.
_SYNONYMS = (
    ("before", "prior to"),
    ("instead of", "rather than"),
    ("Next time I will", "Going forward I will"),
    ("From now on", "Going forward"),
    ("I should", "I need to"),
    ("check", "verify"),
    ("every", "each"),
    ("the rest", "the remainder"),
    ("problem", "issue"),
    ("noticed", "spotted"),
    ("straight away", "right away"),
    ("only", "just"),
    ("first", "initially"),
    ("because", "since"),
    ("confirm", "double-check"),
    ("send", "forward"),
)
_SYNONYM_PATTERNS = tuple((re.compile(rf"\b{re.escape(a)}\b"), b) for a, b in _SYNONYMS)
_SLUG_STOP = frozenset(("a", "an", "the", "for", "of", "to", "on", "in", "and", "or", "by", "with"))


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isalpha() else text


def slug(title: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", title.lower())
    return [w for w in words if w not in _SLUG_STOP][:4] or ["reflection"]


def reword_text(text: str, rng: random.Random, light: bool = False) -> str:
    """Swap some words for synonyms; the first two that apply always do: it never reads the same.
    A light rewording (the lesson comes back in another format) swaps only the first."""
    applied = 0
    for pattern, replacement in _SYNONYM_PATTERNS:
        if pattern.search(text) and (
            applied < (1 if light else 2) or (not light and rng.random() < 0.6)
        ):
            text = pattern.sub(replacement, text)
            applied += 1
    return text
