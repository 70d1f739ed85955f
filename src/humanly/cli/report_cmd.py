"""``humanly report``: one self-contained HTML page per dataset (and, with ``--export``, its tables
and figures as files for papers)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

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
Export = Annotated[
    Path | None,
    typer.Option(
        "--export",
        metavar="DIR",
        help="Also write every table as CSV and LaTeX (booktabs) and every figure as PDF and SVG "
        "into DIR, with an index README.txt (DIR is created if its parent exists; an existing DIR "
        "must be empty unless --force).",
    ),
]
States = Annotated[
    Path | None,
    typer.Option(
        "--states",
        metavar="FILE",
        help="True item states (a column per class, e.g. X.states.csv from humanly simulate urn): "
        "the report adds scores against the truth (SEQ*, HSCORE*).",
    ),
]

#: options whose value is an output path: the page records them by file name only, so the same
#: inputs give the same page wherever it is written
_OUTPUT_OPTIONS = ("-o", "--out", "--export")


def recorded_command(argv: list[str]) -> str | None:
    """The command line the page records: ``humanly`` and its arguments, output paths by name.

    >>> recorded_command(["report", "r.csv", "-o", "/tmp/x/r.html", "--export=/tmp/x/e"])
    'humanly report r.csv -o r.html --export=e'
    """
    if not argv:
        return None
    out: list[str] = []
    for i, arg in enumerate(argv):
        name, eq, value = arg.partition("=")
        if eq and name in _OUTPUT_OPTIONS:
            arg = f"{name}={Path(value).name}"
        elif i > 0 and argv[i - 1] in _OUTPUT_OPTIONS:
            arg = Path(arg).name
        out.append(arg)
    return "humanly " + shlex.join(out)


def _read_states(path: Path | None) -> Any:
    if path is None:
        return None
    from ..data.tables import read_table

    return read_table(path, text_columns=lambda cols: [c for c in cols if c == "item"]).frame


@study_inputs()
def report_command(
    study: StudyOptions,
    out: Out,
    force: Force = False,
    seed: Seed = 0,
    bootstrap: Bootstrap = 200,
    export: Export = None,
    states: States = None,
    json: Json = False,
) -> None:
    """Write one self-contained HTML report: verdict cards, data, certify, survey equivalence,
    budget, methods and reproducibility. Every number on the page is also embedded as JSON."""
    check_output_file(out, force=force, suffixes=(".html", ".htm"))
    if export is not None:
        from ..report.export import check_export_folder

        check_export_folder(export, force=force, option="--export")
    s = load_study(study)
    truth = _read_states(states)
    from ..report import build_report

    inputs = [x for x in (study.ratings, study.predictions, study.gold, states) if x is not None]
    page = build_report(
        s.ratings,
        s.predictions,
        s.gold,
        seed=seed,
        command=recorded_command(sys.argv[1:]),
        inputs=inputs,
        options={"bootstrap": bootstrap},
        states=truth,
    )
    path = page.write(out, force=force)
    done = page.export(export, force=force) if export is not None else None
    if json:
        extra = {} if done is None else {"export": done.to_dict()}
        ui.print_json({"path": str(path), **page.to_dict(), **extra})
        return
    lines = [*page.headline(), f"report: {path}"]
    if done is not None:
        lines.append(f"export: {len(done.files)} files in {done.folder} (index: {done.index})")
    ui.lines(lines)
