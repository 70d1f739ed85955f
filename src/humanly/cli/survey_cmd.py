"""``humanly equivalence``: survey power curve and survey equivalence of each model (paper 3)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, cast

import typer
from rich.table import Table
from rich.text import Text

from . import _common as c

if TYPE_CHECKING:
    from ..survey import EquivalenceResult, ExpertEquivalence


def render(res: EquivalenceResult) -> Table:
    def f(x: object, spec: str = ".4f") -> str:
        return "—" if x is None else format(x, spec) if isinstance(x, float) else str(x)

    t = Table(
        title=(
            f"humanly equivalence · {res.combiner} + {res.scorer} · {res.method} · "
            f"{res.n_items:,} items · {res.bootstrap} bootstraps"
        ),
        title_justify="left",
    )
    t.add_column("k", justify="right")
    t.add_column("c_k", justify="right")
    t.add_column("95% range", justify="right")
    t.add_column("items", justify="right")
    if res.information is not None:
        t.add_column("c_k − c_0 (bits)", justify="right")
    for i, p in enumerate(res.power_curve):
        row = [str(p.k), f(p.score), f"{f(p.low)} – {f(p.high)}", f"{p.n_items:,}"]
        if res.information is not None:
            row.append(f(res.information[i]))
        t.add_row(*row)
    for m in res.models:
        eq = (
            f(m.equivalence, ".2f")
            if m.equivalence is not None
            else {"below_0": "< 0", "above_max": f"> {res.power_curve[-1].k}"}.get(
                m.equivalence_note or "", "—"
            )
        )
        t.add_row(
            Text(str(m.model), style="bold"),
            f(m.score),
            f"{f(m.low)} – {f(m.high)}",
            f"{m.n_items:,}",
            *(
                [
                    f"{f(m.information)}"
                    + (
                        f" ({m.performance_ratio:.0%} of ideal)"
                        if m.performance_ratio is not None
                        else ""
                    )
                ]
                if res.information is not None
                else []
            ),
        )
        t.add_row(
            "",
            f"≡ {eq} raters",
            f"{f(m.equivalence_low, '.2f')} – {f(m.equivalence_high, '.2f')}",
            "",
            *([""] if res.information is not None else []),
        )
    return t


def render_worth(ex: ExpertEquivalence) -> Table:
    t = Table(
        title=f"k amateurs are worth x experts · {ex.combiner} + {ex.scorer}", title_justify="left"
    )
    for col in ("amateurs k", "a_k", "experts x", "95% range"):
        t.add_column(col, justify="right")
    for p, w in zip(ex.amateur_curve, ex.worth, strict=True):
        x = (
            f"{w.experts:.2f}"
            if w.experts is not None
            else {"below_0": "< 0", "above_max": "> max"}.get(w.note or "", "—")
        )
        lo = "—" if w.low is None else f"{w.low:.2f}"
        hi = "—" if w.high is None else f"{w.high:.2f}"
        t.add_row(str(p.k), f"{p.score:.4f}", x, f"{lo} – {hi}")
    return t


def equivalence_cmd(
    ratings: c.RatingsPath,
    predictions: c.PredictionsPath = None,
    combiner: Annotated[
        str, typer.Option("--combiner", help="majority, plurality, frequency or abc.")
    ] = "abc",
    scorer: Annotated[
        str,
        typer.Option(
            "--scorer",
            help="agreement, cross_entropy, precision, recall, f1, auc, dmi, pearson or spearman.",
        ),
    ] = "cross_entropy",
    method: Annotated[
        str | None,
        typer.Option(
            "--method",
            help="exact (default for agreement, cross_entropy) or sampled (Algorithm 2; the others).",
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap replicates over items.")
    ] = 500,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 0,
    calibrate: Annotated[
        str, typer.Option("--calibrate", help="none, isotonic or per-value.")
    ] = "none",
    calibration_folds: Annotated[
        int,
        typer.Option(
            "--calibration-folds",
            help="K-fold cross-fitted calibration (0: in-sample, as the paper).",
        ),
    ] = 0,
    reference_size: Annotated[
        int,
        typer.Option("--reference-size", help="Score against the plurality of r held-out raters."),
    ] = 1,
    max_k: Annotated[
        int | None,
        typer.Option("--max-k", help="Largest survey size (default: median labels per item − r)."),
    ] = None,
    draws: Annotated[
        int, typer.Option("--draws", help="Rater subsets per k for --method sampled.")
    ] = 200,
    headroom: Annotated[
        bool,
        typer.Option(
            "--headroom", help="ABC + cross-entropy: estimate the asymptote and performance ratios."
        ),
    ] = False,
    amateurs: Annotated[
        Path | None,
        typer.Option(
            "--amateurs",
            help="Second rater group (same layout as RATINGS): how many experts k amateurs are worth.",
        ),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write the power-curve figure (.png, .svg, .pdf).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Bootstrap on a local dask cluster of N processes."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="Bootstrap on a running dask scheduler (address)."),
    ] = None,
    item_col: c.ItemCol = None,
    rater_col: c.RaterCol = None,
    label_col: c.LabelCol = None,
    wide: c.Wide = False,
    counts: c.Counts = None,
    total: c.Total = None,
    rest_class: c.RestClass = "other",
    classes: c.Classes = None,
    duplicates: c.Duplicates = "error",
    stream: c.Stream = False,
    prediction_col: c.PredCol = None,
    prob_col: c.ProbCol = None,
    score_col: c.ScoreCol = None,
    model_col: c.ModelCol = None,
    positive: c.Positive = None,
    missing: c.Missing = "error",
    json: c.Json = False,
) -> None:
    """Survey power curve and each model's survey equivalence: how many human raters it is worth
    (Resnick et al., Algorithms 1–6)."""
    c.check_plot(plot)
    r = c.load_ratings(
        ratings,
        item_col=item_col,
        rater_col=rater_col,
        label_col=label_col,
        wide=wide,
        counts=counts,
        total=total,
        rest_class=rest_class,
        classes=classes,
        duplicates=duplicates,
        stream=stream,
    )
    preds = None
    if predictions is not None:
        r, preds = c.load_predictions(
            predictions,
            r,
            item_col=item_col,
            prediction_col=prediction_col,
            prob_col=prob_col,
            score_col=score_col,
            model_col=model_col,
            positive=positive,
            missing=missing,
        )
    from ..survey import equivalence

    res = equivalence(
        r,
        preds,
        missing=cast(Literal["error", "drop"], missing),
        combiner=combiner,
        scorer=scorer,
        method=method,
        bootstrap=bootstrap,
        seed=seed,
        calibrate=calibrate,
        calibration_folds=calibration_folds or None,
        reference_size=reference_size,
        max_k=max_k,
        positive=positive,
        n_draws=draws,
        headroom=headroom,
        workers=workers,
        scheduler=scheduler,
    )
    expert = None
    if amateurs is not None:
        from ..survey import expert_equivalence

        a = c.load_ratings(
            amateurs,
            item_col=item_col,
            rater_col=rater_col,
            label_col=label_col,
            wide=wide,
            counts=counts,
            total=total,
            rest_class=rest_class,
            classes=classes,
            duplicates=duplicates,
        )
        expert = expert_equivalence(
            r,
            a,
            missing=cast(Literal["error", "drop"], missing),
            combiner=combiner,
            scorer=scorer,
            bootstrap=bootstrap,
            seed=seed,
            max_k=max_k,
        )
    if plot is not None:
        from ..plots.survey import plot_power_curve

        c.save_plot(plot_power_curve(res), plot)
    for n in res.notes:
        c.note(f"note: {n}")
    if json:
        out = res.to_dict()
        if expert is not None:
            out["amateurs"] = expert.to_dict()
        c.print_json(out)
    else:
        c.stdout.print(render(res))
        if res.headroom is not None:
            h = res.headroom
            c.stdout.print(
                f"headroom: an ideal classifier that knows each item's state gives "
                f"{h.information:.4f} bits over c_0 (NPMLE of item states, {h.grid_points} grid points)"
            )
        if expert is not None:
            c.stdout.print(render_worth(expert))
