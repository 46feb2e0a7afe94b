"""The projection chart (DOMAIN §7): weekly success as points, the fitted saturating curve
through the observed weeks and ahead into the future with its 95 % band, the asymptote."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from insights import palette
from insights.chart_parts import HEIGHT, plain, tip, x_encoding
from insights.projection import Projection, Refusal
from reflexion_site.templatetags.formats import percent
from reflexion_site.vega import constant, enc, end, finish, layered, mark, view


def projection_chart(
    weeks: Sequence[dt.date],
    rates: Sequence[float],
    fit: Projection | Refusal | None,
    *,
    title: str = "Weekly task success and its projection",
) -> dict:
    """The weekly success rates as points; with a fit, the fitted curve through the observed
    weeks (solid) and ahead into the future (dashed), its 95 % band shaded, a rule at the last
    observed week and a dashed rule at the asymptote A."""
    first = weeks[0] if weeks else None
    span = (first, weeks[-1]) if weeks else None
    if isinstance(fit, Projection) and first is not None:
        span = (first, first + dt.timedelta(days=round(7 * fit.curve[-1][0])))
    points = [
        {"week": week, "rate": rate, "kind": "Observed weekly success"}
        for week, rate in zip(weeks, rates, strict=True)
    ]
    observed = view(
        plain(points),
        mark("point", filled=True, size=40, color=palette.SUCCESS),
        x=x_encoding("week", "temporal", title="Week (ISO, Monday start, UTC)", span=span),
        y=enc("rate:Q", title="Success rate", axis={"format": ".0%"}, scale={"domain": [0, 1]}),
        tooltip=[
            tip("week", "temporal", title="Week of"),
            enc("rate:Q", title="Success", format=".1%"),
        ],
    )
    layers: list[dict] = []
    if isinstance(fit, Projection) and first is not None:

        def day(t: float) -> dt.date:
            return first + dt.timedelta(days=round(7 * t))

        band = [{"week": day(t), "low": lo, "high": hi} for t, lo, hi in fit.band]
        curve = [
            {
                "week": day(t),
                "rate": s,
                "part": "Projected ahead" if t > fit.observed_until else "Fitted curve",
            }
            for t, s in fit.curve
        ]
        # The two parts meet at the last observed week, so the line has no gap.
        last = fit.at(fit.observed_until)
        curve.append({"week": day(fit.observed_until), "rate": last, "part": "Projected ahead"})
        curve.append({"week": day(fit.observed_until), "rate": last, "part": "Fitted curve"})
        curve.sort(key=lambda row: (row["part"], row["week"]))
        layers.append(
            view(
                plain(band),
                mark(
                    "area", color=palette.BAND, opacity=0.35, description="95 % band of the curve"
                ),
                x=x_encoding("week", "temporal"),
                y=enc("low:Q"),
                y2=end("high"),
            )
        )
        layers.append(
            view(
                plain(curve),
                mark("line", color=palette.FIT, strokeWidth=2, description="Fitted curve"),
                x=x_encoding("week", "temporal"),
                y=enc("rate:Q"),
                detail=enc("part:N"),
                strokeDash=enc(
                    "part:N",
                    title=None,
                    legend={"orient": "bottom"},
                    scale={
                        "domain": ["Fitted curve", "Projected ahead"],
                        "range": [[1, 0], [6, 4]],
                    },
                ),
            )
        )
        layers.append(
            view(
                plain([{"week": day(fit.observed_until)}]),
                mark("rule", color=palette.REFERENCE, strokeDash=[2, 2], aria=False),
                x=x_encoding("week", "temporal"),
            )
        )
        a = fit.asymptote
        layers.append(
            view(
                [{"rate": a.value}],
                mark("rule", color=palette.REFERENCE, strokeDash=[6, 4], aria=False),
                y=enc("rate:Q"),
            )
        )
        label = f"Asymptote A = {percent(a.value)}"
        layers.append(
            view(
                [{"rate": a.value, "label": label}],
                mark(
                    "text",
                    align="left",
                    baseline="bottom",
                    dx=4,
                    dy=-4,
                    color=palette.REFERENCE,
                    aria=False,
                ),
                y=enc("rate:Q"),
                x=constant(0),
                text=enc("label:N"),
            )
        )
        h = fit.half_life_months
        ahead = day(fit.curve[-1][0])
        description = (
            f"Weekly task success over {len(points)} weeks, with the fitted saturating curve "
            f"drawn ahead to {ahead:%Y-%m-%d} with its 95 % band, levelling off at "
            f"A = {percent(a.value)} (95 % interval {percent(a.low)} to {percent(a.high)}) "
            f"and a half-life of {h.value:.1f} months ({h.low:.1f} to {h.high:.1f})."
        )
    else:
        why = f" No projection: {fit.reason}" if isinstance(fit, Refusal) else ""
        description = f"Weekly task success over {len(points)} weeks.{why}"
    return finish(layered(*layers, observed), title, description, height=HEIGHT)
