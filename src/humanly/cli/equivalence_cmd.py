"""``humanly equivalence``: survey power curve and survey equivalence of each model (paper 3)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from ._common import Json, Plot, Scheduler, Seed, Workers, save_plot
from ._output import check_plot
from .equivalence_render import (
    footnotes,
    render,
    render_models,
    render_targets,
    render_truth,
    render_worth,
    target_lines,
)
from .options import StudyOptions, load_study, study_inputs

if TYPE_CHECKING:
    from ..survey import EquivalenceResult, ExpertEquivalence, TruthEquivalence

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
Bootstrap = Annotated[
    int, typer.Option("--bootstrap", help="Bootstrap replicates over items (0: no ranges).")
]
Level = Annotated[float, typer.Option("--level", help="Confidence level of the ranges.")]
Calibrate = Annotated[
    str | None,
    typer.Option(
        "--calibrate",
        metavar="auto|none|isotonic|temperature|per-value",
        help="Calibrate the models' outputs before scoring. Default: the library's (auto: calibrate "
        "for cross-entropy, as the paper; isotonic, or per-value for labels of more than two "
        "classes; no calibration for the other scorers).",
    ),
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

Targets = Annotated[
    str | None,
    typer.Option(
        "--targets",
        metavar="T,...",
        help="Target panels, e.g. 1,3,inf: one power curve and one equivalence per target, side by "
        "side; t scores against the plurality of t held-out raters (items with fewer labels are "
        "left out), inf against each item's true class through a latent-class model fitted to the "
        "ratings (agreement or cross_entropy).",
    ),
]

TargetWidth = Annotated[
    float | None,
    typer.Option(
        "--target-width",
        metavar="W",
        help="Per model, about how many items would narrow the range of its equivalence to W "
        "raters (1/√N approximation; needs --bootstrap).",
    ),
]
States = Annotated[
    Path | None,
    typer.Option(
        "--states",
        metavar="FILE",
        help="True item states of a simulation (the X.states.csv of 'humanly simulate urn'): adds "
        "HSCORE* and SEQ*, the scores and equivalences against the states.",
    ),
]


def _targets(value: str | None) -> tuple[int | str, ...] | None:
    """``--targets 1,3,inf``: whole numbers ≥ 1 and ``inf`` (or ∞), in the order given."""
    if value is None:
        return None
    out: list[int | str] = []
    for part in (p.strip() for p in value.split(",")):
        if part.lower() in ("inf", "∞"):
            out.append("inf")
        elif part.isdigit():
            out.append(int(part))
        else:
            raise InputError(
                f"--targets {value}: give whole numbers ≥ 1 and inf, separated by commas, e.g. "
                "--targets 1,3,inf"
            )
    from ..survey.target_results import check_targets

    try:
        return check_targets(out)
    except (InputError, TypeError) as exc:
        raise InputError(f"--targets {value}: {str(exc).split(': ', 1)[-1]}") from None


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
    ratings: Any, second: Any, study: StudyOptions, max_k: int | None, **options: Any
) -> ExpertEquivalence | None:
    """``--amateurs FILE``: how many experts k amateurs are worth."""
    if second is None:
        return None
    from ..survey import EquivalenceOptions, expert_equivalence

    return expert_equivalence(
        ratings,
        second,
        missing=study.missing,  # type: ignore[arg-type]
        options=EquivalenceOptions(max_k=max_k),
        **options,
    )


def _read_states(path: Path | None, study: StudyOptions, scorer: str) -> Any:
    """``--states FILE``: a table with an item column (``item``, or the ratings' ``--item-col``) and
    one column per class (``p_<class>`` or the class), checked before any work."""
    if path is None:
        return None
    from ..data.tables import read_table
    from ..survey.scorers import get_scorer

    if not get_scorer(scorer).decomposable:
        raise InputError(
            f"--states with --scorer {scorer}: scores against the true states (SEQ*) need a scorer "
            "that is a mean of per-item terms (agreement or cross_entropy)"
        )
    names = [c for c in (study.item_col, "item") if c]
    frame = read_table(path, text_columns=lambda cols: [c for c in cols if c in names]).frame
    item = next((c for c in names if c in frame.columns), None)
    if item is None:
        raise InputError(
            f"--states {path}: no item column; name it 'item' (as 'humanly simulate urn' writes it)"
        )
    return frame.rename(columns={item: "item"})


def _truth(
    ratings: Any, predictions: Any, states: Any, path: Path | None, **options: Any
) -> TruthEquivalence | None:
    """HSCORE* and SEQ* with the combiner, scorer and calibration of the rater-based analysis."""
    if states is None:
        return None
    from ..survey import truth_equivalence

    try:
        return truth_equivalence(ratings, predictions, states, **options)
    except InputError as exc:
        text = str(exc)
        if text.startswith("states:"):
            raise InputError(f"--states {path}:{text[len('states:') :]}") from None
        raise


def _width(target_width: float | None, bootstrap: int) -> float | None:
    """``--target-width W``: a width > 0, read off the bootstrap ranges (so it needs some)."""
    if target_width is None:
        return None
    if not target_width > 0:
        raise InputError(f"--target-width {target_width:g}: give a width in raters above 0")
    if bootstrap == 0:
        raise InputError(
            f"--target-width {target_width:g} is read off the bootstrap ranges; pass --bootstrap "
            "200 or more"
        )
    return float(target_width)


@study_inputs(gold=False)
def equivalence_command(
    study: StudyOptions,
    combiner: Combiner = "abc",
    scorer: Scorer = "cross_entropy",
    method: Method = None,
    bootstrap: Bootstrap = 1000,
    level: Level = 0.95,
    seed: Seed = 0,
    calibrate: Calibrate = None,
    calibration_folds: CalibrationFolds = 0,
    reference_size: ReferenceSize = 1,
    targets: Targets = None,
    max_k: MaxK = None,
    draws: Draws = 200,
    headroom: Headroom = False,
    target_width: TargetWidth = None,
    states: States = None,
    amateurs: Amateurs = None,
    plot: Plot = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: Json = False,
) -> None:
    """Survey power curve and each model's survey equivalence: how many human raters it is worth
    (Resnick et al., Algorithms 1–6). --plot draws the power curve (with --targets, one curve per
    target panel)."""
    check_plot(plot)
    folds = _folds(calibration_folds)
    # no --calibrate: the library's default (humanly.survey.calibration.DEFAULT_CALIBRATION)
    cal: dict[str, Any] = {} if calibrate is None else {"calibrate": calibrate}
    width = _width(target_width, bootstrap)
    panels = _targets(targets)
    from ..survey import EquivalenceOptions, equivalence

    options = EquivalenceOptions(
        method=method,
        calibration_folds=folds,
        reference_size=reference_size,
        max_k=max_k,
        positive=study.positive,
        draws=draws,
        headroom=headroom,
        workers=workers,
        scheduler=scheduler,
        targets=panels,
    )
    s = load_study(study)
    true_states = _read_states(states, study, scorer)
    # the second group, read with the layout options of the first, before any work
    second = None if amateurs is None else load_study(study.ratings_only(amateurs)).ratings
    res = equivalence(
        s.ratings,
        s.predictions,
        combiner=combiner,
        scorer=scorer,
        bootstrap=bootstrap,
        level=level,
        seed=seed,
        missing=study.missing,  # type: ignore[arg-type]
        options=options,
        **cal,
    )
    truth = _truth(
        s.ratings,
        s.predictions,
        true_states,
        states,
        missing=study.missing,
        combiner=combiner,
        scorer=scorer,
        seed=seed,
        **cal,
        options=EquivalenceOptions(max_k=max_k, positive=study.positive, calibration_folds=folds),
    )
    expert = _amateurs(
        s.ratings,
        second,
        study,
        max_k,
        combiner=combiner,
        scorer=scorer,
        bootstrap=bootstrap,
        level=level,
        seed=seed,
    )
    needed = None if width is None else res.items_needed(width)
    _show(res, truth, expert, width, needed, plot, json)


#: Said under the tables when ``--target-width`` is given.
WIDTH_NOTE = (
    "items_needed assumes the range of the equivalence narrows as 1/√N (an approximation; the "
    "curve's shape near the crossing can make it narrow faster or slower)"
)


def _show(
    res: EquivalenceResult,
    truth: TruthEquivalence | None,
    expert: ExpertEquivalence | None,
    width: float | None,
    needed: tuple[int | None, ...] | None,
    plot: Path | None,
    json: bool,
) -> None:
    from ..verdicts.notes import notes_text

    if plot is not None:
        from ..plots import equivalence as pl

        # with target panels, one curve per t and each model's crossing of each
        fig = pl.plot_target_panels(res) if res.targets else pl.plot_power_curve(res, truth=truth)
        save_plot(fig, plot)
    for n in notes_text(res.notes) + ((WIDTH_NOTE,) if width is not None else ()):
        ui.note(f"note: {n}")
    if json:
        out = res.to_dict()
        if width is not None and needed is not None:
            out["target_width"], out["items_needed"] = width, list(needed)
        if truth is not None:
            out["truth"] = truth.to_dict()
        if expert is not None:
            out["amateurs"] = expert.to_dict()
        ui.print_json(out)
        return
    from ..verdicts.equivalence import headroom_line, verdicts

    ui.show(render(res, truth), *(render_models(res, width, needed) if res.models else ()))
    if truth is not None:
        ui.show(render_truth(res, truth))
    if res.targets:
        ui.show(*render_targets(res))
    ui.lines(footnotes(res, truth, width, needed) + target_lines(res))
    line = headroom_line(res)
    if line is not None:
        ui.show(line)
    if expert is not None:
        ui.show(render_worth(expert))
    sentences = verdicts(res, truth=truth, target_width=width, items_needed=needed)
    ui.lines(["", *(v.sentence for v in sentences)])
