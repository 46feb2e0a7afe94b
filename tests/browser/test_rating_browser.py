"""Calibration and blind rating in a real browser: a new rater calibrates by keyboard, fails,
sees gold one item at a time (items held out for the retry stay hidden), recalibrates on the
same items in a new order scored on the held-out ones, passes, then
rates two items of a manager's round, each swapped in with htmx, without ever seeing another
rater's name, comment or levels."""

from __future__ import annotations

import re

import pytest
from django.template.defaultfilters import floatformat
from django.utils import timezone
from playwright.sync_api import expect

from rubric.eligibility import is_calibrated
from rubric.models import (
    CRITERIA,
    LEVELS,
    CalibrationAttempt,
    CalibrationPolicy,
    Rating,
    RatingAssignment,
    RatingRound,
)
from rubric.services.calibration_sets import build_calibration_set
from rubric.services.rounds import create_round, submit_rating
from rubric.services.rubric import ensure_rubric
from tests.browser.rating_keys import pick_levels_by_keyboard, radio
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory

pytestmark = BROWSER

# Twelve items: the first attempt reveals gold for two and holds ten out for the retry.
CALIBRATION_TITLES = [
    "Confirm the payee before paying",
    "Split card fees before matching",
    "Retry the bank export once",
    *(f"Calibration lesson {n}" for n in range(4, 13)),
]
ROUND_TITLES = ["Ask for the PO number first", "Check the region field before enrichment"]
# Gold per calibration item, in CRITERIA order; every criterion varies across the items, so κ
# is defined for each of them on any ten (a constant column makes κ undefined).
GOLD = [tuple(LEVELS[(n + 2 * c) % len(LEVELS)] for c in range(4)) for n in range(12)]
# Deliberately far from gold: the mirror image (1 - gold), so κ is defined and negative.
MIRRORED = [tuple(1.0 - level for level in levels) for levels in GOLD]

OTHER_RATERS = ("bruno", "carla")
# What bruno wrote on the item he shares with the new rater: never on the new rater's pages.
BRUNO_COMMENT = "Bruno private note: the payee lesson is too vague"
BRUNO_LEVELS = {"specificity": 0.25, "actionability": 0.25, "transferability": 0.5, "accuracy": 1}


@pytest.fixture
def rubric():
    return ensure_rubric()


@pytest.fixture
def policy():
    policy = CalibrationPolicy.current()
    policy.pass_kappa = 0.6
    policy.require_each_quarter = False
    policy.save()
    return policy


@pytest.fixture
def support():
    return DepartmentFactory(slug="support", name="Support")


@pytest.fixture
def calibration_set(support, rubric):
    """Three reflections with gold levels (the service's size=None accepts any number)."""
    agent = AgentFactory(name="support-bot", department=support)
    admin = UserFactory(username="ada", roles=["admin"])
    reflections = [ReflectionFactory(agent=agent, title=title) for title in CALIBRATION_TITLES]
    return build_calibration_set(
        name="Support calibration",
        reflections_with_gold=[
            (reflection, dict(zip(CRITERIA, gold, strict=True)))
            for reflection, gold in zip(reflections, GOLD, strict=True)
        ],
        user=admin,
        size=None,
    )


@pytest.fixture
def round_reflections(support):
    agent = AgentFactory(name="support-helper", department=support)
    return [ReflectionFactory(agent=agent, title=title) for title in ROUND_TITLES]


@pytest.fixture
def rina():
    return UserFactory(username="rina", roles=["rater"])


