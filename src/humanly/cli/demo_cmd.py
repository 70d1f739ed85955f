"""``humanly demo``: the full report on the bundled real dataset and on a simulated running example."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import _common as c

OutDir = Annotated[
    Path, typer.Option("-o", "--out", help="Folder for the demo reports (created if needed).")
]


def demo(
    out: OutDir = Path("humanly-demo"),
    seed: Annotated[int, typer.Option("--seed", help="Random seed for the bootstraps.")] = 0,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=0, help="Bootstrap replicates for the ranges.")
    ] = 200,
    json: c.Json = False,
) -> None:
    """Write humanly-demo/report.html (Wikipedia personal attacks, 2,000 comments, bundled, MIT) and
    humanly-demo/running-example.html (the Survey Equivalence running example, simulated), then print a
    five-line summary. The demo's own two files are replaced on each run."""
    from ..report.demo import run_demo

    result = run_demo(out, seed=seed, bootstrap=bootstrap)
    if json:
        c.print_json(result.to_dict())
        return
    for line in result.lines:
        c.stdout.print(line, highlight=False, soft_wrap=True)
