"""A judge's pre-tags: import (CSV, JSONL; errors name file, line and field; all or nothing;
idempotent), shown in the queue but never selected, and measured against people: Cohen's κ
equal to scikit-learn's, the confusion matrix checked by hand, accuracy by confidence band."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from bs4 import BeautifulSoup
from django.core.management import CommandError, call_command
from django.urls import reverse
from sklearn.metrics import cohen_kappa_score

from reviews.models import Judgement
from reviews.selectors.judges import judge_agreement
from reviews.services.judgements import JudgementError, import_judgements
from reviews.services.verdicts import decide
from tests.reviews.together_support import client_for, make_world

pytestmark = pytest.mark.django_db

# (judge's verdict, people's final verdict, judge's confidence) for ranks 1 to 10.
PAIRS = [
    ("keep", "keep", 0.95),
    ("keep", "keep", 0.92),
    ("keep", "echo_chamber", 0.55),
    ("echo_chamber", "echo_chamber", 0.85),
    ("echo_chamber", "echo_chamber", 0.81),
    ("outdated", "outdated", 0.72),
    ("outdated", "keep", 0.45),
    ("duplicate", "duplicate", 0.99),
    ("duplicate", "duplicate", 1.0),
    ("keep", "outdated", 0.30),
]


@pytest.fixture
def world():
    return make_world(10, one_reviewer=True)


def judged(world, *, judge="gpt-judge") -> None:
    cycle, original = world["cycle"], world["original"]
    records = []
    for rank, (mine, people, confidence) in enumerate(PAIRS, start=1):
        item = cycle.items.select_related("reflection").get(rank=rank)
        decide(
            item_id=item.pk,
            user=world["ana"],
            verdict=people,
            version=item.version,
            duplicate_of=original.pk if people == "duplicate" else None,
            confirmed=True,  # the original is retrieved less: the guard would ask
        )
        ref = item.reflection.source_path if rank % 2 else str(item.reflection_id)
        records.append(
            {
                "reflection": ref,
                "verdict": mine,
                "duplicate_of": str(original.pk) if mine == "duplicate" else "",
                "confidence": confidence,
                "judge": judge,
            }
        )
    import_judgements(records, source="test")


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


class TestAgreement:
    def test_kappa_equals_scikit_learns_and_the_hand_computed_value(self, world):
        judged(world)
        result = judge_agreement(judge="gpt-judge")
        judge, people = [j for j, _, _ in PAIRS], [p for _, p, _ in PAIRS]
        assert result.items == 10
        assert result.kappa == pytest.approx(cohen_kappa_score(judge, people))
        # By hand: observed 7/10; expected (4·3 + 2·3 + 2·2 + 2·2)/100 = 0.26.
        assert result.kappa == pytest.approx((0.7 - 0.26) / (1 - 0.26))

    def test_the_confusion_matrix_counted_by_hand(self, world):
        judged(world)
        # rows: judge keep, echo, outdated, duplicate; columns: people in the same order
        assert judge_agreement(judge="gpt-judge").matrix() == [
            [2, 1, 1, 0],
            [0, 2, 0, 0],
            [1, 0, 1, 0],
            [0, 0, 0, 2],
        ]

    def test_accuracy_by_confidence_band(self, world):
        judged(world)
        bands = [(b.label, b.items, b.agreed) for b in judge_agreement(judge="gpt-judge").bands()]
        assert bands == [
            ("[0.0, 0.5)", 2, 0),
            ("[0.5, 0.7)", 1, 0),
            ("[0.7, 0.8)", 1, 1),
            ("[0.8, 0.9)", 2, 2),
            ("[0.9, 1.0]", 4, 4),
        ]

    def test_items_without_a_verdict_are_not_counted(self, world):
        judged(world)
        from reviews.services.verdicts import undo

        first = world["cycle"].items.get(rank=1)
        undo(item_id=first.pk, user=world["ana"], version=first.version)
        assert judge_agreement(judge="gpt-judge").items == 9

    def test_the_command_prints_the_same_as_json(self, world):
        judged(world)
        out = StringIO()
        call_command(
            "agreement", judge="gpt-judge", cycle_id=world["cycle"].pk, as_json=True, stdout=out
        )
        data = json.loads(out.getvalue())
        judge, people = [j for j, _, _ in PAIRS], [p for _, p, _ in PAIRS]
        assert data["kappa"] == pytest.approx(cohen_kappa_score(judge, people))
        assert data["confusion_matrix"]["cells"][0] == [2, 1, 1, 0]
        assert data["cycle"] == world["cycle"].pk
        assert [b["items"] for b in data["bands"]] == [2, 1, 1, 2, 4]

    def test_the_command_in_text_names_kappa_and_the_bands(self, world):
        judged(world)
        out = StringIO()
        call_command("agreement", judge="gpt-judge", stdout=out)
        text = out.getvalue()
        assert "Cohen's κ (nominal, 4 verdicts) = 0.595" in text
        assert "[0.9, 1.0]" in text

    def test_an_unknown_judge_or_cycle_is_an_error(self, world):
        judged(world)
        with pytest.raises(CommandError, match="no judgements by 'nobody'"):
            call_command("agreement", judge="nobody")
        with pytest.raises(CommandError, match="no review cycle 999"):
            call_command("agreement", judge="gpt-judge", cycle_id=999)

    def test_the_rater_agreement_still_runs_without_judge(self, world):
        out = StringIO()
        call_command("agreement", as_json=True, stdout=out)
        assert "judge" not in json.loads(out.getvalue())

    def test_the_judge_vs_people_page(self, world):
        judged(world)
        page = BeautifulSoup(
            client_for(world["mara"]).get(reverse("reviews:judges")).content, "html.parser"
        )
        assert page.select_one("#judge-kappa").get_text(strip=True) == "0.59"  # κ: two decimals
        first_row = [td.get_text(strip=True) for td in page.select("#confusion tbody tr")[0]("td")]
        assert first_row == ["2", "1", "1", "0"]

    def test_reviewers_may_not_open_the_judge_page(self, world):
        assert client_for(world["ana"]).get(reverse("reviews:judges")).status_code == 403


class TestImport:
    def test_a_jsonl_file_imports_and_again_changes_nothing(self, world, tmp_path):
        reflection = world["reflections"][0]
        path = write_jsonl(
            tmp_path / "judge.jsonl",
            [
                {
                    "reflection": reflection.source_path,
                    "verdict": "keep",
                    "confidence": 0.9,
                    "judge": "j1",
                }
            ],
        )
        out = StringIO()
        call_command("import_judgements", str(path), stdout=out)
        assert "1 new, 0 changed, 0 unchanged" in out.getvalue()
        call_command("import_judgements", str(path), stdout=out)
        assert "0 new, 0 changed, 1 unchanged" in out.getvalue()
        assert Judgement.objects.count() == 1

    def test_a_csv_file_imports(self, world, tmp_path):
        first, second = world["reflections"][:2]
        path = tmp_path / "judge.csv"
        path.write_text(
            "reflection,verdict,duplicate_of,confidence,judge\n"
            f"{first.pk},outdated,,0.7,j1\n"
            f"{second.source_path},duplicate,{world['original'].pk},0.6,j1\n"
        )
        call_command("import_judgements", str(path), stdout=StringIO())
        assert sorted(Judgement.objects.values_list("verdict", flat=True)) == [
            "duplicate",
            "outdated",
        ]

    @pytest.mark.parametrize(
        ("row", "message"),
        [
            ("{pk},maybe,,0.5,j1", "judge.csv, line 3: verdict: 'maybe' is not one of"),
            ("{pk},keep,,1.5,j1", "judge.csv, line 3: confidence: 1.5 is not between 0 and 1"),
            ("{pk},keep,,high,j1", "judge.csv, line 3: confidence: 'high' is not a number"),
            ("999999,keep,,0.5,j1", "judge.csv, line 3: reflection: no reflection '999999'"),
            ("{pk},keep,,0.5,", "judge.csv, line 3: judge: missing"),
            ("{pk},keep,{pk},0.5,j1", "judge.csv, line 3: duplicate_of: given for a keep verdict"),
        ],
    )
    def test_a_bad_line_names_file_line_and_field_and_imports_nothing(
        self, world, tmp_path, row, message
    ):
        first, second = world["reflections"][:2]
        path = tmp_path / "judge.csv"
        path.write_text(
            "reflection,verdict,duplicate_of,confidence,judge\n"
            f"{first.pk},keep,,0.9,j1\n" + row.format(pk=second.pk) + "\n"
        )
        with pytest.raises(CommandError) as raised:
            call_command("import_judgements", str(path), stdout=StringIO())
        assert message in str(raised.value)
        assert "nothing imported" in str(raised.value)
        assert Judgement.objects.count() == 0

    def test_bad_json_names_the_line(self, world, tmp_path):
        path = tmp_path / "judge.jsonl"
        path.write_text('{"reflection": "1"}\n{not json\n')
        with pytest.raises(CommandError, match=r"judge\.jsonl, line 2: not JSON"):
            call_command("import_judgements", str(path), stdout=StringIO())

    def test_the_same_reflection_twice_for_one_judge_is_refused(self, world):
        pk = str(world["reflections"][0].pk)
        record = {"reflection": pk, "verdict": "keep", "confidence": 0.5, "judge": "j"}
        with pytest.raises(JudgementError, match="api, line 2: reflection: judged by j already"):
            import_judgements([record, record], source="api")

    def test_a_changed_suggestion_is_updated(self, world):
        pk = str(world["reflections"][0].pk)
        import_judgements(
            [{"reflection": pk, "verdict": "keep", "confidence": 0.5, "judge": "j"}], source="a"
        )
        counts = import_judgements(
            [{"reflection": pk, "verdict": "outdated", "confidence": 0.8, "judge": "j"}], source="b"
        )
        assert (counts.created, counts.updated) == (0, 1)
        assert Judgement.objects.get().verdict == "outdated"


class TestQueue:
    def test_the_queue_shows_the_suggestion_and_never_selects_it(self, world):
        first = world["cycle"].items.select_related("reflection").get(rank=1)
        import_judgements(
            [{"reflection": str(first.reflection_id), "verdict": "duplicate",
              "duplicate_of": str(world["original"].pk), "confidence": 0.81, "judge": "j1"}],
            source="t",
        )  # fmt: skip
        url = reverse("reviews:item", args=[world["cycle"].pk, 1])
        page = BeautifulSoup(client_for(world["ana"]).get(url).content, "html.parser")
        panel = page.select_one(".judge-suggestion").get_text(" ", strip=True)
        assert "j1" in panel and "Duplicate" in panel and "confidence 81 %" in panel
        assert "The original lesson" in panel
        assert page.select("#queue-item input:checked") == []
