"""``humanly report``: one self-contained HTML page per dataset."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from . import _common as c

Out = Annotated[Path, typer.Option("-o", "--out", help="HTML file to write (e.g. report.html).")]
Force = Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")]
Seed = Annotated[
    int, typer.Option("--seed", help="Random seed for bootstraps (same seed, same page).")
]
Bootstrap = Annotated[
    int,
    typer.Option("--bootstrap", min=0, help="Bootstrap replicates for survey-equivalence ranges."),
]


def report(
    ratings: c.RatingsPath,
    out: Out,
    predictions: c.PredictionsPath = None,
    gold: c.GoldPath = None,
    force: Force = False,
    seed: Seed = 0,
    bootstrap: Bootstrap = 200,
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
    gold_col: c.GoldCol = None,
    prediction_col: c.PredCol = None,
    prob_col: c.ProbCol = None,
    score_col: c.ScoreCol = None,
    model_col: c.ModelCol = None,
    positive: c.Positive = None,
    missing: c.Missing = "error",
    json: c.Json = False,
) -> None:
    """Write one self-contained HTML report: data, certify, survey equivalence, budget, methods and
    reproducibility. Every number on the page is also embedded as JSON."""
    c.check_output(out, force, suffixes=(".html", ".htm"))
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
        ignore_cols=c.ratings_ignore(gold_col),
        stream=stream,
    )
    p = None
    if predictions is not None:
        r, p = c.load_predictions(
            predictions,
            r,
            item_col=item_col,
            prediction_col=prediction_col,
            prob_col=prob_col,
            score_col=score_col,
            model_col=model_col,
            positive=positive,
            missing=missing,
        )
    g = c.load_gold(r, ratings, gold, gold_col, item_col, missing)
    inputs = [x for x in (ratings, predictions, gold) if x is not None]
    from ..report import build_report

    page = build_report(
        r,
        p,
        g,
        seed=seed,
        command="humanly " + shlex.join(sys.argv[1:]) if sys.argv[1:] else None,
        inputs=inputs,
        options={"bootstrap": bootstrap},
    )
    path = page.write(out, force=force)
    if json:
        c.print_json({"path": str(path), **page.to_dict()})
        return
    for line in page.headline():
        c.stdout.print(line, highlight=False)
    c.stdout.print(f"report: {path}", highlight=False)
