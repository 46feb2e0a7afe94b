"""URL maps of the quarterly review: cycles, queues and reports, and the deprecation exports."""

from django.urls import path

from reviews import views, views_export

cycles = (
    [
        path("", views.cycle_list, name="list"),
        path("open/", views.cycle_open, name="open"),
        path("<int:pk>/", views.cycle_detail, name="cycle"),
        path("<int:pk>/reassign/", views.cycle_reassign, name="reassign"),
        path("<int:pk>/close/", views.cycle_close, name="close"),
        path("<int:pk>/report/", views.cycle_report, name="report"),
        path("<int:pk>/queue/", views.queue_start, name="queue"),
        path("<int:pk>/items/<int:rank>/", views.item_detail, name="item"),
        path("<int:pk>/items/<int:rank>/decide/", views.item_decide, name="decide"),
        path("<int:pk>/items/<int:rank>/undo/", views.item_undo, name="undo"),
    ],
    "reviews",
)

deprecations = (
    [
        path("deprecations.csv", views_export.deprecations_csv, name="csv"),
        path("deprecations.json", views_export.deprecations_json, name="json"),
    ],
    "deprecations",
)
