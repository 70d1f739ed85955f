"""``humanly judge RATINGS --predictions F --judge F``: model accuracies from a few human labels and a
judge's labels on every item (prediction-powered inference, PPI++), and ``humanly judge select``: which
unlabelled items to send to human raters next (active labelling).

A thin layer over :func:`humanly.judging.judge`, :meth:`~humanly.judging.JudgeResult.plan` and
:func:`humanly.judging.select`; the sentences come from :mod:`humanly.verdicts.judge`, the tables
from :mod:`humanly.cli.judge_render`. ``humanly judge RATINGS ...`` runs the default command
``estimate`` (so ``humanly judge select ...`` and ``humanly judge RATINGS ...`` both work).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from ._app import HumanlyGroup, add_command, new_typer
from ._common import Force, Json, Seed
from ._output import check_output_file
from .judge_options import (
    FittedOnLabels,
    Folds,
    IntervalChoice,
    JudgeFiles,
    Quantile,
    RatingScale,
    Strata,
    Threshold,
    Weights,
    checked_choices,
    judge_files,
)
from .judge_options import rating_scale as rating_scale_of
from .options import StudyOptions, load_study, study_inputs

__all__ = ["judge_app"]

DEFAULT = "estimate"


class JudgeGroup(HumanlyGroup):
    """``humanly judge``: a group whose first argument, when it names no sub-command, is the
    default command's (``humanly judge r.csv ...`` is ``humanly judge estimate r.csv ...``)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = [DEFAULT, *args]
        return super().parse_args(ctx, args)


judge_app = new_typer(
    cls=JudgeGroup,
    help="Few human labels, many judge labels: PPI++ accuracies, comparisons, the frontier check, "
    "planning, and which items to send to raters next.",
)

_FILES = "Input files"
JudgeFile = Annotated[
    Path,
    typer.Option(
        "--judge",
        metavar="FILE",
        help="The judge's labels or class probabilities on every item (any predictions layout).",
        rich_help_panel=_FILES,
        show_default=False,
    ),
]
Probabilities = Annotated[
    Path | None,
    typer.Option(
        "--probabilities",
        metavar="FILE",
        help="The CSV `humanly judge select` wrote (item, probability): the active design's "
        "inverse-probability-weighted estimate.",
        rich_help_panel=_FILES,
    ),
]
Level = Annotated[float, typer.Option("--level", help="Confidence level of every interval.")]
Estimator = Annotated[
    str,
    typer.Option("--estimator", metavar="ppi++|ppi|classical", help="λ tuned, 1, or 0."),
]
Reference = Annotated[
    str,
    typer.Option(
        "--reference",
        metavar="label|plurality",
        help="Per item: mean agreement with its raters, or its plurality label.",
    ),
]
_PLAN = "Planning"
CostHuman = Annotated[
    float | None,
    typer.Option("--cost-human", help="Cost of one human label.", rich_help_panel=_PLAN),
]
CostJudge = Annotated[
    float | None,
    typer.Option("--cost-judge", help="Cost of one judge call.", rich_help_panel=_PLAN),
]
MaxCost = Annotated[
    float | None,
    typer.Option(
        "--max-cost",
        help="The most to spend on the next evaluation, in the units of the costs.",
        rich_help_panel=_PLAN,
    ),
]
TargetWidth = Annotated[
    float | None,
    typer.Option("--target-width", help="Interval width to reach.", rich_help_panel=_PLAN),
]


def _probabilities(path: Path | None) -> Any:
    """The ``select`` CSV as a Series of probabilities by item id."""
    if path is None:
        return None
    import pandas as pd

    if not path.is_file():
        raise InputError(
            f"--probabilities {path}: no such file; give the CSV humanly judge select wrote"
        )
    frame = pd.read_csv(path)
    if not {"item", "probability"} <= set(frame.columns):
        raise InputError(
            f"--probabilities {path}: needs the columns item and probability (humanly judge select "
            "writes them)"
        )
    return pd.Series(frame["probability"].to_numpy(dtype=float), index=pd.Index(frame["item"]))


