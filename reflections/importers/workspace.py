"""Finding reflection files on disk: workspace-relative identity, format detection, safe reads."""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from reflections.importers.base import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
    ParsedReflection,
    Rejection,
)
from reflections.importers.registry import max_bytes, parse_bytes

# Where each reflection tree starts inside a workspace; the source path begins here.
CONVENTIONAL_PREFIXES = (
    ("memory", "reflections"),
    ("memory", "reflexions"),
    (".aiwg", "ralph", "reflections"),
)
_PREFIX_MARKS = tuple(f"/{'/'.join(prefix)}/" for prefix in CONVENTIONAL_PREFIXES)
REFLECTION_SUFFIXES = frozenset({".md", ".json", ".jsonl"})
# Suffixes a binary file must not hide behind (a .jsonl binary is more likely a stray log).
TEXT_REFLECTION_SUFFIXES = frozenset({".md", ".json"})
SKIPPED_DIRS = frozenset({"__pycache__", ".git", "node_modules"})
HEAD_BYTES = 64 * 1024
_BOM = b"\xef\xbb\xbf"
_BINARY = "binary file (it contains NUL bytes), not a UTF-8 text"
_PROTOCOL_H1 = (b"# Reflection:", b"# Procedure:", b"# Decision:")
_UNRECOGNISED = {
    ".md": "expected YAML front matter ('---' on line 1) or an H1 '# Reflection:', "
    "'# Procedure:' or '# Decision:'",
    ".json": "expected an episodic reflection (an object with 'self_reflection')",
    ".jsonl": "expected one heuristic per line (objects with 'scenario_id' and 'guideline')",
}


@dataclass(frozen=True)
class SourceFile:
    abs_path: str  # resolved
    source_path: str  # relative to the workspace root, POSIX separators
    format: str  # "" until read: detect_format runs on the content (read_source)


@dataclass(frozen=True)
class SourceText:
    """A reflection file that arrives as text (the API) instead of being read from disk."""

    source_path: str  # workspace-relative, checked by check_source_path
    raw: bytes


def check_source_path(path: object) -> str | None:
    """Why `path` cannot name a file of a workspace (None when it can): a relative POSIX path
    inside the tree, with a reflection suffix, the same identity the walk gives a file."""
    if not isinstance(path, str) or not path.strip():
        return "path: required, a workspace-relative path such as memory/reflections/x.md"
    if len(path) > 512:
        return f"path: is {len(path):,} characters; the limit is 512"
    if any(ord(c) < 32 or c == "\x7f" for c in path) or "\\" in path:
        return "path: control characters and backslashes are not allowed; use '/'"
    parts = path.split("/")
    if path.startswith("/") or ":" in parts[0]:
        return "path: must be relative to the workspace root, not absolute"
    if any(part in ("", ".", "..") for part in parts):
        return "path: empty, '.' and '..' segments are not allowed"
    if Path(parts[-1]).suffix.lower() not in REFLECTION_SUFFIXES:
        return "path: expected a .md, .json or .jsonl reflection file"
    return None


def read_text_source(st: SourceText, *, now: datetime) -> list[ParsedReflection | Rejection]:
    """Parse a file given as text, by the rules a file on disk follows (limits, detection)."""
    raw = st.raw
    fmt = detect_format(st.source_path, raw[:HEAD_BYTES]) if b"\x00" not in raw[:8192] else None
    limit = max_bytes(fmt or "")
    if len(raw) > limit:
        return [_too_big(SourceFile(st.source_path, st.source_path, fmt or ""), len(raw), limit)]
    if b"\x00" in raw[:8192]:
        return [Rejection(st.source_path, None, _BINARY)]
    if fmt is None:
        suffix = Path(st.source_path).suffix.lower()
        detail = _UNRECOGNISED.get(suffix, f"unsupported file type {suffix!r}")
        return [Rejection(st.source_path, None, f"not a recognised reflection format: {detail}")]
    return parse_bytes(raw, fmt=fmt, source_path=st.source_path, now=now)


