"""The similarity backends through their real loading code (reflections/similarity/backends.py,
reflections/services/vectors.py): the latent model fitted on the installation's texts, an
embedding model read from a local directory (a tiny one built here), vectors kept per
reflection version."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from reflections.models import ReflectionVector, State
from reflections.services.reflection_import import import_reflections
from reflections.services.vectors import encode_stale
from reflections.similarity import nearest_neighbours
from reflections.similarity.backends import (
    BackendError,
    EmbeddingBackend,
    LatentBackend,
    LatentModel,
    WordBackend,
    backend_named,
)

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)

# A department's lessons: one told twice in different words, the rest on the same task type
# with other rules (what makes a duplicate hard to see).
LESSONS = [
    "Ran the clickstream history as 180 single-date jobs; schedule one job per calendar day.",
    "A quarter-long history load died near the end: cut long loads into daily slices.",
    "Check row counts between staging and the warehouse before the swap.",
    "Pin every dbt package to an exact release before upgrading.",
    "Rehearse a migration on copied metadata, never on the live catalogue.",
    "Ask the owner before dropping a column anyone still selects.",
    "Backfills run at night so the day's dashboards stay fresh.",
    "Give every pipeline an owner on call before it goes live.",
]


def test_the_latent_backend_fits_on_the_installations_texts_and_gives_unit_vectors():
    encoder = LatentBackend().fit(LESSONS)
    vectors = encoder(LESSONS)
    assert vectors.shape[0] == len(LESSONS)
    assert vectors.shape[1] <= LatentBackend().dimensions
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert encoder.identity.startswith("latent:")
    assert LatentBackend().fit(LESSONS).identity == encoder.identity  # the same fit, the same id


def test_a_stored_latent_fit_encodes_as_the_fitted_vectorizer_and_svd_do():
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    encoder = LatentBackend().fit(LESSONS)
    stored = LatentModel.loads(encoder.model.dumps()).encoder()
    others = ["Count the rows twice before the swap.", "An unseen word: zyxwvut."]

    assert stored.identity == encoder.identity
    assert np.array_equal(stored(LESSONS + others), encoder(LESSONS + others))
    # The same as scikit-learn's own pipeline (up to the float16 the axes are kept at).
    grams = TfidfVectorizer(**LatentModel.GRAMS, min_df=2).fit(LESSONS)
    svd = TruncatedSVD(len(LESSONS) - 1, random_state=0).fit(grams.transform(LESSONS))
    reference = svd.transform(grams.transform(LESSONS + others))
    reference /= np.linalg.norm(reference, axis=1, keepdims=True)
    assert np.allclose(np.abs((reference * encoder(LESSONS + others)).sum(axis=1)), 1, atol=1e-3)


def test_a_stored_latent_fit_is_read_as_arrays_only(tmp_path):
    buffer = io.BytesIO()
    np.savez(buffer, grams=np.array([{"code": "runs on load"}], dtype=object))
    with pytest.raises(ValueError, match="allow_pickle"):
        LatentModel.loads(buffer.getvalue())


def test_the_latent_backend_refits_once_a_departments_texts_outside_its_fit_pass_a_tenth():
    backend = LatentBackend()
    fitted = {"ops": 1_000, "sales": 30}
    assert not backend.refit_due(fitted=fitted, outside={"ops": 100, "sales": 3})
    assert backend.refit_due(fitted=fitted, outside={"ops": 101})
    assert backend.refit_due(fitted=fitted, outside={"sales": 4})
    assert backend.refit_due(fitted=fitted, outside={"legal": 1})  # a department it never saw
    assert not backend.refit_due(fitted=fitted, outside={"legal": 0})


def test_character_grams_see_a_lesson_retold_in_other_words_that_word_tfidf_misses():
    ids = list(range(len(LESSONS)))
    latent = LatentBackend().fit(LESSONS)(LESSONS)
    word = WordBackend().fit(LESSONS)(LESSONS)
    by_latent = nearest_neighbours(ids, latent, k=1)[0]
    by_word = nearest_neighbours(ids, word, k=1, threshold=0.0)[0]
    assert by_latent[0].id == 1
    assert by_latent[0].similarity > next((s.similarity for s in by_word if s.id == 1), 0.0)


def tiny_model(directory: Path) -> Path:
    """A static model2vec model of eleven words: "day", "daily" and "slice" point one way,
    "count" and "row" another, everything else a third."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    words = [
        "[UNK]",
        "[PAD]",
        "day",
        "daily",
        "slices",
        "job",
        "count",
        "row",
        "counts",
        "dbt",
        "pin",
    ]
    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    axes = {"day": 0, "daily": 0, "slices": 0, "job": 0, "count": 1, "row": 1, "counts": 1}
    vectors = np.full((len(words), 3), 0.01, dtype=np.float32)
    for i, word in enumerate(words):
        vectors[i, axes.get(word, 2)] = 1.0
    StaticModel(vectors=vectors, tokenizer=tokenizer, normalize=True).save_pretrained(
        str(directory)
    )
    return directory


