"""What the scanner catches on the corpora, per category and per rule, as Markdown tables.

    .venv/bin/python bench/scan_corpus.py > /tmp/scan.md

Each record of tests/fixtures/scan_corpus is written as the reflection file an agent would
write and run through the importer's parser and scanner (tests/scan_corpus.py). Per corpus:
unsafe records detected and fully masked, clean records flagged. Per rule: the unsafe records
it fired on in the dev corpora and in the held-out one, and the clean ones (false positives).
docs/scanning.md carries the output.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ("dev-a", "dev-b", "dev-c", "round3", "heldout")


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    import django

    django.setup()
    from reflections.scanning.rules import RULES
    from tests.scan_corpus import UNSAFE_CATEGORIES, evaluate, load, measure

    print("| corpus | " + " | ".join(UNSAFE_CATEGORIES) + " | false positives |")
    print("|---|" + "---|" * (len(UNSAFE_CATEGORIES) + 1))
    for corpus in CORPORA:
        report = evaluate(corpus)
        cells = [
            f"{report.hidden[c]}/{report.total[c]} ({report.hidden[c] / report.total[c]:.0%})"
            for c in UNSAFE_CATEGORIES
        ]
        print(
            f"| {corpus} | "
            + " | ".join(cells)
            + f" | {len(report.false_positives)}/{report.clean} |"
        )
    print()
    hits = {"dev": Counter(), "heldout": Counter(), "clean": Counter()}
    for corpus in CORPORA:
        group = "heldout" if corpus == "heldout" else "dev"
        for record in load(corpus, "unsafe"):
            hits[group].update(measure(record).rules)
        for record in load(corpus, "clean"):
            hits["clean"].update(measure(record).rules)
    print("| rule | unsafe records, dev | unsafe records, held-out | clean records flagged |")
    print("|---|---|---|---|")
    for rule in sorted(RULES, key=lambda r: (-hits["dev"][r] - hits["heldout"][r], r)):
        print(
            f"| `{rule}` | {hits['dev'][rule]} | {hits['heldout'][rule]} | {hits['clean'][rule]} |"
        )


if __name__ == "__main__":
    main()
