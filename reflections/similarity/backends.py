"""Similarity backends: what turns reflections' texts into vectors whose dot product says how
alike two lessons are (pure but for reading a model directory).

Three ship, chosen by the SIMILARITY_BACKEND setting (docs/operations.md):

* ``latent``, the default, needs no model files: character n-gram TF-IDF (3-5 letters inside
  word boundaries, so "daily", "day" and "days" share most of their grams, and a tool name
  matches however it is hyphenated) reduced by a latent semantic model (scikit-learn
  ``TruncatedSVD``, 256 dimensions) fitted on the installation's own reflections, so words
  that keep company across its lessons land near each other. Refitted whenever the
  neighbours are recomputed.
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
import os
from collections.abc import Sequence
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
    cluster of rewordings. Chosen on the development corpora (docs/signals.md)."""

    floor: float
    restated: float
    alike_from: float
    alike_full: float
    cluster: float


@dataclass(frozen=True)
class Encoder:
    """A fitted backend: `identity` says which model made a vector (stored beside it, so a
    vector from another model or fit is never compared with this one's)."""

    identity: str
    encode: object  # Callable[[Sequence[str]], np.ndarray | sparse matrix]

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
    calibration: Calibration = Calibration(0.35, 0.5, 0.4, 0.9, 0.6)

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
    calibration: Calibration = Calibration(0.2, 0.4, 0.3, 0.9, 0.8)
    dimensions: int = 256
    # Texts the model is fitted on at most (an even sample of them beyond this); every text
    # is then encoded in chunks.
    fit_sample: int = 20_000
    chunk: int = 5_000

    def fit(self, texts: Sequence[str]) -> Encoder:
        from sklearn.decomposition import TruncatedSVD  # see _rows
        from sklearn.feature_extraction.text import TfidfVectorizer

        texts = list(texts)
        step = max(1, -(-len(texts) // self.fit_sample))
        sample = texts[::step]
        vectorizer = TfidfVectorizer(
            analyzer="char_wb",
            ngram_range=(3, 5),
            sublinear_tf=True,
            min_df=2 if len(sample) > 2 else 1,
            max_features=1 << 18,
            dtype=np.float32,
        )
        try:
            grams = vectorizer.fit_transform(sample)
        except ValueError:  # no text at all
            return Encoder("latent:empty", lambda batch: np.zeros((len(batch), 1), np.float32))
        size = min(self.dimensions, grams.shape[0] - 1, grams.shape[1] - 1)
        if size < 1:
            return Encoder("latent:tiny", lambda batch: _rows(vectorizer.transform(batch)))
        svd = TruncatedSVD(size, algorithm="randomized", n_iter=5, random_state=0).fit(grams)
        digest = hashlib.sha256(svd.components_[: min(4, size)].tobytes()).hexdigest()[:12]

        def encode(batch: list[str]) -> np.ndarray:
            parts = [
                svd.transform(vectorizer.transform(batch[i : i + self.chunk]))
                for i in range(0, len(batch), self.chunk)
            ]
            return _rows(np.vstack(parts) if parts else np.zeros((0, size), np.float32))

        return Encoder(f"latent:{digest}", encode)


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
