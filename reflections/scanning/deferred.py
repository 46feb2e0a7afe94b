"""A module that a library imports but the project never uses, left unimported until something
reads from it.

detect-secrets imports `requests` at the top of its plugins only to verify a found secret with
the vendor online, which the scanner never asks for (a scan never leaves the machine). Importing
it pulls in urllib3, charset_normalizer, idna and ssl: ~0.1 s and 9 MiB resident in a bare
process, 3-5 MiB in a web worker (where asyncio has loaded ssl already), in every process that
scans (each web worker, the task worker, each parser process of an import).
`importlib.util.LazyLoader` does not help: on Python 3.12 the library's own `import requests`
statement reads the module's `__spec__`, which loads it.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager


class _Deferred(types.ModuleType):
    """Stands in for a module; the first attribute read imports the real one and answers from it."""

    def __getattr__(self, attribute: str):
        return getattr(importlib.import_module(self.__name__), attribute)


@contextmanager
def deferred(name: str) -> Iterator[None]:
    """While the block imports other modules, their `import name` binds a stand-in instead of
    importing `name`. The stand-in leaves `sys.modules` with the block, so any later `import
    name` (the project's own, or another library's) gets the real module as usual; the stand-in
    itself imports and defers to it on first use. A module imported already is left alone."""
    if name in sys.modules:
        yield
        return
    stand_in = _Deferred(name)
    sys.modules[name] = stand_in
    try:
        yield
    finally:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
