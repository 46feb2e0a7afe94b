"""The rating pages: rounds for managers, the blind rating page with and without htmx, access."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rubric.models import CRITERIA, Rating, RatingAssignment, RatingRound
from rubric.services.rounds import create_round, submit_rating
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.rubric.rating_support import calibrate, make_rater, make_rubric

pytestmark = pytest.mark.django_db

# Distinctive names, so finding one in a page cannot be a coincidence.
ANA, BEN, CY = "rater-anaxq", "rater-benzq", "rater-cywq"
ANA_COMMENT = "ana-private-comment-7731"
PICKS = {
    "level_specificity": "1",
    "level_actionability": "0.75",
    "level_transferability": "0.5",
    "level_accuracy": "0.25",
}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.content, "html.parser")


def client_for(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


@pytest.fixture
def sales():
    return DepartmentFactory(slug="sales", name="Sales")


@pytest.fixture
def rubric():
    return make_rubric()


@pytest.fixture
def raters(rubric, sales):
    return [make_rater(name, departments=[sales]) for name in (ANA, BEN, CY)]


@pytest.fixture
def manager():
    return UserFactory(username="mia-manager", roles=["manager"])


@pytest.fixture
def reflections(sales):
    agent = AgentFactory(name="sales-bot", department=sales)
    return [
        ReflectionFactory(agent=agent, title=f"Lesson {n} <script>alert({n})</script>")
        for n in range(4)
    ]


@pytest.fixture
def rating_round(reflections, raters, manager):
    # Four items, three raters each, three raters: everyone rates every item.
    return create_round(name="Q3 sample", size=4, raters=raters, seed=11, user=manager)


def rate_url(rating_round) -> str:
    return reverse("ratings:rate", kwargs={"pk": rating_round.pk})


def submit_url(assignment) -> str:
    return reverse(
        "ratings:submit",
        kwargs={"pk": assignment.item.rating_round_id, "assignment": assignment.pk},
    )


def next_of(rating_round, user) -> RatingAssignment:
    return (
        RatingAssignment.objects.filter(
            item__rating_round=rating_round, rater=user, submitted_at__isnull=True
        )
        .select_related("item__reflection")
        .order_by("item__position")
        .first()
    )


def rate_as(user, assignment, comment=""):
    submit_rating(
        assignment=assignment,
        user=user,
        levels={c: 0.75 for c in CRITERIA},
        comment=comment,
    )


# --------------------------------------------------------------------------- the rating page


def test_rating_page_shows_the_next_item_with_four_radio_groups(rating_round, raters):
    ana = raters[0]
    first = next_of(rating_round, ana)
    response = client_for(ana).get(rate_url(rating_round))
    assert response.status_code == 200
    page = soup_of(response)
    assert page.select_one("#item-title").get_text() == first.item.reflection.title
    # The title's markup is text, never a script.
    assert not page.select("#rate-item script")
    form = page.select_one("form#rating-form")
    assert form["action"] == submit_url(first) == form["hx-post"]
    for key in CRITERIA:
        radios = form.select(f'input[type=radio][name="level_{key}"]')
        assert [r["value"] for r in radios] == ["0", "0.25", "0.5", "0.75", "1"]
        assert [r["data-key"] for r in radios] == ["1", "2", "3", "4", "5"]
        assert not any(r.has_attr("checked") for r in radios)
    text = form.get_text(" ")
    assert "specificity at 0.25" in text and "a great specificity anchor" in text
    first.refresh_from_db()
    assert first.shown_at is not None and first.submitted_at is None


def test_plain_form_rates_and_redirects_to_the_next_item(rating_round, raters):
    ana = raters[0]
    client = client_for(ana)
    first = next_of(rating_round, ana)
    client.get(rate_url(rating_round))
    response = client.post(submit_url(first), {**PICKS, "comment": "clear enough"})
    assert response.status_code == 302 and response["Location"] == rate_url(rating_round)
    first.refresh_from_db()
    assert first.submitted_at is not None and first.comment == "clear enough"
    assert first.shown_at <= first.submitted_at
    assert {r.criterion: r.level for r in first.ratings.all()} == {
        "specificity": 1.0,
        "actionability": 0.75,
        "transferability": 0.5,
        "accuracy": 0.25,
    }
    page = soup_of(client.get(rate_url(rating_round)))
    second = next_of(rating_round, ana)
    assert page.select_one("#item-title").get_text() == second.item.reflection.title
    assert "Rated" in page.select_one(".messages").get_text()
    assert "Item 2 of 4" in page.select_one(".queue-position").get_text()


def test_htmx_submit_swaps_in_the_next_item(rating_round, raters):
    ana = raters[0]
    client = client_for(ana)
    first = next_of(rating_round, ana)
    response = client.post(submit_url(first), PICKS, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Push-Url"] == rate_url(rating_round)
    page = soup_of(response)
    assert page.find("html") is None  # a fragment: just the item
    root = page.find(True)
    assert root["id"] == "rate-item"
    second = next_of(rating_round, ana)
    assert root["data-assignment"] == str(second.pk)
    assert page.select_one("#item-title").get_text() == second.item.reflection.title
    second.refresh_from_db()
    assert second.shown_at is not None  # shown the moment it is swapped in


def test_after_the_last_item_the_page_says_all_done(rating_round, raters):
    ana = raters[0]
    client = client_for(ana)
    for _ in range(4):
        response = client.post(
            submit_url(next_of(rating_round, ana)), PICKS, HTTP_HX_REQUEST="true"
        )
    page = soup_of(response)
    assert "rated all 4 of your items" in page.select_one("#rate-done").get_text()
    assert page.select_one("form#rating-form") is None


def test_a_missing_level_is_not_recorded_and_keeps_the_picks(rating_round, raters):
    ana = raters[0]
    first = next_of(rating_round, ana)
    picks = {k: v for k, v in PICKS.items() if k != "level_accuracy"}
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client_for(ana).post(submit_url(first), {**picks, "comment": "hm"}, **headers)
        assert response.status_code == 422
        page = soup_of(response)
        assert "accuracy: pick a level" in page.select_one("#rate-error").get_text()
        checked = {r["name"]: r["value"] for r in page.select("input[type=radio][checked]")}
        assert checked == picks
        assert page.select_one("#rating-comment").get_text() == "hm"
    first.refresh_from_db()
    assert first.submitted_at is None and not Rating.objects.exists()


def test_a_second_submit_is_refused_because_ratings_are_final(rating_round, raters):
    ana = raters[0]
    client = client_for(ana)
    first = next_of(rating_round, ana)
    client.post(submit_url(first), PICKS)
    zeros = dict.fromkeys(PICKS, "0")
    response = client.post(submit_url(first), zeros, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    page = soup_of(response)
    assert "ratings are final" in page.select_one("#rate-error").get_text()
    # The page moves on to the next item, with nothing picked for it.
    assert page.find(True)["data-assignment"] == str(next_of(rating_round, ana).pk)
    assert not page.select("input[type=radio][checked]")
    assert set(first.ratings.values_list("level", flat=True)) == {1.0, 0.75, 0.5, 0.25}


def test_rating_page_query_count_does_not_grow_with_the_round(reflections, raters, sales):
    ana = raters[0]
    agent = AgentFactory(name="more-bot", department=sales)
    ReflectionFactory.create_batch(12, agent=agent)
    small = create_round(name="small", size=3, raters=raters, seed=1)
    large = create_round(name="large", size=16, raters=raters, seed=1)
    client = client_for(ana)
    counts = []
    for rating_round in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(rate_url(rating_round)).status_code == 200
        counts.append(len(queries))
    rate_as(ana, next_of(large, ana))
    with CaptureQueriesContext(connection) as queries:
        client.get(rate_url(large))
    counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2], counts
    assert counts[0] <= 20


def test_a_reflection_quarantined_after_the_draw_is_never_shown(rating_round, raters):
    ana = raters[0]
    first = next_of(rating_round, ana)
    hidden = first.item.reflection
    hidden.state = "quarantined"
    hidden.save(update_fields=["state"])
    name = hidden.title.split(" <")[0]  # "Lesson 2": the title's text before its markup
    client = client_for(ana)
    page = soup_of(client.get(rate_url(rating_round)))
    assert name not in page.get_text()
    # The next of her items is shown instead.
    following = (
        RatingAssignment.objects.filter(rater=ana, item__position__gt=first.item.position)
        .order_by("item__position")
        .first()
    )
    assert page.select_one("#item-title").get_text() == following.item.reflection.title
    assert client.post(submit_url(first), PICKS).status_code == 404
    detail = soup_of(client.get(reverse("ratings:round", kwargs={"pk": rating_round.pk})))
    assert name not in detail.get_text()
    assert "withheld" in detail.select_one(".round-items").get_text()


# --------------------------------------------------------------------------- blind


def _leaks(response, *, names=(ANA,)) -> list[str]:
    text = response.content.decode()
    found = [needle for needle in (*names, ANA_COMMENT) if needle in text]
    lowered = text.lower()
    found += [word for word in ("mean score", "scores:") if word in lowered]
    return found


def test_a_rater_never_sees_another_raters_scores_anywhere(rating_round, raters, manager):
    ana, ben, _ = raters
    # Ana rates every item, with a comment; ben has rated nothing yet.
    while (assignment := next_of(rating_round, ana)) is not None:
        rate_as(ana, assignment, comment=ANA_COMMENT)
    reflection = next_of(rating_round, ben).item.reflection
    client = client_for(ben)
    pages = {
        "rounds": reverse("ratings:list"),
        "round detail": reverse("ratings:round", kwargs={"pk": rating_round.pk}),
        "rating page": rate_url(rating_round),
        "reflection detail": reverse("reflections:detail", kwargs={"pk": reflection.pk}),
        "reflection list": reverse("reflections:list"),
        "quality": "/quality/",
        "agreement": "/agreement/",
        "calibration": "/calibration/",
    }
    # Pages a rater can open must open, or the search below would prove nothing.
    reachable = {"rounds", "round detail", "rating page", "reflection detail", "reflection list"}
    for label, url in pages.items():
        response = client.get(url)
        allowed = (200,) if label in reachable else (200, 403, 404)
        assert response.status_code in allowed, (label, response.status_code)
        assert _leaks(response) == [], label
    # The rating page's item is one ana rated: no level is preset from anyone's rating.
    page = soup_of(client.get(rate_url(rating_round)))
    assert page.select("input[type=radio]") and not page.select("input[type=radio][checked]")
    # After rating it himself, ben still sees nobody else's scores (managers do).
    rate_as(ben, next_of(rating_round, ben), comment="ben's")
    for label, url in pages.items():
        assert _leaks(client.get(url)) == [], f"{label} after submitting"
    # Nor who else rates his items: no other rater is named anywhere he can go.
    for label, url in pages.items():
        assert CY not in client.get(url).content.decode(), label


def test_the_round_detail_shows_managers_raters_and_scores(rating_round, raters, manager):
    ana = raters[0]
    rate_as(ana, next_of(rating_round, ana), comment=ANA_COMMENT)
    response = client_for(manager).get(reverse("ratings:round", kwargs={"pk": rating_round.pk}))
    page = soup_of(response)
    assert {row.td.get_text() for row in page.select(".rater-progress tbody tr")} == {
        ANA,
        BEN,
        CY,
    }
    means = [
        td.get_text(" ", strip=True) for td in page.select(".round-items tbody td:nth-of-type(5)")
    ]
    assert "0.75 (1 of 3)" in means
    assert sum(m == "—" for m in means) == 3
    strata = {td.get_text() for td in page.select(".round-items tbody td:nth-of-type(3)")}
    assert strata == {"sales/failure/reconciliation"}


def test_the_round_list_shows_a_rater_only_their_own_progress(rating_round, raters):
    ana, ben, _ = raters
    rate_as(ana, next_of(rating_round, ana))
    page = soup_of(client_for(ben).get(reverse("ratings:list")))
    rows = page.select(".rating-rounds-mine tbody tr")
    assert len(rows) == 1
    cells = [td.get_text(" ", strip=True) for td in rows[0].select("td")]
    assert cells[1].endswith("0 / 4") and cells[2] == "4"
    assert rows[0].select_one("a.button")["href"] == rate_url(rating_round)
    assert page.select_one(".rating-rounds") is None  # the managers' table


def test_the_round_list_shows_managers_every_raters_progress(rating_round, raters, manager):
    ana = raters[0]
    rate_as(ana, next_of(rating_round, ana))
    page = soup_of(client_for(manager).get(reverse("ratings:list")))
    chips = {c.get_text() for c in page.select(".rating-rounds .chip")}
    assert chips == {f"{ANA} 1/4", f"{BEN} 0/4", f"{CY} 0/4"}


# --------------------------------------------------------------------------- access


def test_raters_rate_only_their_own_assignments(rating_round, raters, rubric, sales):
    ana, ben, _ = raters
    response = client_for(ben).post(submit_url(next_of(rating_round, ana)), PICKS)
    assert response.status_code == 404
    assert not Rating.objects.exists()
    outsider = make_rater("rater-outsider", departments=[sales])
    client = client_for(outsider)
    assert client.get(rate_url(rating_round)).status_code == 404
    assert client.get(reverse("ratings:round", kwargs={"pk": rating_round.pk})).status_code == 404


def test_an_uncalibrated_rater_is_told_why_and_where_to_calibrate(rating_round, raters):
    ana = raters[0]
    calibrate(ana, passed=False)  # the latest attempt failed: calibration has lapsed
    client = client_for(ana)
    response = client.get(rate_url(rating_round))
    assert response.status_code == 403
    page = soup_of(response)
    assert page.select_one("#not-calibrated a")["href"] == "/calibration/"
    assert page.select_one("form#rating-form") is None
    response = client.post(submit_url(next_of(rating_round, ana)), PICKS)
    assert response.status_code == 403 and not Rating.objects.exists()
    listing = soup_of(client.get(reverse("ratings:list")))
    assert listing.select_one("#not-calibrated a")["href"] == "/calibration/"
    assert not listing.select(".rating-rounds-mine a.button")


def test_only_managers_create_and_close_rounds(rating_round, raters):
    client = client_for(raters[0])
    assert client.get(reverse("ratings:new")).status_code == 403
    assert client.post(reverse("ratings:close", kwargs={"pk": rating_round.pk})).status_code == 403
    rating_round.refresh_from_db()
    assert rating_round.is_open
    reviewer = UserFactory(username="rev", roles=["reviewer"])
    assert client_for(reviewer).get(reverse("ratings:list")).status_code == 403
    anonymous = Client().get(reverse("ratings:list"))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")


def test_managers_create_a_round_from_calibrated_raters_only(reflections, raters, manager):
    make_rater("rater-uncal", calibrated=False)
    client = client_for(manager)
    page = soup_of(client.get(reverse("ratings:new")))
    offered = {i["value"] for i in page.select('input[name="raters"]')}
    assert offered == {str(r.pk) for r in raters}
    assert "rater-uncal" in page.select_one("#not-offered").get_text()
    seed = page.select_one('input[name="seed"]')["value"]
    assert seed.isdigit()
    data = {
        "name": "Spring sample",
        "size": 3,
        "seed": seed,
        "raters": [r.pk for r in raters],
        "raters_per_item": 3,
    }
    response = client.post(reverse("ratings:new"), data)
    created = RatingRound.objects.get(name="Spring sample")
    assert response.status_code == 302
    assert response["Location"] == reverse("ratings:round", kwargs={"pk": created.pk})
    assert created.seed == int(seed) and created.items.count() == 3
    assert RatingAssignment.objects.filter(item__rating_round=created).count() == 9
    too_few = client.post(reverse("ratings:new"), {**data, "raters": [raters[0].pk]})
    assert too_few.status_code == 400
    assert "pick at least 3" in soup_of(too_few).select_one(".field-error").get_text()


def test_managers_close_a_round_and_raters_can_no_longer_rate(rating_round, raters, manager):
    url = reverse("ratings:close", kwargs={"pk": rating_round.pk})
    response = client_for(manager).post(url)
    assert response.status_code == 302
    rating_round.refresh_from_db()
    assert not rating_round.is_open
    ana = raters[0]
    client = client_for(ana)
    page = soup_of(client.get(rate_url(rating_round)))
    assert "is closed" in page.select_one("#rate-item").get_text()
    response = client.post(submit_url(next_of(rating_round, ana)), PICKS)
    assert response.status_code == 422 and not Rating.objects.exists()


def test_every_post_needs_the_csrf_token(rating_round, raters, manager):
    ana = raters[0]
    client = client_for(ana, enforce_csrf_checks=True)
    first = next_of(rating_round, ana)
    assert client.post(submit_url(first), PICKS).status_code == 403
    page = soup_of(client.get(rate_url(rating_round)))
    token = page.select_one("form#rating-form input[name=csrfmiddlewaretoken]")["value"]
    response = client.post(submit_url(first), {**PICKS, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    boss = client_for(manager, enforce_csrf_checks=True)
    close = reverse("ratings:close", kwargs={"pk": rating_round.pk})
    assert boss.post(close).status_code == 403
    assert boss.post(reverse("ratings:new"), {"name": "x"}).status_code == 403


def test_managers_and_admins_find_the_calibration_settings_from_their_pages():
    manager = client_for(UserFactory(roles=["manager"]))
    rounds = BeautifulSoup(manager.get(reverse("ratings:list")).content, "html.parser")
    assert rounds.find("a", href=reverse("calibration:policy"))

    admin = client_for(UserFactory(roles=["admin"]))
    status = BeautifulSoup(admin.get(reverse("calibration:status")).content, "html.parser")
    for name in ("calibration:rubric", "calibration:sets", "calibration:policy"):
        assert status.find("a", href=reverse(name)), name
