"""The success projection page: access, the fitted figures or the refusal, the weeks and CSV."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

from insights.projection import saturating
from insights.selectors.projection import weekly_success
from reflections.models import ReflexionRun, TaskRun
from reflections.services.task_rollup import refresh_task_outcome_days
from tests.factories import AgentFactory, DepartmentFactory, UserFactory

URL = "/insights/projection/"
FIRST_MONDAY = datetime(2026, 1, 5, 9, tzinfo=UTC)


@pytest.fixture
def url() -> str:
    wired = reverse("insights:projection:page")
    assert wired == URL
    return wired


@pytest.fixture
def sales():
    return DepartmentFactory(slug="sales", name="Sales")


@pytest.fixture
def finance():
    return DepartmentFactory(slug="finance", name="Finance")


def add_weeks(department, rates: list[float], tasks: int = 40, partial_every: int = 0) -> None:
    """`tasks` finished tasks a week from FIRST_MONDAY, round(rate·tasks) of them successes;
    of the rest, every `partial_every`-th is partial (not success), the others failures."""
    agent = AgentFactory(name=f"{department.slug}-agent", department=department)
    runs = []
    for week, rate in enumerate(rates):
        successes = round(rate * tasks)
        for i in range(tasks):
            if i < successes:
                outcome = "success"
            elif partial_every and i % partial_every == 0:
                outcome = "partial"
            else:
                outcome = "failure"
            runs.append(
                TaskRun(
                    task_id=f"{department.slug}-{week}-{i}",
                    agent=agent,
                    department=department,
                    task_type="reconciliation",
                    finished_at=FIRST_MONDAY + timedelta(weeks=week, hours=i),
                    outcome=outcome,
                )
            )
    TaskRun.objects.bulk_create(runs)
    refresh_task_outcome_days()  # what the task import does after writing in bulk


def planted(weeks: int = 20) -> list[float]:
    """A curve with A 0.9, s₀ 0.5, h 3 weeks, rounded to what 40 tasks a week can show."""
    return [round(float(s) * 40) / 40 for s in saturating(range(weeks), 0.9, 0.5, 3)]


def sign_in(client, *roles: str):
    user = UserFactory(roles=list(roles))
    client.force_login(user)
    return user


def get(client, url, **params):
    return client.get(url, params)


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.content.decode(), "html.parser")


@pytest.mark.django_db
def test_signed_out_people_are_sent_to_sign_in(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


@pytest.mark.django_db
@pytest.mark.parametrize("roles", [(), ("reviewer",), ("rater",), ("reviewer", "rater")])
def test_only_managers_and_admins_may_see_it(client, url, sales, roles):
    add_weeks(sales, planted())
    sign_in(client, *roles)
    response = client.get(url)
    assert response.status_code == 403
    assert b"Projection" not in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["manager", "admin"])
def test_a_manager_sees_the_fitted_asymptote_and_half_life_with_intervals(client, url, sales, role):
    add_weeks(sales, planted())
    sign_in(client, role)
    response = client.get(url)

    assert response.status_code == 200
    soup = soup_of(response)
    asymptote = soup.select_one('[data-figure="asymptote"]')
    a = float(asymptote.select_one("[data-value]")["data-value"])
    assert a == pytest.approx(0.9, abs=0.01)
    assert "95 % interval" in asymptote.get_text()
    half_life = soup.select_one('[data-figure="half-life"]')
    weeks = soup.select_one('[data-figure="half-life-weeks"]').get_text()
    months = float(half_life.select_one("[data-value]")["data-value"])
    assert months == pytest.approx(3 / 4.348, abs=0.1)
    assert "months" in half_life.get_text()
    assert weeks.startswith("= 3.")
    assert soup.select_one('[data-figure="weeks"]').get_text() == "20"
    assert soup.select_one(".projection-refusal") is None


@pytest.mark.django_db
def test_the_chart_carries_the_weeks_and_the_fitted_curve(client, url, sales):
    add_weeks(sales, planted())
    sign_in(client, "manager")
    soup = soup_of(client.get(url))

    figure = soup.select_one("figure[data-chart-figure]")
    spec = json.loads(figure.select_one("script#chart-projection").string)
    band, curve, today, rule, _, points = spec["layer"]
    assert [v["rate"] for v in points["data"]["values"]] == planted()
    assert points["data"]["values"][0]["week"] == "2026-01-05"
    assert curve["mark"]["type"] == "line"
    assert rule["data"]["values"][0]["rate"] == pytest.approx(0.9, abs=0.01)
    # The curve goes on past the last observed week (dashed), inside its shaded band.
    last_week = points["data"]["values"][-1]["week"]
    assert today["data"]["values"] == [{"week": last_week}]
    ahead = [v for v in curve["data"]["values"] if v["part"] == "Projected ahead"]
    assert ahead[0]["week"] == last_week and ahead[-1]["week"] > "2026-07-01"
    assert band["mark"]["type"] == "area"
    assert band["data"]["values"][-1]["week"] == ahead[-1]["week"]
    assert all(v["low"] <= v["high"] for v in band["data"]["values"])
    assert spec["title"]["text"] == "Weekly task success, all departments"
    # Vega comes from static/, in order, and charts.js draws the figure.
    sources = [s["src"] for s in soup.select("script[src]") if "htmx" not in s["src"]]
    assert [s.rsplit("/", 1)[1] for s in sources] == [
        "vega.min.js", "vega-interpreter.min.js", "vega-lite.min.js", "vega-embed.min.js",
        "charts.js",
    ]  # fmt: skip


@pytest.mark.django_db
def test_the_weeks_table_counts_partials_apart_and_not_as_success(client, url, sales):
    add_weeks(sales, planted(), partial_every=2)
    sign_in(client, "manager")
    soup = soup_of(client.get(url))

    rows = soup.select("table.projection-weeks tbody tr")
    assert len(rows) == 20
    first = {td["data-col"]: td.get_text(strip=True) for td in rows[0].select("td")}
    assert rows[0]["data-week"] == "2026-01-05"
    # Week 0: 20 of 40 succeed; of the 20 others, the even-numbered 10 are partial.
    assert first == {"finished": "40", "successes": "20", "partials": "10", "failures": "10",
                     "rate": "0.500", "fitted": first["fitted"]}  # fmt: skip
    assert float(first["fitted"]) == pytest.approx(0.5, abs=0.02)


@pytest.mark.django_db
def test_too_few_weeks_show_the_refusal_and_no_made_up_numbers(client, url, sales):
    add_weeks(sales, planted(5))
    sign_in(client, "manager")
    soup = soup_of(client.get(url))

    refusal = soup.select_one(".projection-refusal [data-refusal]")
    assert refusal.get_text() == (
        "Only 5 weeks with finished tasks; the projection needs at least 8."
    )
    assert soup.select_one('[data-figure="asymptote"]') is None
    assert len(soup.select("table.projection-weeks tbody tr")) == 5
    assert [td.get_text() for td in soup.select('td[data-col="fitted"]')] == ["—"] * 5
    spec = json.loads(soup.select_one("script#chart-projection").string)
    assert len(spec["layer"]) == 1  # the points, no curve
    assert "No projection: Only 5 weeks" in spec["description"]


@pytest.mark.django_db
def test_with_no_tasks_at_all_the_page_says_so(client, url, sales):
    sign_in(client, "manager")
    soup = soup_of(client.get(url))

    assert "Only 0 weeks" in soup.select_one("[data-refusal]").get_text()
    assert "No finished tasks yet." in soup.select_one(".empty-state").get_text()


@pytest.mark.django_db
def test_the_department_filter_fits_one_department(client, url, sales, finance):
    add_weeks(sales, planted())
    add_weeks(finance, [0.3] * 4)
    sign_in(client, "manager")

    pooled = soup_of(client.get(url))
    assert len(pooled.select("table.projection-weeks tbody tr")) == 20
    first_pooled = pooled.select_one('table.projection-weeks td[data-col="finished"]')
    assert first_pooled.get_text() == "80"

    only_finance = soup_of(get(client, url, department="finance"))
    assert only_finance.select_one("#scope").get_text().startswith("Finance:")
    assert len(only_finance.select("table.projection-weeks tbody tr")) == 4
    assert "Only 4 weeks" in only_finance.select_one("[data-refusal]").get_text()
    selected = only_finance.select_one("select#id_department option[selected]")
    assert selected["value"] == "finance"
    assert selected.get_text() == "Finance"  # names, not slugs


@pytest.mark.django_db
def test_all_departments_leave_out_imported_reflexion_runs_which_can_be_fitted_alone(
    client, url, sales
):
    # A benchmark run dated from the paper's week, its first trials failing, is not the
    # agents' learning: pooled, it bent the demo's fit out of the range of a rate.
    run = DepartmentFactory(slug="humaneval", name="HumanEval")
    add_weeks(sales, planted())
    add_weeks(run, [0.05] * 3)
    agent = run.agents.get()
    ReflexionRun.objects.create(
        label="humaneval._reflexion_5_gpt-4.jsonl", slug="humaneval-gpt-4", kind="programming",
        benchmark="humaneval", strategy="reflexion", department=run, agent=agent,
        started_at=datetime(2023, 3, 20, tzinfo=UTC), trial_days=7, problems=3, reflections=2,
        content_hash="x", imported_at=datetime(2026, 11, 1, tzinfo=UTC),
    )  # fmt: skip
    sign_in(client, "manager")

    pooled = soup_of(client.get(url))
    assert len(pooled.select("table.projection-weeks tbody tr")) == 20
    assert "Reflexion runs apart" in pooled.select_one("#scope").get_text()
    alone = soup_of(get(client, url, department="humaneval"))
    assert len(alone.select("table.projection-weeks tbody tr")) == 3


@pytest.mark.django_db
def test_an_unknown_department_is_a_bad_request(client, url, sales):
    sign_in(client, "manager")
    response = get(client, url, department="nowhere")
    assert response.status_code == 400
    assert soup_of(response).select_one(".field-error .alert-error")


@pytest.mark.django_db
def test_the_csv_holds_the_weeks_and_the_fit(client, url, sales):
    add_weeks(sales, planted(), partial_every=2)
    sign_in(client, "manager")
    response = get(client, url, department="sales", format="csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="weekly-success-sales.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 20
    assert rows[0] | {"fitted": ""} == {
        "department": "sales", "week": "2026-01-05", "finished": "40", "successes": "20",
        "partials": "10", "failures": "10", "success_rate": "0.5000", "fitted": "",
    }  # fmt: skip
    assert float(rows[-1]["fitted"]) == pytest.approx(0.9, abs=0.01)


@pytest.mark.django_db
def test_the_csv_disarms_a_department_slug_that_looks_like_a_formula(client, url):
    hostile = DepartmentFactory(slug="-cmd", name="Hostile")
    add_weeks(hostile, [0.5] * 3)
    sign_in(client, "manager")
    response = get(client, url, department="-cmd", format="csv")

    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[1][0] == "'-cmd"
    assert rows[1][6] == "0.5000"  # our own numbers stay numbers
    assert all(row[7] == "" for row in rows[1:])  # refused: no fitted values


@pytest.mark.django_db
def test_the_page_link_for_the_csv_keeps_the_filter(client, url, sales):
    sign_in(client, "manager")
    soup = soup_of(get(client, url, department="sales"))
    link = soup.select_one("a[download]")
    assert link["href"] == "?department=sales&format=csv"


@pytest.mark.django_db
def test_weekly_success_is_one_aggregate_query(django_assert_num_queries, sales, finance):
    add_weeks(sales, planted(10))
    add_weeks(finance, [0.25] * 3)
    with django_assert_num_queries(1):
        weeks = weekly_success()
    assert [w.finished for w in weeks] == [80] * 3 + [40] * 7
    assert weeks[0].successes == round(planted(10)[0] * 40) + 10
    with django_assert_num_queries(1):
        weeks = weekly_success(department=finance)
    assert [(w.week.isoformat(), w.successes) for w in weeks] == [
        ("2026-01-05", 10), ("2026-01-12", 10), ("2026-01-19", 10),
    ]  # fmt: skip


@pytest.mark.django_db
def test_iso_weeks_start_on_monday_in_utc(sales):
    agent = AgentFactory(name="sales-agent", department=sales)
    sunday_late = datetime(2026, 1, 11, 23, 59, tzinfo=UTC)
    monday = datetime(2026, 1, 12, 0, 0, tzinfo=UTC)
    for n, at in enumerate((sunday_late, monday)):
        TaskRun.objects.create(task_id=f"t{n}", agent=agent, department=sales,
                               task_type="x", finished_at=at, outcome="success")  # fmt: skip
    assert [w.week.isoformat() for w in weekly_success()] == ["2026-01-05", "2026-01-12"]


@pytest.mark.django_db
def test_the_page_does_a_fixed_number_of_queries(client, url, sales, finance,
                                                 django_assert_max_num_queries):  # fmt: skip
    add_weeks(sales, planted())
    add_weeks(finance, planted())
    sign_in(client, "manager")
    # Session, user, roles, the weekly aggregate, the department choices: more departments or
    # weeks add none; the first view also reads the data version and fills the database cache
    # (read, count, key, insert and their savepoints), a second reads it back.
    with django_assert_max_num_queries(16):
        response = client.get(url)
    assert response.status_code == 200
    with django_assert_max_num_queries(8):  # no weekly aggregate: version + cached read
        assert client.get(url).status_code == 200
