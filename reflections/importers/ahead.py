"""Parsing an import's files while Django starts.

`manage.py import_reflections DIR` spends about a second importing Django and the project
before the command runs, one core busy and the other idle; a workspace of 10,000 files then
takes about four seconds more. The parser workers need nothing of Django (pool.py), so
manage.py hands its command line to `parse_ahead` before Django is imported: it walks the
paths and starts the parser pool on them there and then, in a process light enough to fork
in a millisecond. The import service `claim`s what was started when its paths are the very
same, and uses the time the parse started with as its own `now` (a parse reads only the files
and that time).

Anything else starts nothing or is cancelled: a command line this parser does not
understand (an option it does not know, `--help`), a path that does not exist (the command
says so), too few files to need the pool, an import of other paths. The command then walks
and parses as it always does. Linux only (the workers are forked; elsewhere they would be
spawned, re-importing this module per worker).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from reflections.importers.base import Rejection
from reflections.importers.pool import PoolParse, forks_workers, start_pool
from reflections.importers.workspace import SourceFile, iter_reflection_files

# The options of `import_reflections` that take a value, and its flags, with Django's own
# for every command (tests/reflections/test_parse_ahead.py checks that none is missing).
VALUE_OPTIONS = (
    ("--default-department",),
    ("--settings",),
    ("--pythonpath",),
    ("-v", "--verbosity"),
)
FLAGS = (
    "--create-departments",
    "--json",
    "--traceback",
    "--no-color",
    "--force-color",
    "--skip-checks",
    "--version",
)


@dataclass
class Ahead:
    """What `parse_ahead` started: the walk of `paths` and the pool parsing its files."""

    paths: list[str]
    now: datetime
    walked: list[SourceFile | Rejection]
    parsing: PoolParse
    claimed: bool = False


_started: Ahead | None = None


class _NotUnderstood(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise _NotUnderstood(message)  # never print or exit: the command's parser will


def command_paths(argv: list[str]) -> list[str] | None:
    """The paths of an `import_reflections` command line (the arguments after its name), as
    the command reads them; None for anything this parser does not understand."""
    parser = _Parser(add_help=False, allow_abbrev=False)
    parser.add_argument("paths", nargs="+", type=Path)
    for names in VALUE_OPTIONS:
        parser.add_argument(*names)
    for flag in FLAGS:
        parser.add_argument(flag, action="store_true")
    try:
        args = parser.parse_args(argv)
    except _NotUnderstood:
        return None
    if args.version:
        return None
    return [str(p) for p in args.paths]


def parse_ahead(argv: list[str]) -> None:
    """Start parsing the files of an `import_reflections` command line (the arguments after
    its name), if it is understood and its files are enough to need the pool. Call before
    anything starts a thread: the workers are forked."""
    global _started
    paths = command_paths(argv)
    if paths is None or not all(os.path.lexists(p) for p in paths):
        return
    if not forks_workers():
        return
    now = datetime.now(UTC)
    walked = list(iter_reflection_files([Path(p) for p in paths]))
    sources = [item for item in walked if not isinstance(item, Rejection)]
    parsing = start_pool(sources, now=now)
    if parsing is None:
        return
    _started = Ahead(paths=paths, now=now, walked=walked, parsing=parsing)


def claim(paths: list[Path | str]) -> Ahead | None:
    """What `parse_ahead` started for exactly these paths, once; None (and what was started
    cancelled) otherwise."""
    ahead = _started
    if ahead is None or ahead.claimed:
        return None
    if [str(Path(p)) for p in paths] != ahead.paths:
        stop()
        return None
    ahead.claimed = True
    return ahead


def stop() -> bool:
    """Cancel what `parse_ahead` started and is still parsing: manage.py calls this when the
    command ends, so that a command that stopped early (a refused option, an error before or
    during its import) exits at once instead of waiting, at the interpreter's exit, for the
    pool to parse every file. After an import that took every file, there is nothing left to
    cancel. Returns whether a parse had been started."""
    global _started
    ahead, _started = _started, None
    if ahead is not None:
        ahead.parsing.cancel()
    return ahead is not None
