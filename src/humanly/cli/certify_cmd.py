"""``humanly certify``: is a model superhuman? Bounds, confidence and verdict (Xu, Walder & Xu).

Two modes: on data (``humanly certify RATINGS --predictions FILE``) and on published numbers
(``humanly certify --lower 0.949 0.971 --upper 0.939 --n 1821 --annotators 3``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from typer.core import TyperCommand

from ..data.errors import InputError
from . import _common as c

if TYPE_CHECKING:
    from ..certify import CertifyResult

__all__ = ["CertifyCommand", "certify_command"]

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_GREEDY = ("--lower", "--n")


class CertifyCommand(TyperCommand):
    """Lets ``--lower`` and ``--n`` take several values after one flag (``--lower 0.949 0.971``) by
    rewriting them as repeated options before parsing."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        out: list[str] = []
        current: str | None = None
        for tok in args:
            if tok in _GREEDY:
                current = tok
                out.append(tok)
                continue
            if current is not None and _NUMBER.match(tok):
                if out and out[-1] != current:
                    out.append(current)
                out.append(tok)
                continue
            current = None
            out.append(tok)
        return super().parse_args(ctx, out)


def _fmt(x: float | None, spec: str = ".4f") -> str:
    return "—" if x is None else format(x, spec)


def _fmt_s(x: float | None) -> str:
    """A confidence score: more digits near 1, so 0.999996 does not print as 1.0000."""
    if x is None:
        return "—"
    return f"{x:.6f}" if 0.9999 <= x < 1 else f"{x:.4f}"


def render(result: CertifyResult) -> list[Table]:
    """Rich tables for a person: the upper bound, each model's verdict, gold checks, the curve."""
    tables = []
    ub = result.upper_bound
    a = result.raters
    t = Table(
        title="humanly certify · average annotator (upper bound)",
        title_justify="left",
        show_header=False,
    )
    t.add_column("what", style="bold")
    t.add_column("value")
    if result.n_items is not None:
        t.add_row("items", f"{result.n_items:,}")
    t.add_row("annotators", f"{a.mode}, K = {_fmt(a.k, 'g') if a.k else '—'}")
    t.add_row("U⁽ᵗ⁾ theoretical (eq. 2)", _fmt(ub.theoretical))
    t.add_row("U⁽ᵉ⁾ empirical (eq. 8)", _fmt(ub.empirical))
    t.add_row("U_N used", f"{ub.used} = {ub.upper:.4f} on N = {ub.n:,} items")
    fin = result.upper_finite
    t.add_row(
        f"finite sample ({result.bound}, δ = {fin.delta:.3g})",
        f"√(U_N² + {fin.t:.4f}) = {_fmt(fin.value)}",
    )
    tables.append(t)
    if result.models:
        m = Table(
            title=f"models (bound {result.bound}, α = {result.alpha:g})", title_justify="left"
        )
        for col in ("model", "L_N", "N", "margin", "L_N−t_l", "S HMS", "S OMS", "superhuman"):
            m.add_column(
                col,
                justify="left" if col == "model" else "right",
                no_wrap=col != "model",
                overflow="fold",
            )
        for x in result.models:
            conf = x.confidence
            verdict = "yes" if x.superhuman else "no"
            if x.superhuman and not x.superhuman_simultaneous and len(result.models) > 1:
                verdict += " (not jointly)"
            m.add_row(
                x.model,
                _fmt(x.lower),
                f"{x.n:,}",
                f"{x.margin:+.4f}",
                _fmt(x.lower_finite.value),
                _fmt_s(conf.hms) if conf.admissible else "n/a",
                _fmt_s(conf.oms) if conf.admissible else "n/a (L_N ≤ U_N)",
                verdict,
            )
        tables.append(m)
        joint = result.simultaneous.joint
        if joint and joint.confidence is not None:
            m.caption = (
                f"jointly (all of {', '.join(joint.models)}): S = "
                f"{_fmt_s(joint.confidence)} → {'superhuman' if joint.superhuman else 'not certified'}"
            )
        if len(next(iter(result.models)).by_bound) > 1:
            b = Table(
                title="certified margin (L_N − t_l) − √(U_N² + t_u) and S (OMS) by bound",
                title_justify="left",
            )
            b.add_column("model")
            for name in next(iter(result.models)).by_bound:
                b.add_column(f"{name} margin", justify="right")
                b.add_column(f"{name} S", justify="right")
            for x in result.models:
                row = [x.model]
                for s in x.by_bound.values():
                    row += [
                        "—" if s.certified_margin is None else f"{s.certified_margin:+.4f}",
                        _fmt_s(s.confidence.oms),
                    ]
                b.add_row(*row)
            tables.append(b)
    if result.oracle is not None:
        o = result.oracle
        g = Table(
            title=f"validation against gold ({o.n_items:,} items)",
            title_justify="left",
            show_header=False,
        )
        g.add_column("what", style="bold")
        g.add_column("value")
        g.add_row("true average annotator accuracy", f"{o.average_annotator:.4f}")
        g.add_row("aggregate accuracy", f"{o.aggregate_accuracy:.4f}")
        for name, acc in o.models.items():
            g.add_row(f"true accuracy {name}", f"{acc:.4f}")
        for k, v in o.held.items():
            g.add_row(f"bound held: {k}", "yes" if v else "NO")
        for chk in o.assumptions:
            g.add_row(
                f"assumption {chk.name}",
                f"{_fmt(chk.left)} vs {_fmt(chk.right)} → {'pass' if chk.passed else 'FAIL'}",
            )
        tables.append(g)
    if result.curve:
        cv = Table(title="bounds by number of annotators k (Fig. 3)", title_justify="left")
        for col in ("k", "U⁽ᵗ⁾_N", "U⁽ᵉ⁾_N", *[f"L_N {n}" for n in result.curve[0].lower]):
            cv.add_column(col, justify="right")
        for p in result.curve:
            cv.add_row(
                str(p.k),
                _fmt(p.theoretical),
                _fmt(p.empirical),
                *[_fmt(v) for v in p.lower.values()],
            )
        tables.append(cv)
    return tables


