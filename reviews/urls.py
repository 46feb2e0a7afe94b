"""URL maps of the quarterly review: cycles, queues and reports, and the deprecation exports."""

from django.urls import path

from reviews.views import bulk, discussion, duplicates, export, judges, queue, restore
from reviews.views import cycles as cycle_views

cycles = (
    [
        path("", cycle_views.cycle_list, name="list"),
        path("open/", cycle_views.cycle_open, name="open"),
        path("<int:pk>/", cycle_views.cycle_detail, name="cycle"),
        path("<int:pk>/reassign/", cycle_views.cycle_reassign, name="reassign"),
        path("<int:pk>/close/", cycle_views.cycle_close, name="close"),
        path("<int:pk>/views/", cycle_views.view_save, name="view-save"),
        path("<int:pk>/views/<int:view>/delete/", cycle_views.view_delete, name="view-delete"),
        path("<int:pk>/report/", cycle_views.cycle_report, name="report"),
        path("<int:pk>/queue/", queue.queue_start, name="queue"),
        path("<int:pk>/items/<int:rank>/", queue.item_detail, name="item"),
        path("<int:pk>/items/<int:rank>/decide/", queue.item_decide, name="decide"),
        path("<int:pk>/items/<int:rank>/undo/", queue.item_undo, name="undo"),
        path("<int:pk>/items/<int:rank>/cluster/", queue.cluster_resolve, name="cluster"),
        path("<int:pk>/items/<int:rank>/originals/", duplicates.original_search, name="originals"),
        path(
            "<int:pk>/items/<int:rank>/compare/<int:other>/",
            duplicates.item_compare,
            name="compare",
        ),
        path("restore/<int:reflection_pk>/", restore.reflection_restore, name="restore"),
        path("<int:pk>/items/<int:rank>/comments/", discussion.item_comment, name="comment"),
        path(
            "<int:pk>/items/<int:rank>/mentions/",
            discussion.mention_suggestions,
            name="mention-suggestions",
        ),
        path("<int:pk>/items/<int:rank>/unsure/", discussion.item_unsure, name="unsure"),
        path("<int:pk>/items/<int:rank>/resolve/", discussion.item_resolve, name="resolve"),
        path("<int:pk>/bulk/", bulk.bulk_action, name="bulk"),
        path("<int:pk>/bulk/<int:batch>/undo/", bulk.bulk_undo, name="bulk-undo"),
        path("judges/", judges.judge_page, name="judges"),
    ],
    "reviews",
)

deprecations = (
    [
        path("deprecations.csv", export.deprecations_csv, name="csv"),
        path("deprecations.json", export.deprecations_json, name="json"),
    ],
    "deprecations",
)
