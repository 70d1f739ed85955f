"""Atomic file writes: write to a temporary file in the target's folder, then rename over the target.

A failure leaves no partial file; the final file gets the usual permissions (0666 minus the umask), not
the 0600 of a temporary file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_path"]


@contextmanager
def atomic_path(target: str | os.PathLike[str], suffix: str = ".tmp") -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success rename it to ``target``, else delete it."""
    final = Path(target)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=suffix, dir=final.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, final)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
