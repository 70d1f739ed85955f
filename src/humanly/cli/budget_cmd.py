"""``humanly budget win|size|capacity|sweep|plan``: one label per item or majority votes?

Don't Label Twice (Dorner & Hardt); a thin layer over :mod:`humanly.budget`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from ..data.errors import InputError
from . import _common as c
from ._app import HumanlyGroup, new_typer

if TYPE_CHECKING:
    from .. import budget as bd

_MULTI = ("--m", "--n")
_INT = re.compile(r"^\d+$")


class BudgetGroup(HumanlyGroup):
    """Lets multi-valued options take space-separated values, as in ``--m 1 3 5`` (rewritten to
    ``--m 1,3,5`` before click parses the command line)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(args):
            tok = args[i]
            out.append(tok)
            if tok in _MULTI and i + 1 < len(args):
                vals = [args[i + 1]]
                i += 2
                while i < len(args) and _INT.match(args[i]):
                    vals.append(args[i])
                    i += 1
                out.append(",".join(vals))
                continue
            i += 1
        return super().parse_args(ctx, out)


budget_app = new_typer(
    cls=BudgetGroup,
    help="Label budget (Don't Label Twice): single labels vs m-majority labels for comparing classifiers.",
)

P = Annotated[float | None, typer.Option("--p", help="Accuracy of the worse classifier.")]
Eps = Annotated[float | None, typer.Option("--eps", help="Accuracy margin of the better one.")]
Q = Annotated[float | None, typer.Option("--q", help="Label accuracy (one crowd label).")]
Qb = Annotated[
    float | None, typer.Option("--qb", help="Label accuracy where only c_b is right (correlated).")
]
Qw = Annotated[
    float | None, typer.Option("--qw", help="Label accuracy where only c_w is right (correlated).")
]
Pw = Annotated[float | None, typer.Option("--pw", help="Accuracy of c_w (correlated).")]
Pb0 = Annotated[float | None, typer.Option("--pb0", help="P(c_b right | c_w wrong) (correlated).")]
Pb1 = Annotated[float | None, typer.Option("--pb1", help="P(c_b right | c_w right) (correlated).")]
Ms = Annotated[
    list[str] | None,
    typer.Option("--m", help="Labels per item to compare, e.g. --m 1 3 5 (or 1,3,5)."),
]
BudgetOpt = Annotated[int, typer.Option("--budget", help="Label budget k (labels in total).")]
Delta = Annotated[float, typer.Option("--delta", help="Error tolerance δ.")]
TiesOpt = Annotated[
    str,
    typer.Option("--ties", help="A tied comparison (ΣG = 0): 'failure' (the paper) or 'half'."),
]
Plot = Annotated[Path | None, typer.Option("--plot", help="Write a figure (.png, .svg or .pdf).")]
Workers = Annotated[
    int | None, typer.Option("--workers", help="Run on a local dask cluster of N processes.")
]
Scheduler = Annotated[
    str | None, typer.Option("--scheduler", help="Run on a dask scheduler at this address.")
]


def _ints(values: list[str] | None, default: tuple[int, ...], option: str) -> tuple[int, ...]:
    if not values:
        return default
    out = []
    for v in values:
        for part in str(v).split(","):
            part = part.strip()
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


def _model(
    p: float | None,
    eps: float | None,
    q: float | None,
    qb: float | None,
    qw: float | None,
    pw: float | None,
    pb0: float | None,
    pb1: float | None,
) -> bd.Model:
    from .. import budget as bd

    return bd.make_model(p=p, eps=eps, q=q, q_b=qb, q_w=qw, p_w=pw, p_b0=pb0, p_b1=pb1)


def _fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def _table(title: str, rows: Sequence[Mapping[Any, Any]], keys: list[str]) -> None:
    t = Table(title=title)
    for k in keys:
        t.add_column(k, justify="right")
    for r in rows:
        t.add_row(*(_fmt(r.get(k)) for k in keys))
    c.stdout.print(t)


