"""What the duplicate signal's false positives are: planted truth against what the demo
generator itself rendered (issue 12, analysis aid; nothing here is read by the product).

Usage (after `bench/signals.py --seed N --work DIR`, which leaves DIR/seedN.sqlite3 with its
review cycles and DIR/wsN):
    .venv/bin/python bench/duplicate_truth.py --seed 7 --work DIR

It runs the generator again with the same seed (same bytes, so the same reflections) to learn,
for every reflection, which library lesson it rendered, for which task text (the case: the
client, the month, the figures of the task) and with which slot values. A *natural textual
duplicate* is an unplanted reflection with the same department, lesson, qualifier and task
text as an earlier unplanted one, where no slot value that both texts show differs: nothing
in the text tells the two cases apart. Every item of every cycle is then scored
(reviews.signals) and the flagged ones are split into planted duplicates, natural textual
duplicates and the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def generated(seed: int) -> dict[str, dict]:
    """source path → lesson, qualifier, task text and slot values, as the generator drew them."""
    from demo.scales import DEFAULT_START, SCALES
    from demo.workspace.generator import Generator

    gen = Generator(Path(tempfile.mkdtemp()), SCALES["default"], seed, DEFAULT_START, None)
    gen.run()
    out = {}
    for refl in gen.refls:
        r = random.Random(refl.rseed)  # the draws _render made: slots, then the task
        slots = gen._slots(refl.dept, refl.tt, gen.start + timedelta(days=refl.day), r)
        task = gen._task_text(refl.tt, slots, r)
        entry = refl.entry
        out[refl.ref] = {
            "case": (refl.dept.name, entry.code, entry.mode, entry.title, refl.qual, task),
            "day": refl.day,
            "planted": refl.planted,
            "slots": {k: str(v).strip("`") for k, v in slots.items() if k != "unit"},
        }
    return out


def shown(slots: dict[str, str], text: str) -> dict[str, str]:
    return {
        k: v for k, v in slots.items() if re.search(r"(?<![\w,])" + re.escape(v) + r"(?!\w)", text)
    }


def natural_duplicates(gen: dict[str, dict], texts: dict[str, str]) -> dict[str, str]:
    groups: dict[tuple, list[str]] = defaultdict(list)
    for ref, info in sorted(gen.items(), key=lambda kv: kv[1]["day"]):
        if not info["planted"] and ref in texts:
            groups[info["case"]].append(ref)
    found = {}
    for refs in groups.values():
        seen = [shown(gen[r]["slots"], texts[r]) for r in refs]
        for i in range(1, len(refs)):
            for j in range(i):
                both = seen[i].keys() & seen[j].keys()
                if all(seen[i][k] == seen[j][k] for k in both):
                    found[refs[i]] = refs[j]
                    break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--work", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{args.work / f'seed{args.seed}.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from reflections.models import Reflection
    from reviews.models import ReviewCycle
    from reviews.signals import cycle_signals

    planted = json.loads((args.work / f"ws{args.seed}" / "planted.json").read_text("utf-8"))
    dups = {d["path"] for d in planted["duplicates"]}
    texts = {
        path: f"{title}\n{body}"
        for path, title, body in Reflection.objects.values_list("source_path", "title", "body")
    }
    gen = generated(args.seed)
    natural = natural_duplicates(gen, texts)
    print(f"seed {args.seed}: {len(gen)} reflections, {len(dups)} planted duplicates, "
          f"{len(natural)} natural textual duplicates")  # fmt: skip
    counts: Counter = Counter()
    for cycle in ReviewCycle.objects.order_by("department__slug", "window_end"):
        for row in cycle_signals(cycle):
            path = row.item.reflection.source_path
            kind = "planted" if path in dups else "natural" if path in natural else "other"
            counts[(kind, row.duplicate.flagged)] += 1
    print(f"{'items':<10} {'flagged':>8} {'not':>6}")
    for kind in ("planted", "natural", "other"):
        print(f"{kind:<10} {counts[(kind, True)]:>8} {counts[(kind, False)]:>6}")


if __name__ == "__main__":
    main()
