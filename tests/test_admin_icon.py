"""The admin's pages name the product's empty icon as every other page does, so no browser asks
for /favicon.ico, which nothing serves (a 404 in the console on every admin page)."""

from __future__ import annotations

import pytest

from tests.pages import soup_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/admin/", "/admin/reflections/reflection/"])
def test_an_admin_page_names_the_empty_icon(admin_client, url):
    response = admin_client.get(url)
    assert response.status_code == 200
    icons = soup_of(response).select('link[rel="icon"]')
    assert [i["href"] for i in icons] == ["data:,"]


def test_the_admin_keeps_its_own_title_and_branding(admin_client):
    page = soup_of(admin_client.get("/admin/"))
    assert page.title.string.strip().endswith("Django site admin")
    assert page.select_one("#site-name a")["href"] == "/admin/"
