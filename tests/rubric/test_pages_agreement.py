"""The agreement page, its CSV and the `agreement` command: who may see them, the numbers they
show (the selector's), "undefined" where a statistic is, the filters, and a constant query count."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rubric.models import CRITERIA, Rating, RatingAssignment, RatingRound, RoundItem, Rubric
from rubric.selectors.agreement import agreement_report
from tests.factories import ReflectionFactory, UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

URL = "/agreement/"
MAY = datetime(2026, 5, 4, 9, tzinfo=UTC)


@pytest.fixture
def rubric():
    return Rubric.objects.create(version=1, created_at=MAY - timedelta(days=30))


@pytest.fixture
def manager():
    return UserFactory(username="mia", roles=["manager"])


@pytest.fixture
def reflections():
    return [ReflectionFactory() for _ in range(4)]


def rate(rubric, rater, reflections, criterion, levels, *, at=MAY, assignments=None):
    for n, (reflection, level) in enumerate(zip(reflections, levels, strict=True)):
        if level is None:
            continue
        Rating.objects.create(
            rater=rater,
            reflection=reflection,
            criterion=criterion,
            level=level,
            rubric=rubric,
            rated_at=at + timedelta(minutes=n),
            source=Rating.Source.ROUND if assignments else Rating.Source.IMPORT,
            assignment=assignments[rater.pk, reflection.pk] if assignments else None,
        )


@pytest.fixture
def raters():
    return [UserFactory(username=name, roles=["rater"]) for name in ("ana", "ben", "cid")]


@pytest.fixture
def rated(rubric, raters, reflections):
    """specificity: ana and ben at chance (κ 0), cid gives 0.5 throughout (pairs with cid
    undefined); accuracy: fair agreement; the other criteria: nobody rated them."""
    ana, ben, cid = raters
    rate(rubric, ana, reflections, "specificity", [0, 0, 1, 1])
    rate(rubric, ben, reflections, "specificity", [0, 1, 0, 1])
    rate(rubric, cid, reflections, "specificity", [0.5, 0.5, 0.5, 0.5])
    rate(rubric, ana, reflections, "accuracy", [0, 0.5, 1, 0.75])
    rate(rubric, ben, reflections, "accuracy", [0, 0.75, 1, 0.75])
    rate(rubric, cid, reflections, "accuracy", [0.25, 0.5, 0.75, None])
    return raters


def number(cell) -> float | None:
    text = cell.get_text(strip=True)
    return None if text == "undefined" else float(text.rstrip(" %").replace("\xa0", ""))


def test_anonymous_people_are_sent_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("role", ["rater", "reviewer"])
def test_raters_and_reviewers_may_not_see_agreement(role):
    response = client_for(UserFactory(roles=[role])).get(URL)
    assert response.status_code == 403
    assert client_for(UserFactory(roles=[role])).get(URL + "?format=csv").status_code == 403
    assert client_for(UserFactory(roles=[])).get(URL).status_code == 403


@pytest.mark.parametrize("role", ["manager", "admin"])
def test_managers_and_admins_see_the_page(role, rated):
    response = client_for(UserFactory(roles=[role])).get(URL)
    assert response.status_code == 200
    assert reverse("agreement:page") == URL
    soup = soup_of(response)
    assert soup.h1.get_text(strip=True) == "Rater agreement"
    assert soup.select_one("[data-count=ratings]").get_text() == "23"


def test_the_criterion_table_shows_the_selectors_numbers(manager, rated):
    report = agreement_report()
    soup = soup_of(client_for(manager).get(URL))
    for a in report.result.all:
        row = soup.select_one(f"table.agreement-criteria tr[data-criterion={a.criterion}]")
        for stat in ("kappa", "weighted_kappa", "alpha"):
            shown, expected = number(row.select_one(f"[data-stat={stat}]")), getattr(a, stat)
            assert (shown is None) == (expected is None), (a.criterion, stat)
            if expected is not None:
                assert shown == pytest.approx(expected, abs=0.005)
        for stat in ("exact", "within_one"):
            shown, expected = number(row.select_one(f"[data-stat={stat}]")), getattr(a, stat)
            assert (shown is None) == (expected is None), (a.criterion, stat)
            if expected is not None:
                assert shown == pytest.approx(100 * expected, abs=0.5)
        assert row.select_one("[data-stat=units]").get_text() == str(a.units)
        reference = row.select_one("[data-stat=reference]").get_text()
        assert float(reference) == a.reference_kappa
    counts = {dd["data-count"]: dd.get_text() for dd in soup.select("dd[data-count]")}
    assert counts == {"ratings": "23", "items": "4", "raters": "3", "rubric": "v1"}
    assert (report.ratings, report.items, report.raters) == (23, 4, 3)
    # The hand-made case: ana/ben at chance is κ 0, the only defined specificity pair.
    spec = soup.select_one("tr[data-criterion=specificity]")
    assert number(spec.select_one("[data-stat=kappa]")) == 0.0
    assert spec.select_one("[data-stat=kappa_pairs]").get_text() == "1 of 3"


def test_undefined_statistics_say_so_and_why(manager, rated):
    soup = soup_of(client_for(manager).get(URL))
    matrix = soup.select_one("table.agreement-matrix[data-criterion=specificity]")
    cell = matrix.select_one('td[data-pair="ana|cid"]')
    assert cell.get_text(strip=True) == "undefined"
    assert cell.span["title"] == (
        "κ is undefined on the 4 items rated by both: cid gave 0.5 on all of them"
    )
    assert matrix.select_one('td[data-pair="ana|ben"]').get_text(strip=True) == "0.00"
    # Nobody rated actionability: every statistic of it is undefined, with a reason.
    row = soup.select_one("tr[data-criterion=actionability]")
    for stat in ("kappa", "weighted_kappa", "alpha", "exact", "within_one"):
        span = row.select_one(f"[data-stat={stat}] span.undefined")
        assert span.get_text() == "undefined" and span["title"]
    assert "0" not in row.select_one("[data-stat=kappa]").get_text()


def test_biases_are_shown_signed(manager, rated):
    # accuracy, leave-one-out (own level minus the others' mean):
    #   item 0 (ana 0, ben 0, cid .25):   ana -.125, ben -.125, cid +.25
    #   item 1 (ana .5, ben .75, cid .5): ana -.125, ben +.25,  cid -.125
    #   item 2 (ana 1, ben 1, cid .75):   ana +.125, ben +.125, cid -.25
    #   item 3 (ana .75, ben .75):        ana 0,     ben 0
    # ana -.125/4 = -0.03125, ben +.25/4 = +0.0625, cid -.125/3 = -0.0417.
    expected = {"ana": -0.03125, "ben": 0.0625, "cid": -0.125 / 3}
    report = agreement_report()
    acc = next(a for a in report.result.all if a.criterion == "accuracy")
    assert {b.rater: b.bias for b in acc.biases} == pytest.approx(expected)
    soup = soup_of(client_for(manager).get(URL))
    column = 1 + [a.criterion for a in report.result.all].index("accuracy")
    for rater, bias in expected.items():
        row = soup.select_one(f'table.agreement-bias tr[data-rater="{rater}"]')
        shown = row.find_all(["th", "td"])[column].get_text(strip=True)
        assert shown[0] == ("+" if bias > 0 else "-")
        assert float(shown) == pytest.approx(bias, abs=0.001)  # 3 decimals shown


def test_a_round_limits_the_ratings(manager, rubric, raters, reflections):
    ana, ben, _ = raters
    rating_round = RatingRound.objects.create(
        name="May sample", rubric=rubric, size=2, seed=1, created_at=MAY
    )
    assignments = {}
    for position, reflection in enumerate(reflections[:2]):
        item = RoundItem.objects.create(
            rating_round=rating_round, reflection=reflection, position=position, stratum="x"
        )
        for rater in (ana, ben):
            assignments[rater.pk, reflection.pk] = RatingAssignment.objects.create(
                item=item, rater=rater
            )
    rate(rubric, ana, reflections[:2], "specificity", [0, 1], assignments=assignments)
    rate(rubric, ben, reflections[:2], "specificity", [0, 1], assignments=assignments)
    rate(rubric, ana, reflections[2:], "specificity", [0, 1], at=MAY + timedelta(days=40))
    rate(rubric, ben, reflections[2:], "specificity", [1, 0], at=MAY + timedelta(days=40))

    soup = soup_of(client_for(manager).get(URL, {"round": rating_round.pk}))
    assert soup.select_one("[data-count=ratings]").get_text() == "4"
    assert "May sample" in soup.select_one("#scope").get_text()
    spec = soup.select_one("tr[data-criterion=specificity]")
    assert number(spec.select_one("[data-stat=kappa]")) == 1.0
    # All ratings: the later disagreement pulls κ to (2·1 + 2·(-1)) / 4 = 0.
    everything = soup_of(client_for(manager).get(URL))
    spec = everything.select_one("tr[data-criterion=specificity]")
    assert number(spec.select_one("[data-stat=kappa]")) == 0.0


def test_a_date_range_includes_both_days(manager, rubric, raters, reflections):
    ana, ben, _ = raters
    rate(rubric, ana, reflections[:2], "accuracy", [0, 1], at=datetime(2026, 5, 1, 23, tzinfo=UTC))
    rate(rubric, ben, reflections[:2], "accuracy", [0, 1], at=datetime(2026, 5, 3, 23, tzinfo=UTC))
    rate(rubric, ben, reflections[2:], "accuracy", [0, 1], at=datetime(2026, 5, 4, 0, tzinfo=UTC))
    report = agreement_report(since=date(2026, 5, 1), until=date(2026, 5, 3))
    assert (report.ratings, report.items, report.raters) == (4, 2, 2)
    soup = soup_of(client_for(manager).get(URL, {"since": "2026-05-01", "until": "2026-05-03"}))
    assert soup.select_one("[data-count=ratings]").get_text() == "4"
    scope = soup.select_one("#scope").get_text()
    assert "from 2026-05-01" in scope and "until 2026-05-03" in scope


def test_a_later_rating_of_the_same_unit_replaces_the_earlier(rubric, raters, reflections):
    ana, ben, _ = raters
    rate(rubric, ana, reflections[:2], "accuracy", [0, 0])
    rate(rubric, ana, reflections[:2], "accuracy", [0, 1], at=MAY + timedelta(days=1))
    rate(rubric, ben, reflections[:2], "accuracy", [0, 1])
    report = agreement_report()
    assert (report.ratings, report.superseded) == (4, 2)
    acc = next(a for a in report.result.all if a.criterion == "accuracy")
    assert acc.kappa == pytest.approx(1.0)


def test_a_backwards_range_is_refused(manager):
    response = client_for(manager).get(URL, {"since": "2026-05-03", "until": "2026-05-01"})
    assert response.status_code == 400
    alert = soup_of(response).select_one(".alert-error")
    assert alert.get_text(strip=True) == "The first day is after the last day."


def test_the_pair_csv_has_every_pair_and_disarms_formulas(manager, rubric, reflections):
    evil = UserFactory(username="@evil", roles=["rater"])
    plus = UserFactory(username="+ben", roles=["rater"])
    rate(rubric, evil, reflections[:3], "specificity", [0, 0.5, 1])
    rate(rubric, plus, reflections[:3], "specificity", [1, 0.5, 0])
    response = client_for(manager).get(URL, {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="agreement.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == len(CRITERIA) + 1  # one pair, per criterion and pooled
    spec = rows[0]
    assert (spec["criterion"], spec["rater_a"], spec["rater_b"]) == (
        "specificity",
        "'+ben",
        "'@evil",
    )
    # Reversed levels: p_o = 1/3 (the middle), p_e = 1/3 → κ = 0; quadratic: observed
    # Σw·o = (16 + 0 + 16)/3, expected Σw·pa·pb = (0+4+16 + 4+0+4 + 16+4+0)/9 = 48/9 → 1 - 2 = -1.
    assert float(spec["kappa"]) == pytest.approx(0.0)
    assert spec["weighted_kappa"] == "-1.0000"  # a number, not quoted text
    assert spec["undefined_reason"] == ""
    action = next(r for r in rows if r["criterion"] == "actionability")
    assert action["kappa"] == "" and action["undefined_reason"] == "no items rated by both"


def test_query_count_does_not_grow_with_raters(manager, rubric, reflections):
    def page_queries(n: int) -> int:
        for i in range(n):
            rater = UserFactory(username=f"r{n}-{i}", roles=["rater"])
            rate(rubric, rater, reflections, "specificity", [i % 2 * 0.5, 0, 1, 0.25])
        client = client_for(manager)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(URL)
        assert response.status_code == 200
        assert len(soup_of(response).select("table.agreement-bias tbody tr")) == (
            3 if n == 3 else 9
        )
        return len(queries)

    assert page_queries(3) == page_queries(6)


def test_the_command_prints_tables_with_undefined(rated):
    out = io.StringIO()
    call_command("agreement", stdout=out)
    text = out.getvalue()
    assert "23 ratings of 4 items by 3 raters; rubric v1" in text
    spec_line = next(line for line in text.splitlines() if line.strip().startswith("specificity"))
    assert spec_line.split()[1:3] == ["0.00", "1"]  # κ mean over the 1 defined pair
    assert "ana and cid: κ is undefined on the 4 items rated by both" in text
    actionability = next(line for line in text.splitlines() if "actionability" in line)
    assert actionability.split().count("undefined") == 5


def test_the_command_json_uses_null_for_undefined(rated):
    out = io.StringIO()
    call_command("agreement", "--json", "--since", "2026-05-04", stdout=out)
    data = json.loads(out.getvalue())
    report = agreement_report(since=date(2026, 5, 4))
    assert data["since"] == "2026-05-04" and data["round"] is None
    assert data["ratings"] == report.ratings == 23
    by_name = {c["criterion"]: c for c in data["criteria"]}
    assert by_name["actionability"]["kappa"] is None
    assert by_name["specificity"]["kappa"] == pytest.approx(0.0)
    assert data["pooled"]["alpha"] == pytest.approx(report.result.pooled.alpha)


def test_the_command_refuses_an_unknown_round(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no rating round 999"):
        call_command("agreement", "--round", "999")


def test_the_cached_figures_follow_a_new_rating_and_an_edited_one(
    manager, rubric, rated, reflections
):
    client = client_for(manager)
    count = lambda: soup_of(client.get(URL)).select_one("[data-count=ratings]").get_text()  # noqa: E731
    assert count() == "23"
    rate(rubric, UserFactory(username="dee", roles=["rater"]), reflections[:1], "accuracy", [1])
    assert count() == "24"
    before = agreement_report().result
    Rating.objects.filter(rater__username="ben", criterion="accuracy").update(level=0)
    # A re-import changing levels in place (no assignment, no new row)
    shown = soup_of(client.get(URL)).select_one(
        "table.agreement-criteria tr[data-criterion=accuracy]"
    )
    assert agreement_report().result.all != before.all
    assert number(shown.select_one("[data-stat=kappa]")) == pytest.approx(
        next(a.kappa for a in agreement_report().result.all if a.criterion == "accuracy"), abs=0.01
    )
