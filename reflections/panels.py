"""Panels other apps add to a reflection's page, registered by those apps: the memory imports none.

An app that audits, rates or charts reflections registers a provider in its AppConfig.ready:

    panels.register(quality_panel)

A provider takes (request, reflection) and returns a Panel (a template and its context) or None
when the person may not see it. The detail page renders each panel's template in turn, in the
order the apps registered them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest


@dataclass(frozen=True)
class Panel:
    template: str
    context: dict = field(default_factory=dict)


Provider = Callable[[HttpRequest, object], Panel | None]
_providers: list[Provider] = []


def register(provider: Provider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def panels_for(request: HttpRequest, reflection) -> list[Panel]:
    return [panel for provider in _providers if (panel := provider(request, reflection))]
