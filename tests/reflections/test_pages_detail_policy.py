"""The reflection page's policy panel: state and why, decay timeline, retention, salience."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

from reflections.models import ScanFinding
from reflections.policies import decay_state
from reflections.selectors.policy import archive_date
from reflections.services.policy_runs import retention_candidates
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    ReflectionHistoryFactory,
    RetrievalEventFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

TODAY = datetime(2026, 11, 20, 15, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_today(monkeypatch):
    # The panel explains the state "as of today"; pin today so the numbers are fixed.
    monkeypatch.setattr("reflections.selectors.dates.today", lambda: TODAY.date())


@pytest.fixture
def agent():
    return AgentFactory(
        name="finance-agent", department=DepartmentFactory(slug="finance", name="Finance")
    )


@pytest.fixture
def manager_client(client):
    client.force_login(UserFactory(roles=["manager"]))
    return client


def panel(client, reflection) -> dict[str, str]:
    response = client.get(reverse("reflections:detail", args=[reflection.pk]))
    assert response.status_code == 200
    page = BeautifulSoup(response.content, "html.parser")
    return {
        tr.th.get_text(strip=True): " ".join(tr.td.get_text(" ", strip=True).split())
        for tr in page.select("#policy tr")
    }


def test_an_active_reflection_shows_the_decay_reason_and_its_archive_date(manager_client, agent):
    r = ReflectionFactory(agent=agent, created_at=datetime(2026, 9, 1, 8, tzinfo=UTC))
    for day in (2, 3):
        RetrievalEventFactory(
            reflection=r, agent=agent, retrieved_at=datetime(2026, 11, day, 10, tzinfo=UTC)
        )

    shown = panel(manager_client, r)
    assert shown["State"] == "Active \N{MULTIPLICATION SIGN}1.0 retrieval multiplier"
    assert (
        shown["Why"] == "active: created 2026-09-01, 2 retrievals in the last 30 d, last 2026-11-03"
    )
    # max(2026-09-01 + 91 d, 2026-11-03 + 30 d) = max(2026-12-01, 2026-12-03)
    assert shown["Timeline"] == (
        "Created 2026-09-01 "
        "Last retrieved 2026-11-03 ; 2 retrievals in the last 30 days "
        "Will be archived on 2026-12-03 if not retrieved"
    )


@pytest.mark.parametrize(
    ("created", "last"),
    [
        (datetime(2026, 9, 1, 8, tzinfo=UTC), datetime(2026, 11, 3, 10, tzinfo=UTC)),
        (datetime(2026, 9, 1, 0, tzinfo=UTC), None),
        (datetime(2026, 5, 1, 23, 59, tzinfo=UTC), datetime(2026, 11, 3, 0, 0, tzinfo=UTC)),
        (datetime(2026, 10, 1, 0, 0, tzinfo=UTC), datetime(2026, 10, 2, 23, 59, tzinfo=UTC)),
    ],
)
def test_the_archive_date_is_the_first_day_decay_archives_it(created, last):
    day = archive_date(created, last)

    def state_on(as_of: date) -> str:
        retrieved = last is not None and last >= datetime.combine(
            as_of + timedelta(days=1 - 30), datetime.min.time(), tzinfo=UTC
        )
        return decay_state(
            created_at=created,
            last_retrieved_before_as_of=last,
            retrievals_in_window=int(retrieved),
            as_of=as_of,
            current_state="active",
        )[0]

    assert state_on(day) == "archived"
    assert state_on(day - timedelta(days=1)) == "active"


def test_a_never_retrieved_reflection_is_archived_91_days_after_creation(manager_client, agent):
    r = ReflectionFactory(agent=agent, created_at=datetime(2026, 10, 1, 9, tzinfo=UTC))

    timeline = panel(manager_client, r)["Timeline"]
    assert "Last retrieved never" in timeline
    assert timeline.endswith("Will be archived on 2026-12-31 if not retrieved")


def test_a_reflection_decay_is_about_to_archive_says_so(manager_client, agent):
    r = ReflectionFactory(agent=agent, created_at=datetime(2026, 3, 1, tzinfo=UTC))

    shown = panel(manager_client, r)
    assert shown["Why"] == (
        "archived: created 2026-03-01 (>90 d), never retrieved "
        "The next decay run makes it archived."
    )
    assert (
        "Due for archiving: decay archives it on 2026-05-31 unless it is retrieved"
        in (shown["Timeline"])
    )


def test_a_deprecated_reflection_shows_who_deprecated_it_when_and_why(manager_client, agent):
    r = ReflectionFactory(agent=agent, state="deprecated", deprecated_reason="wrong rule")
    reviewer = UserFactory(username="rita")
    ReflectionHistoryFactory(
        reflection=r,
        at=datetime(2026, 6, 2, 9, tzinfo=UTC),
        actor=reviewer,
        from_state="active",
        to_state="deprecated",
        reason="verdict: wrong rule",
    )

    shown = panel(manager_client, r)
    assert shown["Why"] == (
        "Deprecated on 2026-06-02 by rita: verdict: wrong rule. Only a person restores it; "
        "decay never does."
    )
    assert shown["Retention"] == "Not ranked: deprecated reflections are outside retention"
    assert "Will be archived" not in shown["Timeline"]


def test_a_quarantined_reflection_is_awaiting_an_admin(client, agent):
    r = ReflectionFactory(agent=agent, state="quarantined")
    client.force_login(UserFactory(roles=["admin"]))

    assert panel(client, r)["Why"].startswith("Quarantined by the scan: awaiting an admin")


def test_the_retention_position_matches_the_retention_policy(manager_client, agent):
    written = [
        ReflectionFactory(
            agent=agent, created_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=k)
        )
        for k in range(32)
    ]
    ReflectionFactory(agent=agent, state="deprecated", created_at=datetime(2026, 6, 1, tzinfo=UTC))
    ranking = retention_candidates(as_of=TODAY.date())[agent.pk]

    newest, oldest = written[-1], written[0]
    assert ranking.retained[0] == newest.pk and ranking.candidates[-1] == oldest.pk
    assert panel(manager_client, newest)["Retention"] == "#1 of 30 retained for finance-agent"
    assert panel(manager_client, written[2])["Retention"] == "#30 of 30 retained for finance-agent"
    assert panel(manager_client, oldest)["Retention"] == (
        "#32: archive candidate (only the newest 30 of finance-agent's are retained)"
    )


def test_an_agent_with_few_reflections_retains_all_of_them(manager_client, agent):
    first, _second = (
        ReflectionFactory(agent=agent, created_at=datetime(2026, 11, day, tzinfo=UTC))
        for day in (1, 2)
    )
    assert panel(manager_client, first)["Retention"] == "#2 of 2 retained for finance-agent"


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"salience": 0.82, "salience_computed": 0.1}, "0.82 imported"),
        (
            {"salience_computed": 0.375},
            "0.38 computed: percentile of retrievals per day in its department",
        ),
        ({"created_at": datetime(2026, 11, 10, tzinfo=UTC)}, "Not yet: under 14 days old"),
        (
            {"created_at": datetime(2026, 10, 1, tzinfo=UTC)},
            "Not computed yet: the next policy run computes it",
        ),
    ],
)
def test_salience_says_where_it_comes_from(manager_client, agent, fields, expected):
    r = ReflectionFactory(agent=agent, **fields)
    assert panel(manager_client, r)["Salience"] == expected


# --------------------------------------------------------------------------- scan findings

SECRET = "AKIAQ7RZK2X4PLMN3VWB"


def findings_table(client, reflection) -> list[list[str]]:
    response = client.get(reverse("reflections:detail", args=[reflection.pk]))
    assert response.status_code == 200
    page = BeautifulSoup(response.content, "html.parser")
    return [
        [" ".join(td.get_text(" ", strip=True).split()) for td in tr.find_all("td")][1:]
        for tr in page.select("#findings tbody tr")
    ]


def finding(reflection, *, rule, category, summary, status="open", **resolution):
    text = reflection.original_text
    start = text.index(SECRET) if SECRET in text else 0
    return ScanFinding.objects.create(
        reflection=reflection,
        content_hash=reflection.content_hash,
        rule=rule,
        category=category,
        start=start,
        end=start + len(SECRET),
        summary=summary,
        detected_at=datetime(2026, 11, 1, 9, tzinfo=UTC),
        status=status,
        **resolution,
    )


def test_a_released_reflection_lists_its_findings_and_how_they_were_resolved(manager_client, agent):
    admin = UserFactory(username="sec-admin", roles=["admin"])
    r = ReflectionFactory(agent=agent, original_text="Deploy with the staging key, see runbook.")
    finding(
        r,
        rule="aws-access-key",
        category="secret",
        summary="AWS access key id (20 characters)",
        status="dismissed",
        resolved_by=admin,
        resolved_at=datetime(2026, 11, 2, 10, tzinfo=UTC),
        resolution_reason="a documented example key",
    )

    assert findings_table(manager_client, r) == [
        [
            "aws-access-key",
            "secret",
            "Dismissed",
            "AWS access key id (20 characters)",
            "Dismissed on 2026-11-02 by sec-admin: a documented example key",
        ]
    ]


def test_a_quarantined_reflection_shows_its_findings_to_an_admin_never_the_value(client, agent):
    r = ReflectionFactory(
        agent=agent, state="quarantined", original_text=f"Use key {SECRET} for the upload."
    )
    finding(r, rule="aws-access-key", category="secret", summary="AWS access key id")
    client.force_login(UserFactory(roles=["admin"]))

    response = client.get(reverse("reflections:detail", args=[r.pk]))

    assert findings_table(client, r) == [
        ["aws-access-key", "secret", "Open", "AWS access key id", "open: awaiting an admin"]
    ]
    assert SECRET not in response.content.decode()


def test_a_reflection_the_scan_found_nothing_in_says_so(manager_client, agent):
    r = ReflectionFactory(agent=agent)

    assert findings_table(manager_client, r) == []
    page = BeautifulSoup(
        manager_client.get(reverse("reflections:detail", args=[r.pk])).content, "html.parser"
    )
    assert page.select_one("#findings .empty-state").get_text(strip=True) == (
        "The scan found nothing unsafe."
    )
