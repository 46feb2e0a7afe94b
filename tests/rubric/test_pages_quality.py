"""The quality page and its CSV: who may see them, the numbers (the selector's), the reference
values beside gated/ungated and technical/judgment, the date filter, formula-safe CSV, a
constant query count, and the reflection partial's visibility rule."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from bs4 import BeautifulSoup
from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rubric.models import CRITERIA, Rating, Rubric
from rubric.selectors.quality import quality_breakdowns, reflection_quality
from rubric.views.quality import AGGREGATE, FULL, quality_visibility
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

URL = "/quality/"
MAY = datetime(2026, 5, 4, 9, tzinfo=UTC)


@pytest.fixture
def rubric():
    return Rubric.objects.create(version=1, created_at=MAY - timedelta(days=60))


@pytest.fixture
def manager():
    return UserFactory(username="mia", roles=["manager"])


def rate(rubric, rater, reflection, level, at=MAY):
    for criterion in CRITERIA:
        Rating.objects.create(
            rater=rater,
            reflection=reflection,
            criterion=criterion,
            level=level,
            rubric=rubric,
            rated_at=at,
            source=Rating.Source.IMPORT,
        )


@pytest.fixture
def rated(rubric):
    """Finance reconciliation reflections at 0.75 and 0.5; one sales outreach one at 0.25 in
    June; a department whose name and task type would be spreadsheet formulas."""
    rater = UserFactory(username="ray", roles=["rater"])
    finance = AgentFactory(
        name="finance-agent", department=DepartmentFactory(slug="finance", name="Finance")
    )
    sales = AgentFactory(
        name="sales-agent", department=DepartmentFactory(slug="sales", name="Sales")
    )
    evil = AgentFactory(
        name="evil-agent",
        department=DepartmentFactory(slug="evil", name='=HYPERLINK("http://x","y")'),
    )
    rate(rubric, rater, ReflectionFactory(agent=finance), 0.75)
    rate(rubric, rater, ReflectionFactory(agent=finance), 0.5)
    rate(
        rubric,
        rater,
        ReflectionFactory(agent=sales, task_type="outreach"),
        0.25,
        at=MAY + timedelta(days=40),
    )
    rate(rubric, rater, ReflectionFactory(agent=evil, task_type="+cmd|calc"), 1.0)
    return rater


def table(soup, key):
    return soup.select_one(f'table[data-breakdown="{key}"]')


def cell(row, stat):
    return row.select_one(f'[data-stat="{stat}"]').get_text(strip=True)


class TestAccess:
    @pytest.mark.parametrize("role", ["rater", "reviewer"])
    def test_raters_and_reviewers_are_refused(self, role):
        response = client_for(UserFactory(roles=[role])).get(URL)
        assert response.status_code == 403
        assert client_for(UserFactory(roles=[role])).get(URL + "?format=csv").status_code == 403

    def test_anonymous_people_are_sent_to_sign_in(self):
        response = Client().get(URL)
        assert response.status_code == 302 and response["Location"].startswith("/login/")

    @pytest.mark.parametrize("role", ["manager", "admin"])
    def test_managers_and_admins_see_the_tables(self, role, rated):
        soup = soup_of(client_for(UserFactory(roles=[role])).get(URL))
        keys = [t["data-breakdown"] for t in soup.select("table.quality-breakdown")]
        assert keys == ["gate", "task_family", "task_type", "department", "outcome", "kind"]


class TestNumbers:
    def test_the_tables_show_the_selectors_numbers(self, manager, rated):
        soup = soup_of(client_for(manager).get(URL))
        expected = quality_breakdowns()
        for key in ("department", "task_type", "outcome", "kind", "gate", "task_family"):
            rows = table(soup, key).select("tbody tr[data-group]")
            assert [r["data-group"] for r in rows] == [g.key for g in expected[key]]
            for row, group in zip(rows, expected[key], strict=True):
                assert cell(row, "n") == str(group.n)
                mean = cell(row, "mean")
                if group.mean is None:
                    assert mean == "—"
                else:  # two decimals, as the template rounds them
                    assert float(mean) == pytest.approx(group.mean, abs=0.005 + 1e-9)
        finance = table(soup, "department").select_one('tr[data-group="finance"]')
        # (0.75 + 0.5) / 2 = 0.625 → "0.63" (floatformat rounds half up)
        assert cell(finance, "n") == "2"
        assert finance.select_one('[data-criterion="accuracy"]').get_text(strip=True) == "0.63"
        assert cell(soup.select_one(".quality-overall div:first-child"), "n") == "4"

    def test_reference_values_sit_beside_gated_ungated_technical_and_judgment(self, manager, rated):
        soup = soup_of(client_for(manager).get(URL))
        gate = table(soup, "gate")
        assert gate.select_one("th.reference").get_text(strip=True) == "Reference"
        assert cell(gate.select_one('tr[data-group="gated"]'), "reference") == "0.68"
        assert cell(gate.select_one('tr[data-group="ungated"]'), "reference") == "0.41"
        family = table(soup, "task_family")
        assert cell(family.select_one('tr[data-group="technical"]'), "reference") == "0.78"
        assert cell(family.select_one('tr[data-group="judgment"]'), "reference") == "0.41"
        assert table(soup, "department").select_one(".reference") is None
        # Nothing of the demo's gate is known here: gated and ungated show 0 rated, no mean.
        gated = gate.select_one('tr[data-group="gated"]')
        assert (cell(gated, "n"), cell(gated, "mean")) == ("0", "—")

    def test_the_date_range_filters_the_ratings(self, manager, rated):
        response = client_for(manager).get(URL, {"since": "2026-06-01"})
        soup = soup_of(response)
        groups = [r["data-group"] for r in table(soup, "department").select("tr[data-group]")]
        assert groups == ["sales"]
        assert "2026-06-01" in soup.select_one("#scope").get_text()

    def test_a_backwards_range_is_refused(self, manager, rated):
        response = client_for(manager).get(URL, {"since": "2026-06-01", "until": "2026-05-01"})
        assert response.status_code == 400
        assert "after the last day" in soup_of(response).select_one(".alert-error").get_text()

    def test_a_constant_number_of_queries(self, manager, rated, rubric):
        client = client_for(manager)
        client.get(URL)
        cache.clear()  # the figures computed, not read back (TestKeptBetweenViews)
        with CaptureQueriesContext(connection) as before:
            client.get(URL)
        agent = AgentFactory(name="programming-agent")
        for n in range(15):
            rate(rubric, rated, ReflectionFactory(agent=agent, task_type=f"type-{n}"), 0.5)
        cache.clear()
        with CaptureQueriesContext(connection) as after:
            client.get(URL)
        assert len(after) == len(before)


class TestCsv:
    def read(self, response) -> list[dict]:
        assert response["Content-Type"].startswith("text/csv")
        return list(csv.DictReader(io.StringIO(response.content.decode())))

    def test_the_csv_has_every_group_with_the_selectors_numbers(self, manager, rated):
        response = client_for(manager).get(URL, {"format": "csv"})
        assert 'filename="quality.csv"' in response["Content-Disposition"]
        rows = self.read(response)
        finance = next(
            r for r in rows if r["breakdown"] == "department" and r["group"] == "finance"
        )
        assert (finance["n"], finance["mean"], finance["accuracy"]) == ("2", "0.6250", "0.6250")
        # 0.625 ± 12.7062 · 0.17678 / √2 → (-0.96, 2.21), clipped to the 0…1 scale
        assert (finance["ci_low"], finance["ci_high"]) == ("0.0000", "1.0000")
        gated = next(r for r in rows if r["breakdown"] == "gate" and r["group"] == "gated")
        assert (gated["n"], gated["mean"], gated["reference"]) == ("0", "", "0.6800")
        sales = next(r for r in rows if r["breakdown"] == "department" and r["group"] == "sales")
        assert (sales["ci_low"], sales["ci_high"]) == ("", "")  # one reflection: no interval

    def test_formula_like_names_are_disarmed(self, manager, rated):
        rows = self.read(client_for(manager).get(URL, {"format": "csv"}))
        evil = next(r for r in rows if r["breakdown"] == "department" and r["group"] == "evil")
        assert evil["label"] == '\'=HYPERLINK("http://x","y")'
        task = next(r for r in rows if r["breakdown"] == "task_type" and "cmd" in r["group"])
        assert task["group"] == "'+cmd|calc" and task["label"] == "'+cmd|calc"

    def test_the_csv_follows_the_date_range(self, manager, rated):
        response = client_for(manager).get(URL, {"format": "csv", "until": "2026-05-31"})
        assert 'filename="quality-start-to-2026-05-31.csv"' in response["Content-Disposition"]
        groups = {r["group"] for r in self.read(response) if r["breakdown"] == "department"}
        assert groups == {"finance", "evil"}


class TestReflectionPartial:
    @pytest.mark.parametrize(
        ("roles", "expected"),
        [
            (["manager"], FULL),
            (["admin"], FULL),
            (["manager", "rater"], FULL),
            (["reviewer"], AGGREGATE),
            (["reviewer", "rater"], None),
            (["rater"], None),
            ([], None),
        ],
    )
    def test_who_sees_what(self, roles, expected):
        assert quality_visibility(UserFactory(roles=roles)) == expected

    def render(self, reflection, show) -> BeautifulSoup:
        quality = reflection_quality([reflection.pk])[reflection.pk]
        html = render_to_string(
            "rubric/_reflection_quality.html", {"panel": {"quality": quality, "show": show}}
        )
        return BeautifulSoup(html, "html.parser")

    def test_full_shows_each_criterion_the_aggregate_and_the_raters(self, rubric):
        r = ReflectionFactory()
        rate(rubric, UserFactory(roles=["rater"]), r, 0.75)
        rate(rubric, UserFactory(roles=["rater"]), r, 0.25)
        soup = self.render(r, FULL)
        assert soup.select_one('[data-stat="aggregate"]').get_text(strip=True) == "0.50"
        assert soup.select_one('[data-stat="raters"]').get_text(strip=True) == "2"
        rows = soup.select("tr[data-criterion]")
        assert [row["data-criterion"] for row in rows] == list(CRITERIA)
        assert rows[0].td.get_text(strip=True) == "0.50"

    def test_aggregate_hides_the_criteria_and_none_hides_everything(self, rubric):
        r = ReflectionFactory()
        rate(rubric, UserFactory(roles=["rater"]), r, 0.75)
        aggregate = self.render(r, AGGREGATE)
        assert aggregate.select_one('[data-stat="aggregate"]').get_text(strip=True) == "0.75"
        assert aggregate.select("tr[data-criterion]") == []
        assert self.render(r, None).get_text(strip=True) == ""

    def test_an_unrated_reflection_says_so(self, rubric):
        soup = self.render(ReflectionFactory(), FULL)
        assert soup.select_one('[data-stat="unrated"]').get_text(strip=True) == "Not rated yet."
        assert soup.select_one('[data-stat="aggregate"]') is None


class TestKeptBetweenViews:
    def finance_accuracy(self, manager) -> str:
        soup = soup_of(client_for(manager).get(URL))
        finance = table(soup, "department").select_one('tr[data-group="finance"]')
        return finance.select_one('[data-criterion="accuracy"]').get_text(strip=True)

    def test_a_second_view_reads_the_kept_figures(self, manager, rated):
        client = client_for(manager)
        client.get(URL)
        with CaptureQueriesContext(connection) as second:
            client.get(URL)
        # the session, the user, the roles, the ratings' fingerprint, the data version, the cache
        computed = [q for q in second.captured_queries if "AVG(" in q["sql"]]
        assert computed == [] and len(second) <= 8

    def test_a_rating_changed_in_place_is_shown_at_once(self, manager, rated):
        assert self.finance_accuracy(manager) == "0.63"
        one = Rating.objects.filter(reflection__agent__name="finance-agent", level=0.5)
        one.filter(criterion="accuracy").update(level=1.0, rated_at=MAY + timedelta(hours=1))
        assert self.finance_accuracy(manager) == "0.88"  # (0.75 + 1.0) / 2

    def test_a_new_rating_is_shown_at_once(self, manager, rated, rubric):
        before = soup_of(client_for(manager).get(URL))
        n = cell(before.select_one(".quality-overall div:first-child"), "n")
        rater = UserFactory(username="rex", roles=["rater"])
        rate(rubric, rater, ReflectionFactory(agent=AgentFactory(name="late-agent")), 1.0)
        after = soup_of(client_for(manager).get(URL))
        assert cell(after.select_one(".quality-overall div:first-child"), "n") == str(int(n) + 1)