def detect_format(source_path: str, head: bytes) -> str | None:
    """The reflection format of a file, from its path and its first bytes; None if it is none.

    Content decides first. The conventional tree then decides for Markdown that matches
    neither shape, so its parser can say exactly what is wrong (a missing H1, say).
    """
    name = source_path.rsplit("/", 1)[-1].lower()
    path = "/" + source_path
    head = head.removeprefix(_BOM)
    first = _first_line(head)
    if name.endswith(".md"):
        if head.split(b"\n", 1)[0].rstrip(b"\r \t") == b"---":
            # A protocol file a review wrote back has a small block before its H1.
            _, closed, rest = head.split(b"\n", 1)[-1].partition(b"\n---")
            if closed and _first_line(rest.split(b"\n", 1)[-1]).startswith(_PROTOCOL_H1):
                return FORMAT_PROTOCOL
            return FORMAT_FRONTMATTER
        if first.startswith(_PROTOCOL_H1):
            return FORMAT_PROTOCOL
        if "/memory/reflections/" in path:
            return FORMAT_PROTOCOL
        if "/memory/reflexions/" in path:
            return FORMAT_FRONTMATTER
        return None
    if name.endswith(".json"):
        if "/ralph/reflections/" in path or b'"self_reflection"' in head:
            return FORMAT_EPISODIC
        return None
    if name.endswith(".jsonl"):
        try:
            record = json.loads(first)
        except (ValueError, RecursionError):
            # A first line longer than the head cannot be decoded: judge it by its keys.
            record = {k: 1 for k in ("scenario_id", "guideline") if f'"{k}"'.encode() in first}
        if isinstance(record, dict) and "scenario_id" in record and "guideline" in record:
            return FORMAT_HEURISTIC
    return None


def iter_reflection_files(paths: Iterable[Path | str]) -> Iterator[SourceFile | Rejection]:
    """Every reflection file under `paths` (files or directories), sorted by source path.

    Files that are plainly not reflections (logs, images, a README outside memory/) are
    skipped silently; files that should be reflections but are not readable as one are
    rejected with the reason.
    """
    walk = _Walk()
    for arg in paths:
        walk.add(Path(arg))
    yield from walk.results()


