#!/usr/bin/env python
"""Django's command-line utility for Reflexion Review."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    ahead = None
    if sys.argv[1:2] == ["import_reflections"]:
        # Its files are parsed while Django starts (reflections/importers/ahead.py).
        from reflections.importers import ahead

        ahead.parse_ahead(sys.argv[2:])
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    finally:
        if ahead:
            ahead.stop()  # what the import did not take, if it stopped early


if __name__ == "__main__":
    main()
