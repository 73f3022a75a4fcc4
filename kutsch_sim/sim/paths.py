"""Output folders: prove they can be written before any work starts; name a write that fails."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..errors import KutschError


def probe_writable_dir(path: Path, what: str = "output") -> Path:
    """Create ``path`` (and parents) if needed and write + delete a probe file in it.

    ``os.access`` is not enough: as root it says yes to read-only mounts and /proc. If the
    probe fails, the folders it created are removed again and :class:`WriteFault` is raised."""
    p = Path(path).expanduser().absolute()
    missing = [q for q in (p, *p.parents) if not q.exists()]  # innermost first
    try:
        p.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=p)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        for q in missing:
            with contextlib.suppress(OSError):
                q.rmdir()
        raise WriteFault(p, e, what=what) from None
    return p


class WriteFault(KutschError):
    """A file of a run or a report could not be written (disk full, folder made read-only).

    ``kept`` says what is safe on disk and how to go on; the writer of a run fills it in, so
    the user reads one line: the path, the reason, what was kept and the way on."""

    def __init__(self, path: Path | str, error: OSError, kept: str = "", what: str = ""):
        self.path = Path(path)
        self.what = what  # "the results", "the report", ...: the folder a probe could not write
        self.errno = error.errno
        text = str(error).strip().splitlines()
        # the system's words for the errno: pyarrow's OSError carries the errno in a long text of its own
        self.reason = os.strerror(error.errno) if error.errno else (
            error.strerror or (text[0] if text else type(error).__name__))
        self.kept = kept
        super().__init__(str(self))

    @property
    def remedy(self) -> str:
        """What the user must do before trying again."""
        folder = self.path if self.what else self.path.parent
        if self.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return f"free some space on the disk of {folder}"
        if self.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return f"make {folder} writable"
        return "fix the cause"

    def __str__(self) -> str:
        head = f"cannot write the {self.what} to {str(self.path)!r}" if self.what else f"cannot write {self.path}"
        return f"{head}: {self.reason}" + (f"; {self.kept}" if self.kept else "")


T = TypeVar("T")


def write_staged(out: Path, write: Callable[[Path], T]) -> T:
    """``write(folder)`` into a fresh folder inside ``out``, then move what it wrote into ``out``.

    The moves are renames on one disk, which need no space, so a write that fails (disk full,
    folder made read-only) leaves ``out`` as it was: no half-written file, an older report
    intact. Raises :class:`WriteFault` naming the file as it would have been in ``out``."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".staging-", dir=out))
    except OSError as e:
        raise WriteFault(out, e, what="output") from None
    try:
        result = write(stage)
        for entry in sorted(stage.iterdir()):
            dest = out / entry.name
            if dest.is_dir() and not dest.is_symlink():  # a folder cannot be replaced in one rename
                dest.rename(stage / f".old-{entry.name}")
            os.replace(entry, dest)
        return result
    except OSError as e:
        name = Path(e.filename) if isinstance(e.filename, str) else None
        if name is not None and name.is_relative_to(stage):
            name = out / name.relative_to(stage)
        raise WriteFault(name or out, e) from None
    finally:
        shutil.rmtree(stage, ignore_errors=True)
