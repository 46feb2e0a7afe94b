"""The log: a refused or missing page is one line, never a traceback."""

from __future__ import annotations

import io
import logging

import pytest

from tests.factories import UserFactory
from tests.pages import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def server_log():
    """What the configured console handler writes, as the server's log would hold it."""
    (handler,) = [h for h in logging.getLogger().handlers if h.filters]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_refused_page_is_logged_as_one_line_without_a_traceback(server_log):
    response = client_for(UserFactory(roles=["rater"])).get("/quarantine/")

    assert response.status_code == 403
    log = server_log.getvalue()
    assert "Forbidden" in log and "/quarantine/" in log
    assert "Traceback" not in log and "PermissionDenied" not in log


def test_a_missing_page_is_logged_without_a_traceback(server_log):
    response = client_for(UserFactory(roles=["admin"])).get("/quarantine/999999/")

    assert response.status_code == 404
    assert "Traceback" not in server_log.getvalue()
