"""How far any similarity cut could take the duplicate signal, on a corpus with truth.

Usage:
    .venv/bin/python bench/duplicate_ceiling.py [--seed 23] [--corpus DIR] [--run DIR@READER]
        [--backend word --backend latent] [--sentence-model DIR --sentence-python PY]
        [--work DIR]

bench/signals.py measures the shipped duplicate signal: its score, its cut. This measures the
evidence under it. Each reflection's score here is the highest cosine to an earlier reflection
of its department, by one similarity measure; a planted duplicate (not the one to keep) is a
positive, every other reflection a negative. Printed per corpus and measure: the AUC of that
score, and, at the best cut for each corpus chosen by looking at its truth (an oracle no
product has), the best F1 with its precision and recall, the precision at recall 0.8 or more
and the recall at precision 0.8 or more; then how often the earlier reflection it is closest to
is one of its own group. A measure whose oracle figures stay under 0.8 cannot give a flag that
meets 0.8 / 0.8 by any cut, weight or calibration on top of it.

Measures: each `--backend` of the product, fitted as compute_neighbours fits it (word TF-IDF
per department; latent on the whole installation, a department too alike in it refitted on its
own texts); and, with `--sentence-model`, a sentence-transformers model read from that local
directory by the interpreter `--sentence-python` (one that has sentence-transformers installed:
the project does not depend on it, and nothing is downloaded), the peer a stronger,
contextual model would be. The corpora are imported as bench/signals.py imports them (the same
work directory can be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

import numpy as np
from signal_corpora import corpus_name, imported, setup_django, truth_of

ENCODE = """
import json, sys, numpy as np
from sentence_transformers import SentenceTransformer
texts = json.load(open(sys.argv[2]))
model = SentenceTransformer(sys.argv[1], device="cpu", local_files_only=True)
np.save(sys.argv[3], model.encode(texts, batch_size=32, normalize_embeddings=True))
"""


# ------------------------------------------------------------------ child: the texts


def texts_of(db: Path) -> list[dict]:
    """Every reflection's department, creation time, source path and compared text."""
    setup_django(db)
    from reflections.models import Reflection
    from reflections.similarity.text import document_text

    return [
        {
            "path": r.source_path,
            "department": r.department_id,
            "order": [r.created_at.isoformat(), r.id],
            "text": document_text(title=r.title, sections=r.sections, body=r.body),
        }
        for r in Reflection.objects.order_by("id")
    ]


def backend_vectors(rows: list[dict], name: str) -> dict[int, np.ndarray]:
    """Per department, its reflections' unit vectors as compute_neighbours would find them."""
    from reflections.services.neighbours import department_vectors
    from reflections.similarity.backends import backend_named

    backend = backend_named(name)
    texts = [r["text"] for r in rows]
    installation = None if backend.per_department else backend.fit(texts)(texts)
    found = {}
    for department in sorted({r["department"] for r in rows}):
        at = [i for i, r in enumerate(rows) if r["department"] == department]
        own = [texts[i] for i in at]
        if installation is None:
            vectors = backend.fit(own)(own)
        else:
            vectors, _ = department_vectors(backend, own, installation[at])
        dense = vectors.toarray() if hasattr(vectors, "toarray") else np.asarray(vectors)
        found[department] = dense.astype(np.float32)
    return found


# ------------------------------------------------------------------ scoring


def closest_earlier(rows: list[dict], vectors: dict[int, np.ndarray]) -> list[tuple[float, int]]:
    """Per reflection: its highest cosine to an earlier one of its department, and that one."""
    found: list[tuple[float, int]] = [(-1.0, -1)] * len(rows)
    for department, matrix in vectors.items():
        at = [i for i, r in enumerate(rows) if r["department"] == department]
        order = sorted(range(len(at)), key=lambda a: tuple(rows[at[a]]["order"]))
        ordered = matrix[order]
        similarity = ordered @ ordered.T
        earlier = np.tril(np.ones_like(similarity, dtype=bool), k=-1)
        similarity = np.where(earlier, similarity, -np.inf)
        best = similarity.argmax(axis=1)
        for a in range(1, len(order)):  # the first has nothing earlier
            found[at[order[a]]] = (float(similarity[a, best[a]]), at[order[best[a]]])
    return found


