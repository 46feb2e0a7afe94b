"""The demo raters' model: each reflection's true level per criterion, and what a rater gives.

The demo's ratings (demo.ratings, DOMAIN §6) come from this deterministic model, so the quality
pages and the agreement page show the reference study's shapes on the demo (see
`latent_quality` and `rater_level`):

* every reflection has a latent "true quality" per criterion, from its features:
  base 0.53; technical task types +0.28, judgment-like ones -0.17 (task families as in
  rubric.selectors.quality); a task that met the trigger gate +0.14, one that did not
  -0.28; the text's concreteness — the calibration heuristic's level for the criterion
  (demo.calibration.heuristic_gold) — moves it by 0.4 x (level - 0.6); a text
  under 40 words -0.05; plus an idiosyncratic ±0.06 per reflection and criterion; clamped
  to 0…1 and rounded to the nearest level;
* a rater gives that level, or one level up or down with the rater's probabilities: rater-a
  and rater-d even-handed, rater-b lenient (up more often), rater-c strict (down more often),
  rater-e a little noisier; transferability is the hardest criterion to agree on and
  actionability the easiest (so per-criterion κ ranks as in the reference study); on their
  calibration attempt (gold as the true level) they slip six times as often;
* every draw is a hash of (source path, rater, criterion): the same reflection gets the same
  level from the same rater on every machine and in every run, whatever the database ids.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from demo.calibration import heuristic_gold
from reflections.models import Reflection
from rubric.models import CRITERIA, LEVELS
from rubric.selectors.gate import GATED, UNGATED, UNKNOWN
from rubric.selectors.quality import JUDGMENT, TECHNICAL, task_families, task_family

RATERS = ("rater-a", "rater-b", "rater-c", "rater-d", "rater-e")

BASE = 0.53
FAMILY_EFFECT = {TECHNICAL: 0.28, JUDGMENT: -0.17}
GATE_EFFECT = {GATED: 0.14, UNGATED: -0.28, UNKNOWN: 0.0}
TEXT_WEIGHT = 0.4
TEXT_CENTRE = 0.6
SHORT_WORDS, SHORT_EFFECT = 40, -0.05
IDIOSYNCRATIC = 0.06


@dataclass(frozen=True)
class RaterProfile:
    up: float  # probability of rating one level above the true level
    down: float  # … and one below


PROFILES = {
    "rater-a": RaterProfile(up=0.035, down=0.035),
    "rater-b": RaterProfile(up=0.10, down=0.014),  # lenient
    "rater-c": RaterProfile(up=0.014, down=0.10),  # strict
    "rater-d": RaterProfile(up=0.04, down=0.04),
    "rater-e": RaterProfile(up=0.0575, down=0.0575),
}
# How much harder a criterion is to agree on than the average (multiplies up and down).
CRITERION_NOISE = {
    "specificity": 0.9,
    "actionability": 0.6,
    "transferability": 1.15,
    "accuracy": 1.7,
}
# A rater's first, blind pass over the calibration set (before gold and anchors taught them)
# slips this many times as often as their later ratings: pooled quadratic-weighted κ against
# gold lands around 0.8 (0.78 to 0.88 on the demo), a pass at the default 0.6 with room to
# learn.
CALIBRATION_SLIPS = 6.0
MAX_SLIP = 0.4  # never more likely up (or down) than this


def draw(*parts: object) -> float:
    """A uniform number in [0, 1) fixed by its parts."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()
    return int(digest[:13], 16) / 16**13


def nearest_level(score: float) -> float:
    return min(LEVELS, key=lambda level: (abs(level - score), level))


@dataclass(frozen=True)
class Features:
    path: str
    family: str
    gate: str
    words: int
    text_levels: dict[str, float]


def features_of(reflections: list[Reflection], gates: dict[int, str]) -> dict[int, Features]:
    families = task_families()
    return {
        r.pk: Features(
            path=r.source_path,
            family=task_family(r.task_type, families),
            gate=gates.get(r.pk, UNKNOWN),
            words=len((r.body or "").split()),
            text_levels=heuristic_gold(r),
        )
        for r in reflections
    }


def latent_quality(f: Features) -> dict[str, float]:
    """The reflection's true level per criterion (the model in the module docstring)."""
    out = {}
    for criterion in CRITERIA:
        score = BASE + FAMILY_EFFECT.get(f.family, 0.0) + GATE_EFFECT[f.gate]
        score += TEXT_WEIGHT * (f.text_levels[criterion] - TEXT_CENTRE)
        if f.words < SHORT_WORDS:
            score += SHORT_EFFECT
        score += IDIOSYNCRATIC * (2 * draw(f.path, criterion, "item") - 1)
        out[criterion] = nearest_level(min(1.0, max(0.0, score)))
    return out


def rater_level(
    true_level: float, rater: str, key: str, criterion: str, *, slips: float = 1.0
) -> float:
    """What `rater` gives an item whose true level is `true_level` (see the docstring);
    `slips` multiplies how often they are a level off."""
    profile = PROFILES[rater]
    noise = CRITERION_NOISE[criterion] * slips
    up, down = min(MAX_SLIP, profile.up * noise), min(MAX_SLIP, profile.down * noise)
    u = draw(key, rater, criterion, "rater" if slips == 1.0 else f"slips {slips:g}")
    index = LEVELS.index(true_level)
    if u < up:
        index += 1
    elif u < up + down:
        index -= 1
    return LEVELS[min(len(LEVELS) - 1, max(0, index))]


def rater_levels(
    truth: dict[str, float], rater: str, key: str, *, slips: float = 1.0
) -> dict[str, float]:
    return {c: rater_level(truth[c], rater, key, c, slips=slips) for c in CRITERIA}
