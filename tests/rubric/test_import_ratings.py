"""Importing ratings from CSV (all or nothing, idempotent) and exporting them back."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command

from rubric.models import CRITERIA, Rating
from rubric.services.rating_import import import_ratings
from rubric.services.rounds import create_round, submit_rating
from tests.factories import ReflectionFactory, UserFactory
from tests.rubric.rating_support import make_rater, make_rubric

pytestmark = pytest.mark.django_db

HEADER = "rater,reflection,criterion,level,rated_at\n"


@pytest.fixture
def rubric():
    return make_rubric(version=1)


@pytest.fixture
def ana():
    return UserFactory(username="ana", roles=["rater"])


@pytest.fixture
def lesson():
    return ReflectionFactory(source_path="memory/reflections/bot/2026-03-01-check-ledger.md")


def write(tmp_path, text: str, name: str = "ratings.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def four_lines(rater: str, ref: str, when: str = "2026-05-02T10:00:00+02:00") -> str:
    levels = {"specificity": "1", "actionability": "0.75", "transferability": ".5", "accuracy": "0"}
    return "".join(f"{rater},{ref},{c},{levels[c]},{when}\n" for c in CRITERIA)


def stored() -> set[tuple]:
    return set(
        Rating.objects.values_list(
            "rater__username", "reflection__source_path", "criterion", "level", "rated_at"
        )
    )


def test_a_good_file_imports_every_rating(tmp_path, rubric, ana, lesson):
    newer = make_rubric(version=2)
    path = write(tmp_path, HEADER + four_lines("ana", lesson.source_path))
    summary = import_ratings(path=path)
    assert (summary.created, summary.unchanged, summary.rejected) == (4, 0, [])
    assert summary.details["rubric_version"] == 2
    when = datetime(2026, 5, 2, 8, tzinfo=UTC)  # 10:00 at +02:00
    assert stored() == {
        ("ana", lesson.source_path, "specificity", 1.0, when),
        ("ana", lesson.source_path, "actionability", 0.75, when),
        ("ana", lesson.source_path, "transferability", 0.5, when),
        ("ana", lesson.source_path, "accuracy", 0.0, when),
    }
    for rating in Rating.objects.all():
        # The rubric version current at import, not the one current when it was rated.
        assert rating.rubric == newer
        assert rating.source == Rating.Source.IMPORT and rating.assignment is None


def test_a_reflection_may_be_named_by_content_hash(tmp_path, rubric, ana, lesson):
    path = write(tmp_path, HEADER + four_lines("ana", lesson.content_hash))
    assert import_ratings(path=path).created == 4
    assert set(Rating.objects.values_list("reflection_id", flat=True)) == {lesson.pk}


def test_an_ambiguous_content_hash_is_refused(tmp_path, rubric, ana, lesson):
    twin = ReflectionFactory(original_text=lesson.original_text)
    assert twin.content_hash == lesson.content_hash
    summary = import_ratings(path=write(tmp_path, HEADER + four_lines("ana", twin.content_hash)))
    assert summary.created == 0
    assert "matches 2 reflections; name it by source path" in summary.rejected[0].reason


def test_every_bad_field_is_reported_with_its_line_and_nothing_is_written(
    tmp_path, rubric, ana, lesson
):
    ref = lesson.source_path
    text = (
        HEADER
        + f"ana,{ref},specificity,1,2026-05-02T10:00:00Z\n"  # 2: good, yet not written
        + f"nobody,{ref},specificity,1,2026-05-02T10:00:00Z\n"  # 3
        + "ana,memory/none.md,specificity,1,2026-05-02T10:00:00Z\n"  # 4
        + "\n"  # 5: blank lines are skipped, and the numbering stays the file's
        + f"ana,{ref},clarity,1,2026-05-02T10:00:00Z\n"  # 6
        + f"ana,{ref},accuracy,0.3,2026-05-02T10:00:00Z\n"  # 7
        + f"ana,{ref},accuracy,high,2026-05-02T10:00:00Z\n"  # 8
        + f"ana,{ref},accuracy,1,2026-05-02T10:00:00\n"  # 9: no zone
        + f"ana,{ref},accuracy,1,yesterday\n"  # 10
        + f",{ref},accuracy,1,2026-05-02T10:00:00Z\n"  # 11
        + f"ana,{ref},accuracy,1,2099-01-01T00:00:00Z\n"  # 12
        + f"ana,{ref},accuracy\n"  # 13: a short line
    )
    path = write(tmp_path, text)
    summary = import_ratings(path=path)
    assert summary.created == 0 and summary.unchanged == 0
    assert summary.details == {"written": False}
    found = {(r.line, r.reason.split(":")[0]) for r in summary.rejected}
    assert found == {
        (3, "rater"),
        (4, "reflection"),
        (6, "criterion"),
        (7, "level"),
        (8, "level"),
        (9, "rated_at"),
        (10, "rated_at"),
        (11, "rater"),
        (12, "rated_at"),
        (13, "level"),
    }
    assert all(r.path == str(path) for r in summary.rejected)
    reasons = {r.line: r.reason for r in summary.rejected}
    assert "no user named 'nobody'" in reasons[3]
    assert "expected one of specificity, actionability, transferability, accuracy" in reasons[6]
    assert "has no time zone" in reasons[9]
    assert not Rating.objects.exists()


def test_a_missing_column_rejects_the_header(tmp_path, rubric, ana, lesson):
    path = write(tmp_path, "rater,reflection,criterion,level\nana,x,accuracy,1\n")
    summary = import_ratings(path=path)
    assert [(r.line, r.reason) for r in summary.rejected] == [
        (
            1,
            "header: missing column rated_at; expected rater, reflection, criterion, level, "
            "rated_at",
        )
    ]


def test_re_importing_changes_nothing(tmp_path, rubric, ana, lesson):
    path = write(tmp_path, HEADER + four_lines("ana", lesson.source_path))
    import_ratings(path=path)
    before = stored()
    ids = set(Rating.objects.values_list("id", flat=True))
    again = import_ratings(path=path)
    assert (again.created, again.unchanged, again.rejected) == (0, 4, [])
    assert stored() == before and set(Rating.objects.values_list("id", flat=True)) == ids


def test_the_same_rating_at_another_zone_is_the_same_rating(tmp_path, rubric, ana, lesson):
    import_ratings(path=write(tmp_path, HEADER + four_lines("ana", lesson.source_path)))
    utc = four_lines("ana", lesson.source_path, when="2026-05-02T08:00:00Z")
    assert import_ratings(path=write(tmp_path, HEADER + utc, "utc.csv")).unchanged == 4


def test_a_changed_level_for_a_stored_rating_is_refused(tmp_path, rubric, ana, lesson):
    import_ratings(path=write(tmp_path, HEADER + four_lines("ana", lesson.source_path)))
    changed = (HEADER + four_lines("ana", lesson.source_path)).replace("accuracy,0,", "accuracy,1,")
    other = ReflectionFactory()
    changed += four_lines("ana", other.source_path)
    summary = import_ratings(path=write(tmp_path, changed, "changed.csv"))
    assert [(r.line, r.reason.split(":")[0]) for r in summary.rejected] == [(5, "level")]
    assert "ratings are final" in summary.rejected[0].reason
    assert summary.created == 0
    assert not Rating.objects.filter(reflection=other).exists()


def test_contradicting_lines_in_one_file_are_refused(tmp_path, rubric, ana, lesson):
    text = HEADER + four_lines("ana", lesson.source_path)
    text += f"ana,{lesson.source_path},accuracy,1,2026-05-02T10:00:00+02:00\n"
    summary = import_ratings(path=write(tmp_path, text))
    assert [r.line for r in summary.rejected] == [6]
    assert "contradicts line 5" in summary.rejected[0].reason


def test_large_files_are_looked_up_in_chunks(tmp_path, monkeypatch, rubric, ana, lesson):
    monkeypatch.setattr("rubric.services.rating_import.LOOKUP_CHUNK", 2)
    UserFactory(username="ben")
    others = ReflectionFactory.create_batch(4)
    text = HEADER + four_lines("ana", lesson.content_hash)
    text += "".join(four_lines(name, r.source_path) for r in others for name in ("ana", "ben"))
    path = write(tmp_path, text)
    assert import_ratings(path).created == 4 + 4 * 2 * 4
    again = import_ratings(path)
    assert (again.created, again.unchanged, again.rejected) == (0, 36, [])


def test_an_empty_or_binary_file_is_one_rejection(tmp_path, rubric):
    empty = write(tmp_path, "", "empty.csv")
    assert [r.reason for r in import_ratings(path=empty).rejected] == ["the file is empty"]
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\x00\x01rater")
    assert "binary" in import_ratings(path=binary).rejected[0].reason


def test_the_command_prints_a_summary_or_json(tmp_path, rubric, ana, lesson):
    path = write(tmp_path, HEADER + four_lines("ana", lesson.source_path))
    out = io.StringIO()
    call_command("import_ratings", str(path), stdout=out)
    assert "4 created, 0 unchanged (new ones under rubric v1)" in out.getvalue()
    out = io.StringIO()
    call_command("import_ratings", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue()) == {
        "created": 0,
        "updated": 0,
        "unchanged": 4,
        "rejected": [],
        "written": True,
        "rubric_version": 1,
    }


def test_the_command_fails_listing_every_bad_line(tmp_path, rubric, ana, lesson):
    text = HEADER + "ana,nowhere.md,accuracy,1,2026-05-02T10:00:00Z\nbob,x,accuracy,1,x\n"
    path = write(tmp_path, text)
    out = io.StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_ratings", str(path), stdout=out)
    assert f"{path}:2: reflection: unknown reflection 'nowhere.md'" in out.getvalue()
    assert f"{path}:3: rater: no user named 'bob'" in out.getvalue()


# --------------------------------------------------------------------------- export


@pytest.fixture
def rated(rubric, lesson):
    """One round's ratings by three raters plus imported ones from a rater named like a formula."""
    raters = [make_rater(name) for name in ("ana", "ben", "cy")]
    rating_round = create_round(name="Q3", size=1, raters=raters, seed=1)
    for n, rater in enumerate(raters):
        assignment = rating_round.items.get().assignments.get(rater=rater)
        submit_rating(
            assignment=assignment,
            user=rater,
            levels=dict.fromkeys(CRITERIA, [0, 0.5, 1][n]),
            comment="",
            now=datetime(2026, 6, 1, 9, n, 30, 123456, tzinfo=UTC),
        )
    UserFactory(username="=cmd")
    ReflectionFactory(source_path="-memory/odd.md")
    imported = HEADER + "".join(
        f"=cmd,-memory/odd.md,{c},0.25,2026-04-01T00:00:00Z\n" for c in CRITERIA
    )
    return rating_round, imported


