"""``humanly report``: one self-contained HTML page per dataset."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from . import _console as ui
from ._common import Force, Json, Seed
from ._output import check_output_file
from .options import StudyOptions, load_study, study_inputs

__all__ = ["report_command"]

Out = Annotated[
    Path,
    typer.Option(
        "-o",
        "--out",
        metavar="FILE",
        help="HTML file to write (e.g. report.html); its folder must exist.",
    ),
]
Bootstrap = Annotated[
    int,
    typer.Option("--bootstrap", min=0, help="Bootstrap replicates for survey-equivalence ranges."),
]


@study_inputs()
def report_command(
    study: StudyOptions,
    out: Out,
    force: Force = False,
    seed: Seed = 0,
    bootstrap: Bootstrap = 200,
    json: Json = False,
) -> None:
    """Write one self-contained HTML report: data, certify, survey equivalence, budget, methods and
    reproducibility. Every number on the page is also embedded as JSON."""
    check_output_file(out, force=force, suffixes=(".html", ".htm"))
    s = load_study(study)
    from ..report import build_report

    page = build_report(
        s.ratings,
        s.predictions,
        s.gold,
        seed=seed,
        command="humanly " + shlex.join(sys.argv[1:]) if sys.argv[1:] else None,
        inputs=[x for x in (study.ratings, study.predictions, study.gold) if x is not None],
        options={"bootstrap": bootstrap},
    )
    path = page.write(out, force=force)
    if json:
        ui.print_json({"path": str(path), **page.to_dict()})
        return
    ui.lines([*page.headline(), f"report: {path}"])
