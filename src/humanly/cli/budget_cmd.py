"""``humanly budget win|size|capacity|sweep|plan|open``: one label per item or majority votes?

Don't Label Twice (Dorner & Hardt); a thin layer over :mod:`humanly.budget`. The error model's
parameters are one option group, :class:`ModelOptions` (``--p --eps --q`` or ``--qb --qw --pw --pb0
--pb1``), named as :func:`humanly.budget.make_model` names them (``q_b`` is ``--qb``).
"""

from __future__ import annotations

import inspect
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..data.errors import InputError
from . import _console as ui
from ._app import add_command, new_typer
from ._common import Json, Plot, Scheduler, Seed, Workers, save_plot
from ._output import check_output_folder, check_plot
from .budget_render import show_plan, show_sweep, table
from .options import StudyOptions, load_study, option_group, study_inputs

if TYPE_CHECKING:
    from .. import budget as bd

__all__ = ["ModelOptions", "budget_app"]

budget_app = new_typer(
    help="Label budget (Don't Label Twice): single labels vs m-majority labels for comparing classifiers.",
)

_MODEL = "Error model"


def _prob(flag: str, help: str) -> Any:
    return typer.Option(flag, metavar="P", help=help, rich_help_panel=_MODEL)


@dataclass(frozen=True)
class ModelOptions:
    """The error model: independent (``p``, ``eps``, ``q``) or correlated (``q_b`` … ``p_b1``)."""

    p: Annotated[float | None, _prob("--p", "Accuracy of the worse classifier.")] = None
    eps: Annotated[float | None, _prob("--eps", "Accuracy margin of the better one.")] = None
    q: Annotated[float | None, _prob("--q", "Label accuracy (one crowd label).")] = None
    q_b: Annotated[float | None, _prob("--qb", "Label accuracy where only c_b is right.")] = None
    q_w: Annotated[float | None, _prob("--qw", "Label accuracy where only c_w is right.")] = None
    p_w: Annotated[float | None, _prob("--pw", "Accuracy of the worse classifier c_w.")] = None
    p_b0: Annotated[float | None, _prob("--pb0", "P(c_b right | c_w wrong).")] = None
    p_b1: Annotated[float | None, _prob("--pb1", "P(c_b right | c_w right).")] = None

    def model(self) -> bd.Model:
        """The model :func:`humanly.budget.make_model` builds from the given parameters."""
        from ..budget import make_model

        return make_model(**asdict(self))


model_inputs = option_group(ModelOptions, "model")

Ms = Annotated[
    list[str] | None,
    typer.Option("--m", metavar="M", help="Labels per item to compare, e.g. --m 1 3 5 (or 1,3,5)."),
]
Budget = Annotated[int, typer.Option("--budget", help="Label budget k (labels in total).")]
Delta = Annotated[float, typer.Option("--delta", help="Error tolerance δ.")]
Ties = Annotated[
    str,
    typer.Option(
        "--ties",
        metavar="failure|half",
        help="A tied comparison (ΣG = 0): a failure (the paper) or half a win.",
    ),
]
VoteTies = Annotated[
    str,
    typer.Option(
        "--vote-ties", metavar="coin|failure", help="A tied m-vote (even m): a coin flip or wrong."
    ),
]


def _ints(values: list[str] | None, default: tuple[int, ...], option: str) -> tuple[int, ...]:
    """``['1,3', '5']`` → ``(1, 3, 5)``; nothing → ``default``."""
    if not values:
        return default
    out = []
    for part in (p.strip() for v in values for p in str(v).split(",")):
        if not part:
            continue
        try:
            out.append(int(part))
        except ValueError:
            raise InputError(
                f"{option} {part!r}: give whole numbers, e.g. {option} 1 3 5"
            ) from None
    if not out:
        raise InputError(f"{option}: give at least one value")
    return tuple(out)


