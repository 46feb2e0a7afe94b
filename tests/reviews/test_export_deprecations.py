"""The deprecation export: its rows, CSV safe to open in a spreadsheet, who may download what,
and the cycle filter, through the pages and the command."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from reflections.models import State
from reflexion_site.downloads import spreadsheet_safe
from reviews.models import ReviewCycle, ReviewItem
from reviews.selectors.export import EXPORT_FIELDS
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory

pytestmark = pytest.mark.django_db

CSV_URL = reverse("deprecations:csv")
JSON_URL = reverse("deprecations:json")


# --------------------------------------------------------------------------- helpers


def make_cycle(department, quarter: str) -> ReviewCycle:
    return ReviewCycle.objects.create(
        department=department,
        quarter=quarter,
        window_start=datetime(2026, 4, 1, tzinfo=UTC),
        window_end=datetime(2026, 7, 1, tzinfo=UTC),
        opened_at=datetime(2026, 7, 1, tzinfo=UTC),
    )


def reflection_in(department, name: str, **kwargs):
    agent = AgentFactory(name=f"{department.slug}-agent", department=department)
    return ReflectionFactory(
        agent=agent, source_path=f"memory/reflections/{agent.name}/{name}.md", **kwargs
    )


def decide(cycle, reflection, verdict, *, reviewer, note="", duplicate_of=None, decided_at=None):
    """An item as the review service leaves it after a verdict."""
    if verdict != "keep":
        reflection.state, reflection.deprecated_reason = State.DEPRECATED, verdict
        reflection.save(update_fields=["state", "deprecated_reason"])
    return ReviewItem.objects.create(
        cycle=cycle,
        rank=cycle.items.count() + 1,
        reflection=reflection,
        retrievals=5,
        last_retrieved_at=datetime(2026, 6, 30, tzinfo=UTC),
        reviewer=reviewer,
        verdict=verdict,
        duplicate_of=duplicate_of,
        note=note,
        decided_at=decided_at or datetime(2026, 7, 3, 14, 5, 9, tzinfo=UTC),
        decided_by=reviewer,
    )


def csv_rows(response) -> list[dict]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    reader = csv.DictReader(io.StringIO(response.content.decode("utf-8")))
    assert tuple(reader.fieldnames) == EXPORT_FIELDS
    return list(reader)


def signed_in(client, *roles, departments=()):
    user = UserFactory(roles=roles, departments=departments)
    client.force_login(user)
    return client


@pytest.fixture
def finance():
    return DepartmentFactory(slug="finance", name="Finance")


@pytest.fixture
def rita():
    return UserFactory(username="rita", roles=["reviewer"])


@pytest.fixture
def data(sales, finance, rita):
    """Sales Q2: an echo chamber and a duplicate; a kept one. Finance Q2: outdated. Sales Q1:
    outdated. Plus a deprecation since quarantined."""
    sales_q1, sales_q2 = make_cycle(sales, "2026Q1"), make_cycle(sales, "2026Q2")
    finance_q2 = make_cycle(finance, "2026Q2")
    original = reflection_in(sales, "2026-03-01-lead-with-value", title="Lead with value")
    decide(sales_q2, original, "keep", reviewer=rita)
    decide(
        sales_q2,
        reflection_in(sales, "2026-03-02-echo", title="Always discount"),
        "echo_chamber",
        reviewer=rita,
        note="Repeats its own lesson",
    )
    decide(
        sales_q2,
        reflection_in(sales, "2026-03-03-copy", title="Lead with value again"),
        "duplicate",
        reviewer=rita,
        duplicate_of=original,
    )
    decide(
        finance_q2,
        reflection_in(finance, "2026-03-04-old-api", title="Use the v1 ledger API"),
        "outdated",
        reviewer=rita,
    )
    decide(
        sales_q1,
        reflection_in(sales, "2026-01-05-old", title="Old sales tool"),
        "outdated",
        reviewer=rita,
    )
    quarantined = reflection_in(sales, "2026-03-06-leak", title="Token lesson")
    decide(sales_q2, quarantined, "outdated", reviewer=rita)
    quarantined.state = State.QUARANTINED
    quarantined.save(update_fields=["state"])
    return {"sales_q1": sales_q1, "sales_q2": sales_q2, "finance_q2": finance_q2}


# --------------------------------------------------------------------------- content


def test_the_csv_has_one_row_per_current_deprecation_with_every_field(client, data):
    signed_in(client, "manager")

    rows = csv_rows(client.get(CSV_URL))

    assert [(r["department"], r["cycle"], r["title"]) for r in rows] == [
        ("finance", "2026Q2", "Use the v1 ledger API"),
        ("sales", "2026Q1", "Old sales tool"),
        ("sales", "2026Q2", "Always discount"),
        ("sales", "2026Q2", "Lead with value again"),
    ]
    duplicate = rows[3]
    assert duplicate == {
        "source_path": "memory/reflections/sales-agent/2026-03-03-copy.md",
        "title": "Lead with value again",
        "department": "sales",
        "verdict": "duplicate",
        "duplicate_of": "memory/reflections/sales-agent/2026-03-01-lead-with-value.md",
        "note": "",
        "reviewer": "rita",
        "decided_at": "2026-07-03T14:05:09Z",
        "cycle": "2026Q2",
    }
    assert rows[2]["note"] == "Repeats its own lesson"
    assert rows[2]["verdict"] == "echo_chamber"


def test_the_json_holds_the_same_rows_as_the_csv(client, data):
    signed_in(client, "manager")

    from_json = client.get(JSON_URL).json()
    from_csv = csv_rows(client.get(CSV_URL))

    assert from_json == from_csv


def test_quarantined_kept_and_undone_reflections_never_appear(client, data, sales, rita):
    undone = decide(
        data["sales_q2"],
        reflection_in(sales, "2026-03-07-undone", title="Undone"),
        "outdated",
        reviewer=rita,
    )
    undone.verdict, undone.decided_at = "", None
    undone.save()
    undone.reflection.state = State.ACTIVE
    undone.reflection.save(update_fields=["state"])
    signed_in(client, "admin")

    titles = {r["title"] for r in client.get(JSON_URL).json()}

    assert titles == {
        "Use the v1 ledger API",
        "Old sales tool",
        "Always discount",
        "Lead with value again",
    }


@pytest.mark.parametrize("start", ["=", "+", "-", "@"])
def test_cells_a_spreadsheet_would_run_as_formulas_are_quoted(client, sales, rita, start):
    cycle = make_cycle(sales, "2026Q2")
    payload = f'{start}HYPERLINK("http://example.test/x","click")'
    decide(
        cycle,
        reflection_in(sales, "2026-03-08-formula", title=f"{start}1+2 lesson"),
        "outdated",
        reviewer=rita,
        note=payload,
    )
    signed_in(client, "manager")

    [row] = csv_rows(client.get(CSV_URL))
    [raw] = client.get(JSON_URL).json()

    assert row["note"] == "'" + payload
    assert row["title"] == f"'{start}1+2 lesson"
    # JSON is data, not a spreadsheet: it keeps the text as written.
    assert raw["note"] == payload


def test_notes_with_line_breaks_and_quotes_stay_one_cell(client, sales, rita):
    cycle = make_cycle(sales, "2026Q2")
    note = 'First line, with "quotes"\nsecond line'
    decide(cycle, reflection_in(sales, "2026-03-09-note"), "outdated", reviewer=rita, note=note)
    signed_in(client, "manager")

    [row] = csv_rows(client.get(CSV_URL))

    assert row["note"] == note


def test_personal_data_in_a_note_is_masked(client, sales, rita):
    cycle = make_cycle(sales, "2026Q2")
    note = "same lesson as the one alice.smith@brightwell-gmbh.de wrote"
    decide(cycle, reflection_in(sales, "2026-03-10-pii"), "outdated", reviewer=rita, note=note)
    signed_in(client, "manager")

    [row] = client.get(JSON_URL).json()

    assert "alice.smith@brightwell-gmbh.de" not in row["note"]
    assert row["note"].startswith("same lesson as the one [REDACTED:")


def test_spreadsheet_safe_leaves_ordinary_text_alone():
    assert spreadsheet_safe("memory/reflections/a.md") == "memory/reflections/a.md"
    assert spreadsheet_safe("2026-07-03T14:05:09Z") == "2026-07-03T14:05:09Z"
    assert spreadsheet_safe("\t=1") == "'\t=1"
    assert spreadsheet_safe(None) == ""


# --------------------------------------------------------------------------- access


@pytest.mark.parametrize("url", [CSV_URL, JSON_URL])
def test_anonymous_people_are_sent_to_sign_in(client, data, url):
    response = client.get(url)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("roles", [(), ("rater",)], ids=["no role", "rater"])
@pytest.mark.parametrize("url", [CSV_URL, JSON_URL])
def test_raters_and_people_without_a_role_are_refused(client, data, roles, url, finance):
    signed_in(client, *roles, departments=[finance])

    response = client.get(url)

    assert response.status_code == 403
    assert b"ledger" not in response.content


def test_a_reviewer_sees_only_the_departments_they_belong_to(client, data, finance):
    signed_in(client, "reviewer", departments=[finance])

    rows = client.get(JSON_URL).json()

    assert [(r["department"], r["title"]) for r in rows] == [("finance", "Use the v1 ledger API")]


def test_a_reviewer_cannot_name_another_departments_cycle(client, data, finance):
    signed_in(client, "reviewer", departments=[finance])

    response = client.get(CSV_URL, {"cycle": data["sales_q2"].pk})

    assert response.status_code == 404
    assert b"Always discount" not in response.content


@pytest.mark.parametrize("role", ["manager", "admin"])
def test_managers_and_admins_see_every_department(client, data, role):
    signed_in(client, role)

    departments = {r["department"] for r in client.get(JSON_URL).json()}

    assert departments == {"sales", "finance"}


def test_a_superuser_counts_as_admin(client, data):
    client.force_login(UserFactory(is_superuser=True))

    assert len(client.get(JSON_URL).json()) == 4


# --------------------------------------------------------------------------- cycle filter


def test_the_cycle_filter_keeps_one_cycle_and_names_the_file_after_it(client, data):
    signed_in(client, "manager")

    response = client.get(CSV_URL, {"cycle": data["sales_q1"].pk})

    assert [r["title"] for r in csv_rows(response)] == ["Old sales tool"]
    assert response["Content-Disposition"] == (
        'attachment; filename="deprecations-sales-2026Q1.csv"'
    )


@pytest.mark.parametrize("cycle", ["abc", "999999", ""])
def test_an_unknown_cycle_is_not_found(client, data, cycle):
    signed_in(client, "manager")

    assert client.get(JSON_URL, {"cycle": cycle}).status_code == 404


# --------------------------------------------------------------------------- the command


def test_the_command_writes_csv_to_stdout_and_json_to_a_file(data, tmp_path, capsys):
    out = tmp_path / "deprecations.json"

    call_command("export_deprecations", "--cycle", str(data["sales_q2"].pk))
    printed = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    call_command("export_deprecations", "--format", "json", "--out", str(out))
    written = json.loads(out.read_text(encoding="utf-8"))

    assert [r["title"] for r in printed] == ["Always discount", "Lead with value again"]
    assert len(written) == 4
    assert {r["department"] for r in written} == {"sales", "finance"}


def test_the_command_rejects_an_unknown_cycle(data):
    with pytest.raises(CommandError, match="no review cycle with id 999999"):
        call_command("export_deprecations", "--cycle", "999999")
