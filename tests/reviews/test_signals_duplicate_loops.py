"""Two passes of one episodic loop (`<loop-id>/<iteration>`) are two tries at one task: the
duplicate rule's "another pass at its task" reads the loop as the task when the source names
no task id (Reflection.task_key, reviews.selectors.signal_facts), and two passes at one task
are one lesson only when they share most of their terms, however close the backend finds
them (a real run's passes tell opposite diagnoses in one template)."""

from __future__ import annotations

from datetime import UTC, datetime

from reflections.models import Format, Reflection
from reflections.similarity.backends import LatentBackend
from reviews.selectors.signal_facts import _twin
from reviews.signals.duplicate import score_duplicate

SCALE = LatentBackend().calibration


def reflection(
    format, external_id="", task_id="", path="p.json", lesson="Check the door plan before booking."
) -> Reflection:
    return Reflection(
        source_path=path,
        format=format,
        external_id=external_id,
        task_id=task_id,
        title="Check the door plan",
        body=lesson,
        kind="failure",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


def test_an_episodic_pass_is_learnt_on_its_loop():
    one = reflection(Format.EPISODIC, "ralph-del-20251215-0004/1")
    two = reflection(Format.EPISODIC, "ralph-del-20251215-0004/2")
    other = reflection(Format.EPISODIC, "ralph-del-20251215-0005/1")
    assert one.task_key == two.task_key == "loop:ralph-del-20251215-0004"
    assert other.task_key != one.task_key


def test_a_named_task_id_wins_and_other_formats_without_one_have_no_task():
    assert reflection(Format.EPISODIC, "loop/1", task_id="t-7").task_key == "t-7"
    assert reflection(Format.EPISODIC, "1").task_key == ""  # a file outside a loop folder
    assert reflection(Format.HEURISTIC, "erl_1").task_key == ""
    assert reflection(Format.FRONTMATTER, task_id="t-8").task_key == "t-8"


def test_two_passes_of_one_loop_that_say_other_things_are_not_one_lesson_however_close():
    first = reflection(Format.EPISODIC, "ralph-del-1/1", path="a/001.json")
    second = reflection(
        Format.EPISODIC,
        "ralph-del-1/2",
        path="a/002.json",
        lesson="Ask the carrier for the trailer's seal number when it arrives.",
    )
    signal = score_duplicate(
        [_twin(second, 1.0, "a/002.json"), _twin(first, SCALE.alike_full, "a/001.json")], SCALE
    )
    assert not signal.flagged
    assert "another pass at its task sharing" in signal.reasons[0]


def test_two_passes_of_one_loop_that_repeat_its_terms_are_one_lesson_however_far_apart():
    first = reflection(Format.EPISODIC, "ralph-del-1/1", path="a/001.json")
    second = reflection(Format.EPISODIC, "ralph-del-1/2", path="a/002.json")
    second.created_at = datetime(2026, 1, 2, tzinfo=UTC)
    signal = score_duplicate(
        [_twin(second, 1.0, "a/002.json"), _twin(first, SCALE.alike_from, "a/001.json")], SCALE
    )
    assert signal.flagged and signal.keep == "a/001.json"
    assert "another pass at its task sharing 100% of its terms" in signal.reasons[1]


PROBLEM = "Given 0-indexed Array nums of Length 10^5, Return Count."


def run_reflection(problem: str, number: int, lesson: str) -> Reflection:
    """A reflection as import_reflexion_run writes it: the problem it was learnt on quoted in
    a context section, the task id naming the trial."""
    return Reflection(
        source_path=f"run.jsonl#{problem}/{number}",
        format=Format.REFLEXION_RUN,
        external_id=f"{problem}#{number}",
        task_id=f"run/{problem}/{number - 1}",
        title=lesson[:60],
        body=f"Problem\n{PROBLEM}\n\nReflection\n{lesson}",
        sections=[
            {
                "heading": "Problem",
                "body": PROBLEM,
            },
            {"heading": "Reflection", "body": lesson},
        ],
        kind="failure",
        created_at=datetime(2023, 3, number, tzinfo=UTC),
    )


def test_a_reflexion_runs_passes_at_one_problem_are_one_task_whatever_trial_wrote_them():
    one = run_reflection("count-subarrays", 1, "The median is the average of the middle two.")
    two = run_reflection("count-subarrays", 2, "The median is the left middle element.")
    other = run_reflection("shortest-cycle", 1, "The cycle search stops at the first cycle.")
    assert one.task_key == two.task_key == "problem:count-subarrays"
    assert other.task_key != one.task_key


def test_two_reflections_on_one_problem_with_opposite_diagnoses_are_not_one_lesson():
    one = run_reflection("count-subarrays", 1, "The median is the average of the middle two.")
    two = run_reflection("count-subarrays", 2, "The median is the left middle element.")
    signal = score_duplicate(
        [_twin(two, 1.0, two.source_path), _twin(one, SCALE.alike_full, one.source_path)], SCALE
    )
    assert not signal.flagged
    assert "another pass at its task sharing 17% of its terms" in signal.reasons[0]


def test_the_problem_a_reflection_quotes_lends_it_no_names_or_figures():
    twin = _twin(run_reflection("count-subarrays", 1, "Handle the empty array."), 1.0, "p")
    assert "Problem" not in twin.text and "10^5" not in twin.text
    assert twin.text.endswith("Handle the empty array.")


# Three passes at one problem of a real run (corpora/real-runs/humaneval-ucs-py-gpt4,
# HumanEval/3, reflections 5, 6 and 2; GPT-4, MIT-licensed logs of noahshinn/reflexion): the
# readers put 6 with 5 and 2, which says the opposite, apart.
AT_THE_END = (
    "The current implementation is incorrect because it returns True as soon as the balance goes "
    "below zero, even if the balance becomes positive again later in the list of operations. The "
    "function should only return True if the balance remains below zero after all operations "
    "are processed."
)
AGAIN = (
    "The current implementation is incorrect because it returns True as soon as the balance goes "
    "below zero at any point during the operations. However, the balance can still go back to "
    "zero or above after subsequent operations. The function should only return True if the "
    "balance remains below zero after all operations are processed."
)
AS_SOON_AS = (
    "The implementation is incorrect because it resets the below_zero_flag to False when the "
    "balance becomes non-negative again. This causes the function to return False even if the "
    "balance has fallen below zero at some point in the past. The function should return True "
    "as soon as the balance falls below zero, without resetting the flag."
)


def test_a_real_runs_pass_that_repeats_a_diagnosis_is_one_lesson_and_the_opposite_is_not():
    earlier = run_reflection("below-zero", 1, AT_THE_END)
    opposite = run_reflection("below-zero", 2, AS_SOON_AS)
    again = run_reflection("below-zero", 3, AGAIN)
    close = SCALE.alike_full  # the template makes every pass close by the backend

    repeat = score_duplicate(
        [_twin(again, 1.0, again.source_path), _twin(earlier, close, earlier.source_path)], SCALE
    )
    contrary = score_duplicate(
        [_twin(opposite, 1.0, opposite.source_path), _twin(earlier, close, earlier.source_path)],
        SCALE,
    )

    assert repeat.flagged and repeat.keep == earlier.source_path
    assert not contrary.flagged
