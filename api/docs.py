"""The API's docs page: ninja's Swagger UI, served from this site, never from a CDN."""

from __future__ import annotations

import json

from django.shortcuts import render
from ninja.openapi.docs import Swagger


class LocalSwagger(Swagger):
    """ninja's Swagger page with its own template and the Swagger UI files it ships, which the
    settings add to the template and static directories (NINJA_DIR). ninja itself falls back
    to a CDN's copy when "ninja" is not an installed app, and it is not one here (settings)."""

    def render_page(self, request, api, **kwargs):
        self.settings["url"] = self.get_openapi_url(api, kwargs)
        context = {
            "swagger_settings": json.dumps(self.settings, indent=1),
            "api": api,
            # The API takes bearer tokens only (api/security.py), never the session, so the
            # page's "Try it out" sends no CSRF token.
            "add_csrf": False,
        }
        return render(request, self.template, context)