def _read(
    options: StudyOptions,
    judge: Path | dict[str, Path],
    strata: str | None = None,
    weights: str | None = None,
) -> Any:
    """The study with the judges, strata and sampling weights, read and joined by item id in one
    place (:func:`load_study`, as every data command and ``humanly report --judge`` read it: the
    command line never joins)."""
    files = (("RATINGS", options.ratings), ("--predictions", options.predictions))
    judges = judge.values() if isinstance(judge, dict) else [judge]
    for flag, path in (*files, ("--gold", options.gold), *(("--judge", j) for j in judges)):
        if path is not None and not path.exists():
            raise InputError(f"{flag} {path}: no such file; give an existing file")
    study = load_study(options, judge=judge, strata=strata, sampling_weights=weights)
    if study.predictions is None:
        raise InputError(
            "--predictions: the judge analysis needs the models' predictions on every item; give "
            "--predictions FILE"
        )
    return study


def _read_ratings(
    options: StudyOptions,
    judge: Path | dict[str, Path],
    scale: tuple[float, float],
    strata: str | None,
    weights: str | None,
) -> Any:
    """Human ratings (RATINGS) and the judges' ratings of the models' outputs, joined by item id in
    :func:`humanly.data.read_rating_study`."""
    from ..data import read_rating_study

    judges = judge if isinstance(judge, dict) else {"judge": judge}
    for flag, path in (("RATINGS", options.ratings), *(("--judge", j) for j in judges.values())):
        if path is None or not path.exists():
            raise InputError(f"{flag} {path}: no such file; give an existing file")
    return read_rating_study(
        options.ratings,
        judges,
        model_col=options.model_col,
        item_col=options.item_col,
        strata=strata,
        sampling_weights=weights,
        scale=scale,
        missing=options.missing,  # type: ignore[arg-type]
    )


def _check_plan(
    cost_human: float | None, cost_judge: float | None, max_cost: float | None, width: float | None
) -> bool:
    """Whether to plan; a partial set of planning flags is one sentence, before any work."""
    given = [cost_human, cost_judge, max_cost, width]
    if all(v is None for v in given):
        return False
    if cost_human is None or cost_judge is None:
        raise InputError(
            "planning needs both costs: give --cost-human and --cost-judge (with --max-cost or "
            "--target-width)"
        )
    if (max_cost is None) == (width is None):
        raise InputError("planning: give one of --max-cost and --target-width")
    for flag, value in (("--cost-human", cost_human), ("--cost-judge", cost_judge)):
        if not value > 0:
            raise InputError(f"{flag} {value:g}: give a cost above 0")
    return True


@study_inputs()
def estimate_command(
    study: StudyOptions,
    judge: JudgeFiles,
    probabilities: Probabilities = None,
    strata: Strata = None,
    weights: Weights = None,
    fitted_on_labels: FittedOnLabels = False,
    folds: Folds = None,
    interval: IntervalChoice = "auto",
    rating_scale: RatingScale = None,
    threshold: Threshold = None,
    quantile: Quantile = None,
    level: Level = 0.95,
    estimator: Estimator = "ppi++",
    reference: Reference = "label",
    cost_human: CostHuman = None,
    cost_judge: CostJudge = None,
    max_cost: MaxCost = None,
    target_width: TargetWidth = None,
    seed: Seed = 0,
    json: Json = False,
) -> None:
    """Each model's accuracy from the human labels and the judges' (PPI++; stratified, several
    judges, cross-fitted), every pair's difference, the design and self-judge checks, the frontier
    check (Dorner, Nastl & Hardt) and, with costs, the plan for the next evaluation; with
    --rating-scale, each model's mean rating (share ≥ --threshold, --quantile). Also runs as
    `humanly judge RATINGS ...`."""
    plan_it = _check_plan(cost_human, cost_judge, max_cost, target_width)
    checked_choices(
        interval=interval,
        folds=folds,
        fitted=fitted_on_labels,
        scale=rating_scale,
        threshold=threshold,
        quantile=quantile,
        probabilities=probabilities,
        weights=weights,
        strata=strata,
        judges=len(judge),
    )
    scale = rating_scale_of(rating_scale)
    judges = judge_files(judge)
    from ..judging import JudgeOptions
    from ..judging import judge as judge_models
    from ..verdicts.judge import plan_sentences, verdicts
    from ..verdicts.notes import notes_text
    from .judge_render import render

    if scale is None:
        data = _read(study, judges, strata, weights)
    else:
        data = _read_ratings(study, judges, scale, strata, weights)
    options = JudgeOptions(
        probabilities=_probabilities(probabilities),
        fitted_on_labels=fitted_on_labels,
        folds=10 if folds is None else folds,
        interval=interval,
        threshold=threshold,
        quantile=quantile,
        scale=scale,
    )
    result = judge_models(
        data,
        level=level,
        estimator=estimator,  # type: ignore[arg-type]
        reference=reference,  # type: ignore[arg-type]
        missing=study.missing,  # type: ignore[arg-type]
        seed=seed,
        options=options,
    )
    plan = None
    if plan_it:
        assert cost_human is not None and cost_judge is not None
        plan = result.plan(cost_human, cost_judge, max_cost=max_cost, target_width=target_width)
    if json:
        ui.print_json({"judge": result.to_dict(), "plan": None if plan is None else plan.to_dict()})
        return
    ui.show(*render(result))
    ui.lines(["", *(v.sentence for v in verdicts(result))])
    ui.lines([f"Note: {n}." for n in notes_text(result.notes)])
    if plan is not None:
        ui.lines(["", *plan_sentences(plan)])


