"""Rating by keyboard in the browser: keys 1 to 5 pick a level on the focused criterion, Tab
moves to the next (the calibration and rating pages share the form)."""

from __future__ import annotations

from playwright.sync_api import expect

from rubric.models import CRITERIA, LEVELS


def key_of(level: float) -> str:
    """The key that picks a level: 1 for 0, 2 for 0.25 … 5 for 1."""
    return str(LEVELS.index(level) + 1)


def radio(page, criterion: str, level: float):
    return page.locator(f'#criterion-{criterion} input[type=radio][data-key="{key_of(level)}"]')


def first_radio(page, criterion: str):
    return page.locator(f'#criterion-{criterion} input[type=radio][data-key="1"]')


def pick_levels_by_keyboard(page, levels) -> None:
    """Keys 1 to 5 on the focused criterion, Tab to the next; focus ends on the last level."""
    expect(first_radio(page, CRITERIA[0])).to_be_focused()  # the page puts focus there
    for n, (criterion, level) in enumerate(zip(CRITERIA, levels, strict=True)):
        if n:
            page.keyboard.press("Tab")
            expect(first_radio(page, criterion)).to_be_focused()
        page.keyboard.press(key_of(level))
        expect(radio(page, criterion, level)).to_be_checked()
        expect(radio(page, criterion, level)).to_be_focused()
    for criterion, level in zip(CRITERIA, levels, strict=True):
        expect(page.locator(f"#criterion-{criterion} input:checked")).to_have_count(1)
        expect(radio(page, criterion, level)).to_be_checked()
