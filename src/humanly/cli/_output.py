"""Output paths, checked before any work, with one rule for every command.

* An output **file** (``report -o``, ``simulate -o``, ``--plot``): its folder must exist ("create it
  first") and be writable; the name must not be a folder (even with ``--force``) and must have a
  suffix the command writes; an existing file is kept unless ``--force`` (figures are replaced).
* An output **folder** (``demo -o``, ``budget sweep --out``): it must not be a file; a missing folder is
  created by the command if its parent exists; it (or its parent) must be writable.

Writability is tested by creating and removing a temporary file, which also catches read-only file
systems and folders that even root may not write.
"""

from __future__ import annotations

from pathlib import Path

from .._core.atomic import require_writable
from ..errors import InputError

__all__ = ["FIGURE_SUFFIXES", "check_output_file", "check_output_folder", "check_plot"]

FIGURE_SUFFIXES = (".png", ".svg", ".pdf")


def _listed(suffixes: tuple[str, ...]) -> str:
    names = [f"*{s}" for s in suffixes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _check_folder_writable(folder: Path, option: str, path: Path) -> None:
    shown = folder if str(folder) else Path(".")
    if not shown.exists():
        raise InputError(f"{option} {path}: folder {shown} does not exist; create it first")
    if not shown.is_dir():
        raise InputError(f"{option} {path}: {shown} is not a folder; choose another {option}")
    require_writable(shown, option, path)


def check_output_file(
    path: Path, *, force: bool, suffixes: tuple[str, ...] = (), option: str = "-o"
) -> None:
    """Refuse, before any work, an output file that could not or should not be written.

    >>> check_output_file(Path("."), force=True)
    Traceback (most recent call last):
    humanly.errors.InputError: -o .: is a folder; give a file name, e.g. out
    """
    if path.is_dir():
        example = path / ("out" + (suffixes[0] if suffixes else ""))
        raise InputError(f"{option} {path}: is a folder; give a file name, e.g. {example}")
    if suffixes and path.suffix.lower() not in suffixes:
        raise InputError(f"{option} {path}: name the output file {_listed(suffixes)}")
    if not force and (path.exists() or path.is_symlink()):
        raise InputError(f"{path} exists; choose another {option} or pass --force to overwrite it")
    _check_folder_writable(path.parent, option, path)


def check_output_folder(path: Path, *, option: str = "-o") -> None:
    """Refuse, before any work, an output folder that is a file, whose parent is missing, or that
    cannot be written.

    >>> check_output_folder(Path("no-such-parent/x"))
    Traceback (most recent call last):
    humanly.errors.InputError: -o no-such-parent/x: folder no-such-parent does not exist; create it first
    """
    if path.exists() and not path.is_dir():
        raise InputError(f"{option} {path}: is a file, not a folder; give a folder name")
    if path.is_dir():
        _check_folder_writable(path, option, path)
    else:
        _check_folder_writable(path.parent, option, path)


def check_plot(plot: Path | None) -> None:
    """``--plot FILE``: a figure format matplotlib writes (.png, .svg, .pdf), in an existing, writable
    folder (an existing figure is replaced)."""
    if plot is not None:
        check_output_file(plot, force=True, suffixes=FIGURE_SUFFIXES, option="--plot")