def read_source(sf: SourceFile, *, now: datetime) -> list[ParsedReflection | Rejection]:
    """Read, decode and parse one file; every failure is a Rejection, never an exception."""
    limit = max_bytes(sf.format)
    try:
        # os-level calls: a buffered file object and a read(limit + 1) buffer (256 KB, to
        # keep only a few KB) cost five times the reading itself, which runs 100,000 times.
        fd = os.open(sf.abs_path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        try:
            size = os.fstat(fd).st_size
            # Checked before reading: an oversized file is never loaded into memory.
            if size > limit:
                return [_too_big(sf, size, limit)]
            raw = _read_up_to(fd, size, limit + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        return [Rejection(sf.source_path, None, f"cannot read the file: {exc.strerror or exc}")]
    if len(raw) > limit:  # it grew after the stat
        return [_too_big(sf, len(raw), limit)]
    fmt = sf.format
    if not fmt:
        if b"\x00" in raw[:8192]:
            return [Rejection(sf.source_path, None, _BINARY)]
        fmt = detect_format(sf.source_path, raw[:HEAD_BYTES])
        if fmt is None:  # _format_follows_from_content promised otherwise
            return [Rejection(sf.source_path, None, "not a recognised reflection format")]
    return parse_bytes(raw, fmt=fmt, source_path=sf.source_path, now=now)


def _read_up_to(fd: int, size: int, most: int) -> bytes:
    """The file's bytes, `most` at the most: its size as stated, and whatever it grew by."""
    parts, total, want = [], 0, size + 1
    while total < most and (part := os.read(fd, min(want, most - total))):
        parts.append(part)
        total += len(part)
        want = 1 << 16
    return b"".join(parts)


def parse_paths(
    paths: Iterable[Path | str], *, now: datetime
) -> Iterator[ParsedReflection | Rejection]:
    """Walk `paths` and parse every reflection file found: the one-call importer front end."""
    for item in iter_reflection_files(paths):
        if isinstance(item, Rejection):
            yield item
        else:
            yield from read_source(item, now=now)


class _Walk:
    """Paths are plain strings here: the walk visits every file of a 100,000-file tree, and
    pathlib's objects (parsing, hashing, comparing their parts) cost ten times the walk itself.
    Every path is absolute and resolved, joined with "/" from a resolved directory."""

    def __init__(self) -> None:
        self.files: dict[str, SourceFile] = {}
        self.rejections: dict[tuple[str, str], Rejection] = {}
        self._roots: dict[str, str | None] = {}

    def results(self) -> list[SourceFile | Rejection]:
        by_source: dict[str, SourceFile] = {}
        # In pathlib's order (by parts), so that the same file comes first as before.
        for path in sorted(self.files, key=_parts):
            sf = self.files[path]
            first = by_source.setdefault(sf.source_path, sf)
            if first is not sf:
                # Two workspaces with the same layout would overwrite each other's reflections.
                self.reject(
                    sf.source_path,
                    f"{first.abs_path} and {sf.abs_path} have the same source path; "
                    "import the workspaces separately",
                )
        items: list[SourceFile | Rejection] = [*by_source.values(), *self.rejections.values()]
        return sorted(items, key=_sort_key)

    def reject(self, path: str, reason: str, line: int | None = None) -> None:
        self.rejections.setdefault((path, reason), Rejection(path, line, reason))

    def add(self, arg: Path) -> None:
        if not os.path.lexists(arg):
            self.reject(str(arg), "no such file or directory")
            return
        try:
            top = arg.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            self.reject(str(arg), f"cannot resolve the path: {exc}")
            return
        if top.is_dir():
            self.walk(str(top))
        elif top.is_file():
            self.file(str(top), fallback_root=str(top.parent), explicit=True)
        else:
            self.reject(str(arg), "not a regular file or directory")

    def walk(self, top: str) -> None:
        stack, seen = [top], {top}
        while stack:
            directory = stack.pop()
            try:
                entries = sorted(os.scandir(directory), key=_NAME)
            except OSError as exc:
                where = self.source_path(directory, top)
                self.reject(where, f"cannot list the directory: {exc.strerror or exc}")
                continue
            for entry in entries:
                name = entry.name
                if (name.startswith(".") and name != ".aiwg") or name in SKIPPED_DIRS:
                    continue
                path = entry.path
                if entry.is_symlink():
                    followed = self.follow(path, top)
                    if followed is None:
                        continue
                    path = followed
                    is_dir = os.path.isdir(path)
                else:
                    is_dir = entry.is_dir(follow_symlinks=False)
                    if not is_dir and not entry.is_file(follow_symlinks=False):
                        continue  # sockets, fifos, devices
                if is_dir:
                    if path not in seen:
                        seen.add(path)
                        stack.append(path)
                else:
                    self.file(path, fallback_root=top, explicit=False)

    def follow(self, link: str, top: str) -> str | None:
        """A symlink's target if it stays inside the tree; otherwise reject it, unfollowed."""
        try:
            target = Path(link).resolve()
        except (OSError, RuntimeError):  # a loop
            target = None
        # A directory may hold reflections; of files, only reflection-looking names matter.
        relevant = _suffix(link).lower() in REFLECTION_SUFFIXES or (
            target is not None and target.is_dir()
        )
        if target is None or not target.exists():
            if relevant or target is None:
                self.reject(self.source_path(link, top), "broken symlink (its target is missing)")
            return None
        if not target.is_relative_to(top):
            if relevant:
                where = self.source_path(link, top)
                self.reject(where, f"symlink points outside the workspace ({where} → {target})")
            return None
        return str(target)

    def file(self, path: str, *, fallback_root: str, explicit: bool) -> None:
        suffix = _suffix(path).lower()
        if path in self.files or (not explicit and suffix not in REFLECTION_SUFFIXES):
            return
        source_path = self.source_path(path, fallback_root)
        if not explicit and _format_follows_from_content(source_path, suffix):
            # Detected when the file is read (by the parallel parsers): opening every file
            # here too would double the cost of walking a 100,000-file tree.
            self.files[path] = SourceFile(path, source_path, "")
            return
        try:
            with open(path, "rb") as handle:
                head = handle.read(HEAD_BYTES)
        except OSError as exc:
            self.reject(source_path, f"cannot read the file: {exc.strerror or exc}")
            return
        in_tree = _in_conventional_tree(source_path)
        expected = (
            explicit
            or in_tree
            or (suffix == ".md" and source_path.startswith("memory/"))
            or (suffix == ".jsonl" and _looks_heuristic(source_path, head))
        )
        if b"\x00" in head[:8192]:
            if expected or suffix in TEXT_REFLECTION_SUFFIXES:
                self.reject(source_path, _BINARY)
            return
        fmt = detect_format(source_path, head)
        if fmt is not None:
            self.files[path] = SourceFile(path, source_path, fmt)
        elif expected:
            detail = _UNRECOGNISED.get(suffix, f"unsupported file type {suffix or '(none)'!r}")
            self.reject(source_path, f"not a recognised reflection format: {detail}")

    def source_path(self, path: str, fallback_root: str) -> str:
        # From the innermost conventional tree on, when something follows it.
        start = max(path.rfind(mark) for mark in _PREFIX_MARKS)
        if start >= 0:
            return path[start + 1 :]
        root = self._workspace_root(os.path.dirname(path)) or fallback_root
        try:
            return Path(path).relative_to(root).as_posix()
        except ValueError:
            return path.rsplit("/", 1)[-1]

    def _workspace_root(self, directory: str) -> str | None:
        """The nearest ancestor holding a memory/ or .aiwg/ directory, cached per directory."""
        if directory not in self._roots:
            path = Path(directory)
            self._roots[directory] = next(
                (
                    str(d)
                    for d in (path, *path.parents)
                    if (d / "memory").is_dir() or (d / ".aiwg").is_dir()
                ),
                None,
            )
        return self._roots[directory]


def _suffix(path: str) -> str:
    """pathlib's suffix of a path's last part: from its last dot, unless it leads or ends it."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


_NAME = operator.attrgetter("name")


def _parts(path: str) -> list[str]:
    return path.split("/")


def _format_follows_from_content(source_path: str, suffix: str) -> bool:
    """True where detect_format always finds a format, whatever the file holds."""
    if suffix == ".md":
        return source_path.startswith(("memory/reflections/", "memory/reflexions/"))
    return suffix == ".json" and source_path.startswith(".aiwg/ralph/reflections/")


def _in_conventional_tree(source_path: str) -> bool:
    return source_path.startswith(("memory/reflections/", "memory/reflexions/", ".aiwg/ralph/"))


def _looks_heuristic(source_path: str, head: bytes) -> bool:
    """A .jsonl file meant as heuristics: in a heuristics/ folder or naming their keys.

    Such a file that cannot be read as heuristics is reported; other .jsonl files (logs,
    datasets) are none of the importer's business.
    """
    return "heuristics/" in source_path.lower() or b'"scenario_id"' in head


def _first_line(head: bytes) -> bytes:
    for line in head.split(b"\n", 200):
        if line.strip():
            return line.strip()
    return b""


def _too_big(sf: SourceFile, size: int, limit: int) -> Rejection:
    return Rejection(
        sf.source_path,
        None,
        f"the file is {_size(size)}; the limit for {sf.format or 'reflection'} files is "
        f"{_size(limit)}",
    )


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB ({n:,} bytes)"
    if n >= 1024:
        return f"{n / 1024:.0f} KB ({n:,} bytes)"
    return f"{n:,} bytes"


def _sort_key(item: SourceFile | Rejection) -> tuple[str, int, str]:
    if isinstance(item, SourceFile):
        return (item.source_path, 0, "")
    return (item.path, 1, item.reason)