@budget_app.command("win")
def win_cmd(
    p: P = None,
    eps: Eps = None,
    q: Q = None,
    qb: Qb = None,
    qw: Qw = None,
    pw: Pw = None,
    pb0: Pb0 = None,
    pb1: Pb1 = None,
    budget: BudgetOpt = 1500,
    m: Ms = None,
    ties: TiesOpt = "failure",
    simulate: Annotated[
        int, typer.Option("--simulate", help="Also estimate by Monte Carlo with R replicates.")
    ] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the Monte Carlo check.")] = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    plot: Plot = None,
    json: c.Json = False,
) -> None:
    """Exact probability that the better classifier wins, per m, for one budget (section 3, Fig. 2)."""
    from .. import budget as bd

    c.check_plot(plot)
    model = _model(p, eps, q, qb, qw, pw, pb0, pb1)
    ms = _ints(m, (1, 3, 5), "--m")
    res = bd.compare(
        model,
        budget,
        ms,
        ties=ties,  # type: ignore[arg-type]
        simulate=simulate,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
    )
    if plot is not None:
        from ..plots import budget as pl

        if isinstance(model, bd.IndependentModel):
            fig = pl.win_vs_q_figure(model.p, model.eps, budget, ms)
        else:
            fig = pl.win_vs_budget_figure(model, ms)
        c.save_plot(fig, plot)
    if json:
        c.print_json(res.to_dict())
        return
    keys = ["m", "n", "label_accuracy", "exact", "hoeffding", "cramer", "tie"]
    if simulate:
        keys += ["monte_carlo", "monte_carlo_se"]
    _table(
        f"P(better classifier identified), budget {budget:,} labels, ties = {ties}",
        [r.to_dict() for r in res.rows],
        keys,
    )
    c.stdout.print(f"best m: {res.best_m}")
    if res.assumption1 is False:
        c.note("note: q_b < q_w violates assumption 1 (no biased label accuracy)")


