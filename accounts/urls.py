"""URL map of the admins' sign-in lockouts page (included under /sign-in-lockouts/)."""

from django.urls import path

from accounts import views

lockout_pages = (
    [
        path("", views.lockout_list, name="list"),
        path("unlock/", views.unlock, name="unlock"),
    ],
    "lockouts",
)
