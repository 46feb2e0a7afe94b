"""What people type goes through the scanner and its masking before it is stored, as imported
text does (issue 30): a secret typed into a verdict note, a restore note, an unsure note, a
comment, a rubric's note or a token's name never reaches a page, an export or a command."""

from __future__ import annotations

import pytest

from api.services.tokens import create_token
from reflections.models import Comment
from reflections.scanning import typed
from reviews.models import Decision
from reviews.services.item_discussion import mark_unsure
from reviews.services.restore import restore_reflection
from reviews.services.verdicts import decide
from rubric.services.rubric import current_rubric, ensure_rubric, publish_rubric, rubric_spec
from tests.factories import UserFactory
from tests.reviews.test_verdicts import item, make_cycle

pytestmark = pytest.mark.django_db

TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5"
TYPED = f"  the staging key is {TOKEN}, mail jane.doe@globex.com  "
MASKED = "the staging key is [REDACTED:secret], mail [REDACTED:personal]"


def test_typed_text_is_stripped_and_masked_like_imported_text():
    assert typed(TYPED) == MASKED
    assert typed("  nothing to hide ") == "nothing to hide"
    assert typed(None) == ""


def test_a_verdict_note_is_stored_masked_and_so_is_its_audit_row():
    cycle, ana = make_cycle()
    first = item(cycle, 1)

    decide(item_id=first.pk, user=ana, verdict="echo_chamber", version=0, note=TYPED)

    first.refresh_from_db()
    assert first.note == MASKED
    assert Decision.objects.get(item=first).note == MASKED
    assert MASKED in first.reflection.history.latest("pk").reason


def test_a_restore_note_is_stored_masked():
    cycle, ana = make_cycle()
    first = item(cycle, 1)
    decide(item_id=first.pk, user=ana, verdict="outdated", version=0)
    admin = UserFactory(roles=["admin"])

    restore_reflection(reflection_id=first.reflection_id, user=admin, note=TYPED)

    first.refresh_from_db()
    assert first.restore_note == MASKED
    assert MASKED in first.reflection.history.latest("pk").reason


def test_an_unsure_note_and_the_comment_it_opens_are_stored_masked():
    cycle, ana = make_cycle()
    first = item(cycle, 1)

    mark_unsure(item_id=first.pk, user=ana, version=0, note=TYPED)

    assert Decision.objects.get(item=first).note == MASKED
    assert Comment.objects.get().body == MASKED


def test_a_rubric_versions_note_and_a_tokens_name_are_stored_masked():
    ensure_rubric()
    admin = UserFactory(roles=["admin"])

    publish_rubric(spec=rubric_spec(current_rubric()), user=admin, note=TYPED)
    token, _ = create_token(name=f"ci {TOKEN}", scope="ingest", user=admin)

    assert current_rubric().note == MASKED
    assert token.name == "ci [REDACTED:secret]"
