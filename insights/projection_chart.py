"""The projection chart (DOMAIN §7): weekly success as points, the fitted saturating curve
through the observed weeks and ahead into the future with its 95 % band, the asymptote."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from insights import palette
from insights.chart_parts import finish, plain, tip, x_encoding
from insights.projection import Projection, Refusal
from reflexion_site.templatetags.formats import percent
from reflexion_site.vega import alt


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
    y_axis = alt.Y(
        "rate:Q", title="Success rate", axis=alt.Axis(format=".0%"), scale=alt.Scale(domain=[0, 1])
    )
    observed = (
        alt.Chart(alt.Data(values=plain(points)))
        .mark_point(filled=True, size=40, color=palette.SUCCESS)
        .encode(
            x=x_encoding("week", "temporal", title="Week (ISO, Monday start, UTC)", span=span),
            y=y_axis,
            tooltip=[
                tip("week", "temporal", title="Week of"),
                alt.Tooltip("rate:Q", title="Success", format=".1%"),
            ],
        )
    )
    layers: list[alt.Chart] = []
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
            alt.Chart(alt.Data(values=plain(band)))
            .mark_area(color=palette.BAND, opacity=0.35, description="95 % band of the curve")
            .encode(x=x_encoding("week", "temporal"), y="low:Q", y2="high:Q")
        )
        layers.append(
            alt.Chart(alt.Data(values=plain(curve)))
            .mark_line(color=palette.FIT, strokeWidth=2, description="Fitted curve")
            .encode(
                x=x_encoding("week", "temporal"),
                y="rate:Q",
                detail="part:N",
                strokeDash=alt.StrokeDash(
                    "part:N",
                    title=None,
                    legend=alt.Legend(orient="bottom"),
                    scale=alt.Scale(
                        domain=["Fitted curve", "Projected ahead"], range=[[1, 0], [6, 4]]
                    ),
                ),
            )
        )
        layers.append(
            alt.Chart(alt.Data(values=plain([{"week": day(fit.observed_until)}])))
            .mark_rule(color=palette.REFERENCE, strokeDash=[2, 2], aria=False)
            .encode(x=x_encoding("week", "temporal"))
        )
        a = fit.asymptote
        layers.append(
            alt.Chart(alt.Data(values=[{"rate": a.value}]))
            .mark_rule(color=palette.REFERENCE, strokeDash=[6, 4], aria=False)
            .encode(y="rate:Q")
        )
        label = f"Asymptote A = {percent(a.value)}"
        layers.append(
            alt.Chart(alt.Data(values=[{"rate": a.value, "label": label}]))
            .mark_text(
                align="left", baseline="bottom", dx=4, dy=-4, color=palette.REFERENCE, aria=False
            )
            .encode(y="rate:Q", x=alt.value(0), text="label:N")
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
    return finish(alt.layer(*layers, observed), title, description)
