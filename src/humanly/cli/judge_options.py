"""The options of ``humanly judge`` beyond the study's (issue 32): several judges (``--judge`` again,
or ``--judge NAME=FILE``), ``--strata`` and ``--weights`` (columns of the predictions or judge files),
a judge fitted on the labels (``--fitted-on-labels``, ``--folds``), the interval (``--interval``) and
ratings of the models' outputs (``--rating-scale``, ``--threshold``, ``--quantile``). Parsing only:
each flag becomes a field of :class:`~humanly.judging.JudgeOptions` or an argument of the one loader,
and a bad value is one sentence (exit status 2) before any file is read."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError

__all__ = [
    "FittedOnLabels",
    "Folds",
    "IntervalChoice",
    "JudgeFiles",
    "Quantile",
    "RatingScale",
    "Strata",
    "Threshold",
    "Weights",
    "checked_choices",
    "judge_files",
    "rating_scale",
]

_FILES = "Input files"
_DESIGN = "Design and estimands"
JudgeFiles = Annotated[
    list[str],
    typer.Option(
        "--judge",
        metavar="[NAME=]FILE",
        help="The judge's labels or class probabilities on every item (any predictions layout); "
        "give --judge again for several judges (combined with one tuned weight each), named by "
        "NAME= or by the file's name.",
        rich_help_panel=_FILES,
        show_default=False,
    ),
]
Strata = Annotated[
    str | None,
    typer.Option(
        "--strata",
        metavar="COLUMN",
        help="A column of the predictions or judge file with each item's stratum (known for every "
        "item): stratified PPI++, a λ per stratum.",
        rich_help_panel=_DESIGN,
    ),
]
Weights = Annotated[
    str | None,
    typer.Option(
        "--weights",
        metavar="COLUMN",
        help="A column of the predictions or judge file with each item's sampling weight 1/π "
        "(π: its probability of having been sent to raters): inverse-probability weighted.",
        rich_help_panel=_DESIGN,
    ),
]
FittedOnLabels = Annotated[
    bool,
    typer.Option(
        "--fitted-on-labels",
        help="The judge was calibrated or trained on these very labels: cross-fit (cross-PPI).",
        rich_help_panel=_DESIGN,
    ),
]
Folds = Annotated[
    int | None,
    typer.Option(
        "--folds",
        metavar="K",
        help="Folds of --fitted-on-labels (default 10).",
        rich_help_panel=_DESIGN,
        show_default=False,
    ),
]
IntervalChoice = Annotated[
    str,
    typer.Option(
        "--interval",
        metavar="auto|clt|adjusted",
        help="auto (default): the small-sample interval of the human labels below the n where "
        "PPI's central-limit interval under-covers (docs/judge.md), PPI's from there on; clt: "
        "always PPI's; adjusted: always the small-sample one.",
        rich_help_panel=_DESIGN,
    ),
]
RatingScale = Annotated[
    str | None,
    typer.Option(
        "--rating-scale",
        metavar="LOW,HIGH",
        help="The models' outputs are rated on this scale: RATINGS holds the human ratings (item, "
        "model, rating), --judge the judge's; estimates each model's mean rating.",
        rich_help_panel=_DESIGN,
    ),
]
Threshold = Annotated[
    float | None,
    typer.Option(
        "--threshold",
        metavar="K",
        help="With --rating-scale: also the share of each model's outputs rated K or more.",
        rich_help_panel=_DESIGN,
    ),
]
Quantile = Annotated[
    float | None,
    typer.Option(
        "--quantile",
        metavar="Q",
        help="With --rating-scale: also this quantile of each model's rating (0 < Q < 1).",
        rich_help_panel=_DESIGN,
    ),
]


def judge_files(values: list[str]) -> Path | dict[str, Path]:
    """The ``--judge`` values: one file as it is; several as a dict name → file (``NAME=FILE``, or
    the file's name without its suffix).

    >>> judge_files(["llm.csv"])
    PosixPath('llm.csv')
    >>> judge_files(["big=a.csv", "b.csv"])
    {'big': PosixPath('a.csv'), 'b': PosixPath('b.csv')}
    """
    if not values:
        raise InputError("--judge: give the judge's file (--judge FILE)")
    named: dict[str, Path] = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or Path(value).exists():
            from ..data.tables import source_name  # on use: pandas is not needed for --help

            name, path = source_name(value), value
        if not path:
            raise InputError(f"--judge {value}: give a file after NAME= (--judge NAME=FILE)")
        if name in named:
            raise InputError(
                f"--judge {value}: two judges are named {name!r}; name each one (--judge NAME=FILE)"
            )
        named[name] = Path(path)
    if len(values) == 1 and "=" not in values[0]:
        return next(iter(named.values()))
    return named


def rating_scale(value: str | None) -> tuple[float, float] | None:
    """``--rating-scale LOW,HIGH`` as two numbers, LOW < HIGH.

    >>> rating_scale("1,5"), rating_scale(None)
    ((1.0, 5.0), None)
    """
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    try:
        low, high = (float(p) for p in parts)
    except ValueError:
        low = high = math.nan
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise InputError(
            f"--rating-scale {value}: give the scale's ends as LOW,HIGH with LOW < HIGH (e.g. 1,5)"
        )
    return low, high


def checked_choices(
    *,
    interval: str,
    folds: int | None,
    fitted: bool,
    scale: str | None,
    threshold: float | None,
    quantile: float | None,
    probabilities: Any,
    weights: str | None,
    strata: str | None = None,
    judges: int = 1,
) -> None:
    """The combinations of flags that cannot work, each one sentence, before any file is read."""
    if interval not in ("clt", "auto", "adjusted"):
        raise InputError(f"--interval {interval}: give clt, auto or adjusted")
    if folds is not None and not fitted:
        raise InputError(
            f"--folds {folds}: folds are for --fitted-on-labels; add it, or drop --folds"
        )
    if folds is not None and folds < 2:
        raise InputError(f"--folds {folds}: give at least 2 folds")
    for flag, value in (("--threshold", threshold), ("--quantile", quantile)):
        if value is not None and scale is None:
            raise InputError(
                f"{flag} {value:g}: it is for ratings of the models' outputs; give --rating-scale "
                "LOW,HIGH too"
            )
    if quantile is not None and not 0 < quantile < 1:
        raise InputError(f"--quantile {quantile:g}: give a quantile between 0 and 1 (e.g. 0.5)")
    other = {
        "--strata": strata is not None,
        "--fitted-on-labels": fitted,
        "a second --judge": judges > 1,
    }
    if quantile is not None and any(other.values()):
        flag = next(k for k, v in other.items() if v)
        raise InputError(
            f"--quantile {quantile:g} with {flag}: the PPI quantile (ppi-python's ppi_quantile_ci) "
            "is for one judge, no strata and a judge not fitted on the labels; drop one of them"
        )
    if probabilities is not None and weights is not None:
        raise InputError(
            "--probabilities and --weights: both give the sampling probabilities; give one of them"
        )
