"""``humanly demo``: the full report on the bundled real dataset and on a simulated running example."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import _console as ui
from ._common import Json, Seed
from ._output import check_output_folder

__all__ = ["demo_command"]

OutDir = Annotated[
    Path,
    typer.Option(
        "-o",
        "--out",
        metavar="FOLDER",
        help="Folder for the demo reports (created if its parent exists).",
    ),
]


def demo_command(
    out: OutDir = Path("humanly-demo"),
    seed: Seed = 0,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=0, help="Bootstrap replicates for the ranges.")
    ] = 1000,
    export: Annotated[
        Path | None,
        typer.Option(
            "--export",
            metavar="DIR",
            help="Also write each page's tables (CSV, LaTeX) and figures (PDF, SVG) into "
            "DIR/report, DIR/running-example and DIR/arena (replacing the demo's own files).",
        ),
    ] = None,
    json: Json = False,
) -> None:
    """Write humanly-demo/report.html (Wikipedia personal attacks, 2,000 comments, bundled, MIT, with a
    simulated judge), humanly-demo/running-example.html (the Survey Equivalence running example,
    simulated) and humanly-demo/arena.html (models ranked from pairwise votes, simulated arena-like),
    then print what each page says, section by section: the verdicts in plain sentences. The demo's
    own files are replaced on each run."""
    check_output_folder(out)
    if export is not None:
        check_output_folder(export, option="--export")
    from ..demo import run_demo

    result = run_demo(out, seed=seed, bootstrap=bootstrap, export=export)
    if json:
        ui.print_json(result.to_dict())
        return
    from ..verdicts.study import console_lines, sections

    lines: list[str] = []
    for study in result.studies:
        lines += [*([""] if lines else []), study.title, "", *console_lines(sections(study))]
    lines += [
        "",
        f"reports: {result.report}, {result.simulated_report} (simulated running example) and "
        f"{result.arena_report} (simulated pairwise votes)",
    ]
    if result.exports:
        lines.append(f"paper-ready tables and figures: {', '.join(map(str, result.exports))}")
    ui.lines(lines)
