"""``humanly certify``: is a model superhuman? Bounds, confidence and verdict (Xu, Walder & Xu).

Two uses, each with its own flags: on data (``humanly certify RATINGS --predictions FILE
[--rater-mode slots|named]``, the Python :func:`~humanly.certification.certify`) and on published
numbers (``humanly certify summary --lower 0.949 0.971 --upper 0.939 --n-items 1821
--labels-per-item 3``, :func:`~humanly.certification.certify_summary`). ``certify`` is a group whose
first word, when it is not ``summary``, is the data command's RATINGS (:class:`DefaultGroup`). After
the tables, one verdict sentence per model (:mod:`humanly.verdicts.certify`), naming the upper bound
it rests on.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import _console as ui
from ._app import HumanlyCommand, HumanlyGroup, _format_options, new_typer
from ._common import Json, Plot, Scheduler, Seed, Workers, save_plot
from ._output import check_plot
from .certify_render import render
from .options import StudyOptions, load_study, split_list, study_inputs

if TYPE_CHECKING:
    from ..certification import CertifyResult

__all__ = ["DefaultGroup", "certify_app", "certify_command", "summary_command"]

RaterMode = Annotated[
    str,
    typer.Option(
        "--rater-mode",
        metavar="slots|named",
        help="Who the average rater is: a random one of each item's label slots (default), "
        "or of the named raters.",
    ),
]
LabelsPerItem = Annotated[
    float | None,
    typer.Option(
        "--labels-per-item",
        metavar="K",
        help="Labels (raters) per item behind --upper: gives U⁽ᵗ⁾ and the verdict under it.",
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
UpperKind = Annotated[
    str,
    typer.Option(
        "--upper-kind",
        metavar="empirical|theoretical",
        help="U_N used: U⁽ᵉ⁾ (empirical, the default) or U⁽ᵗ⁾ (theoretical).",
    ),
]
Upper = Annotated[
    float, typer.Option("--upper", metavar="U", help="The published U⁽ᵉ⁾, e.g. --upper 0.939.")
]
Lower = Annotated[
    list[float], typer.Option("--lower", help="Each model's L_N, e.g. --lower 0.949 0.971.")
]
NItems = Annotated[
    list[int],
    typer.Option("--n-items", metavar="N", help="Test items N, one value or one per model."),
]
NUpper = Annotated[
    int | None,
    typer.Option("--n-upper", help="Items behind U⁽ᵉ⁾ (default: the smallest --n-items)."),
]
Models = Annotated[str | None, typer.Option("--models", metavar="A,B,...", help="Model names.")]
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


@study_inputs()
def certify_command(
    study: StudyOptions,
    rater_mode: RaterMode = "slots",
    aggregate: Aggregate = "plurality",
    bound: Bound = "hoeffding",
    level: Level = 0.95,
    delta: Delta = None,
    t_u: TU = None,
    t_l: TL = None,
    tau: Tau = 0.0,
    upper_kind: UpperKind = "empirical",
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
) -> None:
    """Certify models as superhuman: upper bound for the average rater (Theorems 1, 5), lower
    bound for each model (Theorems 3, 6), confidence S with HMS and OMS (Theorem 7), and a verdict.
    --plot draws the curve with --curve, else S(t_u) per model."""
    from ..certification import CertifyOptions, certify

    check_plot(plot)
    options = CertifyOptions(
        delta=delta,
        oms_steps=oms_steps,
        oms_lr=oms_lr,
        t_u=t_u,
        t_l=t_l,
        curve_subsets=curve_subsets,
        curve_max_k=curve_max_k,
        workers=workers,
        scheduler=scheduler,
    )
    s = load_study(study)
    result = certify(
        s.ratings,
        s.predictions,
        s.gold,
        missing=study.missing,  # type: ignore[arg-type]
        rater_mode=rater_mode,  # type: ignore[arg-type]
        aggregate=aggregate,
        bound=bound,  # type: ignore[arg-type]
        upper_kind=upper_kind,  # type: ignore[arg-type]
        level=level,
        tau=tau,
        curve=curve,
        seed=seed,
        options=options,
    )
    _show(result, plot, json)


def summary_command(
    lower: Lower,
    upper: Upper,
    n_items: NItems,
    labels_per_item: LabelsPerItem = None,
    models: Models = None,
    level: Level = 0.95,
    tau: Tau = 0.0,
    upper_kind: UpperKind = "empirical",
    n_classes: NClasses = None,
    n_upper: NUpper = None,
    delta: Delta = None,
    t_u: TU = None,
    t_l: TL = None,
    oms_steps: OmsSteps = None,
    oms_lr: OmsLr = None,
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Certify from published numbers (the paper's Tables 3 and 4): each model's L_N, the raters'
    U⁽ᵉ⁾ and the test items N, under the Hoeffding bound. --plot draws S(t_u) per model."""
    from ..certification import CertifyOptions, certify_summary

    check_plot(plot)
    options = CertifyOptions(delta=delta, oms_steps=oms_steps, oms_lr=oms_lr, t_u=t_u, t_l=t_l)
    result = certify_summary(
        lower,
        upper,
        n_items,
        labels_per_item=labels_per_item,
        models=split_list(models),
        level=level,
        tau=tau,
        upper_kind=upper_kind,  # type: ignore[arg-type]
        n_classes=n_classes,
        n_upper=n_upper,
        options=options,
    )
    _show(result, plot, json)


