"""``humanly budget win|size|capacity|rates|convergence|sweep|plan|open|multiclass``: one label per
item or majority votes?

Don't Label Twice (Dorner & Hardt); a thin layer over :mod:`humanly.budget`. The error model's
parameters are one option group, :class:`ErrorModelOptions` (``--p --eps --q`` or ``--q-b --q-w --p-w
--p-b0 --p-b1``), named as :func:`humanly.budget.make_error_model` names them (``q_b`` is ``--q-b``).
``budget plan DATA`` is :func:`humanly.budget.plan`: the comparison at the crowd's label accuracy, then
the pilot plan when two models are given.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from . import budget_inputs as inputs
from . import budget_render as render
from ._app import add_command, new_typer
from ._common import Json, Plot, Scheduler, Seed, Workers, save_plot
from ._output import check_output_folder, check_plot
from .options import StudyOptions, load_study, option_group, study_inputs

if TYPE_CHECKING:
    from .. import budget as bd

__all__ = ["ErrorModelOptions", "budget_app"]

budget_app = new_typer(
    help="Label budget (Don't Label Twice): single labels vs m-majority labels for comparing classifiers.",
)

_MODEL = "Error model"


def _prob(flag: str, help: str) -> Any:
    return typer.Option(flag, metavar="P", help=help, rich_help_panel=_MODEL)


@dataclass(frozen=True)
class ErrorModelOptions:
    """The error model: independent (``p``, ``eps``, ``q``) or correlated (``q_b`` … ``p_b1``)."""

    p: Annotated[float | None, _prob("--p", "Accuracy of the worse classifier.")] = None
    eps: Annotated[float | None, _prob("--eps", "Accuracy margin of the better one.")] = None
    q: Annotated[float | None, _prob("--q", "Label accuracy (one crowd label).")] = None
    q_b: Annotated[float | None, _prob("--q-b", "Label accuracy where only c_b is right.")] = None
    q_w: Annotated[float | None, _prob("--q-w", "Label accuracy where only c_w is right.")] = None
    p_w: Annotated[float | None, _prob("--p-w", "Accuracy of the worse classifier c_w.")] = None
    p_b0: Annotated[float | None, _prob("--p-b0", "P(c_b right | c_w wrong).")] = None
    p_b1: Annotated[float | None, _prob("--p-b1", "P(c_b right | c_w right).")] = None

    def error_model(self) -> bd.ErrorModel:
        """The error model :func:`humanly.budget.make_error_model` builds from the given parameters."""
        from ..budget import make_error_model

        return make_error_model(**asdict(self))


error_model_inputs = option_group(ErrorModelOptions, "errors")

LabelsPerItem = Annotated[
    list[str] | None,
    typer.Option(
        "--labels-per-item",
        metavar="M",
        help="Labels per item to compare, e.g. --labels-per-item 1 3 5 (or 1,3,5).",
    ),
]
Budget = Annotated[int, typer.Option("--budget", help="Label budget k (labels in total).")]
Level = Annotated[
    float,
    typer.Option(
        "--level",
        help="The probability of ranking the better classifier first to reach (the paper's 1 − δ).",
    ),
]
Ties = Annotated[
    str,
    typer.Option(
        "--ties",
        metavar="loss|half",
        help="A tied comparison (ΣG = 0): a loss (the paper) or half a win.",
    ),
]
VoteTies = Annotated[
    str,
    typer.Option(
        "--vote-ties", metavar="coin|failure", help="A tied m-vote (even m): a coin flip or wrong."
    ),
]


def _figure_rules(ties: str, vote_ties: str) -> dict[str, Any]:
    return {"ties": ties, "vote_ties": vote_ties}


@error_model_inputs
def win_command(
    errors: ErrorModelOptions,
    budget: Budget = 1500,
    labels_per_item: LabelsPerItem = None,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    simulations: Annotated[
        int, typer.Option("--simulations", help="Also estimate by Monte Carlo, R simulations.")
    ] = 0,
    seed: Seed = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Exact probability that the better classifier wins, per m, for one budget, with the Hoeffding
    and Cramér lower bounds (section 3, Fig. 2)."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = errors.error_model(), inputs.ints(labels_per_item, (1, 3, 5), "--labels-per-item")
    run: dict[str, Any] = dict(
        simulations=simulations, seed=seed, workers=workers, scheduler=scheduler
    )
    res = bd.compare(mod, budget, ms, ties=ties, vote_ties=vote_ties, **run)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        rules = _figure_rules(res.ties, res.vote_ties)
        if isinstance(mod, bd.IndependentErrors):
            curve = bd.accuracy_curve(mod.p, mod.eps, budget, ms, **rules)
            save_plot(pl.win_vs_q_figure(curve), plot)
        else:
            save_plot(pl.win_vs_budget_figure(bd.win_curve(mod, ms, **rules)), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    from ..verdicts.plan import verdicts

    render.show_comparison(res, simulated=bool(simulations))
    if res.assumption1 is False:
        ui.note("note: q_b < q_w violates assumption 1 (no biased label accuracy)")
    render.show_verdicts(verdicts(res))


@error_model_inputs
def size_command(
    errors: ErrorModelOptions,
    level: Level = 0.95,
    labels_per_item: LabelsPerItem = None,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Smallest label budget per m that ranks the better classifier first with probability ≥ --level:
    exact, and what the Cramér and Hoeffding bounds guarantee to suffice (Lemmas 1 and 2); --plot draws
    the budgets."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = errors.error_model(), inputs.ints(labels_per_item, (1, 3), "--labels-per-item")
    res = bd.sample_size(mod, level, ms, ties=ties, vote_ties=vote_ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        save_plot(pl.size_figure(res), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    render.show_size(res)
    if res.best_labels_per_item is not None:
        ui.show(f"cheapest m: {res.best_labels_per_item}")


@error_model_inputs
def capacity_command(
    errors: ErrorModelOptions,
    level: Level = 0.95,
    budget: Budget = 1500,
    labels_per_item: LabelsPerItem = None,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    plot: Plot = None,
    json: Json = False,
) -> None:
    """How many worse classifiers a benchmark can rank below the best, each with probability ≥ --level
    for them all, in whole numbers (section 3.3, Fig. 1)."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = errors.error_model(), inputs.ints(labels_per_item, (1,), "--labels-per-item")
    res = bd.capacity(mod, level, budget, ms, ties=ties, vote_ties=vote_ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        rules = _figure_rules(res.ties, res.vote_ties)
        save_plot(
            pl.capacity_figure(bd.capacity_curve(mod, level, labels_per_item=ms[0], **rules)), plot
        )
    if json:
        ui.print_json(res.to_dict())
        return
    render.show_capacity(res)


@error_model_inputs
def rates_command(
    errors: ErrorModelOptions,
    labels_per_item: LabelsPerItem = None,
    vote_ties: VoteTies = "coin",
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Theorem 2: the exponents of the Cramér and Hoeffding bounds on the error, per item and per label,
    for each m; --plot draws them against the label accuracy q (Fig. 3 b, independent errors)."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = errors.error_model(), inputs.ints(labels_per_item, (1, 3, 5), "--labels-per-item")
    if plot is not None and not isinstance(mod, bd.IndependentErrors):
        raise InputError(
            "--plot draws Fig. 3 b against the label accuracy q, for independent errors: give "
            "--p, --eps and --q"
        )
    res = bd.rates(mod, ms, vote_ties=vote_ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        assert isinstance(mod, bd.IndependentErrors)
        curve = bd.rate_curve(mod.p, mod.eps, ms, vote_ties=vote_ties)  # type: ignore[arg-type]
        save_plot(pl.rates_figure(curve), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    render.show_rates(res)


@error_model_inputs
def convergence_command(
    errors: ErrorModelOptions,
    labels_per_item: LabelsPerItem = None,
    budgets: Annotated[
        list[str] | None,
        typer.Option(
            "--budgets",
            metavar="K",
            help="Label budgets: a list (1500,1800) or START:STOP:STEP (default: about 200 "
            "multiples of lcm(m) up to 3,000).",
        ),
    ] = None,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    plot: Plot = None,
    json: Json = False,
) -> None:
    """The exact error against its Cramér approximation over budgets (Fig. 3 a): (1/k) log P(error)
    per m, the Cramér rate per label it converges to, and the budget from which the bounds alone
    decide which m is better."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = errors.error_model(), inputs.ints(labels_per_item, (1, 3), "--labels-per-item")
    grid = inputs.budgets(budgets)
    if grid is not None and max(grid) < max(ms):
        raise InputError(
            f"--budgets: give budgets of at least the largest number of labels per item ({max(ms)})"
        )
    res = bd.cramer_convergence(mod, ms, grid, ties=ties, vote_ties=vote_ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        save_plot(pl.convergence_figure(res), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    render.show_convergence(res)


def sweep_command(
    grid_points: Annotated[
        int, typer.Option("--grid-points", help="Points of the grid in [0.5, 0.99] per parameter.")
    ] = 50,
    n_items: Annotated[
        list[str] | None,
        typer.Option(
            "--n-items", metavar="N", help="Items n (default: 1..11, 100, 101, 1000, 1001)."
        ),
    ] = None,
    labels_per_item: LabelsPerItem = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FOLDER",
            help="Folder for chunk files, created if its parent exists (resumable: a rerun skips "
            "finished chunks).",
        ),
    ] = None,
    chunks: Annotated[
        str | None,
        typer.Option(
            "--chunks", metavar="LIST", help="Only these chunks (q_b, q_w grid pairs): 0-9,20."
        ),
    ] = None,
    tolerance: Annotated[
        float, typer.Option("--tolerance", help="A violation: multi − single above this.")
    ] = 1e-12,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: Json = False,
) -> None:
    """The Appendix A sweep: does one label ever lose to an m-majority at the same budget? Runs
    in-process unless --workers N (a LocalCluster) or --scheduler ADDRESS is given; the numbers are
    identical either way."""
    from .. import budget as bd
    from ..budget.sweep import compiled_kernel_available

    if out is not None:
        check_output_folder(out, option="--out")
    if not compiled_kernel_available():
        ui.note(
            "note: numba is not installed; the sweep uses the ~140x slower special-function path "
            "(pip install 'humanly[fast]')"
        )
    spec = bd.SweepSpec(
        grid_points=grid_points,
        n_items=inputs.ints(n_items, bd.PAPER_N, "--n-items"),
        labels_per_item=inputs.ints(labels_per_item, (3, 11), "--labels-per-item"),
        tolerance=tolerance,
    )
    res = bd.run_sweep(
        spec, out=out, chunks=inputs.chunks(chunks), workers=workers, scheduler=scheduler
    )
    if json:
        ui.print_json(res.to_dict())
    else:
        render.show_sweep(res, tolerance)


Estimator = Annotated[
    str,
    typer.Option(
        "--estimator",
        metavar="latent|majority",
        help="The pilot's estimator: latent class (EM over the unobserved true label; ≥ 3 labels per "
        "item) or the crowd majority as the truth (biased towards agreement with the crowd).",
    ),
]
LatentVariant = Annotated[
    str,
    typer.Option(
        "--latent-variant",
        metavar="select|simple|both_wrong|by_class|full",
        help="Latent variant: chosen by BIC on the pilot and on every bootstrap replicate, or fixed.",
    ),
]
ModelName = Annotated[str | None, typer.Option(metavar="MODEL")]


def _plan_figure(res: bd.PlanResult) -> Any:
    """The --plot: Fig. 2 b at the pilot's estimates when there is a pilot, else at q̂."""
    from ..plots import budget as pl

    pilot = res.pilot
    multi = res.multiclass_pilot
    if multi is not None and multi.curve is not None:
        title = (
            f"Fig. 2 b at the K-class pilot's latent-class estimates: {multi.better} vs "
            f"{multi.worse} ({len(multi.classes)} classes, plurality votes)"
        )
        return pl.win_vs_budget_figure(multi.curve, title=title)
    if pilot is not None and pilot.curve is not None:
        how = "latent-class" if pilot.estimator == "latent" else "crowd-majority"
        title = f"Fig. 2 b at the pilot's {how} estimates: {pilot.better} vs {pilot.worse}"
        return pl.win_vs_budget_figure(pilot.curve, title=title)
    assert res.curve is not None
    title = f"Fig. 2 b at the crowd's label accuracy q̂ = {res.label_accuracy:.3f}"
    return pl.win_vs_budget_figure(res.curve, title=title)


@study_inputs()
def plan_command(
    study: StudyOptions,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget", help="The label budget compared (default the labels in the data)."
        ),
    ] = None,
    labels_per_item: LabelsPerItem = None,
    level: Level = 0.95,
    eps: Annotated[
        float,
        typer.Option(
            "--eps", metavar="P", help="Accuracy margin between the two classifiers compared."
        ),
    ] = 0.01,
    estimator: Estimator = "latent",
    bootstrap: Annotated[
        int,
        typer.Option("--bootstrap", help="The pilot's bootstrap replicates over items."),
    ] = 1000,
    seed: Seed = 0,
    better: Annotated[
        str | None,
        typer.Option(
            "--better", metavar="MODEL", help="Model assumed better (default: the pilot's best)."
        ),
    ] = None,
    worse: Annotated[
        str | None,
        typer.Option(
            "--worse", metavar="MODEL", help="The other model (default: the pilot's second)."
        ),
    ] = None,
    latent_variant: LatentVariant = "select",
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    workers: Workers = None,
    scheduler: Scheduler = None,
    plot: Plot = None,
    json: Json = False,
) -> None:
    """The budget analysis of the data: single vs majority labels for the next test set at the
    crowd's label accuracy; with two models' predictions, also the pilot plan (the correlated error
    model estimated by latent class or the crowd majority, bootstrap ranges, tests of assumptions 1
    and 2, and the m and label budget that reach --level). Any number of classes: with more than
    two, plurality votes and the K-class pilot (confusion matrices of the crowd and both models)."""
    from .. import budget as bd

    check_plot(plot)
    s = load_study(study)
    if s.gold is not None:
        raise InputError(
            "--gold: budget plan does not use gold labels (it estimates the true labels as a latent "
            "class, or takes the crowd majority with --estimator majority); drop --gold"
        )
    opts = bd.PlanOptions(
        better=better,
        worse=worse,
        ties=ties,  # type: ignore[arg-type]
        vote_ties=vote_ties,  # type: ignore[arg-type]
        latent_variant=latent_variant,
        workers=workers,
        scheduler=scheduler,
    )
    res = bd.plan(
        s.ratings,
        s.predictions,
        budget=budget,
        labels_per_item=inputs.ints(labels_per_item, (1, 3, 5), "--labels-per-item"),
        level=level,
        eps=eps,
        estimator=estimator,  # type: ignore[arg-type]
        bootstrap=bootstrap,
        seed=seed,
        missing=study.missing,  # type: ignore[arg-type]
        options=opts,
    )
    if plot is not None:
        save_plot(_plan_figure(res), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    from ..verdicts.plan import verdicts

    render.show_plan(res)
    if res.multiclass_pilot is not None:
        from .multiclass_render import show_multiclass_pilot

        show_multiclass_pilot(res.multiclass_pilot)
    render.show_verdicts(verdicts(res))


@error_model_inputs
def open_command(
    errors: ErrorModelOptions,
    budget: Budget = 1500,
    labels_per_item: LabelsPerItem = None,
    n_classes: Annotated[
        int, typer.Option("--n-classes", help="K > 2: plurality voting over K classes.")
    ] = 2,
    adaptive: Annotated[
        bool, typer.Option("--adaptive", help="Two labels, a third only on a tie (binary).")
    ] = False,
    simulations: Annotated[
        int, typer.Option("--simulations", help="Monte Carlo simulations.")
    ] = 2000,
    seed: Seed = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: Json = False,
) -> None:
    """The paper's open problems by simulation: plurality voting over --n-classes K, or --adaptive."""
    from .. import budget as bd

    if adaptive == (n_classes > 2):
        raise InputError("give either --n-classes K (K > 2, plurality voting) or --adaptive")
    run: dict[str, Any] = dict(
        simulations=simulations, seed=seed, workers=workers, scheduler=scheduler
    )
    if adaptive:
        res = bd.adaptive_vs_single(errors.error_model(), budget, **run)
    else:
        if errors.p is None or errors.eps is None or errors.q is None:
            raise InputError(
                "plurality voting uses the independent error model: give --p, --eps and --q"
            )
        ms = inputs.ints(labels_per_item, (1, 3, 5), "--labels-per-item")
        res = bd.plurality_vs_single(n_classes, errors.q, errors.p, errors.eps, budget, ms, **run)
    if json:
        ui.print_json(res.to_dict())
        return
    title = f"P(better classifier identified), budget {budget:,}, {simulations:,} simulations (Monte Carlo)"
    render.show_open(res, title, adaptive)


_CONFUSION = "Confusion matrices"


def _matrix(flag: str, help: str) -> Any:
    return typer.Option(flag, metavar="FILE", help=help, rich_help_panel=_CONFUSION)


Matrix = Path | None


@option_group(ErrorModelOptions, "errors", exclude=("q_b", "q_w", "p_w", "p_b0", "p_b1"))
def multiclass_command(
    errors: ErrorModelOptions,
    n_classes: Annotated[
        int | None,
        typer.Option(
            "--n-classes",
            help="K: symmetric confusion from --q, --p, --eps (a wrong answer is any other class, "
            "uniformly).",
        ),
    ] = None,
    labels: Annotated[
        Matrix, _matrix("--labels", "The crowd's K × K confusion matrix (CSV).")
    ] = None,
    better: Annotated[Matrix, _matrix("--better", "The better classifier's (CSV).")] = None,
    worse: Annotated[Matrix, _matrix("--worse", "The worse classifier's (CSV).")] = None,
    prior: Annotated[
        list[str] | None,
        typer.Option(
            "--prior", metavar="P", help="Class prior, e.g. 0.5,0.3,0.2 (default uniform)."
        ),
    ] = None,
    rules: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            metavar="plurality,majority",
            help="Aggregation: plurality (ties at random) and/or absolute majority (none: no label).",
        ),
    ] = None,
    labels_per_item: LabelsPerItem = None,
    budget: Budget = 1500,
    ties: Ties = "loss",
    json: Json = False,
) -> None:
    """K classes, exactly (section 5): single labels vs the plurality or the absolute majority of m
    labels; confusion matrices symmetric (--n-classes, --q, --p, --eps) or from CSV files (rows the
    true class)."""
    from .. import budget as bd

    files = {"--labels": labels, "--better": better, "--worse": worse}
    mats = inputs.confusions(n_classes, errors.q, errors.p, errors.eps, files)
    res = bd.multiclass_compare(
        *mats,
        budget,
        inputs.ints(labels_per_item, (1, 3, 5), "--labels-per-item"),
        prior=inputs.prior(prior, len(mats[0])),
        rules=inputs.rules(rules),  # type: ignore[arg-type]
        ties=ties,  # type: ignore[arg-type]
    )
    if json:
        ui.print_json(res.to_dict())
        return
    render.show_multiclass(res)


add_command(budget_app, "win", win_command)
add_command(budget_app, "size", size_command)
add_command(budget_app, "capacity", capacity_command)
add_command(budget_app, "sweep", sweep_command)
add_command(budget_app, "plan", plan_command)
add_command(budget_app, "open", open_command)
add_command(budget_app, "rates", rates_command)
add_command(budget_app, "convergence", convergence_command)
add_command(budget_app, "multiclass", multiclass_command)
