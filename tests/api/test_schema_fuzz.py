"""Every endpoint of the agents' API, fuzzed from its own OpenAPI schema (schemathesis, bounded):
no server error, every answer within the schema and with a status it documents, for a token
of each scope.

Two of schemathesis's checks are left out, on purpose: `negative_data_rejection` (a request
the schema does not allow must be refused) and `positive_data_acceptance` (one it allows must
be accepted). An ingest batch is not refused whole for one bad item: the item is reported as
rejected, with its index, in a 200 (docs/api.md); and what the schema cannot say (an unknown
department, an empty task) is a 400 that names the field."""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

from api.services.tokens import create_token
from reflexion_site.wsgi import application

pytestmark = pytest.mark.django_db
# Examples per endpoint: bounded for CI; FUZZ_EXAMPLES=300 for a longer hunt.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)


@pytest.fixture(autouse=True)
def _connections_stay_open():
    """The app is called as a WSGI server would, which closes the database connection after
    each request; the test's database lives in that connection (Django's test client keeps
    it open the same way)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(db):
    from tests.factories import DepartmentFactory

    for slug in ("finance", "sales"):
        DepartmentFactory(slug=slug)
    return {
        scope: create_token(name=f"fuzz {scope}", scope=scope, user=None)[1]
        for scope in ("ingest", "retrieve")
    }


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_within_its_schema(case, tokens):
    for scope in ("ingest", "retrieve"):  # its own scope, then the other one (a 403)
        case.call_and_validate(
            headers={"Authorization": f"Bearer {tokens[scope]}"},
            excluded_checks=[negative_data_rejection, positive_data_acceptance],
        )
