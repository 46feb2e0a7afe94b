"""Vega-Lite specs for the review pages: how a signal's scores spread over a cycle's
items, with the cut that flags them drawn across. Data inline, a title, axis titles and an
accessible description; the page puts the same numbers in a table beneath."""

from __future__ import annotations

from collections.abc import Sequence

from reflexion_site.vega import constant, enc, end, finish, layered, mark, view

BINS = 20  # 0.05 wide
FLAGGED = "#b3541e"  # at or above the cut
BELOW = "#6b7a8f"
CUT_COLOUR = "#1f2933"


def histogram(scores: Sequence[float], cut: float) -> list[tuple[float, float, int, int]]:
    """(from, to, items below the cut, items flagged) per 0.05 of score that holds any (a cut
    inside a bin splits its items by their side)."""
    found = []
    for i in range(BINS):
        low, high = i / BINS, (i + 1) / BINS
        inside = [s for s in scores if low <= s < high or (i == BINS - 1 and s == 1.0)]
        if inside:
            flagged = sum(1 for s in inside if s >= cut)
            found.append((low, high, len(inside) - flagged, flagged))
    return found


def score_distribution(name: str, scores: Sequence[float], cut: float) -> dict:
    """A histogram of the items' scores, coloured by side of the cut, the cut a dashed rule."""
    values = [
        {"from": low, "to": high, "items": n, "side": side}
        for low, high, below, flagged in histogram(scores, cut)
        for side, n in (("below the cut", below), ("flagged", flagged))
        if n
    ]
    flagged = sum(1 for s in scores if s >= cut)
    bars = view(
        values,
        mark("bar"),
        x=enc(
            "from:Q",
            bin="binned",  # the bins are computed here: bars stand from "from" to "to"
            title=f"{name} score",
            scale={"domain": [0, 1]},
            axis={"format": ".1f", "tickCount": 10},
        ),
        x2=end("to"),
        y=enc("items:Q", title="items", axis={"tickMinStep": 1, "format": "d"}),
        color=enc(
            "side:N",
            title=None,
            legend={"orient": "bottom"},
            scale={"domain": ["below the cut", "flagged"], "range": [BELOW, FLAGGED]},
        ),
        tooltip=[
            enc("from:Q", title="from", format=".2f"),
            enc("to:Q", title="to", format=".2f"),
            enc("items:Q"),
            enc("side:N"),
        ],
    )
    at = [{"cut": cut, "label": f"cut {cut:.2f}"}]
    rule = view(
        at,
        mark("rule", strokeDash=[4, 3], strokeWidth=2, color=CUT_COLOUR),
        x=enc("cut:Q", scale={"domain": [0, 1]}),
    )
    label = view(
        at,
        mark("text", align="left", dx=4, dy=-4, baseline="bottom", color=CUT_COLOUR),
        x=enc("cut:Q"),
        y=constant(0),
        text=enc("label:N"),
    )
    return finish(
        layered(bars, rule, label),
        f"{name.title()}: scores of {len(scores)} items",
        f"Histogram of the {name} signal's scores over {len(scores)} items in bins of "
        f"0.05; {flagged} at or above the cut {cut:.2f} are flagged.",
        height=140,
    )
