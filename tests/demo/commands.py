"""Running a management command in a test and reading what it printed."""

from __future__ import annotations

import io

from django.core.management import call_command


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()
