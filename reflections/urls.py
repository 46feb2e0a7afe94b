"""Memory pages."""

from django.urls import path

from reflections import views

app_name = "reflections"
urlpatterns = [
    path("", views.reflection_list, name="list"),
    path("<int:pk>/", views.reflection_detail, name="detail"),
    path("health/", views.memory_health, name="health"),
    path("health/<slug:slug>/", views.memory_health, name="health-department"),
    path("retention/", views.retention, name="retention"),
]
