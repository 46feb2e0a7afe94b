"""Reads of the webhook pages: endpoints with their delivery counts, an endpoint's delivery log."""

from __future__ import annotations

from django.db.models import Count, Max, Q, QuerySet

from webhooks.models import Delivery, Endpoint


def endpoints_with_counts() -> QuerySet[Endpoint]:
    """Every endpoint, with how many of its deliveries are delivered, waiting or given up."""
    S = Delivery.Status
    return Endpoint.objects.select_related("created_by").annotate(
        delivered=Count("deliveries", filter=Q(deliveries__status=S.DELIVERED)),
        waiting=Count("deliveries", filter=Q(deliveries__status__in=[S.PENDING, S.FAILED])),
        gave_up=Count("deliveries", filter=Q(deliveries__status=S.GAVE_UP)),
        last_delivery_at=Max("deliveries__created_at"),
    )


def delivery_log(endpoint: Endpoint, *, status: str = "") -> QuerySet[Delivery]:
    """An endpoint's deliveries, newest first (the delivery_log index); the payload is not
    read, the log does not show it."""
    rows = Delivery.objects.filter(endpoint=endpoint).defer("payload")
    if status:
        rows = rows.filter(status=status)
    return rows.order_by("-created_at", "-id")
