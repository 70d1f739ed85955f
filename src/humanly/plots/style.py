"""Shared figure style: figures for reading (≥ 450 pt wide, 9–11 pt text), one colour per model across
every figure, deterministic files (the same figure gives the same bytes), saved atomically, headless.

>>> colors = model_colors(["bert", "roberta"])
>>> colors["bert"] != colors["roberta"], model_colors(["roberta", "bert"]) == colors
(True, True)
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: figures are files, never windows
import matplotlib.pyplot as plt

from .._core.atomic import atomic_path
from ..errors import InputError

__all__ = [
    "COLUMN_WIDTH",
    "FIGURE_HEIGHT",
    "FIGURE_WIDTH",
    "PALETTE",
    "figure",
    "model_colors",
    "save_figure",
    "to_svg",
]

#: Width of a figure, in inches: 6.4 in = 461 pt (figures are read on screen and in print at ≥ 450 pt).
FIGURE_WIDTH = 6.4
#: Default height, in inches.
FIGURE_HEIGHT = 3.6
#: Kept for callers of the earlier name; the same as :data:`FIGURE_WIDTH`.
COLUMN_WIDTH = FIGURE_WIDTH

#: Colour-blind-safe palette (Okabe & Ito 2008), in the order models receive them.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#F0E442",
)

_RC: Any = {  # matplotlib types rc keys as Literals; this is a plain mapping
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "lines.linewidth": 1.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 150,
    "savefig.bbox": "tight",
    "svg.fonttype": "none",
    "svg.hashsalt": "humanly",  # deterministic SVG element ids: the same figure, the same bytes
}

#: No timestamps in saved files (reproducible builds); PDF and SVG name them differently.
_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}, "png": {}}


def model_colors(names: Any) -> dict[str, str]:
    """One colour per model, the same in every figure of a report.

    Models take :data:`PALETTE` in sorted order of their names, so the mapping does not depend on
    which figure lists them first.

    Parameters
    ----------
    names : iterable of str
        The models' names.

    Returns
    -------
    dict
        Model name → colour (a hex string).

    Examples
    --------
    >>> model_colors(["bert", "roberta"])
    {'bert': '#0072B2', 'roberta': '#D55E00'}
    """
    ordered = sorted({str(n) for n in names})
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(ordered)}


def figure(
    width: float = FIGURE_WIDTH, height: float = FIGURE_HEIGHT, **kwargs: Any
) -> tuple[Any, Any]:
    """A new (figure, axes) pair with humanly's style.

    Parameters
    ----------
    width, height : float
        The size in inches (default 6.4 × 3.6: 461 pt wide, a page's text width).
    **kwargs
        Passed to :func:`matplotlib.pyplot.subplots` (e.g. ``ncols=2``).

    Returns
    -------
    tuple
        The matplotlib ``Figure`` and its axes.

    Examples
    --------
    >>> fig, ax = figure()
    >>> fig.get_size_inches().tolist()
    [6.4, 3.6]
    """
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(width, height), **kwargs)
    fig.set_layout_engine("constrained")
    return fig, ax


def save_figure(fig: Any, path: str | os.PathLike[str]) -> Path:
    """Save a figure by its file's extension, atomically, and close it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    path : str or os.PathLike
        Where to write it: ``.png``, ``.svg`` or ``.pdf`` (no date inside, so the same figure gives
        the same bytes).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    InputError
        For another extension.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> fig, ax = figure()
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_figure(fig, pathlib.Path(tmp) / "fig.svg").suffix
    '.svg'
    """
    target = Path(path)
    ext = target.suffix.lower()
    if ext not in (".png", ".svg", ".pdf"):
        raise InputError(
            f"{target}: unknown figure extension {ext or '(none)'}; use .png, .svg or .pdf"
        )
    try:
        with atomic_path(target, suffix=ext) as tmp, plt.rc_context(_RC):
            fig.savefig(tmp, format=ext[1:], metadata=_METADATA[ext[1:]])
    finally:
        plt.close(fig)
    return target


def to_svg(fig: Any) -> str:
    """The figure as an inline SVG string (for the HTML report), and close it."""
    buf = io.StringIO()
    with plt.rc_context(_RC):
        fig.savefig(buf, format="svg", metadata=_METADATA["svg"])
    plt.close(fig)
    return buf.getvalue()