def ceiling(rows: list[dict], closest: list[tuple[float, int]], truth) -> dict:
    from sklearn.metrics import precision_recall_curve, roc_auc_score

    labels = np.array([r["path"] in truth.duplicates for r in rows])
    scores = np.array([s for s, _ in closest])
    precision, recall, _ = precision_recall_curve(labels, scores)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-9)
    best = int(np.argmax(f1))
    group = {p: truth.duplicates.get(p) or p for p in (r["path"] for r in rows)}
    partner = sum(
        group[rows[j]["path"]] == group[r["path"]]
        for r, (_, j) in zip(rows, closest, strict=True)
        if r["path"] in truth.duplicates and j >= 0
    )
    return {
        "auc": float(roc_auc_score(labels, scores)),
        "f1": float(f1[best]),
        "precision": float(precision[best]),
        "recall": float(recall[best]),
        "p_at_r": float(precision[recall >= 0.8].max()),
        "r_at_p": float(recall[precision >= 0.8].max()) if (precision >= 0.8).any() else 0.0,
        "partner": f"{partner}/{int(labels.sum())}",
        "reflections": len(rows),
    }


def sentence_vectors(rows, model: Path, python: str, work: Path) -> dict[int, np.ndarray]:
    texts, out = work / "ceiling-texts.json", work / "ceiling-vectors.npy"
    texts.write_text(json.dumps([r["text"] for r in rows]))
    subprocess.run([python, "-c", ENCODE, str(model), str(texts), str(out)], check=True,
                   capture_output=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})  # fmt: skip
    matrix = np.load(out)
    departments = np.array([r["department"] for r in rows])
    return {d: matrix[departments == d] for d in sorted(set(departments.tolist()))}


def child(corpus: str, workspace: Path, db: Path, args) -> None:
    rows = texts_of(db)
    truth = truth_of(corpus, workspace)
    measures = {name: backend_vectors(rows, name) for name in args.backend}
    if args.sentence_model:
        named = [p.name for p in (args.sentence_model, *args.sentence_model.parents)]
        label = "sentence:" + next((n for n in named if n not in ("model", "")), "model")
        measures[label] = sentence_vectors(rows, args.sentence_model, args.sentence_python,
                                           db.parent)  # fmt: skip
    results = {name: ceiling(rows, closest_earlier(rows, v), truth) for name, v in measures.items()}
    print(json.dumps(results))


# ------------------------------------------------------------------ parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, action="append", default=[])
    parser.add_argument("--corpus", action="append", default=[], help="DIR with truth.json")
    parser.add_argument("--run", action="append", default=[], help="DIR@READER, a real run")
    parser.add_argument("--backend", action="append", help="default: word and latent")
    parser.add_argument("--sentence-model", type=Path, help="a local sentence-transformers dir")
    parser.add_argument("--sentence-python", default=sys.executable)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--workspace", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.backend = args.backend or ["word", "latent"]
    if args.child:
        child(args.child, args.workspace, args.db, args)
        return
    corpora = [f"demo-{s}" for s in args.seed] + [str(Path(c).resolve()) for c in args.corpus]
    for run in args.run:
        folder, _, reader = run.rpartition("@")
        corpora.append(f"run:{Path(folder).resolve()}@{reader}")
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-ceiling-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"duplicate ceiling, {datetime.now():%Y-%m-%d %H:%M}, work directory {work}")
    print("the best any cut on each measure could do, the cut chosen by looking at the truth")
    print(
        f"{'corpus':<22} {'measure':<24} {'AUC':>5} {'F1':>5} {'P':>5} {'R':>5} "
        f"{'P@R.8':>6} {'R@P.8':>6} {'closest in group':>17}"
    )
    for corpus in corpora:
        workspace, db = imported(corpus, work, "default")
        command = [sys.executable, __file__, "--child", corpus, "--workspace", str(workspace),
                   "--db", str(db), "--sentence-python", args.sentence_python]  # fmt: skip
        for name in args.backend:
            command += ["--backend", name]
        if args.sentence_model:
            command += ["--sentence-model", str(args.sentence_model.resolve())]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        for name, r in json.loads(out.strip().splitlines()[-1]).items():
            print(
                f"{corpus_name(corpus)[:22]:<22} {name[:24]:<24} {r['auc']:5.2f} {r['f1']:5.2f} "
                f"{r['precision']:5.2f} {r['recall']:5.2f} {r['p_at_r']:6.2f} {r['r_at_p']:6.2f} "
                f"{r['partner']:>17}"
            )


if __name__ == "__main__":
    main()
