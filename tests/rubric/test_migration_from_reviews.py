"""A database made when the rubric lived in the reviews app keeps every row when it migrates:
the models move app, their content types move with them, the tables take the rubric's names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("reviews", "0002_rubric_and_ratings"),
    ("reflections", "0009_injection_count"),
    ("rubric", None),  # the app did not exist yet
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


@pytest.mark.django_db(transaction=True)
def test_ratings_made_under_reviews_survive_the_move_to_rubric():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        ratings_survive(latest)
    finally:
        migrate(latest)  # whatever happened, the next test finds the current schema


def ratings_survive(latest):
    old = migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="rita")
    department = old.get_model("reflections", "Department").objects.create(slug="s", name="S")
    reflection = old.get_model("reflections", "Reflection").objects.create(
        source_path="memory/reflexions/2026-05/01-x.md",
        format="frontmatter_md",
        content_hash="0" * 64,
        original_text="x",
        department=department,
        kind="failure",
        created_at=datetime(2026, 5, 1, tzinfo=UTC),
        title="x",
    )
    rubric = old.get_model("reviews", "Rubric").objects.create(
        version=1, created_at=datetime(2026, 5, 1, tzinfo=UTC)
    )
    old.get_model("reviews", "Rating").objects.create(
        rater=user,
        reflection=reflection,
        criterion="accuracy",
        level=0.75,
        rubric=rubric,
        rated_at=datetime(2026, 5, 2, tzinfo=UTC),
        source="import",
    )
    content_type = old.get_model("contenttypes", "ContentType")
    rating_type = content_type.objects.get_or_create(app_label="reviews", model="rating")[0]

    new = migrate(latest)

    rating = new.get_model("rubric", "Rating").objects.get()
    assert (rating.rater_id, rating.reflection_id, rating.level) == (user.pk, reflection.pk, 0.75)
    assert new.get_model("rubric", "Rubric").objects.get().version == 1
    assert "rubric_rating" in connection.introspection.table_names()
    assert "reviews_rating" not in connection.introspection.table_names()
    moved = new.get_model("contenttypes", "ContentType").objects.get(pk=rating_type.pk)
    assert (moved.app_label, moved.model) == ("rubric", "rating")
