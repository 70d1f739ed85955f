"""``humanly certify``: is a model superhuman? Bounds, confidence and verdict (Xu, Walder & Xu).

Two modes: on data (``humanly certify RATINGS --predictions FILE [--raters slots|named]``, the
Python :func:`~humanly.certification.certify`) and on published numbers (``humanly certify --lower
0.949 0.971 --upper 0.939 --n 1821 --k 3``, :func:`~humanly.certification.certify_summary`). After
the tables, one verdict sentence per model (:mod:`humanly.verdicts.certify`), naming the
upper bound it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from ._app import _NUMBER
from ._common import Json, Plot, Scheduler, Seed, Workers, save_plot
from ._output import check_plot
from .certify_render import render
from .options import StudyOptions, load_study, split_list, study_inputs

if TYPE_CHECKING:
    from ..certification import CertifyResult

__all__ = ["certify_command"]

_SUMMARY = "Summary mode"
Raters = Annotated[
    str | None,
    typer.Option(
        "--raters",
        metavar="slots|named",
        help="Who the average rater is: a random one of each item's label slots (default), "
        "or of the named raters.",
    ),
]
K = Annotated[
    float | None,
    typer.Option(
        "--k", metavar="K", help="Raters per item behind --upper.", rich_help_panel=_SUMMARY
    ),
]
Aggregate = Annotated[
    str,
    typer.Option(
        "--aggregate",
        metavar="plurality|soft|weighted|dawid_skene",
        help="The crowd's label for L_N: the plurality (default), the soft label distribution, "
        "the same with raters weighted by their agreement, or the Dawid–Skene posterior mode.",
    ),
]
Tau = Annotated[
    float,
    typer.Option(
        "--tau",
        metavar="T",
        help="Margin τ ≥ 0: the confidence that each model beats the average rater by at least τ "
        "(Theorem 7; default 0, the paper's).",
    ),
]
NClasses = Annotated[
    int | None,
    typer.Option(
        "--n-classes",
        metavar="N",
        help="Number of classes N_c, for Lemma 2's check (agreement ≥ 1/N_c, K > N_c).",
        rich_help_panel=_SUMMARY,
    ),
]
Bound = Annotated[
    str,
    typer.Option("--bound", metavar="hoeffding|bernstein|exact", help="Finite-sample bound."),
]
Level = Annotated[float, typer.Option("--level", help="Certified (superhuman) when S OMS ≥ level.")]
Delta = Annotated[
    float | None,
    typer.Option(
        "--delta",
        help="Failure probability per side of the finite-sample bounds (default (1 − level)/2).",
    ),
]
TU = Annotated[
    float | None,
    typer.Option("--t-u", help="Fixed deviation t_u of the finite upper bound (δ follows)."),
]
TL = Annotated[
    float | None,
    typer.Option("--t-l", help="Fixed deviation t_l of the finite lower bound (δ follows)."),
]
Upper = Annotated[
    list[str] | None,
    typer.Option(
        "--upper",
        metavar="empirical|theoretical|U",
        help="U_N used: empirical (default) or theoretical; in summary mode also the published "
        "U⁽ᵉ⁾, e.g. --upper 0.939.",
    ),
]
Lower = Annotated[
    list[float] | None,
    typer.Option(
        "--lower", help="Each model's L_N, e.g. --lower 0.949 0.971.", rich_help_panel=_SUMMARY
    ),
]
N = Annotated[
    list[int] | None,
    typer.Option("--n", help="Test items, one value or one per model.", rich_help_panel=_SUMMARY),
]
NUpper = Annotated[
    int | None,
    typer.Option("--n-upper", help="Items behind U⁽ᵉ⁾ (default: min n).", rich_help_panel=_SUMMARY),
]
Models = Annotated[
    str | None,
    typer.Option("--models", metavar="A,B,...", help="Model names.", rich_help_panel=_SUMMARY),
]
Curve = Annotated[bool, typer.Option("--curve", help="Bounds for k = 1 … K raters (Fig. 3).")]
CurveSubsets = Annotated[
    int,
    typer.Option("--curve-subsets", help="Named raters: rater subsets per k (sampled if more)."),
]
CurveMaxK = Annotated[
    int | None,
    typer.Option(
        "--curve-max-k",
        help="Largest k of the curve (default: K, or the median labels per item when ragged).",
    ),
]
OmsSteps = Annotated[
    int | None, typer.Option("--oms-steps", help="Paper's OMS gradient ascent: steps (100).")
]
OmsLr = Annotated[
    float | None, typer.Option("--oms-lr", help="Paper's OMS gradient ascent: rate (1e-4).")
]


@dataclass(frozen=True)
class _Mode:
    """What the command line asked for: the raters mode, K, and ``--upper`` split into its kind and
    its numbers."""

    raters: str | None
    k: float | None
    upper_kind: str | None
    upper: list[str]


def _mode(raters: str | None, k: float | None, upper: list[str] | None) -> _Mode:
    """Split ``--upper`` into its kind and its numbers."""
    kind, numbers = None, []
    for v in upper or []:
        if v in ("empirical", "theoretical"):
            kind = v
        elif _NUMBER.match(v):
            numbers.append(v)
        else:
            raise InputError(f"--upper {v!r}: give empirical or theoretical, or a number")
    return _Mode(raters, k, kind, numbers)


def _summary(
    mode: _Mode,
    study: StudyOptions,
    lower: list[float] | None,
    n: list[int] | None,
    bound: str,
    **options: Any,
) -> CertifyResult:
    """Summary mode: :func:`~humanly.certification.certify_summary` on published numbers."""
    if not lower or not mode.upper or not n:
        raise InputError(
            "give a RATINGS file, or summary mode: --lower L1 [L2 ...] --upper U --n N [--k K]"
        )
    data_only = study.given() + (["--raters"] if mode.raters else [])
    if data_only:
        raise InputError(f"{data_only[0]} needs a RATINGS file; drop it in summary mode")
    if len(mode.upper) != 1:
        raise InputError(f"--upper: give one published U⁽ᵉ⁾, got {len(mode.upper)}")
    from .._core.checks import check_choice
    from ..certification import BOUNDS

    check_choice("bound", bound, tuple(BOUNDS))
    if bound != "hoeffding":
        raise InputError(
            f"--bound {bound} needs the data (per-item variances or counts); summary mode supports "
            "only --bound hoeffding"
        )
    from ..certification import certify_summary

    return certify_summary(
        lower,
        float(mode.upper[0]),
        n,
        k=mode.k,
        upper_kind=mode.upper_kind or "empirical",  # type: ignore[arg-type]
        **options,
    )


def _data(mode: _Mode, study: StudyOptions, **options: Any) -> CertifyResult:
    """Data mode: :func:`~humanly.certification.certify` on the study inputs."""
    if mode.upper:
        raise InputError("a numeric --upper is for summary mode; drop it or the RATINGS file")
    if mode.k is not None:
        raise InputError("--k is for summary mode; with a RATINGS file K comes from the data")
    s = load_study(study)
    from ..certification import certify

    return certify(
        s.ratings,
        s.predictions,
        s.gold,
        missing=study.missing,  # type: ignore[arg-type]
        raters=mode.raters or "slots",  # type: ignore[arg-type]
        upper=mode.upper_kind or "empirical",  # type: ignore[arg-type]
        **options,
    )


@study_inputs(optional=True)
def certify_command(
    study: StudyOptions,
    raters: Raters = None,
    aggregate: Aggregate = "plurality",
    bound: Bound = "hoeffding",
    level: Level = 0.95,
    delta: Delta = None,
    t_u: TU = None,
    t_l: TL = None,
    tau: Tau = 0.0,
    upper: Upper = None,
    curve: Curve = False,
    curve_subsets: CurveSubsets = 50,
    curve_max_k: CurveMaxK = None,
    seed: Seed = 0,
    oms_steps: OmsSteps = None,
    oms_lr: OmsLr = None,
    plot: Plot = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json: Json = False,
    lower: Lower = None,
    n: N = None,
    k: K = None,
    n_classes: NClasses = None,
    n_upper: NUpper = None,
    models: Models = None,
) -> None:
    """Certify models as superhuman: upper bound for the average rater (Theorems 1, 5), lower
    bound for each model (Theorems 3, 6), confidence S with HMS and OMS (Theorem 7), and a verdict.
    Without RATINGS, certify published numbers (summary mode). --plot draws the curve with --curve,
    else S(t_u) per model."""
    from ..certification import CertifyOptions

    mode = _mode(raters, k, upper)
    check_plot(plot)
    verdict: dict[str, Any] = dict(
        delta=delta, oms_steps=oms_steps, oms_lr=oms_lr, t_u=t_u, t_l=t_l
    )
    shared: dict[str, Any] = dict(level=level, tau=tau)
    if study.ratings is None:
        summary: dict[str, Any] = dict(
            models=split_list(models), n_upper=n_upper, n_classes=n_classes
        )
        options = CertifyOptions(**verdict)
        result = _summary(mode, study, lower, n, bound, **summary, **shared, options=options)
    else:
        if lower or n or models or n_upper is not None or n_classes is not None:
            raise InputError(
                "--lower, --n, --models, --n-upper and --n-classes are for summary mode (with a "
                "RATINGS file they come from the data); drop them or the RATINGS file"
            )
        options = CertifyOptions(
            **verdict,
            curve_subsets=curve_subsets,
            curve_max_k=curve_max_k,
            workers=workers,
            scheduler=scheduler,
        )
        data: dict[str, Any] = dict(aggregate=aggregate, bound=bound, curve=curve, seed=seed)
        result = _data(mode, study, **data, **shared, options=options)
    _show(result, plot, json)


def _show(result: CertifyResult, plot: Path | None, json: bool) -> None:
    if plot is not None:
        from ..plots.certify import plot_confidence, plot_curve

        save_plot(plot_curve(result) if result.curve else plot_confidence(result), plot)
    if json:
        ui.print_json(result.to_dict())
        return
    from ..verdicts.certify import verdicts

    ui.show(*render(result))
    for v in verdicts(result):
        ui.lines(["", v.sentence])
    for msg in result.notes:
        ui.note(f"note: {msg}")
