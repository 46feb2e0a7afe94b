"""Which calibration items an attempt is scored on and whose gold it keeps hidden, pure.

Showing gold after an attempt teaches the rater, but a retry scored on items whose gold was
shown could be passed by memory. So every attempt serves the whole set (the rater cannot
tell which items count) and is scored only on the items whose gold this rater has never
seen; afterwards it reveals gold for some of those (at most a third of the set) and holds
the rest out, always keeping at least MIN_SCORED unseen for the next retry. On a 30-item set:
the first attempt is scored on 30 and reveals 10, the second on the 20 left and reveals 10,
every later one on the last 10, revealing none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

MIN_SCORED = 10  # fewer unseen items than this make no fair test
REVEAL_SHARE = 3  # an attempt reveals gold for at most 1/REVEAL_SHARE of the set


@dataclass(frozen=True)
class AttemptPlan:
    scored: list[int]  # positions whose ratings decide the attempt
    held_out: list[int]  # of those, positions whose gold stays hidden afterwards

    @property
    def revealed(self) -> list[int]:
        return [p for p in self.scored if p not in set(self.held_out)]


class NoFairRetry(ValueError):
    """Too few items whose gold the rater has not seen."""


def revealed_by(scored: list[int], held_out: list[int], positions: list[int]) -> set[int]:
    """Positions whose gold an attempt showed (attempts from before hold-outs: all)."""
    if not scored:
        return set(positions)
    return set(scored) - set(held_out)


def plan_attempt(
    positions: list[int], seen: set[int], *, rng: random.Random | None = None
) -> AttemptPlan:
    """Score on every position not yet seen; reveal at most a third of the set afterwards,
    holding out enough for a fair retry."""
    rng = rng or random.Random()
    unseen = sorted(set(positions) - seen)
    minimum = min(MIN_SCORED, len(positions))
    if len(unseen) < minimum:
        raise NoFairRetry(
            f"you have seen gold for {len(positions) - len(unseen)} of the {len(positions)} "
            f"items; a fair retry needs at least {minimum} you have not seen. Ask an admin "
            "for a new calibration set"
        )
    reveal = max(0, min(len(positions) // REVEAL_SHARE, len(unseen) - minimum))
    revealed = set(rng.sample(unseen, reveal))
    return AttemptPlan(scored=unseen, held_out=[p for p in unseen if p not in revealed])
