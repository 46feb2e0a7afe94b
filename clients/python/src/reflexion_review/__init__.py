"""Reflexion Review's agents' API from Python: `Client` for ingest, retrieve and the change
feed, `verify_webhook` for the webhooks the server sends."""

from reflexion_review.client import ChangeFeed, Client, __version__
from reflexion_review.errors import (
    ApiError,
    BadRequest,
    ConnectionFailed,
    Forbidden,
    RateLimited,
    ReflexionReviewError,
    ServerError,
    TooLarge,
    Unauthorized,
)
from reflexion_review.webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "ApiError",
    "BadRequest",
    "ChangeFeed",
    "Client",
    "ConnectionFailed",
    "Forbidden",
    "RateLimited",
    "ReflexionReviewError",
    "ServerError",
    "TooLarge",
    "Unauthorized",
    "WebhookVerificationError",
    "__version__",
    "verify_webhook",
]
