"""Options and helpers shared by commands: reading inputs, printing results, writing files."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ..data import Gold, InputError, Predictions, Ratings, read_ratings, read_study

# markup off: user strings (model, class, item and file names) are printed as given — "[/b]" in a model
# name would otherwise raise rich's MarkupError or restyle the line
stdout = Console(soft_wrap=True, markup=False)
stderr = Console(stderr=True, soft_wrap=True, markup=False)

# --------------------------------------------------------------------------- reading ratings
RatingsPath = Annotated[
    Path,
    typer.Argument(help="Ratings file (.csv, .tsv, .parquet, .jsonl, .json).", show_default=False),
]
ItemCol = Annotated[
    str | None, typer.Option("--item-col", help="Item id column (default: detected).")
]
RaterCol = Annotated[str | None, typer.Option("--rater-col", help="Rater id column (long format).")]
LabelCol = Annotated[str | None, typer.Option("--label-col", help="Label column (long format).")]
Wide = Annotated[
    bool,
    typer.Option("--wide", help="Wide format: one row per item, one column per rater or slot."),
]
Counts = Annotated[
    str | None,
    typer.Option(
        "--counts",
        help="Counts format: count columns 'e,n,c' (or 'CLASS=COL,...'), a glob 'cnt*_ret' or a prefix.",
    ),
]
Total = Annotated[
    str | None,
    typer.Option("--total", help="Column with each item's number of labels (counts format)."),
]
RestClass = Annotated[
    str, typer.Option("--rest-class", help="Name of the class counted as total minus the others.")
]
Classes = Annotated[
    str | None,
    typer.Option("--classes", help="Declared classes in order, e.g. '0,1' or 'neg,pos'."),
]
Duplicates = Annotated[
    str,
    typer.Option(
        "--duplicates", help="A rater labelling an item twice: error, keep, first or last."
    ),
]
Stream = Annotated[
    bool,
    typer.Option(
        "--stream",
        help="Read a long-format Parquet file or folder in batches, keeping per-item counts only "
        "(memory ∝ items, for data larger than memory; rater identity is dropped).",
    ),
]
GoldPath = Annotated[
    Path | None, typer.Option("--gold", help="Gold labels file (item, label); any subset of items.")
]
GoldCol = Annotated[
    str | None, typer.Option("--gold-col", help="Gold label column inside the ratings file.")
]
PredictionsPath = Annotated[
    Path | None,
    typer.Option(
        "--predictions", help="Model predictions file (item, [model], prediction or prob_*)."
    ),
]
PredCol = Annotated[
    str | None, typer.Option("--prediction-col", help="Hard prediction column (a class per item).")
]
ProbCol = Annotated[
    str | None,
    typer.Option("--prob-col", help="Single positive-class probability column (two classes)."),
]
ScoreCol = Annotated[
    str | None,
    typer.Option(
        "--score-col", help="Real-valued score column (not a probability; calibrated later)."
    ),
]
ModelCol = Annotated[str | None, typer.Option("--model-col", help="Model name column.")]
Positive = Annotated[
    str | None,
    typer.Option("--positive", help="Positive class of a single 'prob' column (default: second)."),
]
Missing = Annotated[
    str,
    typer.Option(
        "--missing",
        help="Items with ratings but no prediction (or the reverse): error, or drop them.",
    ),
]
Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


def split_list(value: str | None) -> list[str] | None:
    if value is None:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or None


def load_ratings(
    path: Path,
    *,
    item_col: str | None = None,
    rater_col: str | None = None,
    label_col: str | None = None,
    wide: bool = False,
    counts: str | None = None,
    total: str | None = None,
    rest_class: str = "other",
    classes: str | None = None,
    duplicates: str = "error",
    ignore_cols: tuple[str, ...] = (),
    stream: bool = False,
) -> Ratings:
    """The ratings file, read as :func:`humanly.read_study` reads it (``--classes`` split at commas)."""
    with reading(path):
        return read_ratings(
            path,
            item_col=item_col,
            rater_col=rater_col,
            label_col=label_col,
            classes=split_list(classes),
            wide=wide,
            counts=counts,
            total_col=total,
            rest_class=rest_class,
            duplicates=duplicates,  # type: ignore[arg-type]
            ignore_cols=ignore_cols,
            stream=stream,
        )


@contextmanager
def reading(path: Path, threshold_bytes: int = 50_000_000) -> Iterator[None]:
    """A spinner on stderr while a large file loads (nothing for small files or non-terminals)."""
    try:
        big = path.is_file() and path.stat().st_size >= threshold_bytes
    except OSError:
        big = False
    if not big:
        yield
        return
    with stderr.status(f"reading {path.name} ({path.stat().st_size / 1e6:,.0f} MB)"):
        yield


def load_gold(
    ratings: Ratings,
    ratings_path: Path,
    gold: Path | None,
    gold_col: str | None,
    item_col: str | None,
    missing: str = "error",
) -> Gold | None:
    """Gold labels from ``--gold FILE`` or ``--gold-col COL`` of the ratings file, joined to
    ``ratings`` by item id as :func:`humanly.read_study` joins them (gold for items with no ratings is
    an error unless ``--missing drop``)."""
    source = gold if gold is not None else ratings_path if gold_col is not None else None
    if source is None:
        return None
    study = read_study(
        ratings,
        gold=source,
        gold_col=gold_col,
        item_col=item_col,
        missing=missing,  # type: ignore[arg-type]
    )
    return study.gold


def load_predictions(
    path: Path,
    ratings: Ratings,
    *,
    item_col: str | None = None,
    prediction_col: str | None = None,
    prob_col: str | None = None,
    score_col: str | None = None,
    model_col: str | None = None,
    positive: str | None = None,
    missing: str = "error",
) -> tuple[Ratings, Predictions]:
    """Read predictions with the ratings' classes and join both to their common items, as
    :func:`humanly.read_study` does.

    ``item_col`` applies to the predictions file only if it has that column (a predictions file that is
    also the ratings file, like the wiki attack counts, shares the item column).
    """
    study = read_study(
        ratings,
        path,
        missing=missing,  # type: ignore[arg-type]
        item_col=item_col,
        prediction_col=prediction_col,
        prob_col=prob_col,
        score_col=score_col,
        model_col=model_col,
        positive=positive,
    )
    assert study.predictions is not None
    return study.ratings, study.predictions


def ratings_ignore(gold_col: str | None) -> tuple[str, ...]:
    return (gold_col,) if gold_col else ()


# --------------------------------------------------------------------------- output
def check_output(
    path: Path, force: bool, suffixes: tuple[str, ...] = (), option: str = "-o"
) -> None:
    """Fail early (before any work) when an output file exists without --force, has the wrong
    extension, or its folder does not exist."""
    if suffixes and path.suffix.lower() not in suffixes:
        names = [f"*{s}" for s in suffixes]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        raise InputError(f"{option} {path}: name the output file {listed}")
    if path.exists() and not force:
        raise InputError(f"{path} exists; choose another {option} or pass --force to overwrite it")
    if not path.parent.exists():
        raise InputError(f"{option} {path}: folder {path.parent} does not exist; create it first")


FIGURE_SUFFIXES = (".png", ".svg", ".pdf")


def check_plot(plot: Path | None) -> None:
    """``--plot FILE``: a figure format matplotlib writes, in an existing folder (checked before any
    work; an existing figure is overwritten)."""
    if plot is not None:
        check_output(plot, True, FIGURE_SUFFIXES, option="--plot")


def save_plot(fig: Any, plot: Path) -> None:
    """Write a ``--plot`` figure and say so on stderr."""
    from ..plots._style import save_figure

    save_figure(fig, plot)
    note(f"wrote {plot}")


def print_json(obj: Any) -> None:
    """Exactly one JSON object on stdout."""
    sys.stdout.write(json.dumps(obj, allow_nan=False) + "\n")
    sys.stdout.flush()


def note(message: str) -> None:
    """A message for the person at the terminal (stderr, never mixed into --json output)."""
    stderr.print(message)
