"""Similarity backends: what turns reflections' texts into vectors whose dot product says how
alike two lessons are (pure but for reading a model directory).

Three ship, chosen by the SIMILARITY_BACKEND setting (docs/operations.md):

* ``latent``, the default, needs no model files: character n-gram TF-IDF (3-5 letters inside
  word boundaries, so "daily", "day" and "days" share most of their grams, and a tool name
  matches however it is hyphenated) reduced by a latent semantic model (scikit-learn
  ``TruncatedSVD``, 256 dimensions) fitted on the installation's own reflections, so words
  that keep company across its lessons land near each other. The fit is kept (LatentModel,
  stored beside the vectors): a few new texts are folded into it, and it is refitted when
  the texts outside it pass a tenth of those in it (`refit_due`).
* ``embedding``: a sentence-embedding model read from a local directory (EMBEDDING_MODEL_DIR,
  a static model2vec model); never downloaded at run time. Its vectors depend on nothing but
  the text, so they are computed on import and kept per reflection version.
* ``word``: word TF-IDF (unigrams and bigrams, stop words out), fitted per department: the
  earlier product's similarity, kept as the baseline the others are measured against
  (bench/signals.py). Its vectors are sparse and not stored.

Every backend returns L2-normalised rows (float32, or a sparse matrix for ``word``).
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np


class BackendError(Exception):
    """The configured backend cannot be used (a missing model directory or file)."""


@dataclass(frozen=True)
class Calibration:
    """What a backend's cosines mean (each model has its own scale): neighbours at or above
    `floor` are stored; two of one author's lessons at `restated` or more say the same thing
    (the echo signal); a duplicate candidate's likeness counts from `alike_from` and is full
    at `alike_full` (the duplicate signal); neighbours at `cluster` or more form the queue's
    cluster of rewordings. Chosen on the development corpora (docs/signals.md).

    `background`: how alike two unrelated lessons of one department may be for those cuts to
    hold; a department whose lessons are more alike than that on average (one model's
    template, a fit the department barely shaped) has its neighbours found in a fit of its
    own texts instead (reflections.similarity.background). None: never."""

    floor: float
    restated: float
    alike_from: float
    alike_full: float
    cluster: float
    background: float | None = None
    # A later pass at one problem of a Reflexion run at `repeats` or more restates an earlier
    # one (reflections.selectors.runs); None: not measured for this backend.
    repeats: float | None = None


@dataclass(frozen=True)
class Encoder:
    """A fitted backend: `identity` says which model made a vector (stored beside it, so a
    vector from another model or fit is never compared with this one's)."""

    identity: str
    encode: object  # Callable[[Sequence[str]], np.ndarray | sparse matrix]
    model: LatentModel | None = None  # what can be stored to encode more texts later

    def __call__(self, texts: Sequence[str]):
        return self.encode(list(texts))


# ------------------------------------------------------------------ word (baseline)


@dataclass(frozen=True)
class WordBackend:
    name: str = "word"
    per_department: bool = True  # fitted on one department's texts at a time
    stored: bool = False
    cached: bool = False
    # The earlier product's thresholds: neighbours from 0.35, restatements from 0.5,
    # duplicate candidates from 0.4, verbatim at 0.9.
    # repeats 0.45: chosen like the latent backend's, on the LeetCode run's readers' labels.
    calibration: Calibration = Calibration(0.35, 0.5, 0.4, 0.9, 0.6, repeats=0.45)

    def fit(self, texts: Sequence[str]) -> Encoder:
        from sklearn.feature_extraction.text import TfidfVectorizer  # see _rows
        from sklearn.preprocessing import normalize

        vectorizer = TfidfVectorizer(
            sublinear_tf=True,
            stop_words="english",
            ngram_range=(1, 2),
            dtype=np.float32,
        )
        try:
            vectorizer.fit(texts)
        except ValueError:  # nothing but stop words: every vector is empty
            return Encoder("word", lambda batch: np.zeros((len(batch), 1), np.float32))
        return Encoder("word", lambda batch: normalize(vectorizer.transform(batch)))


# ------------------------------------------------------------------ latent (default)


@dataclass(frozen=True)
class LatentBackend:
    name: str = "latent"
    per_department: bool = False  # one fit on the whole installation's reflections
    stored: bool = True
    cached: bool = False  # a new fit gives every reflection a new vector
    # background 0.3: the development corpora's departments sit at 0.08-0.22; repeats 0.7:
    # the LeetCode run's repetition rate as its readers marked it (docs/signals.md).
    calibration: Calibration = Calibration(0.2, 0.4, 0.3, 0.9, 0.8, background=0.3, repeats=0.7)
    dimensions: int = 256
    # Texts the model is fitted on at most (an even sample of them beyond this); every text
    # is then encoded in chunks.
    fit_sample: int = 20_000
    chunk: int = 5_000

    # A department's texts folded into a fit and changed since it, at most this share of its
    # texts the fit was made from; past it the next refresh refits (autovacuum's analyze
    # scale factor is the model: a tenth). A text folded in is encoded with the fit's
    # vocabulary and axes, so its new words count only through the letter groups they share
    # with the fitted texts: good enough for a department's next few lessons (the newest
    # tenth of the demo's, folded: 0.90 of their ten nearest as a refit finds them, against
    # 0.96 between two refits), not for a department the fit never saw (0.63: two real
    # Reflexion runs' departments folded into the demo's fit). docs/signals.md.
    refit_share: float = 0.1

    def refit_due(self, *, fitted: Mapping[str, int], outside: Mapping[str, int]) -> bool:
        """Whether any department's texts outside the fit (`outside`: folded in before or
        waiting now) are too many for its texts in the fit (`fitted`) to stand for them.
        Keys are departments."""
        return any(n > self.refit_share * fitted.get(key, 0) for key, n in outside.items() if n)

    def fit(self, texts: Sequence[str]) -> Encoder:
        from sklearn.decomposition import TruncatedSVD  # see _rows
        from sklearn.feature_extraction.text import TfidfVectorizer

        texts = list(texts)
        step = max(1, -(-len(texts) // self.fit_sample))
        sample = texts[::step]
        vectorizer = TfidfVectorizer(**LatentModel.GRAMS, min_df=2 if len(sample) > 2 else 1)
        try:
            grams = vectorizer.fit_transform(sample)
        except ValueError:  # no text at all
            return Encoder("latent:empty", lambda batch: np.zeros((len(batch), 1), np.float32))
        size = min(self.dimensions, grams.shape[0] - 1, grams.shape[1] - 1)
        if size < 1:
            return Encoder("latent:tiny", lambda batch: _rows(vectorizer.transform(batch)))
        svd = TruncatedSVD(size, algorithm="randomized", n_iter=5, random_state=0).fit(grams)
        vocabulary = vectorizer.vocabulary_
        model = LatentModel(
            grams=np.array(sorted(vocabulary, key=vocabulary.__getitem__)),
            idf=vectorizer.idf_.astype(np.float32),
            # Kept at the precision the vectors are stored at (ReflectionVector.pack), so a
            # text encoded now and one folded in later by the stored fit get the same vector.
            components=svd.components_.astype(np.float16),
        )
        return model.encoder(chunk=self.chunk)


@dataclass(frozen=True, eq=False)
class LatentModel:
    """A latent fit as data: the letter groups (in column order), their IDF weights and the
    latent axes. Encoding a text with it is what the fitted TfidfVectorizer and TruncatedSVD
    would do, so it can be stored (`dumps`, NumPy arrays only: loading runs no code) and a
    later process folds new texts into the same space."""

    GRAMS = {  # the vectorizer's settings, one place for fitting and encoding
        "analyzer": "char_wb",
        "ngram_range": (3, 5),
        "sublinear_tf": True,
        "max_features": 1 << 18,
        "dtype": np.float32,
    }

    grams: np.ndarray
    idf: np.ndarray
    components: np.ndarray  # float16, one row per axis

    @property
    def identity(self) -> str:
        rows = self.components[: min(4, len(self.components))]
        return f"latent:{hashlib.sha256(rows.tobytes()).hexdigest()[:12]}"

    def encoder(self, *, chunk: int = 5_000) -> Encoder:
        from sklearn.feature_extraction.text import CountVectorizer  # see _rows
        from sklearn.preprocessing import normalize

        counted = {k: v for k, v in self.GRAMS.items() if k in ("analyzer", "ngram_range", "dtype")}
        counter = CountVectorizer(
            **counted, vocabulary={gram: i for i, gram in enumerate(self.grams.tolist())}
        )
        axes = self.components.astype(np.float32).T

        def encode(batch: list[str]) -> np.ndarray:
            parts = []
            for start in range(0, len(batch), chunk):
                counts = counter.transform(batch[start : start + chunk])
                counts.data = (np.log(counts.data) + 1) * self.idf[counts.indices]
                parts.append(normalize(counts) @ axes)
            return _rows(np.vstack(parts) if parts else np.zeros((0, axes.shape[1]), np.float32))

        return Encoder(self.identity, encode, model=self)

    def dumps(self) -> bytes:
        buffer = io.BytesIO()
        np.savez(
            buffer,
            grams=self.grams,
            idf=self.idf,
            components=self.components,
        )
        return buffer.getvalue()

    @classmethod
    def loads(cls, data: bytes) -> LatentModel:
        with np.load(io.BytesIO(bytes(data)), allow_pickle=False) as arrays:
            return cls(
                grams=arrays["grams"],
                idf=arrays["idf"],
                components=arrays["components"],
            )


def _rows(matrix) -> np.ndarray:
    """Dense float32 rows of unit length (an all-zero row stays zero).

    scikit-learn is imported where a model is fitted, not with this module: importing it
    takes seconds and ~120 MiB, and every process that imports reflections (the web workers,
    the API) would pay it though only the neighbour computation fits models."""
    from sklearn.preprocessing import normalize

    dense = matrix.toarray() if hasattr(matrix, "toarray") else np.asarray(matrix)
    return normalize(dense.astype(np.float32, copy=False))


# ------------------------------------------------------------------ embedding (optional)

# What a static model2vec model directory holds.
MODEL_FILES = ("config.json", "model.safetensors", "tokenizer.json")


@dataclass(frozen=True)
class EmbeddingBackend:
    directory: Path
    name: str = "embedding"
    per_department: bool = False
    stored: bool = True
    cached: bool = True  # a text's vector never changes: kept per reflection version
    calibration: Calibration = Calibration(0.4, 0.7, 0.6, 0.95, 0.85)
    batch: int = 1_024

    def check(self) -> None:
        """Raise BackendError naming what is missing from the model directory."""
        if not self.directory.is_dir():
            raise BackendError(f"EMBEDDING_MODEL_DIR {self.directory} is not a directory")
        missing = [name for name in MODEL_FILES if not (self.directory / name).is_file()]
        if missing:
            raise BackendError(
                f"EMBEDDING_MODEL_DIR {self.directory} has no {', '.join(missing)} "
                "(a static model2vec model: see docs/operations.md)"
            )

    @property
    def identity(self) -> str:
        self.check()
        return _model_identity(str(self.directory))

    def fit(self, texts: Sequence[str] = ()) -> Encoder:
        self.check()
        model = _load_model(str(self.directory))

        def encode(batch: list[str]) -> np.ndarray:
            if not batch:
                return np.zeros((0, 1), np.float32)
            return _rows(model.encode(batch, batch_size=self.batch, show_progress_bar=False))

        return Encoder(self.identity, encode)


@functools.cache
def _model_identity(directory: str) -> str:
    digest = hashlib.sha256()
    for name in MODEL_FILES:
        digest.update((Path(directory) / name).read_bytes())
    return f"embedding:{digest.hexdigest()[:12]}"


@functools.cache
def _load_model(directory: str):
    # Never a download: the model is a local directory, and the hub is told so.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from model2vec import StaticModel  # optional dependency, heavy: loaded on first use

    return StaticModel.from_pretrained(directory)


# ------------------------------------------------------------------ choosing

NAMES = ("latent", "embedding", "word")


def backend_named(name: str, *, model_dir: str | os.PathLike = ""):
    if name == "latent":
        return LatentBackend()
    if name == "word":
        return WordBackend()
    if name == "embedding":
        if not model_dir:
            raise BackendError("the embedding backend needs EMBEDDING_MODEL_DIR")
        return EmbeddingBackend(Path(model_dir))
    raise BackendError(f"no similarity backend {name!r}; choose one of {', '.join(NAMES)}")


def configured_backend():
    """The backend the settings name (SIMILARITY_BACKEND, EMBEDDING_MODEL_DIR)."""
    from django.conf import settings

    return backend_named(settings.SIMILARITY_BACKEND, model_dir=settings.EMBEDDING_MODEL_DIR)
