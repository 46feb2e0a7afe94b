"""What every browser test shares: the system Chromium, signing in, and the check that a page
ran without a Content-Security-Policy violation or a console error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
PASSWORD = "correct horse battery staple"  # UserFactory's

# Every browser test module: `pytestmark = BROWSER`.
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists() and os.environ.get("REQUIRE_BROWSER") != "1",
        reason="needs the system Chromium at /usr/bin/chromium",
    ),
]

# Runs before any page script of every document. Violations go to the page's own list and to
# Python, so none is lost when a redirect replaces the page.
RECORD_CSP_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const violation = `${e.violatedDirective} ${e.blockedURI} ${e.sample}`;
  window.__cspViolations.push(violation);
  if (window.__reportCspViolation) window.__reportCspViolation(violation);
});
"""


def recording_page(context):
    """A new page of `context` that records CSP violations and console messages (every
    browser test's page; the layout test opens one per role and width)."""
    page = context.new_page()
    page.csp_violations = []
    page.expose_function("__reportCspViolation", lambda v: page.csp_violations.append(v))
    page.add_init_script(RECORD_CSP_VIOLATIONS)
    page.console_messages = []
    page.on("console", lambda m: page.console_messages.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: page.console_messages.append(f"pageerror: {e}"))
    return page


def sign_in(page, live_server, username: str, to: str = "/reflections/") -> None:
    """Through the real sign-in form, landing on `to`."""
    page.goto(f"{live_server.url}/login/?next={to}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}{to}")


def assert_no_csp_violations(page) -> None:
    assert page.evaluate("window.__cspViolations") == []
    assert page.csp_violations == []  # every document the page showed, not just this one
    refused = [m for m in page.console_messages if "Content Security Policy" in m]
    assert refused == []
    assert not [m for m in page.console_messages if m.startswith(("error", "pageerror"))]


# The system clipboard of headless Chromium hangs now and then when several browsers of the
# suite write to it at once (writeText never settles): the copy tests read what the page hands
# to navigator.clipboard instead; the page's own code is what they test.
RECORD_CLIPBOARD = """
window.__copied = [];
Object.defineProperty(navigator, "clipboard", {
  configurable: true,
  value: { writeText: (text) => { window.__copied.push(text); return Promise.resolve(); } },
});
"""


def record_clipboard(page) -> None:
    """Before the page loads: every text the page copies is kept in window.__copied."""
    page.add_init_script(RECORD_CLIPBOARD)
