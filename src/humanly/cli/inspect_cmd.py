"""``humanly inspect``: a summary of a ratings file a person reads in ten seconds — sizes, agreement
with bootstrap intervals, per-rater quality, gold and models — then the sentences a reader can quote."""

from __future__ import annotations

from typing import Annotated

import typer

from . import _console as ui
from ._common import Json, Seed
from .options import StudyOptions, load_study, study_inputs

__all__ = ["inspect_command"]

Bootstrap = Annotated[
    int,
    typer.Option(
        "--bootstrap",
        min=0,
        help="Bootstrap resamples of the items for the agreement intervals (0: no intervals).",
    ),
]
Level = Annotated[float, typer.Option("--level", help="Confidence level of the intervals.")]
DawidSkene = Annotated[
    bool,
    typer.Option(
        "--dawid-skene/--no-dawid-skene",
        help="Fit Dawid–Skene for per-rater accuracies (named raters; --no-dawid-skene skips it).",
    ),
]


@study_inputs()
def inspect_command(
    study: StudyOptions,
    bootstrap: Bootstrap = 1000,
    seed: Seed = 0,
    level: Level = 0.95,
    dawid_skene: DawidSkene = True,
    json: Json = False,
) -> None:
    """Summarise a ratings file: sizes, labels per item, class balance, agreement (pairwise, κ, α)
    with percentile bootstrap intervals over items; with named raters, each rater's agreement with the
    others and Dawid–Skene accuracy; with --predictions, each model's agreement with the plurality
    label; with gold, their accuracy."""
    from ..crowd.inspect import inspect
    from ..verdicts.inspect import verdicts
    from .inspect_render import render

    result = inspect(
        load_study(study), bootstrap=bootstrap, level=level, seed=seed, dawid_skene=dawid_skene
    )
    if json:
        ui.print_json(result.to_dict())
        return
    ui.show(*render(result))
    ui.lines(["", *(v.sentence for v in verdicts(result))])
