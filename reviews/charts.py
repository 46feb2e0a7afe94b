"""Vega-Lite specs for the review pages (altair): how a signal's scores spread over a cycle's
items, with the cut that flags them drawn across. Data inline, a title, axis titles and an
accessible description; the page puts the same numbers in a table beneath."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings

from reflexion_site.vega import alt

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
    x = alt.X(
        "from:Q",
        bin="binned",  # the bins are computed here: bars stand from "from" to "to"
        title=f"{name} score",
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(format=".1f", tickCount=10),
    )
    bars = (
        alt.Chart(alt.Data(values=values))
        .mark_bar()
        .encode(
            x=x,
            x2="to:Q",
            y=alt.Y("items:Q", title="items", axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color(
                "side:N",
                title=None,
                legend=alt.Legend(orient="bottom"),
                scale=alt.Scale(domain=["below the cut", "flagged"], range=[BELOW, FLAGGED]),
            ),
            tooltip=[
                alt.Tooltip("from:Q", title="from", format=".2f"),
                alt.Tooltip("to:Q", title="to", format=".2f"),
                alt.Tooltip("items:Q"),
                alt.Tooltip("side:N"),
            ],
        )
    )
    at = alt.Data(values=[{"cut": cut, "label": f"cut {cut:.2f}"}])
    rule = (
        alt.Chart(at)
        .mark_rule(strokeDash=[4, 3], strokeWidth=2, color=CUT_COLOUR)
        .encode(x=alt.X("cut:Q", scale=alt.Scale(domain=[0, 1])))
    )
    label = (
        alt.Chart(at)
        .mark_text(align="left", dx=4, dy=-4, baseline="bottom", color=CUT_COLOUR)
        .encode(x="cut:Q", y=alt.value(0), text="label:N")
    )
    return (
        alt.layer(bars, rule, label)
        .properties(
            title=alt.Title(f"{name.title()}: scores of {len(scores)} items", anchor="start"),
            description=(
                f"Histogram of the {name} signal's scores over {len(scores)} items in bins of "
                f"0.05; {flagged} at or above the cut {cut:.2f} are flagged."
            ),
            width="container",
            height=140,
        )
        .configure_view(stroke=None)
        .configure_axis(labelFontSize=12, titleFontSize=12)
        .configure_title(fontSize=14)
        .to_dict(validate=settings.CHARTS_VALIDATE)
    )