@budget_app.command("size")
def size_cmd(
    p: P = None,
    eps: Eps = None,
    q: Q = None,
    qb: Qb = None,
    qw: Qw = None,
    pw: Pw = None,
    pb0: Pb0 = None,
    pb1: Pb1 = None,
    delta: Delta = 0.05,
    m: Ms = None,
    ties: TiesOpt = "failure",
    plot: Plot = None,
    json: c.Json = False,
) -> None:
    """Smallest label budget with error ≤ δ per m: exact, Cramér and Hoeffding (Lemmas 1 and 2)."""
    from .. import budget as bd

    c.check_plot(plot)
    model = _model(p, eps, q, qb, qw, pw, pb0, pb1)
    ms = _ints(m, (1, 3), "--m")
    res = bd.sample_size(model, delta, ms, ties=ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        if isinstance(model, bd.IndependentModel):
            fig = pl.rates_figure(model.p, model.eps, ms)
        else:
            fig = pl.win_vs_budget_figure(model, ms)
        c.save_plot(fig, plot)
    if json:
        c.print_json(res.to_dict())
        return
    _table(
        f"Label budget for error ≤ {delta:g}",
        [r.to_dict() for r in res.rows],
        ["m", "budget_exact", "budget_cramer", "budget_hoeffding", "n_exact", "label_accuracy"],
    )
    if res.best_m is not None:
        c.stdout.print(f"cheapest m: {res.best_m}")


@budget_app.command("capacity")
def capacity_cmd(
    p: P = None,
    eps: Eps = None,
    q: Q = None,
    qb: Qb = None,
    qw: Qw = None,
    pw: Pw = None,
    pb0: Pb0 = None,
    pb1: Pb1 = None,
    delta: Delta = 0.05,
    budget: BudgetOpt = 1500,
    m: Ms = None,
    ties: TiesOpt = "failure",
    plot: Plot = None,
    json: c.Json = False,
) -> None:
    """How many worse classifiers a benchmark can rank against the best at error δ (section 3.3, Fig. 1)."""
    from .. import budget as bd

    c.check_plot(plot)
    model = _model(p, eps, q, qb, qw, pw, pb0, pb1)
    ms = _ints(m, (1,), "--m")
    res = bd.capacity(model, delta, budget, ms, ties=ties)  # type: ignore[arg-type]
    if plot is not None:
        from ..plots import budget as pl

        c.save_plot(pl.capacity_figure(model, delta, m=ms[0]), plot)
    if json:
        c.print_json(res.to_dict())
        return
    _table(
        f"Testable classifiers at δ = {delta:g}, budget {budget:,}",
        [r.to_dict() for r in res.rows],
        ["m", "n", "exact", "cramer", "hoeffding", "error_exact"],
    )


def _chunks(value: str | None) -> list[int] | None:
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


@budget_app.command("sweep")
def sweep_cmd(
    grid_points: Annotated[
        int, typer.Option("--grid-points", help="Points of the grid in [0.5, 0.99] per parameter.")
    ] = 50,
    n: Annotated[
        list[str] | None,
        typer.Option("--n", help="Items n (default: the paper's 1..11, 100, 101, 1000, 1001)."),
    ] = None,
    m: Ms = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Folder for chunk files (resumable: a rerun skips finished chunks)."
        ),
    ] = None,
    chunks: Annotated[
        str | None,
        typer.Option("--chunks", help="Only these chunks (q_b, q_w grid pairs): 0-9,20."),
    ] = None,
    tolerance: Annotated[
        float, typer.Option("--tolerance", help="A violation: multi − single above this.")
    ] = 1e-12,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: c.Json = False,
) -> None:
    """The Appendix A sweep: does one label ever lose to an m-majority at the same budget?

    Runs in-process unless --workers N (a LocalCluster) or --scheduler ADDRESS is given; the numbers are
    identical either way."""
    from .. import budget as bd
    from ..budget import _kernel

    if not _kernel.AVAILABLE:
        c.stderr.print(
            "note: numba is not installed; the sweep uses the ~140x slower special-function path "
            "(pip install 'humanly[fast]')"
        )
    spec = bd.SweepSpec(
        grid_points=grid_points,
        n_values=_ints(n, bd.PAPER_N, "--n"),
        m_values=_ints(m, (3, 11), "--m"),
        tolerance=tolerance,
    )
    res = bd.run_sweep(spec, out=out, chunks=_chunks(chunks), workers=workers, scheduler=scheduler)
    if json:
        c.print_json(res.to_dict())
        return
    c.stdout.print(
        f"chunks {res.chunks_done}/{res.chunks_total}; {res.configurations:,} configurations; "
        f"{res.probability_pairs:,} probability pairs"
    )
    c.stdout.print(f"violations (q_b ≥ q_w, multi − single > {tolerance:g}): {res.violations:,}")
    at = None if res.max_violation_at is None else res.max_violation_at.to_dict()
    c.stdout.print(f"largest multi − single under assumption 1: {_fmt(res.max_violation)} at {at}")
    share = res.share_single_wins_qw_gt_qb
    c.stdout.print(
        "single labels still better where q_w > q_b: "
        + (
            "–"
            if share is None
            else f"{share:.1%} of {res.qw_gt_qb_pairs:,} (paper: about two thirds)"
        )
    )


