"""A day of each role, end to end in a real browser, as issue 28 defines "done": a reviewer
decides twenty items by keyboard with a duplicate, a restore and a discussion; a rater
calibrates and rates a round by keyboard alone; a manager reads every insights page on a
phone; an admin imports a zip from the menu and reads its report."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from reflections.models import ImportJob, Reflection
from rubric.models import CRITERIA, Rating
from tests.browser import test_rating_browser as rating_tests
from tests.browser.layout_world import build_world
from tests.browser.rating_keys import pick_levels_by_keyboard, round_for
from tests.browser.support import BROWSER, assert_no_csp_violations, recording_page, sign_in
from tests.browser.test_import_browser import upload_workspace
from tests.browser.test_layout_browser import CHECK, SETTLED, errors_on, links_on
from tests.browser.test_rating_browser import GOLD, latest_attempt_of, rate_calibration_set
from tests.browser.test_restore_browser import report_row
from tests.browser.test_review_browser import HINT, link_neighbours
from tests.factories import DepartmentFactory, UserFactory
from tests.reviews.together_support import make_world

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]

# The rating tests' rubric, policy, calibration set of twelve with gold, and rater rina.
rubric = rating_tests.rubric
policy = rating_tests.policy
support = rating_tests.support
calibration_set = rating_tests.calibration_set
round_reflections = rating_tests.round_reflections
rina = rating_tests.rina


def press_on(page, target, *, limit: int = 60) -> None:
    """Reach `target` with Tab alone, as a keyboard user does (no click, no focus()), and
    press Enter on it."""
    expect(target).to_be_visible()
    for _ in range(limit):
        if target.evaluate("el => el === document.activeElement"):
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{limit} presses of Tab never reached {target}")


# --------------------------------------------------------------------------- the reviewer

# Ranks 1 to 20 are "Lesson 1" … "Lesson 20" (make_world); k for every rank not named here.
PLAN = {3: "o", 6: "d", 10: "e"}
SAID = {"k": "Keep", "o": "Outdated", "d": "Duplicate", "e": "Echo chamber"}
COMMENT = "Same check as Lesson 2, in other words: merged there."


@pytest.fixture
def twenty():
    """ana's Sales cycle of twenty items; Lesson 6 lies close to Lesson 2 (more retrieved,
    its original) and to the never retrieved original lesson."""
    world = make_world(20, one_reviewer=True)
    lessons = world["reflections"]
    link_neighbours(lessons[5], [lessons[1], world["original"]])
    return world


def item_path(cycle, rank: int) -> str:
    return reverse("reviews:item", kwargs={"pk": cycle.pk, "rank": rank})


def expect_queue_at(page, live_server, cycle, rank: int, done: int) -> None:
    expect(page).to_have_url(f"{live_server.url}{item_path(cycle, rank)}")
    # A click on a link returns before the deferred queue.js has run; a key pressed then is lost.
    page.wait_for_load_state()
    expect(page.locator("#item-title")).to_have_text(f"Lesson {rank}")
    expect(page.locator(".queue-position")).to_contain_text(
        f"Item {rank} of 20 \N{MIDDLE DOT} {done} done"
    )
    expect(page.locator(".queue-position progress")).to_have_attribute("value", str(done))


def test_a_reviewer_decides_twenty_items_with_a_duplicate_a_restore_and_a_discussion(
    page, live_server, twenty
):
    cycle, lessons = twenty["cycle"], twenty["reflections"]
    sign_in(page, live_server, "ana", "/reviews/")
    page.get_by_role("link", name="Continue").click()
    expect_queue_at(page, live_server, cycle, 1, done=0)

    # ? lists the keys; k keeps.
    page.keyboard.press("?")
    keys = page.locator("#keys-help")
    expect(keys).to_be_visible()
    expect(keys.locator("dt:has(kbd:text-is('k')) + dd")).to_have_text("Keep")
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()

    page.evaluate("window.__sameDocument = true")  # a full page load would forget this
    messages = page.locator("#queue-item .messages")
    for rank in range(1, 21):
        key = PLAN.get(rank, "k")
        if key == "d":  # the original is picked on the page: d asks, 1 picks Lesson 2
            page.keyboard.press("d")
            expect(page.locator("#queue-hint")).to_have_text(HINT)
            page.keyboard.press("1")
            picked = page.locator('#queue-item input[name="duplicate_of"]:checked')
            expect(picked).to_have_value(str(lessons[1].pk))
            expect(page.locator(".neighbour-pick:has(input:checked)")).to_contain_text("Lesson 2")
        page.keyboard.press(key)
        expect(messages).to_contain_text(f"#{rank} Lesson {rank}: {SAID[key]}.")
        expect_queue_at(page, live_server, cycle, min(rank + 1, 20), done=rank)
    expect(messages).to_contain_text("That was your last open item: all 20 have a verdict.")
    assert page.evaluate("window.__sameDocument") is True
    assert_no_csp_violations(page)

    # A comment on the duplicate, by keyboard: c, the text, Tab to Post comment, Enter.
    page.goto(f"{live_server.url}{item_path(cycle, 6)}")
    expect(page.locator(".current-verdict")).to_contain_text("Duplicate of Lesson 2")
    page.keyboard.press("c")
    expect(page.locator("#comment-body")).to_be_focused()
    page.keyboard.type(COMMENT)
    press_on(page, page.locator("#comment-form button[type=submit]"))
    expect(page.locator("#discussion .comment")).to_have_count(1)
    expect(page.locator("#discussion .comment")).to_contain_text(COMMENT)
    expect(page.locator("#comment-body")).to_have_value("")

    # Lesson 3, deprecated as outdated, is put back from its own page.
    assert Reflection.objects.get(pk=lessons[2].pk).state == "deprecated"
    page.goto(f"{live_server.url}{reverse('reflections:detail', args=[lessons[2].pk])}")
    page.fill("#restore-note", "still how refunds work")
    page.click("#restore-submit")
    expect(page.locator(".messages")).to_contain_text("Restored:")

    # The report: the restore under Restored, the duplicate under its verdict, the counts.
    page.goto(f"{live_server.url}{reverse('reviews:report', args=[cycle.pk])}")
    expect(page.locator("#restored-title")).to_have_text("Restored (1)")
    restored = page.locator("#restored-items tbody tr")
    expect(restored).to_have_count(1)
    expect(restored.locator("td").nth(1)).to_contain_text("Lesson 3")
    expect(restored.locator("td").nth(2)).to_contain_text("Outdated")
    expect(restored.locator("td").nth(4)).to_have_text("still how refunds work")
    expect(page.locator("#deprecated-title")).to_have_text("Deprecated (2)")
    deprecated = page.locator("section[aria-labelledby=deprecated-title] tbody tr")
    expect(deprecated.locator("td:first-child")).to_have_text(["6", "10"])
    verdicts = deprecated.locator("td:nth-child(3)")
    expect(verdicts).to_have_text(["Duplicate of Lesson 2", "Echo chamber"], use_inner_text=True)
    for label, count in (("Keep", 17), ("Duplicate", 1), ("Echo chamber", 1), ("Restored", 1)):
        expect(report_row(page, label).locator("td").first).to_have_text(str(count))
    assert_no_csp_violations(page)


# ------------------------------------------------------------------------------ the rater

ROUND_LEVELS = [(0.75, 0.5, 1.0, 0.25), (0.0, 1.0, 0.5, 0.75)]


def test_a_rater_calibrates_and_rates_a_round_by_keyboard_alone(
    page, live_server, policy, calibration_set, round_reflections, rina
):
    sign_in(page, live_server, "rina", "/calibration/")
    expect(page.locator("#status-title")).to_have_text("Not calibrated")
    with page.expect_navigation():
        press_on(page, page.locator("#calibration-start"))
    attempt = latest_attempt_of(rina)
    rate_calibration_set(page, live_server, attempt, GOLD)  # digits and Enter, item by item
    with page.expect_navigation(url=f"{live_server.url}/calibration/attempts/{attempt.pk}/"):
        press_on(page, page.locator("#calibration-submit"))
    expect(page.locator("#verdict-title")).to_have_text("You are calibrated")

    # Her manager opens a round for her; she reaches it through the menu.
    rating_round, mine = round_for(rina, name="2026Q4 support sample", size=2, seed=7)
    with page.expect_navigation(url=f"{live_server.url}/ratings/"):
        press_on(page, page.locator(".mainnav").get_by_role("link", name="Rating", exact=True))
    row = page.locator("table.rating-rounds-mine tbody tr")
    expect(row).to_contain_text("0 / 2")
    with page.expect_navigation(url=f"{live_server.url}/ratings/{rating_round.pk}/rate/"):
        press_on(page, row.get_by_role("link", name="Rate"))

    page.evaluate("window.__sameDocument = true")
    for number, (assignment, levels) in enumerate(zip(mine, ROUND_LEVELS, strict=True), 1):
        expect(page.locator("#rate-item")).to_have_attribute("data-assignment", str(assignment.pk))
        expect(page.locator("#item-title")).to_have_text(assignment.item.reflection.title)
        expect(page.locator(".queue-position")).to_contain_text(
            f"Item {number} of 2 \N{MIDDLE DOT} {number - 1} rated"
        )
        pick_levels_by_keyboard(page, levels)
        page.keyboard.press("Enter")
    expect(page.locator("#rate-done")).to_contain_text(
        "All done. You have rated all 2 of your items in 2026Q4 support sample."
    )
    assert page.evaluate("window.__sameDocument") is True
    for assignment, levels in zip(mine, ROUND_LEVELS, strict=True):
        given = Rating.objects.filter(assignment=assignment).values_list("criterion", "level")
        assert dict(given) == dict(zip(CRITERIA, levels, strict=True))
    assert_no_csp_violations(page)


# ---------------------------------------------------------------------------- the manager

PHONE = {"width": 390, "height": 844}
INSIGHTS = (
    "insights:overview",
    "insights:learning",
    "insights:usefulness",
    "insights:runs",
    "insights:projection:page",
)


def test_a_manager_reads_every_insights_page_on_a_phone(browser, live_server, tmp_path):
    username = build_world(tmp_path)["manager"]
    context = browser.new_context(viewport=PHONE)
    page = recording_page(context)
    sign_in(page, live_server, username)
    page.locator(".mainnav").get_by_role("link", name="Insights", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}{reverse('insights:overview')}")
    menu = page.eval_on_selector_all(".insights-nav a", "links => links.map(a => a.href)")
    assert [urlsplit(href).path for href in menu] == [reverse(name) for name in INSIGHTS]

    # The section's menu, and every insights page its pages link to.
    queue, seen, problems = [urlsplit(href).path for href in menu], [], []
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.append(path)
        page.console_messages.clear()
        page.csp_violations.clear()
        answer = page.goto(f"{live_server.url}{path}")
        assert answer is not None and answer.status == 200, f"{path} answered {answer}"
        page.wait_for_function(SETTLED)
        found = page.evaluate(CHECK)
        if found["scrollWidth"] > found["width"]:
            problems.append(f"{path}: {found['scrollWidth']} px wide ({found['wide']})")
        if errors := errors_on(page, found):
            problems.append(f"{path}: {errors}")
        queue += [p for p in links_on(page, live_server) if p.startswith("/insights/")]
    context.close()
    assert problems == [], "\n".join(problems)


# ------------------------------------------------------------------------------ the admin


@pytest.fixture
def ada(settings, tmp_path):
    """An admin; uploads kept in the test's own directory."""
    settings.IMPORT_UPLOAD_ROOT = tmp_path / "uploads"
    DepartmentFactory(slug="research", name="Research")
    return UserFactory(username="ada", roles=["admin"])


def test_an_admin_imports_a_zip_from_the_menu_and_reads_its_report(page, live_server, ada):
    sign_in(page, live_server, "ada")
    page.locator(".navmenu summary").click()
    page.locator(".navmenu").get_by_role("link", name="Import", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}{reverse('imports:new')}")
    job = upload_workspace(page, live_server)
    expect(page.locator(".import-stage")).to_contain_text("Waiting for a worker")

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)
    expect(page.locator(".import-stage")).to_contain_text("Finished", timeout=10_000)
    expect(page.locator("#job-progress progress.import-done")).to_have_attribute("value", "100")
    totals = page.locator(".import-totals")
    expect(totals.locator("tr", has=page.locator("th:text-is('Created')"))).to_have_text(
        "Created 11", use_inner_text=True
    )
    expect(totals.locator("tr", has=page.locator("th:text-is('Rejected')"))).to_have_text(
        "Rejected 0", use_inner_text=True
    )
    expect(page.locator("table.import-files tbody tr")).to_have_count(11)
    assert ImportJob.objects.get(pk=job.pk).status == "done"
    assert_no_csp_violations(page)
