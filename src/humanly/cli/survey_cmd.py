"""``humanly equivalence``: survey power curve and survey equivalence of each model (paper 3)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..data.errors import InputError
from . import _console as ui
from ._common import Json, Plot, Scheduler, Seed, Workers, save_plot
from ._output import check_plot
from .options import StudyOptions, load_study, study_inputs
from .survey_render import headroom_line, render, render_worth

if TYPE_CHECKING:
    from ..survey import EquivalenceResult, ExpertEquivalence

__all__ = ["equivalence_command"]

Combiner = Annotated[
    str, typer.Option("--combiner", metavar="NAME", help="majority, plurality, frequency or abc.")
]
Scorer = Annotated[
    str,
    typer.Option(
        "--scorer",
        metavar="NAME",
        help="agreement, cross_entropy, precision, recall, f1, auc, dmi, pearson or spearman.",
    ),
]
Method = Annotated[
    str | None,
    typer.Option(
        "--method",
        metavar="exact|sampled",
        help="exact (default for agreement, cross_entropy) or sampled (Algorithm 2; the others).",
    ),
]
Bootstrap = Annotated[int, typer.Option("--bootstrap", help="Bootstrap replicates over items.")]
Calibrate = Annotated[
    str, typer.Option("--calibrate", metavar="none|isotonic|per-value", help="Calibrate scores.")
]
CalibrationFolds = Annotated[
    int,
    typer.Option(
        "--calibration-folds",
        help="K-fold cross-fitted calibration, K ≥ 2 (0: in-sample, as the paper).",
    ),
]
ReferenceSize = Annotated[
    int,
    typer.Option("--reference-size", help="Score against the plurality of r held-out raters."),
]
MaxK = Annotated[
    int | None,
    typer.Option("--max-k", help="Largest survey size (default: median labels per item − r)."),
]
Draws = Annotated[int, typer.Option("--draws", help="Rater subsets per k for --method sampled.")]
Headroom = Annotated[
    bool,
    typer.Option(
        "--headroom", help="ABC + cross-entropy: estimate the asymptote and performance ratios."
    ),
]
Amateurs = Annotated[
    Path | None,
    typer.Option(
        "--amateurs",
        metavar="FILE",
        help="Second rater group, read with the same layout options as RATINGS: how many experts "
        "k amateurs are worth.",
    ),
]


def _folds(calibration_folds: int) -> int | None:
    """``--calibration-folds``: 0 is in-sample (the library's ``None``), else K ≥ 2."""
    if calibration_folds == 0:
        return None
    if calibration_folds < 2:
        raise InputError(
            f"--calibration-folds {calibration_folds}: give 0 (in-sample, as the paper) or K ≥ 2 "
            "folds"
        )
    return calibration_folds


def _amateurs(
    ratings: Any, second: Any, study: StudyOptions, **options: Any
) -> ExpertEquivalence | None:
    """``--amateurs FILE``: how many experts k amateurs are worth."""
    if second is None:
        return None
    from ..survey import expert_equivalence

    return expert_equivalence(ratings, second, missing=study.missing, **options)  # type: ignore[arg-type]


@study_inputs(gold=False)
def equivalence_command(
    study: StudyOptions,
    combiner: Combiner = "abc",
    scorer: Scorer = "cross_entropy",
    method: Method = None,
    bootstrap: Bootstrap = 500,
    seed: Seed = 0,
    calibrate: Calibrate = "none",
    calibration_folds: CalibrationFolds = 0,
    reference_size: ReferenceSize = 1,
    max_k: MaxK = None,
    n_draws: Draws = 200,
    headroom: Headroom = False,
    amateurs: Amateurs = None,
    plot: Plot = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: Json = False,
) -> None:
    """Survey power curve and each model's survey equivalence: how many human raters it is worth
    (Resnick et al., Algorithms 1–6). --plot draws the power curve."""
    check_plot(plot)
    folds = _folds(calibration_folds)
    s = load_study(study)
    # the second group, read with the layout options of the first, before any work
    second = None if amateurs is None else load_study(study.ratings_only(amateurs)).ratings
    from ..survey import equivalence

    res = equivalence(
        s.ratings,
        s.predictions,
        missing=study.missing,  # type: ignore[arg-type]
        combiner=combiner,
        scorer=scorer,
        method=method,
        bootstrap=bootstrap,
        seed=seed,
        calibrate=calibrate,
        calibration_folds=folds,
        reference_size=reference_size,
        max_k=max_k,
        positive=study.positive,
        n_draws=n_draws,
        headroom=headroom,
        workers=workers,
        scheduler=scheduler,
    )
    common: dict[str, Any] = dict(
        combiner=combiner, scorer=scorer, bootstrap=bootstrap, seed=seed, max_k=max_k
    )
    expert = _amateurs(s.ratings, second, study, **common)
    _show(res, expert, plot, json)


def _show(
    res: EquivalenceResult, expert: ExpertEquivalence | None, plot: Path | None, json: bool
) -> None:
    if plot is not None:
        from ..plots.survey import plot_power_curve

        save_plot(plot_power_curve(res), plot)
    for n in res.notes:
        ui.note(f"note: {n}")
    if json:
        out = res.to_dict()
        if expert is not None:
            out["amateurs"] = expert.to_dict()
        ui.print_json(out)
        return
    ui.show(render(res))
    line = headroom_line(res)
    if line is not None:
        ui.show(line)
    if expert is not None:
        ui.show(render_worth(expert))
