"""URL maps of the memory: its pages, and the admins' quarantine (included under their prefixes)."""

from django.urls import path

from reflections.views import health, imports, mentions, quarantine, retrieval
from reflections.views import reflections as views

memory = (
    [
        path("", views.reflection_list, name="list"),
        path("<int:pk>/", views.reflection_detail, name="detail"),
        path(
            "<int:pk>/retrievals/",
            views.reflection_events,
            {"kind": "retrievals"},
            name="retrievals",
        ),
        path(
            "<int:pk>/injections/",
            views.reflection_events,
            {"kind": "injections"},
            name="injections",
        ),
        path("health/", health.memory_health, name="health"),
        path("health/<slug:slug>/", health.memory_health, name="health-department"),
        path("retention/", health.retention, name="retention"),
        path("retrieval/", retrieval.retrieval_preview, name="retrieval-preview"),
        path("mentions/", mentions.mention_list, name="mentions"),
        path("mentions/count/", mentions.mention_count, name="mention-count"),
    ],
    "reflections",
)

quarantine_pages = (
    [
        path("", quarantine.quarantine_list, name="list"),
        path("<int:pk>/", quarantine.quarantine_detail, name="detail"),
        path("<int:pk>/findings/<int:finding_pk>/dismiss/", quarantine.dismiss, name="dismiss"),
        path("<int:pk>/redact/", quarantine.redact, name="redact"),
    ],
    "quarantine",
)

import_pages = (
    [
        path("", imports.import_new, name="new"),
        path("<int:pk>/", imports.import_job, name="job"),
    ],
    "imports",
)
