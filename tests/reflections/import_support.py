"""What the import tests share: a private copy of the samples, importing it and its logs."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from reflections.services.event_import import import_events
from reflections.services.reflection_import import import_reflections

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def import_ws(ws: Path, *paths: str, **kwargs):
    targets = [ws / p for p in paths] if paths else [ws]
    kwargs.setdefault("default_department", "research")
    return import_reflections(create_departments=True, paths=targets, now=NOW, **kwargs)


# --------------------------------------------------------------------------- logs


def import_logs(ws: Path, *names: str):
    return import_events(
        create_departments=True,
        paths=[ws / "logs" / n for n in names] if names else [ws / "logs"],
        now=NOW,
    )
