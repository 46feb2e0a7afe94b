"""Imported reflection text as safe HTML: Markdown first, then an allow-list sanitiser.

Reflection text comes from agents and files nobody vetted, so it is hostile until cleaned:
whatever Markdown lets through (raw HTML blocks, inline tags, attribute lists, links) passes
bleach's allow-list before it reaches a page. Only the cleaner's output is marked safe.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass

import bleach
import markdown
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = frozenset(
    {
        "p",
        "br",
        "hr",
        "ul",
        "ol",
        "li",
        "strong",
        "em",
        "code",
        "pre",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "a",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
    }
)
# No class, id or style anywhere: pages' CSS and CSP must not be steerable by imported text.
ALLOWED_ATTRIBUTES = {"a": ["href", "title"]}
ALLOWED_PROTOCOLS = frozenset({"http", "https", "mailto"})
MARKDOWN_EXTENSIONS = ["extra", "sane_lists"]

_local = threading.local()


def _cleaner() -> bleach.sanitizer.Cleaner:
    """This thread's sanitiser: a Cleaner keeps its parser's state between calls, so one shared
    by the threads of a worker mixed two pages' texts now and then (a text came out as the
    end of another one's list)."""
    cleaner = getattr(_local, "cleaner", None)
    if cleaner is None:
        cleaner = _local.cleaner = bleach.sanitizer.Cleaner(
            tags=ALLOWED_TAGS,
            attributes=ALLOWED_ATTRIBUTES,
            protocols=ALLOWED_PROTOCOLS,
            strip=True,
            strip_comments=True,
        )
    return cleaner


def _markdown() -> markdown.Markdown:
    """This thread's converter: building one loads every extension (~0.1 ms of a section's
    0.2); reset between texts, it converts each as a fresh one would."""
    converter = getattr(_local, "markdown", None)
    if converter is None:
        converter = _local.markdown = markdown.Markdown(
            extensions=MARKDOWN_EXTENSIONS, output_format="html"
        )
    return converter.reset()


def render_markdown(text: str) -> SafeString:
    if not text:
        return mark_safe("")
    html = _markdown().convert(text)
    return mark_safe(_cleaner().clean(html))  # noqa: S308 - the allow-list cleaner's output


@dataclass(frozen=True)
class RenderedSection:
    heading: str  # plain text: the template escapes it
    html: SafeString


def render_sections(sections: Iterable) -> list[RenderedSection]:
    """Each {"heading", "body"} section with its body rendered; malformed entries are skipped."""
    rendered = []
    for section in sections or ():
        if not isinstance(section, dict):
            continue
        heading = str(section.get("heading") or "").strip()
        body = section.get("body")
        rendered.append(RenderedSection(heading=heading, html=render_markdown(str(body or ""))))
    return rendered
