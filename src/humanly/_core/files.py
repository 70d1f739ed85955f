"""Input files as a page records them: their SHA-256 and the path as given (or inside the package)."""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["sha256_of", "shown_path"]


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, read in 1 MiB blocks.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile(delete=False) as fh:
    ...     _ = fh.write(b"abc")
    >>> sha256_of(Path(fh.name))[:16]
    'ba7816bf8f01cfea'
    >>> os.unlink(fh.name)
    """
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def shown_path(path: Path) -> str:
    """An input file as given, or relative to the package's folder if humanly ships it (the demo's
    data), so a page made anywhere records the same path.

    >>> shown_path(Path(__file__))
    'humanly/_core/files.py'
    >>> shown_path(Path("/elsewhere/ratings.csv"))
    '/elsewhere/ratings.csv'
    """
    try:
        return Path(path).resolve().relative_to(Path(__file__).resolve().parents[2]).as_posix()
    except ValueError:
        return str(path)
