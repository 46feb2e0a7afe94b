"""The one palette of every chart: a colour means the same thing wherever it appears.

Outcomes and kinds — failure red, partial amber, success green, decision purple — and what is
measured from them (a success rate is green, a repeat-failure rate red, post-failure
reflections red). Departments take the categorical colours below, whose first eight keep
away from red, amber and green so a department line is not read as an outcome. The page
styles (static/css/app.css, `--failure` …) use the same values for the badges and sparklines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FAILURE = "#c0392b"
PARTIAL = "#d99a1e"
SUCCESS = "#2e8b57"
DECISION = "#6a51a3"

NEUTRAL = "#2457a6"  # one series with no outcome meaning (a count, a lift)
NEUTRAL_LIGHT = "#8fb0de"  # its interval or band
REFERENCE = "#5b6472"  # reference rules: zero, the asymptote
MARKER = "#8a5a00"  # review markers on the time axis
FIT = "#1f2a3c"  # a fitted curve drawn over observed points
BAND = "#9aa6b8"  # the band around a fitted curve

# What each series name means: the labels the pages give their series.
BY_MEANING: dict[str, str] = {
    "failure": FAILURE,
    "failures": FAILURE,
    "post-failure": FAILURE,
    "repeat-failure rate": FAILURE,
    "repeat failure rate": FAILURE,
    "failure rate": FAILURE,
    "partial": PARTIAL,
    "partials": PARTIAL,
    "partial rate": PARTIAL,
    "success": SUCCESS,
    "successes": SUCCESS,
    "post-success": SUCCESS,
    "success rate": SUCCESS,
    "observed weekly success": SUCCESS,
    "decision": DECISION,
    "decisions": DECISION,
}

# Departments and other categories: eight hues picked (from Tableau 20, d3's category10 and
# a colour-blind-aware sequence) so that any two differ by at least ΔE 30 in CIELAB — hue and
# lightness together, so they stay apart for the common colour-vision deficiencies too — and
# each stays ΔE 22 from the outcomes' red, amber and green and the decision purple; all dark
# enough to read as a thin line on white. The old list had two near-identical blues and two
# browns among its first eight. A ninth department and beyond reuse Tableau's teal, olive …
CATEGORICAL: tuple[str, ...] = (
    "#0b84a5",  # cerulean
    "#ff7f0e",  # orange
    "#b07aa1",  # mauve
    "#1f1f1f",  # near-black
    "#d45087",  # raspberry
    "#7f7f7f",  # grey
    "#a05d56",  # brick
    "#2f4b7c",  # navy
    "#499894",  # teal
    "#b6992d",  # olive
    "#59a14f",  # green
    "#e15759",  # red
)


def meaning_of(name: str) -> str | None:
    """The colour a series name means (case and spacing ignored), or None."""
    key = " ".join(str(name).lower().replace("_", " ").split())
    if key in BY_MEANING:
        return BY_MEANING[key]
    # A longer label ("Success procedure", "Post-failure (failure, partial)") means its first
    # word.
    first = key.split(" ", 1)[0] if key else ""
    return BY_MEANING.get(first) if first in KIND_WORDS else None


KIND_WORDS = frozenset(
    {"failure", "partial", "success", "decision", "post-failure", "post-success"}
)


def colors_for(names: Sequence[str], order: Sequence[str] = ()) -> dict[str, str]:
    """name → colour for the series of one chart: a name with a meaning gets its colour; the
    others take the categorical colour of their place in `order` (every department, so one
    keeps its colour from chart to chart whichever others are shown), or else the next free
    one in the order given."""
    place = {name: i for i, name in enumerate(order)}
    taken = {CATEGORICAL[i % len(CATEGORICAL)] for n, i in place.items() if n in names}
    free = iter([c for c in CATEGORICAL if c not in taken] * (len(names) + 1) or CATEGORICAL)
    result: dict[str, str] = {}
    for name in names:
        if name in result:
            continue
        if meaning_of(name):
            result[name] = meaning_of(name)
        elif name in place:
            result[name] = CATEGORICAL[place[name] % len(CATEGORICAL)]
        else:
            result[name] = next(free)
    return result


def ordered_names(values: Iterable[dict], field: str, order: Sequence[str] | None) -> list[str]:
    """The series names present in a chart's rows: in `order` first, then the rest sorted.
    Only names present: a legend never lists a series (a department) the chart does not show."""
    seen = {str(v[field]) for v in values if v.get(field) is not None}
    first = [n for n in order or () if n in seen]
    return first + sorted(seen - set(first))


def scale(names: Sequence[str], order: Sequence[str] = ()) -> dict:
    """A Vega-Lite colour scale that pins each name to its colour."""
    colors = colors_for(names, order)
    return {"domain": list(colors), "range": list(colors.values())}
