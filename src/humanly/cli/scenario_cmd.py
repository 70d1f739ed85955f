"""``humanly simulate equivalence``: survey equivalence in a latent-class scenario, exactly, against
target panels of t raters — the front of :func:`humanly.survey.scenario_equivalence` (the revision of
Survey Equivalence, arXiv:2106.01254 v2, and its authors' notebook of simulations).

It sits under ``humanly simulate`` beside the other scenarios with a known truth (an urn, an oracle
with raters, two classifiers and noisy labellers): it takes no data, only the error rates of a
scenario, and computes in the population (infinitely many items) what those commands sample. Its
flags are the function's parameters (``max_sources`` is ``--max-sources``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from ._common import Json, Plot, save_plot
from ._output import check_plot

__all__ = ["scenario_command"]


def _numbers(flag: str, value: str) -> list[float]:
    try:
        return [float(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise InputError(
            f"{flag} {value}: give numbers separated by commas, e.g. 0.85,0.07"
        ) from None


def _prior(value: str) -> Any:
    """``--prior 0.5`` (P(positive), two classes) or ``--prior 0.5,0.3,0.2`` (K classes)."""
    numbers = _numbers("--prior", value)
    if not numbers:
        raise InputError(f"--prior {value!r}: give P(positive), e.g. 0.5, or K class probabilities")
    return numbers[0] if len(numbers) == 1 else numbers


def _matrix(flag: str, value: str) -> Any:
    """``0.85,0.07`` (P(+ | +), P(+ | −)) or a K × K matrix, rows separated by ';'."""
    rows = [r for r in value.split(";") if r.strip()]
    if len(rows) == 1:
        pair = _numbers(flag, rows[0])
        if len(pair) != 2:
            raise InputError(
                f"{flag} {value}: give P(+ | +),P(+ | −) for two classes (e.g. 0.85,0.07) or a "
                "K × K confusion matrix with rows separated by ';' (rows the true class)"
            )
        return tuple(pair)
    return [_numbers(flag, r) for r in rows]


def _targets(value: str) -> tuple[int | str, ...]:
    from .equivalence_cmd import _targets as parse

    found = parse(value)
    assert found is not None
    return found


def scenario_command(
    prior: Annotated[
        str,
        typer.Option(
            "--prior", metavar="P|P1,P2,...", help="P(positive), or the K class probabilities."
        ),
    ] = "0.5",
    rater: Annotated[
        str,
        typer.Option(
            "--rater",
            metavar="TPR,FPR|MATRIX",
            help="One rater: P(+ | +),P(+ | −), or a K × K confusion matrix, rows (the true class) "
            "separated by ';'.",
        ),
    ] = "0.85,0.07",
    classifier: Annotated[
        str,
        typer.Option(
            "--classifier", metavar="TPR,FPR|MATRIX", help="The classifier, in the same form."
        ),
    ] = "0.96,0.2",
    scorer: Annotated[
        str,
        typer.Option(
            "--scorer", metavar="NAME", help="cross_entropy, agreement, precision, recall or f1."
        ),
    ] = "cross_entropy",
    combiner: Annotated[
        str,
        typer.Option(
            "--combiner",
            metavar="NAME",
            help="How a panel of k raters is combined: majority (two classes), plurality or abc.",
        ),
    ] = "majority",
    targets: Annotated[
        str,
        typer.Option(
            "--targets",
            metavar="T,...",
            help="Target panels: t raters combined like a panel, inf for the true class.",
        ),
    ] = "1,3,inf",
    max_sources: Annotated[
        int, typer.Option("--max-sources", help="The largest panel of raters on the curve.")
    ] = 10,
    plot: Plot = None,
    json: Json = False,
) -> None:
    """Survey equivalence in a latent-class scenario, exactly (infinitely many items), against target
    panels of t raters: the population scores of the classifier and of panels of k raters per target,
    κ between two target panels, the classifier's rater equivalence per target, and where its verdict
    flips between targets. The defaults are the revised paper's counter-example."""
    check_plot(plot)
    from ..survey import scenario_equivalence

    res = scenario_equivalence(
        _prior(prior),
        _matrix("--rater", rater),
        _matrix("--classifier", classifier),
        scorer=scorer,
        combiner=combiner,
        targets=_targets(targets),
        max_sources=max_sources,
    )
    _show(res, plot, json)


def _show(res: Any, plot: Path | None, json: bool) -> None:
    if plot is not None:
        from ..plots.equivalence import plot_target_panels

        save_plot(plot_target_panels(res), plot)
    if json:
        ui.print_json(res.to_dict())
        return
    from ..verdicts.targets import scenario_lines, verdicts
    from .equivalence_render import render_scenario

    ui.show(*render_scenario(res))
    ui.lines(scenario_lines(res))
    ui.lines(["", *(v.sentence for v in verdicts(res))])
