"""POST /api/v1/judgements: a judge's pre-tags arrive the way `import_judgements` brings them."""

from __future__ import annotations

import pytest

from reviews.models import Judgement
from tests.factories import ReflectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def reflections():
    first = ReflectionFactory()
    return first, ReflectionFactory(department=first.department)


def judgement(reflection, **extra) -> dict:
    return {
        "reflection": str(reflection.pk),
        "verdict": "keep",
        "judge": "gpt-judge",
        "confidence": 0.8,
        **extra,
    }


def test_posted_judgements_are_stored_and_posting_them_again_changes_nothing(ingest, reflections):
    first, second = reflections
    body = [
        judgement(first, confidence=0.9),
        judgement(second, verdict="duplicate", duplicate_of=first.source_path, confidence=0.6),
    ]

    answer = ingest.post("/judgements", body)
    again = ingest.post("/judgements", body)

    assert answer.status_code == 200
    assert answer.json() == {"created": 2, "updated": 0, "unchanged": 0}
    assert again.json() == {"created": 0, "updated": 0, "unchanged": 2}
    stored = Judgement.objects.get(reflection=second)
    assert (stored.verdict, stored.duplicate_of_id, stored.judge) == (
        "duplicate",
        first.pk,
        "gpt-judge",
    )


def test_a_bad_record_refuses_the_whole_request_naming_its_position_and_field(ingest, reflections):
    first, _ = reflections
    answer = ingest.post("/judgements", [judgement(first), judgement(first, verdict="maybe")])

    assert answer.status_code == 400
    assert "record 2" in answer.json()["detail"]
    assert "verdict" in answer.json()["detail"]
    assert not Judgement.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [("reflection", "notes/a\x00.md"), ("duplicate_of", "\x00"), ("judge", "gpt\x00judge")],
)
def test_text_a_database_cannot_hold_is_refused_naming_the_record_and_field(
    ingest, reflections, field, value
):
    # Found by the schema fuzzer on PostgreSQL: a NUL in a reflection's path was a 500.
    first, _ = reflections
    extra = {"verdict": "duplicate"} if field == "duplicate_of" else {}
    bad = {**judgement(first), **extra, field: value}
    answer = ingest.post("/judgements", [judgement(first), bad])

    assert answer.status_code == 400
    assert answer.json()["detail"].endswith(f"record 2: {field}: holds a NUL character")
    assert not Judgement.objects.exists()


def test_a_retrieve_token_cannot_post_judgements(runtime, reflections):
    assert runtime.post("/judgements", [judgement(reflections[0])]).status_code == 403
