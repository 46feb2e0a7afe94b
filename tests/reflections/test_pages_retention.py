"""The retention page: per agent, the newest 30 retained and the archive candidates beyond."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from bs4 import BeautifulSoup
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from reflections.services.policy_runs import archive_retention_candidates
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = reverse("reflections:retention")
AS_OF = "2026-11-20"
T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)


def soup_of(response) -> BeautifulSoup:
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser")


def summary(section) -> dict[str, str]:
    return {
        div.dt.get_text(strip=True): div.dd.get_text(" ", strip=True)
        for div in section.select("dl.summary > div")
    }


def agent_section(page, agent):
    return page.select_one(f"#agent-{agent.pk}")


def write(agent, n: int, *, start: int = 0, **fields) -> list:
    """n reflections of ``agent``, one a day, the k-th created on T0 + (start + k) days."""
    return [
        ReflectionFactory(
            agent=agent,
            title=f"{agent.name} #{start + k}",
            created_at=T0 + timedelta(days=start + k),
            **fields,
        )
        for k in range(n)
    ]


@pytest.fixture
def finance():
    return DepartmentFactory(slug="finance", name="Finance")


@pytest.fixture
def sales():
    return DepartmentFactory(slug="sales", name="Sales")


@pytest.fixture
def busy(finance):
    """34 reflections: the oldest archived, one of the newest deprecated (outside retention)."""
    agent = AgentFactory(name="busy-agent", department=finance)
    oldest = write(agent, 1, state="archived")
    rest = write(agent, 33, start=1)
    rest[-1].state = "deprecated"
    rest[-1].save()
    return agent, oldest + rest


@pytest.fixture
def quiet(sales):
    agent = AgentFactory(name="quiet-agent", department=sales)
    return agent, write(agent, 4)


@pytest.fixture
def manager_client(client):
    client.force_login(UserFactory(roles=["manager"]))
    return client


def test_each_agent_shows_its_retained_count_and_oldest_retained_date(manager_client, busy, quiet):
    page = soup_of(manager_client.get(URL, {"as_of": AS_OF}))
    agent, written = busy

    # 33 ranked (the deprecated one is not): newest 30 retained = days 3…32, 3 candidates.
    assert summary(agent_section(page, agent)) == {
        "Retained": "30",
        "Oldest retained": "2026-01-04",
        "Archive candidates": "3",
        "Would archive": "2",
    }
    oldest = agent_section(page, agent).select_one("dl.summary a")
    assert oldest["href"] == reverse("reflections:detail", args=[written[3].pk])
    assert summary(agent_section(page, quiet[0]))["Retained"] == "4"
    assert agent_section(page, quiet[0]).select_one(".empty-state") is not None


def test_the_candidates_are_listed_from_position_31_on(manager_client, busy):
    page = soup_of(manager_client.get(URL, {"as_of": AS_OF}))
    agent, written = busy

    rows = [
        [td.get_text(" ", strip=True) for td in tr.find_all("td")]
        for tr in agent_section(page, agent).select("table.candidates tbody tr")
    ]
    assert rows == [
        ["#31", "busy-agent #2", "2026-01-03", "Active", "0"],
        ["#32", "busy-agent #1", "2026-01-02", "Active", "0"],
        ["#33", "busy-agent #0", "2026-01-01", "Archived", "0"],
    ]
    link = agent_section(page, agent).select_one("table.candidates a")
    assert link["href"] == reverse("reflections:detail", args=[written[2].pk])


def test_the_yearly_summary_matches_what_the_retention_run_would_archive(
    manager_client, busy, quiet
):
    page = soup_of(manager_client.get(URL, {"as_of": AS_OF}))

    would = archive_retention_candidates(as_of=datetime.fromisoformat(AS_OF).date(), dry_run=True)
    assert len(would) == 2
    summary_text = page.select_one(".yearly-summary").get_text(" ", strip=True)
    assert summary_text.startswith("The yearly run would archive 2 reflections")


def test_an_agent_with_many_candidates_shows_the_first_20_and_the_count(manager_client, finance):
    agent = AgentFactory(name="prolific", department=finance)
    write(agent, 55)
    page = soup_of(manager_client.get(URL, {"as_of": AS_OF}))

    section = agent_section(page, agent)
    positions = [tr.td.get_text(strip=True) for tr in section.select("table.candidates tbody tr")]
    assert positions == [f"#{p}" for p in range(31, 51)]
    assert section.select_one(".table-note").get_text(strip=True) == (
        "The first 20 of 25 candidates."
    )


def test_the_department_filter_shows_only_that_departments_agents(manager_client, busy, quiet):
    page = soup_of(manager_client.get(URL, {"department": "sales", "as_of": AS_OF}))

    names = [h.contents[0].strip() for h in page.select(".agent-retention h2")]
    assert names == ["quiet-agent"]
    assert page.select_one("#r-department option[selected]")["value"] == "sales"


def test_a_reviewer_sees_only_agents_of_their_departments(client, finance, busy, quiet):
    client.force_login(UserFactory(roles=["reviewer"], departments=[finance]))

    page = soup_of(client.get(URL, {"as_of": AS_OF}))
    names = [h.contents[0].strip() for h in page.select(".agent-retention h2")]
    assert names == ["busy-agent"]
    assert client.get(URL, {"department": "sales"}).status_code == 404


def test_a_candidate_filed_in_a_department_the_reviewer_cannot_see_is_not_named(
    client, finance, sales
):
    agent = AgentFactory(name="wanderer", department=finance)
    write(agent, 30, start=10)
    ReflectionFactory(agent=agent, department=sales, title="secret sales lesson", created_at=T0)
    client.force_login(UserFactory(roles=["reviewer"], departments=[finance]))

    page = soup_of(client.get(URL, {"as_of": AS_OF}))
    assert "secret sales lesson" not in page.get_text()
    cells = agent_section(page, agent).select("table.candidates tbody td")
    assert [c.get_text(strip=True) for c in cells] == ["#31", "In a department you do not see."]


def test_without_a_role_it_is_refused_and_anonymous_visitors_sign_in(client, busy):
    assert client.get(URL).status_code == 302
    client.force_login(UserFactory())
    assert client.get(URL).status_code == 403


def test_a_bad_as_of_is_a_bad_request(manager_client, busy):
    assert manager_client.get(URL, {"as_of": "yesterday"}).status_code == 400


def count_queries(client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(URL, {"as_of": AS_OF})
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_the_query_count_does_not_grow_with_agents_or_candidates(manager_client, finance):
    write(AgentFactory(name="first", department=finance), 32)
    small = count_queries(manager_client)
    for i in range(5):
        write(AgentFactory(name=f"more-{i}", department=DepartmentFactory(slug=f"d{i}")), 35)
    assert count_queries(manager_client) == small
    # session, user, roles, departments, agents, ranking, shown rows, archivable ids
    assert small <= 8
