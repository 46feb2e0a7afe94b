"""Rating rounds as pages: who may rate, create and close them, and CSRF on every form."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.test import Client
from django.urls import reverse

from rubric.models import Rating, RatingAssignment, RatingRound
from tests.factories import UserFactory
from tests.pages import client_for, soup_of
from tests.rubric.rating_pages.support import PICKS, next_of, rate_url, submit_url
from tests.rubric.rating_support import calibrate, make_rater

pytestmark = pytest.mark.django_db

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
