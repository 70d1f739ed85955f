"""``humanly report``: one self-contained HTML page per dataset (and, with ``--export``, its tables
and figures as files for papers)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from ._common import Force, Json, Seed
from ._output import check_output_file
from .equivalence_cmd import Targets, _targets
from .judge_options import Strata, Weights
from .options import StudyOptions, load_study, option_group, study_inputs
from .votes_options import ScoreFiles, VoteColumns, judge_sources, load_votes

if TYPE_CHECKING:
    from ..study import StudyResult

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
    typer.Option("--bootstrap", min=0, help="Bootstrap replicates behind every interval."),
]
From = Annotated[
    Path | None,
    typer.Option(
        "--from",
        metavar="FILE",
        help="Draw the page from results saved with --save-results (nothing is recomputed; give no "
        "RATINGS).",
    ),
]
SaveResults = Annotated[
    Path | None,
    typer.Option(
        "--save-results",
        metavar="FILE",
        help="Also write the study's results as JSON (*.json), to draw the page again with --from.",
    ),
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
JudgeFile = Annotated[
    list[str] | None,
    typer.Option(
        "--judge",
        metavar="FILE",
        help="A judge's labels or class probabilities on every item (as for humanly judge): the "
        "report adds the Judge section (PPI++ accuracies); items with no human label are the "
        "unlabelled ones. With --votes: a judge's votes, [NAME=]FILE, repeatable (as for humanly "
        "rank).",
    ),
]
VotesFile = Annotated[
    Path | None,
    typer.Option(
        "--votes",
        metavar="FILE",
        help="Pairwise votes instead of RATINGS (as for humanly rank): the page ranks the models "
        "(win rates, Bradley–Terry strengths, rank-sets), with the judges' votes of --judge and "
        "--scores.",
    ),
]

#: options whose value is an output path: the page records them by file name only, so the same
#: inputs give the same page wherever it is written
_OUTPUT_OPTIONS = ("-o", "--out", "--export", "--save-results")


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


@study_inputs(optional=True, optional_help="Ratings file; omit it with --from or --votes.")
@option_group(VoteColumns, "columns")
def report_command(
    study: StudyOptions,
    columns: VoteColumns,
    out: Out,
    force: Force = False,
    seed: Seed = 0,
    bootstrap: Bootstrap = 1000,
    export: Export = None,
    states: States = None,
    json: Json = False,
    from_file: From = None,
    save_results: SaveResults = None,
    judge: JudgeFile = None,
    votes: VotesFile = None,
    scores: ScoreFiles = None,
    targets: Targets = None,
    strata: Strata = None,
    weights: Weights = None,
) -> None:
    """Write one self-contained HTML report: verdict cards, data, certify, survey equivalence,
    budget, methods and reproducibility (with --votes: the ranking from pairwise votes). Every
    number on the page is also embedded as JSON. The analyses run once (humanly.analyze);
    --save-results keeps their results, and --from draws the same page from them without
    recomputing."""
    check_output_file(out, force=force, suffixes=(".html", ".htm"))
    if save_results is not None:
        check_output_file(save_results, force=force, suffixes=(".json",), option="--save-results")
    if export is not None:
        from ..report.export import check_export_folder

        check_export_folder(export, force=force, option="--export")
    _distinct_outputs(out, save_results, export)
    given = _vote_flags(votes, scores, columns)
    panels = _targets(targets)  # checked before any work
    if panels is not None and (votes is not None or from_file is not None):
        raise InputError(
            f"--targets {targets} is for a page of ratings analysed here; drop it with "
            f"{'--votes' if votes is not None else '--from'}"
        )
    design = [f for f, v in (("--strata", strata), ("--weights", weights)) if v is not None]
    if design and (votes is not None or from_file is not None or not judge):
        why = "--votes" if votes is not None else "--from" if from_file is not None else None
        raise InputError(
            f"{design[0]} names a column for the Judge section's design; "
            + (f"drop it with {why}" if why else "give --judge FILE with it")
        )
    from .._core.progress import task

    # one report of progress: the analyses (their own modelled stages) and the page (about 1.5 s
    # with every section and figure on the 2-core machine of BENCHMARKS.md)
    with task("report", stages={"analyze": 1.0, "page": 1.5}) as steps:
        with steps.stage("analyze"):
            result = None
            if from_file is not None:
                result = _saved(from_file, study, states, judge, given)
            if result is None and votes is not None:
                result = _analyze_votes(study, votes, judge, scores, columns, seed, states)
            elif result is None:
                one = _one_judge(judge, given)
                if one is not None and not one.is_file():
                    raise InputError(f"--judge {one}: no such file; give an existing file")
                result = _analyze(study, seed, bootstrap, states, one, panels, strata, weights)
        from ..report import build_report

        with steps.stage("page"):
            page = build_report(result)
            path = page.write(out, force=force)
    if save_results is not None:
        # in the result's own order (not sorted): a mapping keyed by class keeps the classes' order, so
        # --from draws the same page
        _write_json(save_results, result.to_json(indent=1) + "\n", force=force)
    done = page.export(export, force=force) if export is not None else None
    if json:
        extra = {} if done is None else {"export": done.to_dict()}
        ui.print_json({"path": str(path), **page.to_dict(), **extra})
        return
    lines = [*page.headline(), f"report: {path}"]
    if save_results is not None:
        lines.append(f"results: {save_results}")
    if done is not None:
        lines.append(f"export: {len(done.files)} files in {done.folder} (index: {done.index})")
    ui.lines(lines)


def _distinct_outputs(out: Path, save_results: Path | None, export: Path | None) -> None:
    """Refuse, before any work, outputs that would overwrite one another: the page, the saved
    results and the export folder must be different paths, and the files must not lie in the export
    folder (it is published whole)."""
    files = [("-o", out)] + ([("--save-results", save_results)] if save_results else [])
    if len(files) == 2 and files[0][1].resolve() == files[1][1].resolve():
        raise InputError(f"-o and --save-results are the same file {out}; give two names")
    if export is None:
        return
    folder = export.resolve()
    for option, path in files:
        where = path.resolve()
        if where == folder:
            raise InputError(
                f"--export {export} is the {option} file; give the export folder another name"
            )
        if folder in where.parents:
            raise InputError(
                f"{option} {path} lies in the --export folder {export}; write it outside that folder"
            )


def _analyze(
    study: StudyOptions,
    seed: int,
    bootstrap: int,
    states: Path | None,
    judge: Path | None,
    targets: tuple[int | str, ...] | None = None,
    strata: str | None = None,
    weights: str | None = None,
) -> StudyResult:
    from ..study import AnalyzeOptions, analyze

    # the judge, its strata and sampling weights joined by read_study: the CLI never joins
    s = load_study(study, judge=judge, strata=strata, sampling_weights=weights)
    inputs = [
        x for x in (study.ratings, study.predictions, study.gold, states, judge) if x is not None
    ]
    return analyze(
        s,
        seed=seed,
        bootstrap=bootstrap,
        options=AnalyzeOptions(
            states=_read_states(states),
            command=recorded_command(sys.argv[1:]),
            inputs=inputs,
            progress=True,
            targets=targets,
        ),
    )


def _vote_flags(votes: Path | None, scores: list[str] | None, columns: VoteColumns) -> list[str]:
    """The votes options given (``--votes``, ``--scores``, the vote columns)."""
    import dataclasses
    import typing

    from .options import _flag

    hints = typing.get_type_hints(VoteColumns, include_extras=True)
    given = ["--votes"] if votes is not None else []
    given += ["--scores"] if scores else []
    return given + [
        _flag(hints[f.name], f.name)
        for f in dataclasses.fields(columns)
        if getattr(columns, f.name) != f.default
    ]


def _one_judge(judge: list[str] | None, votes_flags: list[str]) -> Path | None:
    """The judge of a study of ratings: one file (the options of votes need --votes)."""
    extra = [f for f in votes_flags if f != "--votes"]
    if extra:
        raise InputError(f"{extra[0]} belongs to pairwise votes; give --votes FILE (or drop it)")
    if not judge:
        return None
    if len(judge) > 1:
        raise InputError(
            f"--judge: {len(judge)} files; a study of ratings takes one judge (several judges rank "
            "pairwise votes: give --votes FILE)"
        )
    return Path(judge[0])


def _analyze_votes(
    study: StudyOptions,
    votes: Path,
    judges: list[str] | None,
    scores: list[str] | None,
    columns: VoteColumns,
    seed: int,
    states: Path | None,
) -> StudyResult:
    """The study of pairwise votes: read and joined as ``humanly rank`` reads them, then ranked by
    :func:`humanly.analyze` (the options of ratings are refused)."""
    from ..study import AnalyzeOptions, analyze

    allowed = {"--rater-col", "--model-col", "--score-col", "--missing"}
    ratings = (["RATINGS"] if study.ratings is not None else []) + study.given()
    ratings += ["--states"] if states is not None else []
    refused = [f for f in ratings if f not in allowed]
    if refused:
        raise InputError(
            f"--votes {votes} reads pairwise votes; drop {', '.join(refused)} (a page is of ratings "
            "or of votes)"
        )
    joined = load_votes(
        votes,
        judges,
        scores,
        columns,
        rater_col=study.rater_col,
        model_col=study.model_col,
        score_col=study.score_col,
        missing=study.missing,
    )
    files = [votes] + [p for _, p in judge_sources(judges, "--judge")]
    files += [p for _, p in judge_sources(scores, "--scores")]
    return analyze(
        joined,
        seed=seed,
        options=AnalyzeOptions(command=recorded_command(sys.argv[1:]), inputs=files, progress=True),
    )


def _saved(
    path: Path,
    study: StudyOptions,
    states: Path | None,
    judge: list[str] | None,
    votes_flags: list[str],
) -> StudyResult:
    """The results saved in ``path``; ``--from`` reads no data, so data options are refused."""
    given = ([] if study.ratings is None else ["RATINGS"]) + study.given()
    given += ["--states"] if states is not None else []
    given += ["--judge"] if judge else []
    given += votes_flags
    if given:
        raise InputError(
            f"--from {path} draws the page from saved results; drop {', '.join(given)} (or drop "
            "--from to analyse the data)"
        )
    from ._saved import read_saved

    return read_saved(path)


def _write_json(path: Path, text: str, *, force: bool) -> None:
    from .._core.atomic import atomic_path

    with atomic_path(path, overwrite=force) as tmp:
        tmp.write_text(text, encoding="utf-8")
