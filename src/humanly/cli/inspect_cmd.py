"""``humanly inspect``: a summary of a ratings file a person reads in ten seconds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _console as ui
from ._common import Json
from .options import StudyOptions, load_study, study_inputs

if TYPE_CHECKING:
    from ..summary import RatingsSummary

__all__ = ["inspect_command", "render_summary"]


def _fmt(x: object, spec: str = ".4f") -> str:
    return "—" if x is None else format(x, spec) if isinstance(x, float) else str(x)


def render_summary(s: RatingsSummary) -> ui.CleanTable:
    """The summary as a two-column table."""
    t = ui.new_table(f"humanly inspect · {s.source or 'ratings'}", show_header=False)
    t.column("what", style="bold")
    t.column("value")
    t.row("items", f"{s.n_items:,}")
    t.row("raters", "anonymous counts" if s.n_raters is None else f"{s.n_raters:,}")
    t.row("labels", f"{s.n_labels:,}")
    t.row("classes", ", ".join(map(str, s.classes)))
    lpi = s.labels_per_item
    t.row("labels per item", f"min {lpi.min} · median {lpi.median:g} · max {lpi.max}")
    if s.labels_per_rater:
        lpr = s.labels_per_rater
        t.row("labels per rater", f"min {lpr.min} · median {lpr.median:g} · max {lpr.max}")
    freqs = " · ".join(f"{k}: {v:.1%}" for k, v in s.class_frequencies.items())
    t.row("class frequencies", freqs)
    a = s.agreement
    t.row("pairwise agreement", _fmt(a.pairwise) + f"  ({a.n_items:,} items with ≥ 2 labels)")
    t.row("Fleiss' kappa", _fmt(a.fleiss_kappa))
    t.row("Krippendorff's alpha", _fmt(a.krippendorff_alpha))
    if s.gold:
        g = s.gold
        t.row("gold items", f"{g.n_items:,}")
        t.row("plurality = gold", _fmt(g.plurality_accuracy))
        t.row("single label = gold", _fmt(g.label_accuracy))
    for m in s.models:
        text = f"{m.kind}, {m.n_items:,} items"
        if m.plurality_agreement is not None:
            text += f" · agrees with plurality {m.plurality_agreement:.4f}"
        if m.gold_accuracy is not None:
            text += f" · gold accuracy {m.gold_accuracy:.4f}"
        t.row(f"model {m.model}", text)
    return t


@study_inputs()
def inspect_command(study: StudyOptions, json: Json = False) -> None:
    """Summarise a ratings file: sizes, labels per item, class balance, agreement (κ, α); with
    --predictions, each model's agreement with the plurality label; with gold, their accuracy."""
    from ..summary import summarize

    s = load_study(study)
    summary = summarize(s.ratings, s.gold, s.predictions)
    if json:
        ui.print_json(summary.to_dict())
    else:
        ui.show(render_summary(summary))
