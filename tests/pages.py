"""What page tests share: a response as soup, a client signed in as someone."""

from __future__ import annotations

from bs4 import BeautifulSoup
from django.test import Client


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.content, "html.parser")


def client_for(user, **kwargs) -> Client:
    """A test client signed in as `user` (kwargs go to Client, e.g. enforce_csrf_checks)."""
    client = Client(**kwargs)
    client.force_login(user)
    return client
