"""The reflection files write-back touches: found safely under the root, read only when they
hold what was imported, re-read as the importer would, replaced atomically."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from datetime import datetime
from pathlib import Path, PurePosixPath

from reflections.importers.base import (
    MAX_REFLECTION_FILE_BYTES,
    ParsedReflection,
    ParseError,
    content_hash,
    normalise_text,
)
from reflections.importers.registry import parse_text
from reflections.importers.workspace import HEAD_BYTES, detect_format
from reflections.models import Reflection

BOM = b"\xef\xbb\xbf"


class Skip(Exception):
    """A file write-back leaves alone: `outcome` is the report's column, `detail` says why."""

    def __init__(self, outcome: str, detail: str):
        self.outcome = outcome
        self.detail = detail
        super().__init__(detail)


def resolve_source_file(root: Path, source_path: str) -> Path:
    """The file a source path names under the (resolved) root. Refuses paths that leave the
    root, by `..`, an absolute path or a symlink, like the importer's walk (workspace.py)."""
    relative = PurePosixPath(source_path)
    if (
        not source_path
        or relative.is_absolute()
        or ".." in relative.parts
        or "\\" in source_path
        or "#" in source_path
    ):
        raise Skip("refused", f"the source path {source_path!r} is not a file path inside the root")
    path = root.joinpath(*relative.parts)
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise Skip("refused", f"cannot resolve the path: {exc}") from None
    if not resolved.is_relative_to(root):
        raise Skip("refused", f"symlink points outside the workspace ({source_path} → {resolved})")
    if not os.path.lexists(path) or not resolved.exists():
        raise Skip("missing", f"no file at {path}")
    if not resolved.is_file():
        raise Skip("refused", f"{path} is not a regular file")
    return resolved


def read_imported_text(path: Path, reflection: Reflection) -> tuple[bytes, str]:
    """The file's bytes and normalised text, if its text is still the one imported."""
    with open(path, "rb") as handle:
        raw = handle.read(MAX_REFLECTION_FILE_BYTES + 1)
    try:
        text = normalise_text(raw) if len(raw) <= MAX_REFLECTION_FILE_BYTES else None
    except ParseError:
        text = None
    if text is None or content_hash(text) != reflection.content_hash:
        raise Skip(
            "changed_since_import",
            "the file's content no longer matches the imported text (hash "
            f"{reflection.content_hash[:12]}…); import it again or edit it by hand",
        )
    return raw, text


def encode_like(raw: bytes, text: str) -> bytes:
    """`text` with the original file's BOM and line endings (the hash ignores both)."""
    if b"\r\n" in raw:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    return BOM + data if raw.startswith(BOM) else data


def check_importer_reads(
    data: bytes, text: str, reflection: Reflection, *, reasons: tuple[str, ...], now: datetime
) -> None:
    """Never write a file the next import would reject, read as another format, or read with
    a deprecated_reason other than one of `reasons`."""
    fmt = detect_format(reflection.source_path, data[:HEAD_BYTES])
    parsed = (
        parse_text(text, fmt=fmt, source_path=reflection.source_path, now=now)
        if fmt == reflection.format
        else []
    )
    problem = ""
    if fmt != reflection.format:
        problem = f"it would be read as {fmt or 'no known format'}, not {reflection.format}"
    elif len(parsed) != 1 or not isinstance(parsed[0], ParsedReflection):
        problem = parsed[0].reason if parsed else "it would hold no reflection"
    elif parsed[0].deprecated_reason not in reasons:
        problem = f"it would declare the reason {parsed[0].deprecated_reason!r}"
    if problem:
        raise Skip(
            "unsupported",
            f"the importer could not read the file as edited ({problem}); "
            "the file was left as it is",
        )


def replace_if_unchanged(path: Path, *, expected: bytes, data: bytes) -> None:
    """Swap in `data` atomically: a temporary file in the same directory, flushed to disk and
    given the original's mode, renamed over the original, and the directory synced."""
    with open(path, "rb") as handle:
        if handle.read(len(expected) + 1) != expected:
            raise Skip("changed_since_import", "the file changed while writing back")
    mode = stat.S_IMODE(os.stat(path).st_mode)
    # A hidden name: should we crash before the rename, the importer's walk skips the leftover.
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    # The rename is done; syncing the directory makes it survive a power cut. Some file systems
    # refuse to sync a directory: that must not undo a write that has already happened.
    with contextlib.suppress(OSError):
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
