"""Shared figure style: sized for one column of a paper, saved atomically, headless backend."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: figures are files, never windows
import matplotlib.pyplot as plt

from .._atomic import atomic_path
from ..data.errors import InputError

__all__ = ["COLUMN_WIDTH", "figure", "save_figure", "to_svg"]

#: Width of one column of a two-column paper, in inches.
COLUMN_WIDTH = 3.4

_RC: Any = {  # matplotlib types rc keys as Literals; this is a plain mapping
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "legend.fontsize": 7,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "lines.linewidth": 1.2,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 150,
    "savefig.bbox": "tight",
    "svg.fonttype": "none",
}


def figure(width: float = COLUMN_WIDTH, height: float = 2.4, **kwargs: Any) -> tuple[Any, Any]:
    """A new (figure, axes) pair with humanly's style."""
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(width, height), **kwargs)
    fig.set_layout_engine("constrained")
    return fig, ax


def save_figure(fig: Any, path: str | os.PathLike[str]) -> Path:
    """Save ``fig`` by extension (.png, .svg, .pdf) atomically and close it."""
    target = Path(path)
    ext = target.suffix.lower()
    if ext not in (".png", ".svg", ".pdf"):
        raise InputError(
            f"{target}: unknown figure extension {ext or '(none)'}; use .png, .svg or .pdf"
        )
    try:
        with atomic_path(target, suffix=ext) as tmp, plt.rc_context(_RC):
            fig.savefig(tmp, format=ext[1:])
    finally:
        plt.close(fig)
    return target


def to_svg(fig: Any) -> str:
    """The figure as an inline SVG string (for the HTML report), and close it."""
    buf = io.StringIO()
    with plt.rc_context(_RC):
        fig.savefig(buf, format="svg")
    plt.close(fig)
    return buf.getvalue()
