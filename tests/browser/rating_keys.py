"""Rating by keyboard in the browser: a key 1 to 5 sets the level of the criterion in focus
and moves on to the next criterion without a level, so four digits and Enter rate an item
(the calibration and rating pages share the form)."""

from __future__ import annotations

from playwright.sync_api import expect

from rubric.models import CRITERIA, LEVELS, RatingAssignment
from rubric.services.rounds import create_round
from tests.factories import UserFactory


def round_for(rater, *, name: str, size: int, seed: int):
    """A round a manager opens for `rater` alone, and her assignments in the round's order."""
    rating_round = create_round(
        name=name,
        size=size,
        raters=[rater],
        seed=seed,
        user=UserFactory(username="mara", roles=["manager"]),
        raters_per_item=1,
    )
    mine = list(
        RatingAssignment.objects.filter(item__rating_round=rating_round, rater=rater)
        .select_related("item__reflection")
        .order_by("item__position")
    )
    return rating_round, mine


def key_of(level: float) -> str:
    """The key that picks a level: 1 for 0, 2 for 0.25 … 5 for 1."""
    return str(LEVELS.index(level) + 1)


def radio(page, criterion: str, level: float):
    return page.locator(f'#criterion-{criterion} input[type=radio][data-key="{key_of(level)}"]')


def first_radio(page, criterion: str):
    return page.locator(f'#criterion-{criterion} input[type=radio][data-key="1"]')


def pick_levels_by_keyboard(page, levels) -> None:
    """One digit per criterion, nothing between them: each digit sets its criterion and the
    focus moves to the next; after the last it stays on the last level, ready for Enter."""
    expect(first_radio(page, CRITERIA[0])).to_be_focused()  # the page puts focus there
    for n, (criterion, level) in enumerate(zip(CRITERIA, levels, strict=True)):
        page.keyboard.press(key_of(level))
        expect(radio(page, criterion, level)).to_be_checked()
        if n + 1 < len(CRITERIA):
            expect(first_radio(page, CRITERIA[n + 1])).to_be_focused()
    expect(radio(page, CRITERIA[-1], levels[-1])).to_be_focused()
    for criterion, level in zip(CRITERIA, levels, strict=True):
        expect(page.locator(f"#criterion-{criterion} input:checked")).to_have_count(1)
        expect(radio(page, criterion, level)).to_be_checked()
