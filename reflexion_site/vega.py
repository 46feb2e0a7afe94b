"""Vega-Lite specs as plain dicts: the pieces every chart of the site is built from
(encodings, marks, views, layers) and the finished spec, validated in tests.

No altair at run time: a web worker that imported it to build these dicts kept ~26 MiB more
after its first chart page. The tests validate every spec against the Vega-Lite schema altair
ships (CHARTS_VALIDATE); only then is altair imported.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings

# The Vega-Lite schema altair 6.3 ships, as it wrote it into every spec (the vendored
# vega-lite, 6.5, draws v6 specs): `validate` fails if another altair validates another schema.
SCHEMA = "https://vega.github.io/schema/vega-lite/v6.4.1.json"
TYPES = {"T": "temporal", "Q": "quantitative", "N": "nominal", "O": "ordinal"}


def finish(spec: dict, title: str, description: str, *, height: int) -> dict:
    """The whole spec: a chart (or layers) with its title, description and full width, and
    the look every chart shares (the keys and defaults altair wrote, so the specs are the
    ones the pages drew when altair built them)."""
    spec = {
        "$schema": SCHEMA,
        "config": {
            "view": {"continuousWidth": 300, "continuousHeight": 300, "stroke": None},
            "axis": {"labelFontSize": 12, "titleFontSize": 12},
            "title": {"fontSize": 14},
        },
        **spec,
        "title": {"text": title, "anchor": "start"},
        "description": description,
        "width": "container",
        "height": height,
    }
    # Validating costs more than building the spec (a third of a learning-curves request
    # under load) and needs altair: the tests validate every chart, pages in production skip it.
    if settings.CHARTS_VALIDATE:
        validate(spec)
    return spec


def validate(spec: dict) -> None:
    """Raises altair's SchemaValidationError (which names the bad property and what it
    accepts) unless `spec` is valid against the Vega-Lite schema altair ships."""
    from altair.utils.schemapi import SchemaValidationError
    from altair.vegalite.v6.schema import SCHEMA_URL
    from altair.vegalite.v6.schema.core import Root
    from jsonschema import ValidationError

    if spec["$schema"] != SCHEMA_URL:
        raise ValueError(f"specs say {spec['$schema']}, altair validates {SCHEMA_URL}")
    try:
        Root.validate(spec)
    except ValidationError as err:
        raise SchemaValidationError(Root.from_dict(spec, validate=False), err) from None


def enc(shorthand: str, **props: Any) -> dict:
    """An encoding channel from altair's shorthand: "rate:Q" is the quantitative field
    "rate"; `props` as Vega-Lite names them (None is written as null)."""
    field, kind = shorthand.rsplit(":", 1)
    return {"field": field, "type": TYPES[kind], **props}


def end(field: str) -> dict:
    """An x2 or y2 channel: it takes its type from x or y."""
    return {"field": field}


def constant(value: Any) -> dict:
    """A channel's fixed value (a colour, a position) instead of a field's."""
    return {"value": value}


def mark(kind: str, **props: Any) -> dict:
    return {"type": kind, **props}


def view(values: list[dict] | None, shape: dict, **encoding: Any) -> dict:
    """One view: inline `values` (None: the layer's), a mark and its encoding channels."""
    drawn = {"mark": shape, "encoding": encoding}
    return drawn if values is None else {"data": {"values": values}, **drawn}


def layered(*layers: dict, params: list[dict] | None = None) -> dict:
    """Layers over one another; data they all share (one list) moves up to the whole chart,
    as altair wrote it."""
    shared = layers[0].get("data", {}).get("values")
    if shared is not None and all(
        layer.get("data", {}).get("values") is shared for layer in layers
    ):
        spec = {
            "data": layers[0]["data"],
            "layer": [{k: v for k, v in layer.items() if k != "data"} for layer in layers],
        }
    else:
        spec = {"layer": list(layers)}
    return {**spec, "params": params} if params else spec


def digest(content: Any) -> str:
    """16 hex digits of the content's hash: names that stay the same from build to build."""
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:16]
