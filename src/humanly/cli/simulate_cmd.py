"""``humanly simulate urn|oracle|pair``: write simulated ratings, gold and predictions files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .. import simulate as sim
from ..data.errors import InputError
from . import _common as c
from ._app import new_typer

simulate_app = new_typer(
    help="Simulate ratings with a known truth (writes ratings, gold, predictions)."
)

Out = Annotated[
    Path,
    typer.Option(
        "-o",
        "--out",
        help="Ratings file to write; gold and predictions go beside it (X.gold.csv, X.predictions.csv).",
    ),
]
Seed = Annotated[int, typer.Option("--seed", help="Random seed (same seed, same data).")]
Items = Annotated[int, typer.Option("--items", min=1, help="Number of items.")]
Force = Annotated[bool, typer.Option("--force", help="Overwrite existing files.")]


def _floats(value: str | None, what: str) -> list[float] | None:
    if value is None:
        return None
    try:
        return [float(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise InputError(f"{what} {value!r}: give comma-separated numbers, e.g. 0.8,0.7") from None


def _labels_range(value: str) -> int | tuple[int, int]:
    try:
        if "-" in value:
            lo, hi = value.split("-", 1)
            return int(lo), int(hi)
        return int(value)
    except ValueError:
        raise InputError(f"--labels {value!r}: give a number (10) or a range (3-10)") from None


def _finish(data: sim.SimulatedData, out: Path, force: bool, json: bool) -> None:
    targets = data.files(out)
    existing = [str(p) for p in targets.values() if p.exists()]
    if existing and not force:
        raise InputError(f"{existing[0]} exists; choose another -o or pass --force to overwrite")
    written = data.write(out)
    result = data.to_dict() | {"files": {k: str(v) for k, v in written.items()}}
    if json:
        c.print_json(result)
    else:
        for key, path in written.items():
            c.stdout.print(f"{key:>12}: {path}")
        c.stdout.print(f"{'summary':>12}: {data!r}")


@simulate_app.command("urn")
def urn_cmd(
    out: Out,
    preset: Annotated[
        str | None, typer.Option("--preset", help="'running-example' (Survey Equivalence, §2).")
    ] = None,
    items: Items = 1000,
    labels: Annotated[
        str, typer.Option("--labels", help="Labels per item: 10, or a range 3-10.")
    ] = "10",
    states: Annotated[
        str | None,
        typer.Option("--states", help="Item states as P(class) rows: '0.8,0.2;0.5,0.5;0.1,0.9'."),
    ] = None,
    weights: Annotated[
        str | None, typer.Option("--weights", help="Mixture weights of the states: '0.7,0.1,0.2'.")
    ] = None,
    classes: c.Classes = None,
    raters: Annotated[
        int | None, typer.Option("--raters", help="Rater pool size (default: one rater per slot).")
    ] = None,
    seed: Seed = 0,
    force: Force = False,
    json: c.Json = False,
) -> None:
    """Item-state urn: items draw a state (a label distribution); labels are i.i.d. from it."""
    lpi = _labels_range(labels)
    if preset is not None:
        if preset != "running-example":
            raise InputError(f"--preset {preset!r}: the only preset is 'running-example'")
        data = sim.running_example(items, lpi, seed=seed)
    else:
        if states is None:
            raise InputError("give --states (e.g. '0.8,0.2;0.1,0.9') or --preset running-example")
        rows = [_floats(r, "--states") for r in states.split(";") if r.strip()]
        data = sim.urn(
            items,
            lpi,
            states=rows,  # type: ignore[arg-type]
            weights=_floats(weights, "--weights"),
            classes=c.split_list(classes),
            n_raters=raters,
            seed=seed,
        )
    _finish(data, out, force, json)


@simulate_app.command("oracle")
def oracle_cmd(
    out: Out,
    annotators: Annotated[
        str, typer.Option("--annotators", help="Annotator accuracies, e.g. 0.9,0.8,0.7.")
    ] = "0.8,0.8,0.8,0.8,0.8",
    models: Annotated[
        str | None,
        typer.Option("--models", help="Model accuracies as name=acc: 'strong=0.9,weak=0.8'."),
    ] = None,
    n_classes: Annotated[int, typer.Option("--n-classes", min=2, help="Number of classes.")] = 2,
    difficulty: Annotated[
        float, typer.Option("--difficulty", help="Share of hard items (everyone guesses).")
    ] = 0.0,
    items: Items = 1000,
    labels: Annotated[
        str | None, typer.Option("--labels", help="Labels per item (default: every annotator).")
    ] = None,
    seed: Seed = 0,
    force: Force = False,
    json: c.Json = False,
) -> None:
    """Oracle + annotators: true labels, annotators and models with chosen accuracies."""
    model_spec = {}
    for entry in c.split_list(models) or []:
        name, _, acc = entry.partition("=")
        try:
            model_spec[name.strip()] = float(acc)
        except ValueError:
            raise InputError(
                f"--models entry {entry!r}: write name=accuracy, e.g. strong=0.9"
            ) from None
    data = sim.oracle(
        items,
        _floats(annotators, "--annotators") or [],
        n_classes=n_classes,
        models=model_spec,
        difficulty=difficulty,
        labels_per_item=None if labels is None else _labels_range(labels),
        seed=seed,
    )
    _finish(data, out, force, json)


@simulate_app.command("pair")
def pair_cmd(
    out: Out,
    m: Annotated[int, typer.Option("--m", min=1, help="Labels per item.")] = 1,
    p: Annotated[float | None, typer.Option("--p", help="Worse classifier's accuracy.")] = None,
    eps: Annotated[
        float | None, typer.Option("--eps", help="Accuracy margin of the better.")
    ] = None,
    q: Annotated[float | None, typer.Option("--q", help="Label accuracy.")] = None,
    qb: Annotated[
        float | None, typer.Option("--qb", help="Label accuracy where only c_b is right.")
    ] = None,
    qw: Annotated[
        float | None, typer.Option("--qw", help="Label accuracy where only c_w is right.")
    ] = None,
    pw: Annotated[
        float | None, typer.Option("--pw", help="Accuracy of the worse classifier.")
    ] = None,
    pb0: Annotated[float | None, typer.Option("--pb0", help="P(c_b right | c_w wrong).")] = None,
    pb1: Annotated[float | None, typer.Option("--pb1", help="P(c_b right | c_w right).")] = None,
    items: Items = 1000,
    seed: Seed = 0,
    force: Force = False,
    json: c.Json = False,
) -> None:
    """Two classifiers and noisy labellers (Don't Label Twice): independent or correlated model."""
    data = sim.pair(
        items, m, p=p, eps=eps, q=q, q_b=qb, q_w=qw, p_w=pw, p_b0=pb0, p_b1=pb1, seed=seed
    )
    _finish(data, out, force, json)