@model_inputs
def win_command(
    model: ModelOptions,
    budget: Budget = 1500,
    m: Ms = None,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
    simulate: Annotated[
        int, typer.Option("--simulate", help="Also estimate by Monte Carlo, R replicates.")
    ] = 0,
    seed: Seed = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Exact probability that the better classifier wins, per m, for one budget (section 3, Fig. 2)."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = model.model(), _ints(m, (1, 3, 5), "--m")
    run: dict[str, Any] = dict(simulate=simulate, seed=seed, workers=workers, scheduler=scheduler)
    res = bd.compare(mod, budget, ms, ties=ties, vote_ties=vote_ties, **run)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        if isinstance(mod, bd.IndependentModel):
            save_plot(pl.win_vs_q_figure(mod.p, mod.eps, budget, ms), plot)
        else:
            save_plot(pl.win_vs_budget_figure(mod, ms), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    keys = ["m", "n", "label_accuracy", "exact", "hoeffding", "cramer", "tie"]
    keys += ["monte_carlo", "monte_carlo_se"] if simulate else []
    title = f"P(better classifier identified), budget {budget:,} labels, ties = {ties}"
    table(title, [r.to_dict() for r in res.rows], keys)
    ui.show(f"best m: {res.best_m}")
    if res.assumption1 is False:
        ui.note("note: q_b < q_w violates assumption 1 (no biased label accuracy)")


@model_inputs
def size_command(
    model: ModelOptions,
    delta: Delta = 0.05,
    m: Ms = None,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Smallest label budget with error ≤ δ per m: exact, Cramér and Hoeffding (Lemmas 1 and 2)."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = model.model(), _ints(m, (1, 3), "--m")
    res = bd.sample_size(mod, delta, ms, ties=ties, vote_ties=vote_ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        if isinstance(mod, bd.IndependentModel):
            save_plot(pl.rates_figure(mod.p, mod.eps, ms), plot)
        else:
            save_plot(pl.win_vs_budget_figure(mod, ms), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    keys = ["m", "budget_exact", "budget_cramer", "budget_hoeffding", "n_exact", "label_accuracy"]
    table(f"Label budget for error ≤ {delta:g}", [r.to_dict() for r in res.rows], keys)
    if res.best_m is not None:
        ui.show(f"cheapest m: {res.best_m}")


@model_inputs
def capacity_command(
    model: ModelOptions,
    delta: Delta = 0.05,
    budget: Budget = 1500,
    m: Ms = None,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
    plot: Plot = None,
    json: Json = False,
) -> None:
    """How many worse classifiers a benchmark can rank against the best at error δ (section 3.3,
    Fig. 1)."""
    from .. import budget as bd

    check_plot(plot)
    mod, ms = model.model(), _ints(m, (1,), "--m")
    res = bd.capacity(mod, delta, budget, ms, ties=ties, vote_ties=vote_ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        save_plot(pl.capacity_figure(mod, delta, m=ms[0]), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    keys = ["m", "n", "exact", "cramer", "hoeffding", "error_exact"]
    table(
        f"Testable classifiers at δ = {delta:g}, budget {budget:,}",
        [r.to_dict() for r in res.rows],
        keys,
    )


def _chunks(value: str | None) -> list[int] | None:
    """``'0-2,5'`` → ``[0, 1, 2, 5]``."""
    if value is None:
        return None
    out: list[int] = []
    try:
        for part in value.split(","):
            if "-" in part:
                lo, hi = part.split("-", 1)
                out.extend(range(int(lo), int(hi) + 1))
            elif part.strip():
                out.append(int(part))
    except ValueError:
        raise InputError(f"--chunks {value!r}: give indices and ranges, e.g. 0-9,20") from None
    return out


def sweep_command(
    grid_points: Annotated[
        int, typer.Option("--grid-points", help="Points of the grid in [0.5, 0.99] per parameter.")
    ] = 50,
    n_values: Annotated[
        list[str] | None,
        typer.Option("--n", metavar="N", help="Items n (default: 1..11, 100, 101, 1000, 1001)."),
    ] = None,
    m_values: Ms = None,
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
    from ..budget import _kernel

    if out is not None:
        check_output_folder(out, option="--out")
    if not _kernel.AVAILABLE:
        ui.note(
            "note: numba is not installed; the sweep uses the ~140x slower special-function path "
            "(pip install 'humanly[fast]')"
        )
    spec = bd.SweepSpec(
        grid_points=grid_points,
        n_values=_ints(n_values, bd.PAPER_N, "--n"),
        m_values=_ints(m_values, (3, 11), "--m"),
        tolerance=tolerance,
    )
    res = bd.run_sweep(spec, out=out, chunks=_chunks(chunks), workers=workers, scheduler=scheduler)
    if json:
        ui.print_json(res.to_dict())
    else:
        show_sweep(res, tolerance)


def _plan_gold(gold: object) -> dict[str, Any]:
    """``gold=`` for :func:`humanly.budget.plan` when given and the library takes it."""
    from .. import budget as bd

    if gold is None:
        return {}
    if "gold" not in inspect.signature(bd.plan).parameters:
        raise InputError(
            "--gold: budget plan estimates the parameters with the pilot majority as proxy truth "
            "and does not use gold labels; drop --gold"
        )
    return {"gold": gold}


@study_inputs()
def plan_command(
    study: StudyOptions,
    delta: Delta = 0.05,
    m: Ms = None,
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
    bootstrap: Annotated[
        int,
        typer.Option("--bootstrap", help="Bootstrap replicates for the parameter ranges."),
    ] = 200,
    seed: Seed = 0,
    budget: Annotated[
        int | None, typer.Option("--budget", help="Also give win probabilities for this budget.")
    ] = None,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
    workers: Workers = None,
    scheduler: Scheduler = None,
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Plan a test set from a pilot: estimate the correlated model's parameters (pilot majority as
    proxy truth), bootstrap their ranges, check assumptions 1 and 2, and recommend m and the budget
    for δ."""
    from .. import budget as bd

    check_plot(plot)
    if study.predictions is None and not (
        study.prediction_col or study.prob_col or study.score_col
    ):
        raise InputError(
            "plan needs --predictions FILE with the two models' predictions on the pilot"
        )
    s = load_study(study)
    ms = _ints(m, (1, 3, 5), "--m")
    choice: dict[str, Any] = dict(
        better=better, worse=worse, budget=budget, ties=ties, vote_ties=vote_ties
    )
    run: dict[str, Any] = dict(bootstrap=bootstrap, seed=seed, workers=workers, scheduler=scheduler)
    res = bd.plan(
        s.ratings,
        s.predictions,
        missing=study.missing,  # type: ignore[arg-type]
        delta=delta,
        m=ms,
        **choice,
        **run,
        **_plan_gold(s.gold),
    )
    if plot is not None:
        from ..plots import budget as pl

        save_plot(pl.win_vs_budget_figure(res.model(), tuple(x.m for x in res.sizes)), plot)
    if json:
        ui.print_json(res.to_dict())
    else:
        show_plan(res, delta)


@model_inputs
def open_command(
    model: ModelOptions,
    budget: Budget = 1500,
    m: Ms = None,
    n_classes: Annotated[
        int, typer.Option("--n-classes", help="K > 2: plurality voting over K classes.")
    ] = 2,
    classes: Annotated[
        int | None, typer.Option("--classes", hidden=True, help="Deprecated: use --n-classes.")
    ] = None,
    adaptive: Annotated[
        bool, typer.Option("--adaptive", help="Two labels, a third only on a tie (binary).")
    ] = False,
    reps: Annotated[int, typer.Option("--reps", help="Monte Carlo replicates.")] = 2000,
    seed: Seed = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: Json = False,
) -> None:
    """The paper's open problems by simulation: plurality voting over --n-classes K, or --adaptive."""
    from .. import budget as bd

    n_classes = classes if classes is not None else n_classes  # the old spelling, kept working
    if adaptive == (n_classes > 2):
        raise InputError("give either --n-classes K (K > 2, plurality voting) or --adaptive")
    run: dict[str, Any] = dict(reps=reps, seed=seed, workers=workers, scheduler=scheduler)
    if adaptive:
        res = bd.adaptive_vs_single(model.model(), budget, **run)
    else:
        if model.p is None or model.eps is None or model.q is None:
            raise InputError("plurality voting uses the independent model: give --p, --eps and --q")
        ms = _ints(m, (1, 3, 5), "--m")
        res = bd.plurality_vs_single(n_classes, model.q, model.p, model.eps, budget, ms, **run)
    if json:
        ui.print_json(res.to_dict())
        return
    title = f"P(better classifier identified), budget {budget:,}, {reps:,} replicates (Monte Carlo)"
    keys = ["strategy", "labels_per_item", "items", "win", "se", "exact"]
    table(title, [r.to_dict() for r in res.rows], keys)
    ui.show(f"best: {res.best}")


add_command(budget_app, "win", win_command)
add_command(budget_app, "size", size_command)
add_command(budget_app, "capacity", capacity_command)
add_command(budget_app, "sweep", sweep_command)
add_command(budget_app, "plan", plan_command)
add_command(budget_app, "open", open_command)