def rate_calibration_set(page, live_server, attempt: CalibrationAttempt, levels) -> None:
    """Every item of the attempt by keyboard, in the attempt's own order; Enter saves and swaps
    in the next item, and after the last one the app sends the browser to the submit page."""
    page.evaluate("window.__sameDocument = true")
    item = page.locator("#calibration-item")
    attempt.refresh_from_db()
    served = attempt.order
    assert sorted(served) == list(range(1, len(levels) + 1))
    for number, position in enumerate(served, start=1):
        expect(item).to_have_attribute("data-position", str(position))
        expect(page.locator("#item-title")).to_have_text(CALIBRATION_TITLES[position - 1])
        expect(page.locator(".queue-position")).to_contain_text(
            f"Item {number} of {len(levels)} \N{MIDDLE DOT} {number - 1} rated"
        )
        expect(page).to_have_url(
            f"{live_server.url}/calibration/attempts/{attempt.pk}/items/{position}/"
        )
        # Blind: no level is picked for the rater, and gold is nowhere on the page.
        expect(page.locator("form.rating-form input:checked")).to_have_count(0)
        expect(page.locator(".gold-level")).to_have_count(0)
        pick_levels_by_keyboard(page, levels[position - 1])
        if number < len(levels):
            page.keyboard.press("Enter")
            expect(item).to_have_attribute("data-position", str(served[number]))
            assert page.evaluate("window.__sameDocument") is True  # swapped in, not loaded
        else:
            with page.expect_navigation():
                page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}/calibration/attempts/{attempt.pk}/submit/")
    expect(page.locator("h1")).to_have_text("Submit your calibration")
    stored = attempt.scores.count()
    assert stored == len(levels) * len(CRITERIA)


def submit_calibration(page, live_server, attempt: CalibrationAttempt) -> None:
    # A plain form button: the submit page offers no key for it, so it is clicked.
    page.click("#calibration-submit")
    page.wait_for_url(f"{live_server.url}/calibration/attempts/{attempt.pk}/")


def expect_results(page, live_server, attempt: CalibrationAttempt, given, *, passed: bool):
    """The results page: the verdict, κ per criterion and pooled, and per item how close the
    rater came — no gold level; gold opens one item at a time, beside the rater's levels."""
    verdict = "passed" if passed else "not passed"
    expect(page.locator("h1")).to_have_text(f"Your calibration: {verdict}")
    for key in (*CRITERIA, "pooled"):
        value = attempt.kappa[key]
        assert value is not None, f"κ for {key} is undefined"
        expect(page.locator(f'#kappa-table td[data-criterion="{key}"]')).to_have_text(
            floatformat(value, 2)
        )
    expect(page.locator(".gold-level")).to_have_count(0)
    rows = page.locator("#result-overview tbody tr")
    expect(rows).to_have_count(len(given))
    results_url = page.url
    for number, position in enumerate(attempt.order, start=1):
        mine, gold = given[position - 1], GOLD[position - 1]
        agreed = sum(a == b for a, b in zip(mine, gold, strict=True))
        row = rows.nth(number - 1)  # in the order the attempt served them
        expect(row).to_have_attribute("id", f"result-{position}")
        if position in attempt.held_out:  # scored next time: its gold stays hidden, no link
            expect(row).to_contain_text("held out")
            expect(row.locator("a")).to_have_count(0)
            continue
        expect(row).to_contain_text(f"{agreed} of {len(CRITERIA)}")
        with page.expect_navigation(url=f"{results_url}items/{position}/"):
            row.locator("a").click()
        levels = page.locator(f"#result-{position} table.result-table tbody tr")
        expect(levels).to_have_count(len(CRITERIA))
        for n, (my_level, gold_level) in enumerate(zip(mine, gold, strict=True)):
            cells = levels.nth(n).locator("td")
            expect(cells.nth(0)).to_have_text(f"{my_level:g}")
            expect(cells.nth(1)).to_have_text(f"{gold_level:g}")
            expect(levels.nth(n)).to_have_class(
                re.compile(r"\bmatch\b" if my_level == gold_level else r"\bmismatch\b")
            )
        page.goto(results_url)


def latest_attempt_of(user) -> CalibrationAttempt:
    return CalibrationAttempt.objects.filter(rater=user).order_by("-started_at", "-id").first()