Out = Annotated[
    Path,
    typer.Option(
        "-o",
        "--out",
        metavar="FILE",
        help="The CSV to write (item, probability, selected).",
        show_default=False,
    ),
]
ExpectedItems = Annotated[
    float,
    typer.Option(
        "--expected-items", help="Expected number of items to send to raters.", show_default=False
    ),
]
Mixing = Annotated[
    float,
    typer.Option("--mixing", help="Share of the expected items spread uniformly over the pool."),
]
MaxProbability = Annotated[
    float, typer.Option("--max-probability", help="No item is sent with a higher probability.")
]


@study_inputs(gold=False)
def select_command(
    study: StudyOptions,
    judge: JudgeFile,
    expected_items: ExpectedItems,
    out: Out,
    strata: Strata = None,
    mixing: Mixing = 0.5,
    max_probability: MaxProbability = 0.9,
    seed: Seed = 0,
    force: Force = False,
    json: Json = False,
) -> None:
    """Which unlabelled items to send to human raters next, from the judge's uncertainty (active
    labelling, Zrnic & Candès; with --strata, the expected items split across the strata by the
    Neyman allocation first): writes item, probability, selected; estimate afterwards with
    `humanly judge RATINGS ... --probabilities FILE`."""
    check_output_file(out, force=force, suffixes=(".csv",), option="--out")
    if not 0 <= mixing <= 1:
        raise InputError(f"--mixing {mixing:g}: give a share of the expected items between 0 and 1")
    if not 0 < max_probability < 1:
        raise InputError(f"--max-probability {max_probability:g}: give a probability in (0, 1)")
    from .._core.atomic import atomic_path
    from ..judging import JudgeOptions, select

    sel = select(
        _read(study, judge, strata),
        expected_items=expected_items,
        missing=study.missing,  # type: ignore[arg-type]
        seed=seed,
        options=JudgeOptions(mixing=mixing, max_probability=max_probability),
    )
    with atomic_path(out, overwrite=force) as tmp:
        sel.to_frame().to_csv(tmp, index=False)
    if json:
        ui.print_json(sel.to_dict())
        return
    from ..verdicts.judge import selection_allocation_sentence, selection_sentence
    from ..verdicts.notes import notes_text
    from .judge_render import selection_strata

    table = selection_strata(sel)
    if table is not None:
        ui.show(table)
    split = selection_allocation_sentence(sel)
    again = f" --strata {strata}" if strata is not None else ""
    ui.lines(
        [
            f"{selection_sentence(sel).removesuffix('.')}; wrote {out}.",
            *([] if split is None else [split]),
            f"Once they are labelled: humanly judge RATINGS --predictions {study.predictions} "
            f"--judge {judge} --probabilities {out}{again}",
            *(f"Note: {n}." for n in notes_text(sel.notes)),
        ]
    )


add_command(judge_app, DEFAULT, estimate_command)
add_command(judge_app, "select", select_command)
