"""In a real browser, what two reports say: a round's ratings download as CSV from the round
page, and the queue's reasons write shares as the rest of the product does ("19 %")."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reflections.services.rollups import refresh_retrieval_rollup
from reviews.services.cycles import open_cycle
from rubric.models import CRITERIA
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    UserFactory,
)
from tests.rubric.rating_pages.conftest import (  # noqa: F401 (fixtures)
    manager,
    raters,
    rating_round,
    reflections,
    rubric,
    sales,
)
from tests.rubric.rating_pages.support import next_of, rate_as

pytestmark = BROWSER


@pytest.mark.django_db(transaction=True)
def test_a_manager_downloads_a_rounds_ratings_from_its_page(
    page,
    live_server,
    rating_round,  # noqa: F811
    raters,  # noqa: F811
    manager,  # noqa: F811
):
    rate_as(raters[0], next_of(rating_round, raters[0]))
    sign_in(page, live_server, manager.username, reverse("ratings:round", args=[rating_round.pk]))

    with page.expect_download() as download:
        page.click("#export-ratings")

    assert download.value.suggested_filename.startswith("ratings-round-")
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    assert list(rows[0]) == ["rater", "reflection", "criterion", "level", "rated_at"]
    assert {r["criterion"] for r in rows} == set(CRITERIA)
    assert {r["rater"] for r in rows} == {raters[0].username}
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_the_queues_reasons_write_a_share_with_a_space_before_the_percent_sign(page, live_server):
    ops = DepartmentFactory(slug="ops", name="Ops")
    UserFactory(username="ana", roles=["reviewer"], departments=[ops])
    agent = AgentFactory(name="ops-bot", department=ops)
    reflection = ReflectionFactory(agent=agent, title="Confirm the payee before paying")
    other = AgentFactory(name="ops-helper", department=ops)
    for minute in range(6):
        RetrievalEventFactory(
            reflection=reflection,
            agent=agent if minute % 3 else other,
            retrieved_at=datetime(2026, 6, 1, 0, minute, tzinfo=UTC),
        )
    refresh_retrieval_rollup()
    cycle = open_cycle(department=ops, quarter="2026Q3", reviewers=list(ops.members.all()))

    sign_in(page, live_server, "ana", reverse("reviews:item", args=[cycle.pk, 1]))

    reasons = page.locator("#item-signals li.signal").first
    expect(reasons).to_contain_text("self-retrieval 67 %")
    assert not re.search(r"\d%", page.locator("#item-signals").inner_text())
    assert_no_csp_violations(page)
