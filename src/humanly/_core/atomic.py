"""Atomic file writes: write a temporary file in the target's folder, then publish it under the final
name in one step.

* ``overwrite=True``: :func:`os.replace` — readers see the old file or the new one, never a part.
* ``overwrite=False``: :func:`os.link` — fails if the name exists, so of two processes writing the same
  new file exactly one wins and the other gets an :class:`OutputExists` error (a plain existence check
  followed by a rename would let the later rename silently replace the first file). Where hard links
  are not supported the name is claimed with an exclusive create before the rename.

The temporary file is removed on every exit: an exception, ``KeyboardInterrupt``, ``SystemExit`` (the
command line turns SIGTERM and SIGHUP into one, see :func:`exit_on_signals`), and at interpreter exit
for any still registered. The final file gets the usual permissions (0666 minus the umask), not the
0600 of a temporary file.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with atomic_path(folder / "a.txt", overwrite=False) as tmp:
...     _ = tmp.write_text("one")
>>> with atomic_path(folder / "a.txt", overwrite=False) as tmp:  # doctest: +ELLIPSIS
...     _ = tmp.write_text("two")
Traceback (most recent call last):
humanly._core.atomic.OutputExists: ... exists; choose another path or pass force=True to overwrite it
>>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
('one', ['a.txt'])
"""

from __future__ import annotations

import atexit
import errno
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from ..errors import InputError, setting

__all__ = ["OutputExists", "atomic_folder", "atomic_path", "exit_on_signals", "require_writable"]

#: temporary files and folders of writes in progress (removed at interpreter exit if still there)
_LIVE: set[Path] = set()


class OutputExists(InputError):
    """The output file exists and overwriting was not asked for."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} exists; choose another path or pass {setting('force', True)} to overwrite it"
        )
        self.path = path


def require_writable(folder: Path, option: str, path: Path) -> None:
    """Refuse, before any work, an existing ``folder`` this process cannot write a file in: tested by
    creating and removing a temporary file, which also catches read-only file systems and folders that
    even root may not write. The message names ``option`` and the ``path`` the user gave.

    >>> require_writable(Path("/proc"), "-o", Path("/proc/r.html"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    humanly.errors.InputError: -o /proc/r.html: cannot write in folder /proc (...); choose another -o
    """
    try:
        fd, name = tempfile.mkstemp(prefix=".humanly-check-", dir=folder)
    except OSError:
        raise InputError(
            f"{option} {path}: cannot write in folder {folder} (read-only or no permission); "
            f"choose another {option}"
        ) from None
    os.close(fd)
    os.unlink(name)


@contextmanager
def atomic_path(
    target: str | os.PathLike[str], suffix: str = ".tmp", *, overwrite: bool = True
) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; when the block succeeds, publish it as ``target``
    (replacing an existing file only if ``overwrite``); on any exit, remove the temporary file."""
    final = Path(target)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=suffix, dir=final.parent)
    tmp = Path(name)
    _LIVE.add(tmp)
    try:
        os.close(fd)
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        _publish(tmp, final, overwrite)
    finally:
        tmp.unlink(missing_ok=True)
        _LIVE.discard(tmp)


@contextmanager
def atomic_folder(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary folder beside ``target``; when the block succeeds, publish its files as
    ``target`` in one step: a new folder is the temporary one renamed; an existing folder keeps the
    files of other names it holds (hard-linked into the new one) and is swapped for it with two
    renames. On any exit the temporary folder (and a swapped-out old one) is removed, so a stopped
    export leaves the old folder or the new one, never a part of one, and no hidden files.

    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> with atomic_folder(base / "out") as tmp:
    ...     _ = (tmp / "a.csv").write_text("1")
    >>> sorted(p.name for p in base.iterdir()), (base / "out" / "a.csv").read_text()
    (['out'], '1')
    """
    final = Path(target)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent))
    old = final.parent / f"{tmp.name}.old"
    _LIVE.update((tmp, old))
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~_umask())
        if not final.exists():
            os.rename(tmp, final)
            return
        for existing in final.iterdir():
            if not (tmp / existing.name).exists() and existing.is_file():
                _copy_or_link(existing, tmp / existing.name)
        os.rename(final, old)
        os.rename(tmp, final)
    finally:
        for path in (tmp, old):
            _remove_tree(path)
            _LIVE.discard(path)


def _copy_or_link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        import shutil

        shutil.copy2(source, target)


def _remove_tree(path: Path) -> None:
    if path.is_dir():
        import shutil

        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _publish(tmp: Path, final: Path, overwrite: bool) -> None:
    """Give the finished ``tmp`` its final name (the caller removes the temporary name)."""
    if overwrite:
        os.replace(tmp, final)
        return
    try:
        os.link(tmp, final)
        return
    except FileExistsError:
        raise OutputExists(final) from None
    except OSError as exc:  # no hard links here (some network and FAT file systems)
        if exc.errno not in (
            errno.EPERM,
            errno.ENOTSUP,
            errno.EOPNOTSUPP,
            errno.EMLINK,
            errno.EXDEV,
        ):
            raise
    try:
        os.close(os.open(final, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except FileExistsError:
        raise OutputExists(final) from None
    os.replace(tmp, final)


@atexit.register
def _remove_live() -> None:
    for path in list(_LIVE):
        _remove_tree(path)
    _LIVE.clear()


def _exit(signum: int, frame: FrameType | None) -> None:
    sys.exit(128 + signum)


def exit_on_signals() -> None:
    """Turn SIGTERM and SIGHUP into ``SystemExit`` (status 128 + signal number), so that ``finally``
    blocks — the removal of temporary files — run when a process is asked to stop. For programs (the
    command line), not for a library to call on import."""
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
            try:
                signal.signal(signum, _exit)
            except ValueError:  # not the main thread: leave the default
                return
