"""A real HTTP receiver on loopback that verifies every signature (standardwebhooks), and the
fixtures the webhook tests share: an admin, an endpoint pointing at the receiver."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django_tasks_db.models import DBTaskResult
from standardwebhooks import Webhook, WebhookVerificationError

from tests.factories import UserFactory
from webhooks.models import Delivery, Endpoint
from webhooks.services import create_endpoint
from webhooks.tasks import deliver


class Receiver:
    """Answers POSTs on 127.0.0.1 with the next of `answers` (200 once they run out), after
    verifying the signature with `secret`. `events` holds what verified (headers, payload);
    `refused` what did not."""

    def __init__(self, port: int = 0) -> None:
        self.secret = ""
        self.answers: list[int] = []
        self.events: list[tuple[dict, dict]] = []
        self.refused: list[str] = []
        self.raw: list[tuple[bytes, dict]] = []  # every request's body and headers as sent
        self.delay = 0.0  # seconds to wait before answering
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["content-length"]))
                headers = dict(self.headers.items())
                receiver.raw.append((body, headers))
                try:
                    payload = Webhook(receiver.secret).verify(body, headers)
                except WebhookVerificationError as error:
                    receiver.refused.append(str(error))
                    status = 401
                else:
                    receiver.events.append(({k.lower(): v for k, v in headers.items()}, payload))
                    status = receiver.answers.pop(0) if receiver.answers else 200
                time.sleep(receiver.delay)
                # A delay past the sender's timeout is the point of some tests: the sender has
                # gone by the time the answer is written, and that is not the test's failure.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.end_headers()
                    self.wfile.write(json.dumps({"status": status}).encode())

            def log_message(self, *args):  # quiet test output
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def types(self) -> list[str]:
        return [payload["type"] for _, payload in self.events]


@pytest.fixture
def receiver():
    running = Receiver()
    yield running
    running.stop()


@pytest.fixture(autouse=True)
def _loopback_allowed(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the receiver listens on 127.0.0.1


@pytest.fixture
def admin(db):
    return UserFactory(username="ada", roles=["admin"])


@pytest.fixture
def endpoint_for(admin):
    """An endpoint for `receiver` with `events`; the receiver learns its secret."""

    def make(receiver: Receiver, events: list[str]) -> Endpoint:
        endpoint = create_endpoint(url=receiver.url, events=events, user=admin)
        receiver.secret = endpoint.secret
        return endpoint

    return make


def queued_deliveries() -> list[int]:
    """The delivery ids the task worker was asked to attempt, in order."""
    rows = DBTaskResult.objects.filter(task_path=deliver.module_path).order_by("enqueued_at")
    return [row.args_kwargs["args"][0] for row in rows]


def run_queued() -> list[str]:
    """What the worker would do with every queued attempt now (due or not)."""
    done = []
    for row in DBTaskResult.objects.filter(task_path=deliver.module_path).order_by("enqueued_at"):
        done.append(deliver.call(*row.args_kwargs["args"])["status"])
        row.delete()
    return done


def make_due(row: Delivery) -> None:
    """The retry's time has come (no sleeping in tests)."""
    from django.utils import timezone

    Delivery.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now())
