"""``humanly simulate urn|oracle|pair``: write simulated ratings, gold and predictions files;
``humanly simulate equivalence`` (:mod:`humanly.cli.scenario_cmd`): a scenario's survey equivalence,
exactly.

Flags are the names of :mod:`humanly.simulate` (``n_items`` is ``--n-items``, ``labels_per_item``
``--labels-per-item``, ``rater_accuracies`` ``--rater-accuracies``), so its messages show the flags.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from ._app import add_command, new_typer
from ._common import Force, Json, Seed
from ._output import check_output_file
from .budget_cmd import ErrorModelOptions, error_model_inputs
from .options import split_list
from .scenario_cmd import scenario_command

if TYPE_CHECKING:
    from ..simulate import SimulatedData

__all__ = ["simulate_app"]

simulate_app = new_typer(
    help="Simulate ratings with a known truth (writes ratings, gold, predictions), or compute a "
    "scenario's survey equivalence exactly."
)

#: what simulate writes, by extension (the formats of humanly.data.write_table)
_SUFFIXES = (".csv", ".tsv", ".parquet", ".jsonl", ".json")

Out = Annotated[
    Path,
    typer.Option(
        "-o",
        "--out",
        metavar="FILE",
        help="Ratings file to write, in an existing folder; gold and predictions go beside it "
        "(X.gold.csv, X.predictions.csv).",
    ),
]
NItems = Annotated[int, typer.Option("--n-items", min=1, help="Number of items.")]


def _floats(value: str | None, what: str) -> list[float] | None:
    if value is None:
        return None
    try:
        return [float(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise InputError(f"{what} {value!r}: give comma-separated numbers, e.g. 0.8,0.7") from None


def _labels_range(value: str) -> int | tuple[int, int]:
    """``--labels-per-item``: ``10`` or ``3-10``."""
    try:
        if "-" not in value:
            return int(value)
        lo, hi = (int(v) for v in value.split("-", 1))
    except ValueError:
        raise InputError(
            f"--labels-per-item {value!r}: give a number (10) or a range (3-10)"
        ) from None
    if not 1 <= lo <= hi:
        raise InputError(
            f"--labels-per-item {value}: give a range LOW-HIGH with 1 ≤ LOW ≤ HIGH, e.g. 3-10"
        )
    return lo, hi


def _finish(make: Any, out: Path, force: bool, json: bool) -> None:
    """Check the output, simulate (``make()``), refuse to overwrite, write and report."""
    check_output_file(out, force=force, suffixes=_SUFFIXES)
    data: SimulatedData = make()
    existing = [str(p) for p in data.files(out).values() if p.exists()]
    if existing and not force:
        raise InputError(f"{existing[0]} exists; choose another -o or pass --force to overwrite it")
    written = data.write(out, force=force)
    if json:
        ui.print_json(data.to_dict() | {"files": {k: str(v) for k, v in written.items()}})
        return
    ui.lines(
        [*(f"{key:>12}: {path}" for key, path in written.items()), f"{'summary':>12}: {data!r}"]
    )


def urn_command(
    out: Out,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset", metavar="NAME", help="'running-example' (Survey Equivalence, §2)."
        ),
    ] = None,
    n_items: NItems = 1000,
    labels_per_item: Annotated[
        str,
        typer.Option(
            "--labels-per-item", metavar="K|LOW-HIGH", help="Labels per item: 10, or a range 3-10."
        ),
    ] = "10",
    states: Annotated[
        str | None,
        typer.Option("--states", help="Item states as P(class) rows: '0.8,0.2;0.5,0.5;0.1,0.9'."),
    ] = None,
    weights: Annotated[
        str | None, typer.Option("--weights", help="Mixture weights of the states: '0.7,0.1,0.2'.")
    ] = None,
    classes: Annotated[
        str | None, typer.Option("--classes", metavar="A,B,...", help="Class names, in order.")
    ] = None,
    n_raters: Annotated[
        int | None,
        typer.Option("--n-raters", help="Rater pool size (default: one rater per slot)."),
    ] = None,
    seed: Seed = 0,
    force: Force = False,
    json: Json = False,
) -> None:
    """Item-state urn: items draw a state (a label distribution); labels are i.i.d. from it."""
    from .. import simulate as sim

    lpi = _labels_range(labels_per_item)
    if preset is not None and preset != "running-example":
        raise InputError(f"--preset {preset!r}: the only preset is 'running-example'")
    if preset is None and states is None:
        raise InputError("give --states (e.g. '0.8,0.2;0.1,0.9') or --preset running-example")

    def make() -> SimulatedData:
        if preset is not None:
            return sim.running_example(n_items, lpi, seed=seed)
        rows = [_floats(r, "--states") or [] for r in (states or "").split(";") if r.strip()]
        mixture: dict[str, Any] = dict(states=rows, weights=_floats(weights, "--weights"))
        return sim.urn(
            n_items, lpi, **mixture, classes=split_list(classes), n_raters=n_raters, seed=seed
        )

    _finish(make, out, force, json)


def oracle_command(
    out: Out,
    rater_accuracies: Annotated[
        str,
        typer.Option(
            "--rater-accuracies", metavar="ACC,...", help="Raters' accuracies, e.g. 0.9,0.8,0.7."
        ),
    ] = "0.8,0.8,0.8,0.8,0.8",
    models: Annotated[
        str | None,
        typer.Option(
            "--models", metavar="NAME=ACC,...", help="Model accuracies: 'strong=0.9,weak=0.8'."
        ),
    ] = None,
    n_classes: Annotated[int, typer.Option("--n-classes", min=2, help="Number of classes.")] = 2,
    difficulty: Annotated[
        float, typer.Option("--difficulty", help="Share of hard items (everyone guesses).")
    ] = 0.0,
    n_items: NItems = 1000,
    labels_per_item: Annotated[
        str | None,
        typer.Option(
            "--labels-per-item",
            metavar="K|LOW-HIGH",
            help="Labels per item (default: every rater).",
        ),
    ] = None,
    seed: Seed = 0,
    force: Force = False,
    json: Json = False,
) -> None:
    """Oracle + raters: true labels, raters and models with chosen accuracies."""
    from .. import simulate as sim

    model_spec = {}
    for entry in split_list(models) or []:
        name, _, acc = entry.partition("=")
        try:
            model_spec[name.strip()] = float(acc)
        except ValueError:
            raise InputError(
                f"--models entry {entry!r}: write name=accuracy, e.g. strong=0.9"
            ) from None
    accuracies = _floats(rater_accuracies, "--rater-accuracies") or []
    if not accuracies:
        raise InputError(
            f"--rater-accuracies {rater_accuracies!r}: give each rater's accuracy, "
            "e.g. --rater-accuracies 0.9,0.8"
        )
    lpi = None if labels_per_item is None else _labels_range(labels_per_item)
    options: dict[str, Any] = dict(
        n_classes=n_classes, models=model_spec, difficulty=difficulty, seed=seed
    )
    _finish(
        lambda: sim.oracle(n_items, accuracies, labels_per_item=lpi, **options), out, force, json
    )


@error_model_inputs
def pair_command(
    errors: ErrorModelOptions,
    out: Out,
    labels_per_item: Annotated[
        int, typer.Option("--labels-per-item", min=1, help="Labels per item.")
    ] = 1,
    n_items: NItems = 1000,
    seed: Seed = 0,
    force: Force = False,
    json: Json = False,
) -> None:
    """Two classifiers and noisy labellers (Don't Label Twice): independent or correlated errors."""
    from .. import simulate as sim

    _finish(
        lambda: sim.pair(n_items, labels_per_item, seed=seed, **asdict(errors)), out, force, json
    )


add_command(simulate_app, "urn", urn_command)
add_command(simulate_app, "oracle", oracle_command)
add_command(simulate_app, "pair", pair_command)
add_command(simulate_app, "equivalence", scenario_command)
