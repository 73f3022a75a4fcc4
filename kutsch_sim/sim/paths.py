"""Output folders: prove they can be written before any work starts."""

from __future__ import annotations

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
