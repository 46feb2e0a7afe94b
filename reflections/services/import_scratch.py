"""Where a web import unpacks its zips: a private folder in memory when they fit.

Unpacking writes one file a member. On this project's machines' disks each costs ~0.5 ms (an
unchanged re-import of the demo's zip, 6,884 members: 3.6 of its 12.7 s); in a file system in
memory ~25 µs. So a job unpacks under IMPORT_SCRATCH_ROOT (`/dev/shm` by default) when what its
zips' directories say they expand to leaves at least half of that file system free, and beside
its uploads otherwise. The archive's own checks (sizes, count, ratio, counted again while
unpacking) run either way (reflections.importers.archive)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

from django.conf import settings

PREFIX = "reflexion-import-"  # a job's folder: <prefix><job id>-<random>, mode 0700
LEFT_FOR = 24 * 3600  # seconds after which a job's folder is a killed job's leftovers


def scratch_folder(job_pk: int, uploads: Path) -> Path | None:
    """A new private folder for the job under IMPORT_SCRATCH_ROOT, or None when it is unset,
    missing, not writable, or the uploads would leave less than half of it free."""
    scratch = settings.IMPORT_SCRATCH_ROOT
    if not (scratch and os.path.isdir(scratch) and os.access(scratch, os.W_OK)):
        return None
    sweep(Path(scratch))
    usage = shutil.disk_usage(scratch)
    if expanded_size(uploads) > usage.free - usage.total / 2:
        return None
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{job_pk}-", dir=scratch))


def expanded_size(uploads: Path) -> int:
    """The bytes the stored uploads expand to, as their zips' directories state them."""
    total = 0
    for stored in uploads.glob("*"):
        size = stored.stat().st_size
        if stored.suffix == ".zip":
            try:
                with zipfile.ZipFile(stored) as archive:
                    size = sum(info.file_size for info in archive.infolist())
            except (zipfile.BadZipFile, OSError):
                pass  # refused, with the reason, when it is unpacked
        total += size
    return total


def sweep(scratch: Path, *, now: float | None = None) -> None:
    """Folders a job left in memory when its worker was killed mid-import, deleted a day on
    before another job unpacks there. By age, not by the job's row: another installation (or
    another test process) may share the folder, with job ids of its own."""
    now = time.time() if now is None else now
    for path in scratch.glob(f"{PREFIX}*"):
        try:
            old = now - path.lstat().st_mtime > LEFT_FOR
        except OSError:
            continue
        if old and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
