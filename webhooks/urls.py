"""URL map of the admins' webhook pages."""

from django.urls import path

from webhooks import views

endpoint_pages = (
    [
        path("", views.endpoint_list, name="list"),
        path("<int:pk>/", views.endpoint_detail, name="detail"),
        path("<int:pk>/active/", views.endpoint_active, name="active"),
        path("<int:pk>/delete/", views.endpoint_delete, name="delete"),
        path("<int:pk>/test/", views.test_event, name="test"),
        path("<int:pk>/deliveries/<int:delivery_pk>/replay/", views.replay, name="replay"),
    ],
    "webhooks",
)