def calibrated_rater(username: str, calibration_set, rubric):
    """A rater who passed on the same set: a submitted attempt row, made directly."""
    person = UserFactory(username=username, roles=["rater"])
    now = timezone.now()
    CalibrationAttempt.objects.create(
        rater=person,
        calibration_set=calibration_set,
        rubric=rubric,
        started_at=now,
        submitted_at=now,
        kappa=dict.fromkeys((*CRITERIA, "pooled"), 1.0),
        exact=dict.fromkeys((*CRITERIA, "pooled"), 1.0),
        pass_kappa=0.6,
        passed=True,
    )
    assert is_calibrated(person)
    return person


def assert_blind(page) -> None:
    """Nothing of the other raters is on the page: not their names, not bruno's comment."""
    html = page.content().lower()
    for username in OTHER_RATERS:
        assert username not in html, f"{username} is named on {page.url}"
    assert BRUNO_COMMENT.lower() not in html


@pytest.mark.django_db(transaction=True)
def test_a_new_rater_fails_calibration_recalibrates_passes_and_rates_two_items_blind(
    page, live_server, rubric, policy, calibration_set, round_reflections, rina
):
    # --- 1. Not calibrated; a first attempt far from gold fails ------------------------------
    sign_in(page, live_server, "rina", "/calibration/")
    expect(page.locator("#status-title")).to_have_text("Not calibrated")
    expect(page.locator(".page-head")).to_contain_text("at least 0.60")
    # A plain form button: the status page has no key for it.
    with page.expect_navigation():
        page.click("#calibration-start")
    first = latest_attempt_of(rina)
    assert (first.calibration_set_id, first.rubric_id) == (calibration_set.pk, rubric.pk)
    rate_calibration_set(page, live_server, first, MIRRORED)
    assert_no_csp_violations(page)
    submit_calibration(page, live_server, first)

    first.refresh_from_db()
    assert first.submitted_at is not None
    assert first.passed is False
    assert first.pass_kappa == 0.6
    assert first.kappa["pooled"] < 0.6
    expect(page.locator("#verdict-title")).to_have_text("Not passed yet")
    expect_results(page, live_server, first, MIRRORED, passed=False)
    assert not is_calibrated(rina)
    assert_no_csp_violations(page)

    # --- 2. Recalibrate: a fresh attempt exactly as gold passes ------------------------------
    with page.expect_navigation():
        page.click("#recalibrate")  # a form button on the results page; no key offered
    second = latest_attempt_of(rina)
    assert second.pk != first.pk
    assert second.submitted_at is None
    assert len(first.held_out) == 10 and sorted(second.scored) == sorted(first.held_out)
    # The retry is a new sequence: another order, starting on another item.
    assert second.order != first.order and second.order[0] != first.order[0]
    expect(page).to_have_url(
        f"{live_server.url}/calibration/attempts/{second.pk}/items/{second.order[0]}/"
    )
    rate_calibration_set(page, live_server, second, GOLD)
    assert_no_csp_violations(page)
    submit_calibration(page, live_server, second)

    second.refresh_from_db()
    assert second.passed is True
    assert second.kappa["pooled"] == pytest.approx(1.0)
    expect(page.locator("#verdict-title")).to_have_text("You are calibrated")
    expect(page.locator("#recalibrate")).to_have_count(0)
    expect_results(page, live_server, second, GOLD, passed=True)
    assert CalibrationAttempt.objects.filter(rater=rina).count() == 2
    assert is_calibrated(rina)
    assert_no_csp_violations(page)

    page.goto(f"{live_server.url}/calibration/")
    expect(page.locator("#status-title")).to_have_text("Calibrated")
    expect(page.locator(".calibration-status")).to_contain_text("pooled κ 1.00")
    history = page.locator("section[aria-labelledby=history-title] tbody tr")
    expect(history).to_have_count(2)
    expect(history.nth(0)).to_contain_text("passed")
    expect(history.nth(1)).to_contain_text("not passed")
    assert_no_csp_violations(page)

    # --- 3. A manager's round: two items, rated blind, each swapped in ---------------------
    others = [calibrated_rater(name, calibration_set, rubric) for name in OTHER_RATERS]
    manager = UserFactory(username="mara", roles=["manager"])
    rating_round = create_round(
        name="2026Q3 support sample",
        size=2,
        raters=[rina, *others],
        seed=7,
        user=manager,
        raters_per_item=3,
    )
    mine = list(
        RatingAssignment.objects.filter(item__rating_round=rating_round, rater=rina)
        .select_related("item__reflection")
        .order_by("item__position")
    )
    assert len(mine) == 2
    titles = [a.item.reflection.title for a in mine]
    # bruno rates the first item before rina gets to it; nothing of that may reach her.
    bruno_assignment = RatingAssignment.objects.get(item=mine[0].item, rater=others[0])
    submit_rating(
        assignment=bruno_assignment, user=others[0], levels=BRUNO_LEVELS, comment=BRUNO_COMMENT
    )
    assert Rating.objects.filter(assignment=bruno_assignment).count() == len(CRITERIA)

    page.goto(f"{live_server.url}/ratings/")
    expect(page.locator("#not-calibrated")).to_have_count(0)
    row = page.locator("table.rating-rounds-mine tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("2026Q3 support sample")
    expect(row).to_contain_text("0 / 2")
    assert_blind(page)
    # A link: the round list has no key for it.
    with page.expect_navigation():
        row.get_by_role("link", name="Rate").click()
    expect(page).to_have_url(f"{live_server.url}/ratings/{rating_round.pk}/rate/")
    page.evaluate("window.__sameDocument = true")

    item = page.locator("#rate-item")
    picked = [
        (0.75, 0.5, 1.0, 0.25),  # with a comment
        (0.0, 1.0, 0.5, 0.75),
    ]
    comment = "Clear trigger; the PO check is concrete."

    # Item 1: levels by keys and Tab, Tab into the comment, Tab to the button, Enter.
    expect(item).to_have_attribute("data-assignment", str(mine[0].pk))
    expect(page.locator("#item-title")).to_have_text(titles[0])
    expect(page.locator(".queue-position")).to_contain_text("Item 1 of 2 \N{MIDDLE DOT} 0 rated")
    expect(page.locator("form.rating-form input:checked")).to_have_count(0)  # not bruno's
    assert_blind(page)
    pick_levels_by_keyboard(page, picked[0])
    page.keyboard.press("Tab")
    expect(page.locator("#rating-comment")).to_be_focused()
    page.keyboard.type(comment)  # digits typed here are text, not levels
    expect(page.locator("#rating-comment")).to_have_value(comment)
    for criterion, level in zip(CRITERIA, picked[0], strict=True):
        expect(radio(page, criterion, level)).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.locator("#rating-save")).to_be_focused()
    with page.expect_response(lambda r: f"/rate/{mine[0].pk}/" in r.url) as posted:
        page.keyboard.press("Enter")
    assert posted.value.status == 200
    assert posted.value.request.headers.get("hx-request") == "true"

    # Item 2 is swapped in without a page load.
    expect(item).to_have_attribute("data-assignment", str(mine[1].pk))
    expect(page.locator("#item-title")).to_have_text(titles[1])
    expect(item.locator(".messages")).to_contain_text(
        f"Rated \N{LEFT DOUBLE QUOTATION MARK}{titles[0]}\N{RIGHT DOUBLE QUOTATION MARK}. "
        "Here is the next one."
    )
    expect(page.locator(".queue-position")).to_contain_text("Item 2 of 2 \N{MIDDLE DOT} 1 rated")
    expect(page.locator("#rating-comment")).to_have_value("")
    expect(page.locator("form.rating-form input:checked")).to_have_count(0)
    expect(page).to_have_url(f"{live_server.url}/ratings/{rating_round.pk}/rate/")
    assert page.evaluate("window.__sameDocument") is True
    assert_blind(page)

    # Item 2: levels only; Enter on the last level submits.
    pick_levels_by_keyboard(page, picked[1])
    with page.expect_response(lambda r: f"/rate/{mine[1].pk}/" in r.url) as posted:
        page.keyboard.press("Enter")
    assert posted.value.status == 200
    expect(page.locator("#rate-done")).to_contain_text(
        "All done. You have rated all 2 of your items in 2026Q3 support sample."
    )
    expect(item.locator(".messages")).to_contain_text(
        f"Rated \N{LEFT DOUBLE QUOTATION MARK}{titles[1]}\N{RIGHT DOUBLE QUOTATION MARK}."
    )
    assert page.evaluate("window.__sameDocument") is True
    assert_blind(page)
    assert_no_csp_violations(page)

    # The database: four ratings per submitted item, under the round's rubric version.
    rating_round = RatingRound.objects.get(pk=rating_round.pk)
    for assignment, levels in zip(mine, picked, strict=True):
        assignment.refresh_from_db()
        assert assignment.submitted_at is not None
        ratings = Rating.objects.filter(assignment=assignment)
        assert ratings.count() == len(CRITERIA)
        assert dict(ratings.values_list("criterion", "level")) == dict(
            zip(CRITERIA, levels, strict=True)
        )
        assert set(ratings.values_list("rubric_id", flat=True)) == {rating_round.rubric_id}
        assert set(ratings.values_list("rater_id", "reflection_id", "source")) == {
            (rina.pk, assignment.item.reflection_id, Rating.Source.ROUND)
        }
    assert [a.comment for a in mine] == [comment, ""]
    assert Rating.objects.filter(rater=rina).count() == 2 * len(CRITERIA)
    # bruno's ratings are untouched by rina's on the same item.
    assert dict(
        Rating.objects.filter(assignment=bruno_assignment).values_list("criterion", "level")
    ) == {k: float(v) for k, v in BRUNO_LEVELS.items()}

    # Her view of the round lists her items, not who else rates them.
    page.goto(f"{live_server.url}/ratings/")
    expect(page.locator("table.rating-rounds-mine tbody tr")).to_contain_text("2 / 2")
    assert_blind(page)
    page.goto(f"{live_server.url}/ratings/{rating_round.pk}/")
    expect(page.locator("main")).to_contain_text(titles[0])
    assert_blind(page)
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_a_late_mention_count_does_not_take_the_focus_from_a_rater_writing_a_comment(
    page, live_server, rubric, calibration_set, round_reflections
):
    raters = [calibrated_rater(name, calibration_set, rubric) for name in ("dora", *OTHER_RATERS)]
    manager = UserFactory(roles=["manager"])
    rating_round = create_round(name="Focus", size=2, raters=raters, seed=7, user=manager)
    held = []  # the header's mention count, held back until the rater types (a slow server)
    page.route(re.compile(r"/mentions/count/"), lambda route: held.append(route))
    sign_in(page, live_server, "dora", f"/ratings/{rating_round.pk}/rate/")
    pick_levels_by_keyboard(page, (0.75, 0.5, 1.0, 0.25))
    page.keyboard.press("Tab")
    page.keyboard.type("Clear")
    assert held, "the page never asked for its mention count"
    count = '<span id="mention-count"> <span class="badge badge-count">1</span></span>'
    held[0].fulfill(status=200, content_type="text/html; charset=utf-8", body=count)
    expect(page.locator("#mention-count .badge-count")).to_have_text("1")  # swapped in
    page.keyboard.type(" trigger")
    expect(page.locator("#rating-comment")).to_be_focused()
    expect(page.locator("#rating-comment")).to_have_value("Clear trigger")
