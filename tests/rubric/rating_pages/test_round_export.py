"""A round's ratings as CSV from its page: for those who manage rounds, in the columns
import_ratings reads, quarantined paths masked."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from reflections.models import State
from rubric.models import CRITERIA
from tests.pages import client_for, soup_of
from tests.rubric.rating_pages.support import next_of, rate_as

pytestmark = pytest.mark.django_db


def export_url(rating_round) -> str:
    return reverse("ratings:export", args=[rating_round.pk])


def rows_of(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_round_page_offers_its_ratings_as_csv_to_a_manager(rating_round, manager, raters):
    rate_as(raters[0], next_of(rating_round, raters[0]))
    page = soup_of(client_for(manager).get(reverse("ratings:round", args=[rating_round.pk])))
    link = page.select_one("a#export-ratings")
    assert link["href"] == export_url(rating_round)

    answer = client_for(manager).get(export_url(rating_round))
    assert answer["Content-Type"].startswith("text/csv")
    assert 'filename="ratings-round-' in answer["Content-Disposition"]
    rows = rows_of(answer)
    assert list(rows[0]) == ["rater", "reflection", "criterion", "level", "rated_at"]
    assert {r["criterion"] for r in rows} == set(CRITERIA)
    assert {r["rater"] for r in rows} == {raters[0].username} and len(rows) == len(CRITERIA)


def test_raters_may_not_export_a_blind_round(rating_round, raters):
    page = soup_of(client_for(raters[0]).get(reverse("ratings:round", args=[rating_round.pk])))
    assert page.select_one("a#export-ratings") is None
    assert client_for(raters[0]).get(export_url(rating_round)).status_code == 403


def test_a_quarantined_reflections_path_is_masked_in_the_export(rating_round, manager, raters):
    assignment = next_of(rating_round, raters[0])
    rate_as(raters[0], assignment)
    reflection = assignment.item.reflection
    reflection.source_path = "memory/reflexions/2026-05/AKIAZ7Q3XK5R2M4W6N8P.md"
    reflection.state = State.QUARANTINED
    reflection.save()

    text = client_for(manager).get(export_url(rating_round)).content.decode()
    assert "AKIAZ7Q3XK5R2M4W6N8P" not in text
