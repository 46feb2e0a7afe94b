"""The insights pages: who may see them, their tables, CSV downloads and query counts."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from bs4 import BeautifulSoup
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from reflections.models import Department, Reflection
from reflections.services.task_rollup import refresh_task_outcome_days
from reviews.models import ReviewCycle
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    ReflectionHistoryFactory,
    RetrievalEventFactory,
    TaskInjectionFactory,
    TaskRunFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

PAGES = ("insights:overview", "insights:learning", "insights:usefulness")
AS_OF = "2026-03-20"


def at(day: str, hour: int = 12) -> datetime:
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UTC)


def make_memory(n: int, title: str = "Reconcile") -> None:
    """``n`` lessons, tasks and retrievals per department in two departments."""
    for slug in ("finance", "sales"):
        agent = AgentFactory(name=f"{slug}-agent", department=DepartmentFactory(slug=slug))
        for i in range(n):
            lesson = ReflectionFactory(
                agent=agent,
                title=f"{title} {slug} {i}",
                created_at=at("2026-03-02") + timedelta(hours=i),
            )
            task = TaskRunFactory(
                agent=agent,
                finished_at=at("2026-03-10") + timedelta(hours=i),
                outcome="failure" if i % 3 else "success",
                failure_mode="timeout",
            )
            TaskInjectionFactory(task_run=task, reflection=lesson)
            RetrievalEventFactory(reflection=lesson, task_id=task.task_id, agent=agent)


def get(client, name: str, **params):
    return client.get(reverse(name), params)


@pytest.fixture
def manager(client):
    client.force_login(UserFactory(roles=["manager"]))
    return client


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("roles", [["reviewer"], ["rater"], []])
def test_only_managers_and_admins_may_see_insights(client, name, roles):
    client.force_login(UserFactory(roles=roles, departments=[DepartmentFactory(slug="finance")]))
    assert get(client, name).status_code == 403
    assert get(client, name, format="csv", table="weeks").status_code == 403


@pytest.mark.parametrize("name", PAGES)
def test_an_anonymous_visitor_is_sent_to_sign_in(client, name):
    response = get(client, name)
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.parametrize("name", PAGES)
def test_admins_see_every_page_with_chart_placeholders_above_tables(client, name):
    make_memory(3)
    client.force_login(UserFactory(roles=["admin"]))
    page = BeautifulSoup(get(client, name).content, "html.parser")
    charts = page.select("div.chart[data-chart]")
    assert charts
    for chart in charts:
        # The table the chart draws comes after it, in the same section.
        assert chart.find_next("table") is not None


def test_overview_rows_per_department_and_overall(manager):
    make_memory(6)
    page = BeautifulSoup(get(manager, "insights:overview", as_of=AS_OF).content, "html.parser")
    rows = page.select("table.insights-overview tbody tr")
    assert [r["data-department"] for r in rows] == ["finance", "sales", "all"]
    finance = rows[0]
    # Tasks i = 0..5 on 2026-03-10: successes i = 0, 3 → 2 of 6 = 33.3 %.
    assert finance.select_one('[data-metric="success"] .value').get_text(strip=True) == "33.3 %"
    # Every finance lesson is 'active' now: 6; none existed 13 weeks before.
    assert finance.select_one('[data-metric="active-set"] .value').get_text(strip=True) == "6"
    assert finance.select_one('[data-metric="quality"] .value').get_text(strip=True) == "—"
    assert finance.select_one('[data-metric="success"] svg.sparkline') is not None


def test_learning_table_for_one_department(manager):
    make_memory(6)
    page = BeautifulSoup(
        get(
            manager,
            "insights:learning",
            department="finance",
            **{"from": "2026-03-02", "to": "2026-03-15"},
        ).content,
        "html.parser",
    )
    cells = [
        [c.get_text(strip=True) for c in tr.find_all(["th", "td"])]
        for tr in page.select("table.learning-weeks tbody tr")
    ]
    # Week of 03-09: 6 finished, 2 successes, 4 failures; every task eligible (lessons from
    # 03-02); the first "timeout" failure is not a repeat, the other three are: 3 / 6.
    assert cells == [
        ["2026-03-02", "0", "0", "0", "0", "—", "—", "0", "0", "—"],
        ["2026-03-09", "6", "2", "0", "4", "33.3 %", "0.0 %", "6", "3", "50.0 %"],
    ]


def test_unknown_department_and_bad_dates(manager):
    assert get(manager, "insights:learning", department="nope").status_code == 404
    assert get(manager, "insights:learning", to="yesterday").status_code == 400
    assert (
        get(manager, "insights:learning", **{"from": "2026-03-10", "to": "2026-03-01"}).status_code
        == 400
    )
    assert get(manager, "insights:overview", format="csv", table="nope").status_code == 404


def test_usefulness_page_lists_lift_and_flows(manager):
    make_memory(12)
    page = BeautifulSoup(get(manager, "insights:usefulness").content, "html.parser")
    assert len(page.select("table.lift tbody tr")) == 20  # the top 20 of 24
    flows = [
        [c.get_text(strip=True) for c in tr.find_all("td")]
        for tr in page.select("table.flows tbody tr")
    ]
    assert flows == [["finance", "finance", "12"], ["sales", "sales", "12"]]


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;")
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_csv_cells_cannot_run_as_formulas(manager):
    make_memory(1, title='=HYPERLINK("http://evil")')
    rows = read_csv(get(manager, "insights:usefulness", format="csv", table="lift"))
    titles = [r[1] for r in rows[1:]]
    assert titles and all(t.startswith("'=HYPERLINK") for t in titles)
    # Numbers stay numbers, negative ones too (a change is not a formula).
    overview = read_csv(
        get(manager, "insights:overview", format="csv", table="departments", as_of=AS_OF)
    )
    assert overview[0][:2] == ["department", "success_rate"]
    assert [r[0] for r in overview[1:]] == ["finance", "sales", "all"]
    assert not any(cell.startswith("'") for r in overview[1:] for cell in r)


@pytest.mark.parametrize(
    ("name", "tables"),
    [
        ("insights:overview", ["departments"]),
        ("insights:learning", ["weeks", "departments", "written", "markers"]),
        ("insights:usefulness", ["usefulness", "lift", "flows"]),
    ],
)
def test_every_table_downloads_as_csv(manager, name, tables):
    make_memory(2)
    for table in tables:
        assert len(read_csv(get(manager, name, format="csv", table=table))[0]) >= 3


@pytest.mark.parametrize("name", PAGES)
def test_query_count_does_not_grow_with_the_data(manager, name):
    make_memory(2, title="small")
    get(manager, name)  # warm the session and the role cache
    cache.clear()  # figures computed, not read back from the cache
    with CaptureQueriesContext(connection) as small:
        assert get(manager, name, as_of=AS_OF).status_code == 200
    make_memory(15, title="large")
    cache.clear()
    with CaptureQueriesContext(connection) as large:
        assert get(manager, name, as_of=AS_OF).status_code == 200
    assert len(large) == len(small)
    # A cached page pays a few more on a miss: what its key reads (the learning curves' review
    # markers, the usefulness page's quarantined ids), the data version, the cache read and
    # the database cache's write (its count, key and insert). Savepoints and SET LOCAL are not
    # statements of the page (PostgreSQL wraps more of them).
    # The overview caches two figures (its chart, its active sets): 21 on a miss.
    work = [q for q in small if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "SET "))]
    assert len(work) <= (21 if name == "insights:overview" else 16), [q["sql"][:60] for q in work]


def test_learning_curves_are_cached_until_the_data_or_the_reviews_move(manager):
    make_memory(2, title="small")
    get(manager, "insights:learning")
    with CaptureQueriesContext(connection) as again:
        assert get(manager, "insights:learning").status_code == 200
    assert not any("reflections_taskoutcomeday" in q["sql"] for q in again)
    some = Reflection.objects.first()
    ReflectionHistoryFactory(reflection=some)  # a state change: nothing the curves read
    with CaptureQueriesContext(connection) as after_state:
        assert get(manager, "insights:learning").status_code == 200
    assert not any("reflections_taskoutcomeday" in q["sql"] for q in after_state)
    make_memory(1, title="later")  # an import bumps the data version
    with CaptureQueriesContext(connection) as moved:
        assert get(manager, "insights:learning").status_code == 200
    assert any("reflections_taskoutcomeday" in q["sql"] for q in moved)


def chart_specs(response) -> dict[str, dict]:
    """Each figure's Vega-Lite spec by chart name, as the page ships it."""
    page = BeautifulSoup(response.content, "html.parser")
    specs = {}
    for figure in page.select("figure[data-chart-figure]"):
        name = figure.select_one("[data-chart]")["data-chart"]
        specs[name] = json.loads(page.find(id=figure["data-spec"]).string)
        assert figure.find_next("table") is not None  # the numbers stay beneath
    return specs


