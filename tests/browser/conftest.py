"""Fixtures of the browser tests: one Chromium per test, a page that records CSP violations
and console messages."""

from __future__ import annotations

import pytest

from tests.browser.support import CHROMIUM, recording_page


@pytest.fixture
def browser(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the factories still use the ORM.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    assert CHROMIUM.exists(), "REQUIRE_BROWSER=1 but /usr/bin/chromium is missing"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()
        # What the test read and wrote while Playwright's loop ran was on connections of
        # that context: closed here, or each stays open until the process ends and the test
        # database cannot be dropped.
        from django.db import connections

        connections.close_all()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = recording_page(context)
    yield page
    context.close()
