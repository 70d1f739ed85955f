"""Options several commands share besides the study inputs (``--json``, ``--seed``, ``--plot``,
``--workers``, ``--scheduler``, ``--force``), and writing a ``--plot`` figure.

Each is an ``Annotated`` type: a command writes ``seed: Seed = 0``. Counts and seeds carry ``min=0`` so
the parser refuses ``--seed -1`` as one line before any work.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["Force", "Json", "Plot", "Scheduler", "Seed", "Workers", "save_plot"]

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
Seed = Annotated[int, typer.Option("--seed", min=0, help="Random seed (same seed, same numbers).")]
Force = Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")]
Plot = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help="Write a figure (.png, .svg or .pdf)."),
]
Workers = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Run on a local dask cluster of N processes."),
]
Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="ADDRESS", help="Run on a running dask scheduler."),
]


def save_plot(fig: Any, plot: Path) -> None:
    """Write a ``--plot`` figure and say so on stderr."""
    from ..plots.style import save_figure
    from ._console import note

    save_figure(fig, plot)
    note(f"wrote {plot}")