@budget_app.command("plan")
def plan_cmd(
    ratings: c.RatingsPath,
    predictions: c.PredictionsPath = None,
    delta: Delta = 0.05,
    m: Ms = None,
    better: Annotated[
        str | None,
        typer.Option("--better", help="Model assumed better (default: the pilot's best)."),
    ] = None,
    worse: Annotated[
        str | None, typer.Option("--worse", help="The other model (default: the pilot's second).")
    ] = None,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap replicates for the parameter ranges.")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Bootstrap seed.")] = 0,
    budget: Annotated[
        int | None, typer.Option("--budget", help="Also give win probabilities for this budget.")
    ] = None,
    item_col: c.ItemCol = None,
    rater_col: c.RaterCol = None,
    label_col: c.LabelCol = None,
    wide: c.Wide = False,
    counts: c.Counts = None,
    total: c.Total = None,
    classes: c.Classes = None,
    prediction_col: c.PredCol = None,
    prob_col: c.ProbCol = None,
    model_col: c.ModelCol = None,
    positive: c.Positive = None,
    missing: c.Missing = "error",
    workers: Workers = None,
    scheduler: Scheduler = None,
    plot: Plot = None,
    json: c.Json = False,
) -> None:
    """Plan a test set from a pilot: estimate the correlated model's parameters (pilot majority as proxy
    truth), bootstrap their ranges, check assumptions 1 and 2, and recommend m and the budget for δ."""
    from .. import budget as bd

    c.check_plot(plot)
    if predictions is None:
        raise InputError(
            "plan needs --predictions FILE with the two models' predictions on the pilot"
        )
    r = c.load_ratings(
        ratings,
        item_col=item_col,
        rater_col=rater_col,
        label_col=label_col,
        wide=wide,
        counts=counts,
        total=total,
        classes=classes,
    )
    r, preds = c.load_predictions(
        predictions,
        r,
        item_col=item_col,
        prediction_col=prediction_col,
        prob_col=prob_col,
        model_col=model_col,
        positive=positive,
        missing=missing,
    )
    res = bd.plan(
        r,
        preds,
        missing=missing,  # type: ignore[arg-type]
        delta=delta,
        m=_ints(m, (1, 3, 5), "--m"),
        better=better,
        worse=worse,
        bootstrap=bootstrap,
        seed=seed,
        budget=budget,
        workers=workers,
        scheduler=scheduler,
    )
    if plot is not None:
        from ..plots import budget as pl

        c.save_plot(pl.win_vs_budget_figure(res.model(), tuple(x.m for x in res.sizes)), plot)
    if json:
        c.print_json(res.to_dict())
        return
    c.stdout.print(f"better: {res.better}   worse: {res.worse}   pilot items: {res.n_items:,}")
    _table(
        "Estimated parameters (pilot majority as proxy truth)",
        res.estimates_frame().to_dict("records"),
        ["parameter", "estimate", "low", "high"],
    )
    for name, ok in res.assumptions.checks():
        c.stdout.print(f"{name}: {'holds' if ok else 'VIOLATED'}")
    _table(
        f"Label budget for error ≤ {delta:g}",
        [x.to_dict() for x in res.sizes],
        ["m", "budget_exact", "budget_cramer", "budget_hoeffding"],
    )
    c.stdout.print(
        f"recommendation: m = {res.recommended_m}, budget {_fmt(res.recommended_budget)} labels"
    )
    for msg in res.notes:
        c.note(msg)


@budget_app.command("open")
def open_cmd(
    p: P = None,
    eps: Eps = None,
    q: Q = None,
    qb: Qb = None,
    qw: Qw = None,
    pw: Pw = None,
    pb0: Pb0 = None,
    pb1: Pb1 = None,
    budget: BudgetOpt = 1500,
    m: Ms = None,
    n_classes: Annotated[
        int, typer.Option("--n-classes", help="K > 2: plurality voting over K classes.")
    ] = 2,
    classes: Annotated[
        int | None,
        typer.Option("--classes", hidden=True, help="Deprecated: use --n-classes."),
    ] = None,
    adaptive: Annotated[
        bool, typer.Option("--adaptive", help="Two labels, a third only on a tie (binary).")
    ] = False,
    reps: Annotated[int, typer.Option("--reps", help="Monte Carlo replicates.")] = 2000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: c.Json = False,
) -> None:
    """The paper's open problems by simulation: plurality voting over --n-classes K, or --adaptive."""
    from .. import budget as bd

    if classes is not None:  # the old spelling of --n-classes, kept working
        n_classes = classes
    if adaptive == (n_classes > 2):
        raise InputError("give either --n-classes K (K > 2, plurality voting) or --adaptive")
    if adaptive:
        model = _model(p, eps, q, qb, qw, pw, pb0, pb1)
        res = bd.adaptive_vs_single(
            model, budget, reps=reps, seed=seed, workers=workers, scheduler=scheduler
        )
    else:
        if p is None or eps is None or q is None:
            raise InputError("plurality voting uses the independent model: give --p, --eps and --q")
        res = bd.plurality_vs_single(
            n_classes,
            q,
            p,
            eps,
            budget,
            _ints(m, (1, 3, 5), "--m"),
            reps=reps,
            seed=seed,
            workers=workers,
            scheduler=scheduler,
        )
    if json:
        c.print_json(res.to_dict())
        return
    _table(
        f"P(better classifier identified), budget {budget:,}, {reps:,} replicates (Monte Carlo)",
        [r.to_dict() for r in res.rows],
        ["strategy", "labels_per_item", "items", "win", "se", "exact"],
    )
    c.stdout.print(f"best: {res.best}")