class DefaultGroup(HumanlyGroup):
    """A group with a default command: a first word that names no sub-command (a RATINGS file, an
    option) goes to the hidden command :attr:`default`; ``--help`` shows that command's usage and
    options, then the sub-commands."""

    default = "data"

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = [self.default, *args]
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        """The default command runs under the group's own name (``humanly certify``, not
        ``humanly certify data``), so its usage and errors show what the user typed."""
        name, command, rest = super().resolve_command(ctx, args)
        return (None if name == self.default else name), command, rest

    def _default_context(self, ctx: Any) -> Any:
        command = self.commands[self.default]
        return command, command.make_context(
            ctx.info_name, [], parent=ctx.parent, resilient_parsing=True
        )

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        command, sub = self._default_context(ctx)
        formatter.write_usage(ctx.command_path, " ".join(command.collect_usage_pieces(sub)))
        for name, sub_command in self.commands.items():
            if not sub_command.hidden:
                pieces = " ".join(sub_command.collect_usage_pieces(ctx))
                formatter.write_usage(f"{ctx.command_path} {name}", pieces, "   or: ")

    def format_options(self, ctx: Any, formatter: Any) -> None:
        command, sub = self._default_context(ctx)
        _format_options(command, sub, formatter)
        self.format_commands(ctx, formatter)


certify_app = new_typer(
    cls=DefaultGroup,
    help="Certify models as superhuman against a crowd (Xu, Walder & Xu): on data "
    "(humanly certify RATINGS …), or from published numbers (humanly certify summary …).",
)
certify_app.command(DefaultGroup.default, cls=HumanlyCommand, hidden=True)(certify_command)
certify_app.command(
    "summary",
    cls=HumanlyCommand,
    short_help="From published numbers: --lower L … --upper U --n-items N (Tables 3, 4).",
)(summary_command)


def _show(result: CertifyResult, plot: Path | None, json: bool) -> None:
    if plot is not None:
        from ..plots.certify import plot_confidence, plot_curve

        save_plot(plot_curve(result) if result.curve else plot_confidence(result), plot)
    if json:
        ui.print_json(result.to_dict())
        return
    from ..verdicts.certify import verdicts
    from ..verdicts.notes import notes_text

    ui.show(*render(result))
    for v in verdicts(result):
        ui.lines(["", v.sentence])
    for msg in notes_text(result.notes):
        ui.note(f"note: {msg}")
