"""Every page of every role fits a phone (390 px) and a desktop (1440 px): no sideways scroll
of the page (a wide table scrolls in its own box), the menu on one row at 1440 px, and no
console error or Content-Security-Policy violation on the way."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.browser.layout_world import build_world
from tests.browser.support import BROWSER, recording_page, sign_in

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": (390, 844), "desktop": (1440, 900)}

# Pages reached from the menu and from the pages it leads to: one of each kind is visited
# (the first link of the kind on a page visited before).
KINDS = {
    "reflection": r"/reflections/\d+/",
    "department health": r"/reflections/health/[\w-]+/",
    "cycle": r"/reviews/\d+/",
    "open a cycle": r"/reviews/open/",
    "cycle report": r"/reviews/\d+/report/",
    "queue": r"/reviews/\d+/queue/",
    "queue item": r"/reviews/\d+/items/\d+/",
    "judges": r"/reviews/judges/",
    "round": r"/ratings/\d+/",
    "new round": r"/ratings/new/",
    "rate": r"/ratings/\d+/rate/",
    "round item": r"/ratings/\d+/items/\d+/",
    "calibration attempt": r"/calibration/attempts/\d+/",
    "calibration item": r"/calibration/attempts/\d+/items/\d+/",
    "calibration page": r"/calibration/(policy|rubric|sets|sets/new)/",
    "rubric version": r"/calibration/rubric/v\d+/",
    "insights page": r"/insights/[\w-]+/",
    "quarantined reflection": r"/quarantine/\d+/",
    "import job": r"/imports/\d+/",
    "revoke a token": r"/api-tokens/\d+/revoke/",
}
# Sections whose every page is visited, not one of the kind.
EVERY = {"calibration page", "insights page"}
# Not ours to lay out: Django's admin and the API's Swagger page.
FOREIGN = re.compile(r"^/(admin|api)/")

# What each role must have reached, so a broken link cannot shrink the check unseen.
MUST_REACH = {
    "reviewer": {"/reflections/", "/reviews/", "queue item", "cycle", "reflection"},
    "rater": {"/ratings/", "/calibration/", "rate", "calibration attempt"},
    "manager": {"/insights/", "insights page", "cycle report", "judges", "round item"},
    "admin": {
        "/quarantine/",
        "quarantined reflection",
        "/api-tokens/",
        "/sign-in-lockouts/",
        "import job",
        "judges",
    },
}

# Loaded, its htmx requests (the mention count) answered and its charts drawn or failed.
SETTLED = """() => !document.querySelector('.htmx-request')
  && [...document.querySelectorAll('figure[data-chart-figure]')]
    .every(f => f.classList.contains('chart-ready') || f.querySelector('.chart-error'))"""

CHECK = """() => {
  const width = window.innerWidth;
  const items = [...document.querySelectorAll('.mainnav > ul > li')];
  const rows = new Set(items.map(li => Math.round(li.getBoundingClientRect().top)));
  const signOut = document.querySelector('.topbar form.signout button');
  const wide = [...document.querySelectorAll('main *')].filter(el => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.right > width + 1;
  }).slice(0, 3).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : ''));
  return {
    scrollWidth: document.documentElement.scrollWidth, width, menuRows: rows.size,
    signOutRight: signOut ? signOut.getBoundingClientRect().right : 0, wide,
    csp: window.__cspViolations,
  };
}"""


def kind_of(path: str) -> str | None:
    return next((k for k, pattern in KINDS.items() if re.fullmatch(pattern, path)), None)


def links_on(page, live_server) -> list[str]:
    """Paths of the menu's links and the page's own (same site, no query, no download)."""
    hrefs = page.eval_on_selector_all(
        ".topbar a[href], main a[href]:not([download])", "links => links.map(a => a.href)"
    )
    paths = []
    for href in hrefs:
        parts = urlsplit(href)
        if href.startswith(live_server.url) and not parts.query and not FOREIGN.match(parts.path):
            paths.append(parts.path)
    return paths


def errors_on(page, found: dict) -> list[str]:
    """The console's errors and the Content Security Policy's violations since the last
    clear, the page's own report (`found["csp"]`, from CHECK) included; a few, sorted."""
    errors = [m for m in page.console_messages if m.startswith(("error", "pageerror"))]
    errors += [m for m in page.console_messages if "Content Security Policy" in m]
    errors += page.csp_violations + found["csp"]
    return sorted(set(errors))[:3]


def walk(page, live_server, width: int, problems: list[str]) -> set[str]:
    """Visit the role's menu and one page of each kind it leads to; what was reached."""
    menu = [p for p in links_on(page, live_server) if kind_of(p) is None]
    queue, seen, reached = list(dict.fromkeys(menu)), set(), set()
    while queue:
        path = queue.pop(0)
        kind = kind_of(path)
        if path in seen or (kind in reached and kind not in EVERY):
            continue
        seen.add(path)
        page.console_messages.clear()
        page.csp_violations.clear()
        answer = page.goto(f"{live_server.url}{path}")
        if answer is None or answer.status >= 400:
            problems.append(f"{width}px {path}: answered {answer and answer.status}")
            continue
        page.wait_for_function(SETTLED)
        reached.add(kind or path)
        found = page.evaluate(CHECK)
        if found["scrollWidth"] > found["width"]:
            problems.append(
                f"{width}px {path}: the page is {found['scrollWidth']} px wide ({found['wide']})"
            )
        if found["signOutRight"] > found["width"]:
            problems.append(f"{width}px {path}: Sign out is cut off")
        if width >= 1440 and found["menuRows"] > 1:
            problems.append(f"{width}px {path}: the menu wraps onto {found['menuRows']} rows")
        if errors := errors_on(page, found):
            problems.append(f"{width}px {path}: {errors}")
        queue += [p for p in links_on(page, live_server) if kind_of(p) and p not in seen]
    return reached


def test_every_page_of_every_role_fits_a_phone_and_a_desktop(browser, live_server, tmp_path):
    roles = build_world(tmp_path)
    problems: list[str] = []
    for role, username in roles.items():
        for width, height in WIDTHS.values():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = recording_page(context)
            sign_in(page, live_server, username, to="/reflections/")
            reached = walk(page, live_server, width, problems)
            missing = MUST_REACH[role] - reached
            assert not missing, f"{role} at {width} px never reached {sorted(missing)}"
            context.close()
    assert problems == [], "\n".join(problems)
