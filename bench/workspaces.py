"""The workspaces the import benches read: a demo scale's, generated once under bench/out/, or
a sample of the large one's files."""

from __future__ import annotations

import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def workspace(scale: str, seed: int) -> Path:
    """The demo workspace of `scale` under bench/out/, generated the first time."""
    path = ROOT / f"bench/out/ws-{scale}"
    if not (path / "logs").is_dir():
        from demo.workspace import write_workspace

        print(f"generating the {scale} workspace in {path} …", flush=True)
        started = time.perf_counter()
        write_workspace(path, scale=scale, seed=seed)
        print(f"  generated in {time.perf_counter() - started:.0f} s", flush=True)
    return path


def sampled_workspace(files: int, seed: int) -> Path:
    """A workspace of `files` reflection files drawn evenly from the large one (hard links, so
    that every format, department and month is in it in the large one's proportions)."""
    from reflections.importers.workspace import SourceFile, iter_reflection_files

    path = ROOT / f"bench/out/ws-large-{files}-files"
    if not (path / "memory").is_dir():
        large = workspace("large", seed)
        sources = [s for s in iter_reflection_files([large]) if isinstance(s, SourceFile)]
        if files > len(sources):
            raise SystemExit(f"--files {files}: the large workspace has {len(sources):,} files")
        print(f"linking {files:,} of its {len(sources):,} files into {path} …", flush=True)
        for i in range(files):
            source = sources[i * len(sources) // files]
            target = path / source.source_path
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(source.abs_path, target)
    return path
