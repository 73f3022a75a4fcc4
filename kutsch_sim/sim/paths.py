"""Output folders: prove they can be written before any work starts; name a write that fails."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from ..errors import KutschError


def probe_writable_dir(path: Path, what: str = "output") -> Path:
    """Create ``path`` (and parents) if needed and write + delete a probe file in it.

    ``os.access`` is not enough: as root it says yes to read-only mounts and /proc."""
    p = Path(path).expanduser().absolute()
    try:
        p.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=p)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise KutschError(f"cannot write the {what} to {str(p)!r}: {e.strerror or e}") from None
    return p


class WriteFault(KutschError):
    """A file of a run or a report could not be written (disk full, folder made read-only).

    ``kept`` says what is safe on disk and how to go on; the writer of a run fills it in, so
    the user reads one line: the path, the reason, what was kept and the way on."""

    def __init__(self, path: Path | str, error: OSError, kept: str = ""):
        self.path = Path(path)
        self.errno = error.errno
        self.reason = error.strerror or str(error) or type(error).__name__
        self.kept = kept
        super().__init__(str(self))

    @property
    def remedy(self) -> str:
        """What the user must do before trying again."""
        if self.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return f"free some space on the disk of {self.path.parent}"
        if self.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return f"make {self.path.parent} writable"
        return "fix the cause"

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.reason}" + (f"; {self.kept}" if self.kept else "")