def export(*args) -> list[list[str]]:
    out = io.StringIO()
    call_command("export_ratings", *args, stdout=out)
    return list(csv.reader(io.StringIO(out.getvalue())))


def test_export_round_trips_through_import(tmp_path, rated):
    _, imported = rated
    import_ratings(path=write(tmp_path, imported, "imported.csv"))
    before = stored()
    assert len(before) == 16
    out = tmp_path / "export.csv"
    call_command("export_ratings", "--out", str(out), stderr=io.StringIO())
    Rating.objects.all().delete()
    summary = import_ratings(path=out)
    assert (summary.created, summary.rejected) == (16, [])
    # Times to the second: the CSV carries seconds, as the import expects.
    assert stored() == {(*row[:4], row[4].replace(microsecond=0)) for row in before}


def test_export_cells_are_safe_in_a_spreadsheet(tmp_path, rated):
    _, imported = rated
    import_ratings(path=write(tmp_path, imported, "imported.csv"))
    rows = export("--since", "2026-04-01")
    assert rows[0] == ["rater", "reflection", "criterion", "level", "rated_at"]
    formula_rows = [r for r in rows[1:] if "odd.md" in r[1]]
    assert len(formula_rows) == 4
    for row in formula_rows:
        assert row[0] == "'=cmd" and row[1] == "'-memory/odd.md"
        assert row[3] == "0.25" and row[4] == "2026-04-01T00:00:00Z"


def test_export_filters_by_round_and_date(tmp_path, rated):
    rating_round, imported = rated
    import_ratings(path=write(tmp_path, imported, "imported.csv"))
    in_round = export("--round", str(rating_round.pk))
    assert len(in_round) == 1 + 12
    assert {r[0] for r in in_round[1:]} == {"ana", "ben", "cy"}
    assert {r[3] for r in in_round[1:]} == {"0", "0.5", "1"}
    assert len(export("--since", "2026-05-01")) == 1 + 12
    assert len(export("--since", "2026-06-02")) == 1
    with pytest.raises(CommandError, match="no rating round with id 999"):
        export("--round", "999")
    with pytest.raises(CommandError, match="not a date"):
        export("--since", "June")