def rows_of(spec) -> list:
    """Every inline data row anywhere in a spec (altair may hoist a lone layer's data); an
    axis's tick `values` are not data."""
    found = []
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "axis":
                continue
            if key == "values" and isinstance(value, list):
                found += [v for v in value if isinstance(v, dict)]
            else:
                found += rows_of(value)
    elif isinstance(spec, list):
        for value in spec:
            found += rows_of(value)
    return found


def test_every_page_charts_the_rows_its_tables_show(manager):
    make_memory(6)
    overview = chart_specs(get(manager, "insights:overview", as_of=AS_OF))
    assert list(overview) == ["overview"]
    values = rows_of(overview["overview"])
    assert {"week": "2026-03-09", "department": "Finance", "success": 2 / 6} in values

    learning = chart_specs(
        get(manager, "insights:learning", department="finance", to=AS_OF, **{"from": "2026-03-02"})
    )
    assert list(learning) == ["learning", "repeat", "written"]  # no review deprecated anything
    outcomes = rows_of(learning["learning"])
    assert {"week": "2026-03-09", "measure": "Success rate", "rate": 2 / 6} in outcomes
    written = rows_of(learning["written"])
    assert sum(v["reflections"] for v in written) == 6
    for spec in learning.values():
        assert spec["title"]["text"] and spec["description"]

    usefulness = chart_specs(get(manager, "insights:usefulness"))
    assert list(usefulness) == ["usefulness", "flows"]  # lift needs 10 injected tasks
    flows = rows_of(usefulness["flows"])
    assert {"retriever": "finance", "author": "finance", "retrievals": 6} in flows


