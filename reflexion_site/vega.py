"""altair, as every chart module uses it: imported there (not at start-up: it takes ~1 s and
~40 MiB, which only chart pages need), with its piecewise schema validation off.

altair's debug mode validates every encoding and mark against the Vega-Lite schema as it is
made: ~120 ms of a chart page. The whole spec is validated once at the end where it matters
(CHARTS_VALIDATE: every test), so the piecewise checks go.
"""

import altair as alt

alt.utils.schemapi.disable_debug_mode()

__all__ = ["alt"]