def test_an_embedding_model_is_read_from_its_local_directory(tmp_path):
    backend = backend_named("embedding", model_dir=tiny_model(tmp_path / "model"))
    assert isinstance(backend, EmbeddingBackend)
    encoder = backend.fit()
    day, slices, rows = encoder(["one job per day", "daily slices", "row counts"])
    assert day @ slices > 0.9
    assert day @ rows < 0.2
    assert encoder.identity == backend.identity
    assert encoder.identity.startswith("embedding:")


def test_a_model_directory_that_lacks_a_file_says_which(tmp_path):
    directory = tiny_model(tmp_path / "model")
    (directory / "tokenizer.json").unlink()
    with pytest.raises(BackendError, match=r"has no tokenizer\.json"):
        EmbeddingBackend(directory).fit()
    with pytest.raises(BackendError, match="is not a directory"):
        EmbeddingBackend(tmp_path / "nowhere").fit()
    with pytest.raises(BackendError, match="needs EMBEDDING_MODEL_DIR"):
        backend_named("embedding")
    with pytest.raises(BackendError, match="no similarity backend 'bert'"):
        backend_named("bert")


def write_lesson(ws: Path, name: str, rule: str) -> Path:
    path = ws / "memory" / "reflexions" / "2026-05" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "---\ntask_type: etl\noutcome: failure\ndepartment: data\nagent: etl-runner\n---\n"
        f"## What happened?\nThe load failed.\n\n## Why?\nToo big.\n\n"
        f"## What rule should I remember?\n{rule}\n"
    )
    return path


@pytest.mark.django_db
class TestVectorsOnImport:
    @pytest.fixture(autouse=True)
    def embedding(self, settings, tmp_path):
        settings.EMBEDDING_MODEL_DIR = str(tiny_model(tmp_path / "model"))
        settings.SIMILARITY_BACKEND = "embedding"

    def test_an_import_computes_each_new_reflections_vector(self, tmp_path):
        write_lesson(tmp_path / "ws", "01-a", "One job per day.")
        write_lesson(tmp_path / "ws", "02-b", "Row counts first.")

        import_reflections(paths=[tmp_path / "ws"], now=NOW, create_departments=True)

        stored = ReflectionVector.objects.all()
        assert stored.count() == 2
        assert {v.backend for v in stored} == {EmbeddingBackend(tmp_path / "model").identity}

    def test_unchanged_text_keeps_its_vector_and_changed_text_gets_a_new_one(self, tmp_path):
        path = write_lesson(tmp_path / "ws", "01-a", "One job per day.")
        write_lesson(tmp_path / "ws", "02-b", "Row counts first.")
        import_reflections(paths=[tmp_path / "ws"], now=NOW, create_departments=True)
        before = dict(ReflectionVector.objects.values_list("reflection_id", "computed_at"))

        import_reflections(paths=[tmp_path / "ws"], now=NOW, create_departments=True)
        assert dict(ReflectionVector.objects.values_list("reflection_id", "computed_at")) == before

        path.write_text(path.read_text().replace("One job per day.", "Row counts, daily."))
        import_reflections(paths=[tmp_path / "ws"], now=NOW, create_departments=True)
        after = dict(ReflectionVector.objects.values_list("reflection_id", "computed_at"))
        changed = [pk for pk in after if after[pk] != before[pk]]
        assert len(changed) == 1

    def test_a_quarantined_reflection_has_no_vector(self, tmp_path):
        write_lesson(tmp_path / "ws", "01-a", "One job per day.")
        import_reflections(paths=[tmp_path / "ws"], now=NOW, create_departments=True)
        vector = ReflectionVector.objects.get()
        vector.reflection.state = State.QUARANTINED
        vector.reflection.save()

        refresh = encode_stale(EmbeddingBackend(tmp_path / "model").fit())

        assert refresh.encoded == 0
        assert not ReflectionVector.objects.exists()


@pytest.mark.django_db
def test_compute_neighbours_names_a_missing_model_directory(settings, tmp_path):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from tests.factories import ReflectionFactory

    ReflectionFactory()
    settings.SIMILARITY_BACKEND = "embedding"
    settings.EMBEDDING_MODEL_DIR = str(tmp_path / "nowhere")
    with pytest.raises(CommandError, match="is not a directory"):
        call_command("compute_neighbours")
