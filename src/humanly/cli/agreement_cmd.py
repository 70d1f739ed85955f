"""``humanly agreement``: the chance-corrected agreement family of a ratings file as one table —
coefficient, weights, estimate, standard error, interval and its method, benchmark reading — then the
verdict sentences (the headline coefficient read on a benchmark scale with its probability, and the
prevalence/bias line when κ is low while raw agreement is high)."""

from __future__ import annotations

from typing import Annotated

import typer

from . import _console as ui
from ._common import Json, Seed
from .options import StudyOptions, load_study, study_inputs

__all__ = ["agreement_command"]

Weights = Annotated[
    str | None,
    typer.Option(
        "--weights",
        metavar="NAME",
        help="Weights of the κ family: identity, linear, quadratic, ordinal, radical, ratio, "
        "circular, bipolar (default: the scale's: identity, ordinal, quadratic, ratio).",
    ),
]
Level = Annotated[
    float, typer.Option("--level", help="Confidence level of the intervals and of the reading.")
]
Bootstrap = Annotated[
    int,
    typer.Option(
        "--bootstrap",
        min=0,
        help="Bootstrap resamples of the items for the bootstrap intervals (0: none).",
    ),
]
Benchmark = Annotated[
    float,
    typer.Option(
        "--benchmark",
        help="The value the p-values test each coefficient against (0: agreement beyond chance).",
    ),
]


@study_inputs(predictions=False, gold=False)  # agreement reads the ratings alone
def agreement_command(
    study: StudyOptions,
    weights: Weights = None,
    level: Level = 0.95,
    bootstrap: Bootstrap = 1000,
    seed: Seed = 0,
    benchmark: Benchmark = 0.0,
    json: Json = False,
) -> None:
    """The agreement family of a ratings file: percent agreement, Cohen's or Conger's κ, Fleiss' κ,
    Gwet's AC1/AC2, Brennan–Prediger and Krippendorff's α, at the labels' measurement scale (--scale),
    with Gwet's analytic standard errors and intervals, bootstrap intervals over items and their
    reading on the Landis & Koch scale."""
    from ..crowd.family import agreement
    from ..verdicts.agreement import verdicts
    from .agreement_render import render

    result = agreement(
        load_study(study),
        weights=weights,
        level=level,
        bootstrap=bootstrap,
        seed=seed,
        benchmark=benchmark,
    )
    if json:
        ui.print_json(result.to_dict())
        return
    ui.show(render(result, study.ratings.name if study.ratings is not None else None))
    ui.lines(["", *(v.sentence for v in verdicts(result))])