def _split_kind(
    values: list[str] | None, kinds: tuple[str, ...], what: str
) -> tuple[str | None, list[str]]:
    kind, nums = None, []
    for v in values or []:
        if v in kinds:
            kind = v
        elif _NUMBER.match(v):
            nums.append(v)
        else:
            raise InputError(f"{what} {v!r}: give {' or '.join(kinds)}, or a number")
    return kind, nums


def certify_command(
    ratings: Annotated[
        Path | None,
        typer.Argument(
            help="Ratings file; omit it for summary mode (--lower/--upper/--n).", show_default=False
        ),
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
    gold: c.GoldPath = None,
    gold_col: c.GoldCol = None,
    predictions: c.PredictionsPath = None,
    prediction_col: c.PredCol = None,
    prob_col: c.ProbCol = None,
    model_col: c.ModelCol = None,
    positive: c.Positive = None,
    missing: c.Missing = "error",
    annotators: Annotated[
        str | None,
        typer.Option("--annotators", help="slots (default) or named; in summary mode K, a number."),
    ] = None,
    aggregate: Annotated[
        str, typer.Option("--aggregate", help="Aggregate label for L_N: majority (or dawid-skene).")
    ] = "majority",
    bound: Annotated[
        str, typer.Option("--bound", help="hoeffding (paper), bernstein or exact.")
    ] = "hoeffding",
    alpha: Annotated[float, typer.Option("--alpha", help="Superhuman when S ≥ 1 − alpha.")] = 0.05,
    delta: Annotated[
        float | None,
        typer.Option(
            "--delta",
            help="Failure probability per side of the reported finite-sample "
            "bounds (default alpha/2).",
        ),
    ] = None,
    t_u: Annotated[
        float | None,
        typer.Option("--t-u", help="Fixed deviation t_u of the finite upper bound (δ follows)."),
    ] = None,
    t_l: Annotated[
        float | None,
        typer.Option("--t-l", help="Fixed deviation t_l of the finite lower bound (δ follows)."),
    ] = None,
    upper: Annotated[
        list[str] | None,
        typer.Option(
            "--upper",
            help="empirical (default) or theoretical U_N; in summary mode also "
            "the published U⁽ᵉ⁾, e.g. --upper 0.939.",
        ),
    ] = None,
    lower: Annotated[
        list[float] | None,
        typer.Option("--lower", help="Summary mode: each model's L_N, e.g. --lower 0.949 0.971."),
    ] = None,
    n: Annotated[
        list[int] | None,
        typer.Option("--n", help="Summary mode: test items, one value or one per model."),
    ] = None,
    n_upper: Annotated[
        int | None,
        typer.Option("--n-upper", help="Summary mode: items behind U⁽ᵉ⁾ (default: min n)."),
    ] = None,
    models: Annotated[
        str | None, typer.Option("--models", help="Summary mode: model names, comma-separated.")
    ] = None,
    curve: Annotated[
        bool, typer.Option("--curve", help="Bounds for k = 1 … K annotators (Fig. 3).")
    ] = False,
    curve_subsets: Annotated[
        int,
        typer.Option("--curve-subsets", help="Named mode: rater subsets per k (sampled if more)."),
    ] = 50,
    curve_max_k: Annotated[
        int | None,
        typer.Option(
            "--curve-max-k",
            help="Largest k of the curve (default: K, or the median labels per item when ragged).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed for sampled rater subsets.")] = 0,
    oms_steps: Annotated[
        int | None, typer.Option("--oms-steps", help="Paper's OMS gradient ascent: steps (100).")
    ] = None,
    oms_lr: Annotated[
        float | None, typer.Option("--oms-lr", help="Paper's OMS gradient ascent: rate (1e-4).")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            help="Write a figure (.png/.svg/.pdf): the curve with --curve, else S(t_u) per model.",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Local dask worker processes (named curve).")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Address of a running dask scheduler.")
    ] = None,
    json: c.Json = False,
) -> None:
    """Certify models as superhuman: upper bound for the average annotator (Theorems 1, 5), lower
    bound for each model (Theorems 3, 6), confidence S with HMS and OMS (Theorem 7), and a verdict.
    Without RATINGS, certify published numbers (summary mode)."""
    upper_kind, upper_nums = _split_kind(upper, ("empirical", "theoretical"), "--upper")
    c.check_plot(plot)
    if ratings is None:
        if not lower or not upper_nums or not n:
            raise InputError(
                "give a RATINGS file, or summary mode: --lower L1 [L2 ...] --upper U --n N "
                "[--annotators K]"
            )
        if len(upper_nums) != 1:
            raise InputError(f"--upper: give one published U⁽ᵉ⁾, got {len(upper_nums)}")
        k = None
        if annotators is not None:
            if not _NUMBER.match(annotators):
                raise InputError(f"--annotators {annotators!r}: in summary mode give K, a number")
            k = float(annotators)
        from ..certify import certify_summary

        result = certify_summary(
            lower,
            float(upper_nums[0]),
            n,
            k=k,
            models=c.split_list(models),
            upper_kind=upper_kind or "empirical",  # type: ignore[arg-type]
            n_upper=n_upper,
            bound=bound,  # type: ignore[arg-type]
            alpha=alpha,
            delta=delta,
            oms_steps=oms_steps,
            oms_lr=oms_lr,
            t_u=t_u,
            t_l=t_l,
        )
    else:
        if lower or upper_nums or n:
            raise InputError(
                "--lower/--n and a numeric --upper are for summary mode; drop them or the RATINGS file"
            )
        mode = annotators or "slots"
        if mode not in ("slots", "named"):
            raise InputError(f"--annotators {mode!r}: use slots or named")
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
            ignore_cols=c.ratings_ignore(gold_col),
        )
        preds = None
        if predictions is not None:
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
        g = c.load_gold(r, ratings, gold, gold_col, item_col, missing)
        from ..certify import certify

        result = certify(
            r,
            preds,
            gold=g,
            missing=missing,  # type: ignore[arg-type]
            raters=mode,  # type: ignore[arg-type]
            aggregate=aggregate,
            bound=bound,  # type: ignore[arg-type]
            alpha=alpha,
            delta=delta,
            upper=upper_kind or "empirical",  # type: ignore[arg-type]
            curve=curve,
            curve_subsets=curve_subsets,
            curve_max_k=curve_max_k,
            oms_steps=oms_steps,
            oms_lr=oms_lr,
            t_u=t_u,
            t_l=t_l,
            seed=seed,
            workers=workers,
            scheduler=scheduler,
        )
    if plot is not None:
        from ..plots.certify import plot_confidence, plot_curve

        c.save_plot(plot_curve(result) if result.curve else plot_confidence(result), plot)
    if json:
        c.print_json(result.to_dict())
    else:
        for table in render(result):
            c.stdout.print(table)
        for msg in result.notes:
            c.note(f"note: {msg}")
