"""The rubric's panel on a reflection's page: its scores, as much as the person may see."""

from __future__ import annotations

from reflections.panels import Panel
from rubric.selectors.quality import reflection_quality
from rubric.views.quality import quality_visibility


def quality_panel(request, reflection) -> Panel | None:
    # Managers see every criterion, reviewers the aggregate, raters nothing (they rate blind).
    show = quality_visibility(request.user)
    if not show:
        return None
    return Panel(
        "rubric/_reflection_quality.html",
        {"quality": reflection_quality([reflection.pk])[reflection.pk], "show": show},
    )