@pytest.mark.parametrize("name", [*PAGES, "insights:projection:page", "insights:runs"])
def test_every_insights_page_links_to_the_others_and_marks_itself(manager, name):
    page = BeautifulSoup(get(manager, name).content, "html.parser")
    links = page.select(".insights-nav a")
    assert [a["href"] for a in links] == [
        reverse(n)
        for n in ("insights:overview", "insights:learning", "insights:usefulness",
                  "insights:runs", "insights:projection:page")
    ]  # fmt: skip
    assert [a["href"] for a in links if a.get("aria-current")] == [reverse(name)]


def test_the_overview_shows_every_department_without_a_scroll_box(manager):
    for i in range(8):
        DepartmentFactory(slug=f"dept-{i}", name=f"Department {i}")
    page = BeautifulSoup(get(manager, "insights:overview", as_of=AS_OF).content, "html.parser")
    table = page.select_one("#overview-table")
    assert "table-whole" in table.parent["class"]  # the panel's scroll box is lifted
    shown = [tr["data-department"] for tr in table.select("tbody tr")]
    assert shown == [f"dept-{i}" for i in range(8)] + ["all"]
    # Each measure names itself, so a narrow screen can lay a department out as a card.
    labels = {td["data-label"] for td in table.select("td.metric")}
    assert labels == {
        "Success rate",
        "Repeat-failure rate",
        "Active set",
        "Quality mean",
        "Open review items",
        "Open rating assignments",
    }
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    assert ".panel .table-scroll.table-whole {\n  max-height: none;" in css


def test_a_cycle_closed_after_the_page_was_cached_still_marks_the_curves(manager):
    make_memory(2, title="small")
    assert (
        "cycle closed"
        not in read_csv(get(manager, "insights:learning", format="csv", table="markers"))[-1]
    )
    ReviewCycle.objects.create(
        department=Department.objects.get(slug="finance"),
        quarter="2026Q1",
        window_start=at("2025-10-01"),
        window_end=at("2026-01-01"),
        opened_at=at("2026-01-02"),
        closed_at=timezone.now(),
    )
    rows = read_csv(get(manager, "insights:learning", format="csv", table="markers"))
    assert any("cycle closed" in row for row in rows)


def test_the_usefulness_page_drops_a_lesson_quarantined_after_it_was_cached(manager):
    make_memory(3, title="lift")
    listed = read_csv(get(manager, "insights:usefulness", format="csv", table="lift"))
    assert len(listed) > 1
    first = Reflection.objects.get(pk=int(listed[1][0]))
    first.state = "quarantined"
    first.save(update_fields=["state"])
    again = read_csv(get(manager, "insights:usefulness", format="csv", table="lift"))
    assert str(first.pk) not in [row[0] for row in again[1:]]


def test_two_departments_are_put_side_by_side_on_the_learning_curves(manager):
    sales = DepartmentFactory(slug="sales", name="Sales")
    finance = DepartmentFactory(slug="finance-b", name="Finance B")
    start = datetime(2026, 3, 2, 10, tzinfo=UTC)
    for department, successes in ((sales, 3), (finance, 1)):
        agent = AgentFactory(name=f"{department.slug}-bot", department=department)
        for i in range(4):
            TaskRunFactory(
                task_id=f"{department.slug}-{i}", agent=agent, department=department,
                task_type="t", finished_at=start + timedelta(hours=i),
                outcome="success" if i < successes else "failure",
            )  # fmt: skip
    refresh_task_outcome_days()
    query = {"department": "sales", "beside": "finance-b", "from": "2026-03-02", "to": "2026-03-08"}
    specs = chart_specs(get(manager, "insights:learning", **query))
    beside = rows_of(specs["beside"])
    assert sorted((r["department"], r["rate"]) for r in beside) == [
        ("Finance B", 0.25),
        ("Sales", 0.75),
    ]
    rows = list(csv.reader(io.StringIO(
        get(manager, "insights:learning", **query, format="csv", table="beside").content.decode()
    )))  # fmt: skip
    assert [r[0] for r in rows[1:]] == ["sales", "finance-b"]
    assert (
        get(manager, "insights:learning", department="sales", beside="nowhere").status_code == 404
    )
