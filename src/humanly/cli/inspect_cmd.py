"""``humanly inspect``: a summary of a ratings file a person reads in ten seconds."""

from __future__ import annotations

from rich.table import Table

from ..summary import RatingsSummary, summarize
from . import _common as c


def render_summary(s: RatingsSummary) -> Table:
    def fmt(x: object, spec: str = ".4f") -> str:
        return "—" if x is None else format(x, spec) if isinstance(x, float) else str(x)

    t = Table(
        title=f"humanly inspect · {s.source or 'ratings'}", show_header=False, title_justify="left"
    )
    t.add_column("what", style="bold")
    t.add_column("value")
    t.add_row("items", f"{s.n_items:,}")
    t.add_row("raters", "anonymous counts" if s.n_raters is None else f"{s.n_raters:,}")
    t.add_row("labels", f"{s.n_labels:,}")
    t.add_row("classes", ", ".join(map(str, s.classes)))
    lpi = s.labels_per_item
    t.add_row("labels per item", f"min {lpi.min} · median {lpi.median:g} · max {lpi.max}")
    if s.labels_per_rater:
        lpr = s.labels_per_rater
        t.add_row("labels per rater", f"min {lpr.min} · median {lpr.median:g} · max {lpr.max}")
    t.add_row(
        "class frequencies", " · ".join(f"{k}: {v:.1%}" for k, v in s.class_frequencies.items())
    )
    a = s.agreement
    t.add_row("pairwise agreement", fmt(a.pairwise) + f"  ({a.n_items:,} items with ≥ 2 labels)")
    t.add_row("Fleiss' kappa", fmt(a.fleiss_kappa))
    t.add_row("Krippendorff's alpha", fmt(a.krippendorff_alpha))
    if s.gold:
        g = s.gold
        t.add_row("gold items", f"{g.n_items:,}")
        t.add_row("plurality = gold", fmt(g.plurality_accuracy))
        t.add_row("single label = gold", fmt(g.label_accuracy))
    for m in s.models:
        text = f"{m.kind}, {m.n_items:,} items"
        if m.plurality_agreement is not None:
            text += f" · agrees with plurality {m.plurality_agreement:.4f}"
        if m.gold_accuracy is not None:
            text += f" · gold accuracy {m.gold_accuracy:.4f}"
        t.add_row(f"model {m.model}", text)
    return t


def inspect(
    ratings: c.RatingsPath,
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
    score_col: c.ScoreCol = None,
    model_col: c.ModelCol = None,
    positive: c.Positive = None,
    missing: c.Missing = "error",
    json: c.Json = False,
) -> None:
    """Summarise a ratings file: sizes, labels per item, class balance, agreement (κ, α); with
    --predictions, each model's agreement with the plurality label."""
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
    preds = None
    if predictions is not None:
        r, preds = c.load_predictions(
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
    summary = summarize(r, g, preds)
    if json:
        c.print_json(summary.to_dict())
    else:
        c.stdout.print(render_summary(summary))
