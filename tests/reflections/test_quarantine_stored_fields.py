"""A quarantined reflection's stored columns, one by one: every text field holds no piece of
the value it was quarantined for, whatever its case (tools are stored lower-cased) and however
little of it (a tool name cut out of a key); and a masked agent never reaches the agent filter
of people who may not see quarantined reflections."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from bs4 import BeautifulSoup
from django.test import Client

from reflections.models import Agent, Reflection, State
from reflections.selectors.reflections import filter_options
from reflections.services.reflection_import import import_reflections
from tests.factories import ReflectionFactory, UserFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
PATH = "memory/reflexions/2026-05/22-cache-outage.md"
PASSWORD = "Kv8pQz2LmX7rWd"
KEY_LINE = "MIIEowIBAAKCAQEA7bq9xQ2kLm3Hs8Pq0Zt1Wv5Yx7Nc4Rb6Ue2Io9Pa3Sd8Fg1Hj"
FRAGMENT = KEY_LINE[:23]  # what a backticked quote of the key's start becomes as a tool


def _import(tmp_path, front: str, body: str) -> Reflection:
    ws = tmp_path / "ws"
    (ws / PATH).parent.mkdir(parents=True)
    (ws / PATH).write_text(
        f"---\ntask_type: incident\noutcome: failure\ndepartment: research\n{front}---\n"
        f"## What happened?\n{body}\n\n"
        "## What rule should I remember?\nRotate credentials after an outage.\n"
    )
    import_reflections(create_departments=True, paths=[ws], default_department="research", now=NOW)
    reflection = Reflection.objects.get(source_path=PATH)
    assert reflection.state == State.QUARANTINED
    return reflection


def _pieces(value: str, size: int = 8) -> set[str]:
    return {value[i : i + size].lower() for i in range(len(value) - size + 1)}


def _leaks(stored: object, value: str) -> set[str]:
    text = json.dumps(stored, ensure_ascii=False).lower()
    return {piece for piece in _pieces(value) if piece in text}


def test_a_password_quoted_as_a_tool_is_masked_in_the_tools_column(tmp_path):
    reflection = _import(
        tmp_path,
        "agent: cache-agent\n",
        f"The Redis password is `{PASSWORD}`; `redis-cli` then answered PONG.",
    )
    assert not _leaks(reflection.tools, PASSWORD)
    assert "redis-cli" in reflection.tools


def test_a_piece_of_a_private_key_quoted_as_a_tool_is_masked_in_the_tools_column(tmp_path):
    reflection = _import(
        tmp_path,
        "agent: cache-agent\n",
        f"It began `{FRAGMENT}` and sat in the repo:\n\n"
        f"-----BEGIN RSA PRIVATE KEY-----\n{KEY_LINE}\n{KEY_LINE[::-1]}\n"
        "-----END RSA PRIVATE KEY-----",
    )
    assert reflection.tools
    assert not _leaks(reflection.tools, FRAGMENT)


def test_related_skills_and_tags_are_masked_whatever_their_case(tmp_path):
    reflection = _import(
        tmp_path,
        f"agent: cache-agent\nrelated_skills: [rotate-{PASSWORD.lower()}]\n"
        f"tags: [cache, {PASSWORD.upper()}]\n",
        f"The Redis password is `{PASSWORD}`.",
    )
    assert not _leaks(reflection.skills, PASSWORD)
    assert not _leaks(reflection.tags, PASSWORD)
    assert "cache" in reflection.tags


def test_a_deprecation_reason_the_file_gives_is_masked(tmp_path):
    reflection = _import(
        tmp_path,
        f"agent: cache-agent\ndeprecated_reason: superseded after {PASSWORD} leaked\n",
        f"The Redis password is `{PASSWORD}`.",
    )
    assert not _leaks(reflection.deprecated_reason, PASSWORD)


def test_the_admin_page_of_the_reflection_shows_no_piece_of_the_password(tmp_path):
    reflection = _import(
        tmp_path,
        "agent: cache-agent\n",
        f"The Redis password is `{PASSWORD}`; `redis-cli` then answered PONG.",
    )
    client = Client()
    client.force_login(UserFactory(roles=["admin"], is_staff=True, is_superuser=True))
    response = client.get(f"/admin/reflections/reflection/{reflection.pk}/change/")
    assert response.status_code == 200
    assert not {p for p in _pieces(PASSWORD) if p in response.content.decode().lower()}


@pytest.fixture
def masked_author(tmp_path):
    """A quarantined reflection filed under an agent whose name holds an e-mail address."""
    _import(
        tmp_path,
        "agent: ops-dana.whitfield@northwind-client.de\n",
        f"The Redis password is `{PASSWORD}`.",
    )
    ReflectionFactory(
        agent__name="visible-agent",
        agent__department=Agent.objects.get(name__contains="[REDACTED:").department,
    )
    return Agent.objects.get(name__contains="[REDACTED:")


@pytest.mark.parametrize("role", ["reviewer", "manager", "rater"])
def test_a_masked_agent_is_not_offered_in_the_agent_filter(masked_author, role):
    user = UserFactory(roles=[role], departments=[masked_author.department])
    names = filter_options(user).agents
    assert "visible-agent" in names
    assert masked_author.name not in names
    client = Client()
    client.force_login(user)
    page = BeautifulSoup(client.get("/reflections/").content, "html.parser")
    options = [o.get_text() for o in page.select("select[name=agent] option")]
    assert "visible-agent" in options
    assert not [o for o in options if "REDACTED" in o]


def test_an_admin_is_offered_the_masked_agent(masked_author):
    admin = UserFactory(roles=["admin"])
    assert masked_author.name in filter_options(admin).agents


def test_an_agent_known_only_from_quarantined_reflections_is_not_offered():
    hidden = ReflectionFactory(agent__name="quiet-agent", state=State.QUARANTINED)
    ReflectionFactory(agent__name="busy-agent", agent__department=hidden.department)
    user = UserFactory(roles=["reviewer"], departments=[hidden.department])
    names = filter_options(user).agents
    assert "busy-agent" in names and "quiet-agent" not in names


def test_the_agent_choices_kept_between_pages_follow_a_rename_and_a_quarantine():
    reflection = ReflectionFactory(agent__name="old-name")
    user = UserFactory(roles=["reviewer"], departments=[reflection.department])
    assert "old-name" in filter_options(user).agents
    agent = reflection.agent

    agent.name = "new-name"
    agent.save()
    assert "new-name" in filter_options(user).agents
    assert "old-name" not in filter_options(user).agents

    reflection.change_state(State.QUARANTINED, by=user, why="a secret in it")
    assert "new-name" not in filter_options(user).agents
