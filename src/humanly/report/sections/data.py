"""The data section of ``humanly report``: the ratings at a glance (what ``humanly inspect`` prints)."""

from __future__ import annotations

from typing import Any

from ...data import Gold, Predictions, Ratings
from ...plots.data import data_overview
from ...summary import summarize
from .._page import Figure, Section, Table

__all__ = ["data_headline", "data_section"]


def _fmt(x: Any, digits: int = 4) -> Any:
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return "—" if x is None else x


def data_section(
    ratings: Ratings, gold: Gold | None, predictions: Predictions | None, **_: Any
) -> tuple[Section, Any]:
    s = summarize(ratings, gold, predictions)
    lpi, a = s.labels_per_item, s.agreement
    rows = [
        ("items", f"{s.n_items:,}"),
        ("raters", "anonymous counts" if s.n_raters is None else f"{s.n_raters:,}"),
        ("labels", f"{s.n_labels:,}"),
        ("classes", ", ".join(map(str, s.classes))),
        (
            "labels per item (min / median / max)",
            f"{lpi.min} / {lpi.median:g} / {lpi.max}",
        ),
        ("pairwise agreement", _fmt(a.pairwise)),
        ("Fleiss' kappa", _fmt(a.fleiss_kappa)),
        ("Krippendorff's alpha (nominal)", _fmt(a.krippendorff_alpha)),
    ]
    rows += [(f"share of '{k}'", f"{v:.1%}") for k, v in s.class_frequencies.items()]
    if s.gold:
        rows += [
            ("items with gold", f"{s.gold.n_items:,}"),
            ("plurality label = gold", _fmt(s.gold.plurality_accuracy)),
            ("single label = gold", _fmt(s.gold.label_accuracy)),
        ]
    tables = [Table("The ratings at a glance", ("quantity", "value"), tuple(rows))]
    if s.models:
        tables.append(
            Table(
                "Models",
                ("model", "output", "items", "agrees with plurality", "gold accuracy"),
                tuple(
                    (
                        m.model,
                        m.kind,
                        f"{m.n_items:,}",
                        _fmt(m.plurality_agreement),
                        _fmt(m.gold_accuracy),
                    )
                    for m in s.models
                ),
            )
        )
    fig = Figure.from_matplotlib(
        data_overview(s),
        "Labels per item (left) and the class balance of all labels (right).",
    )
    section = Section("data", "Data", tables=tuple(tables), figures=(fig,))
    return section, s


def data_headline(s: dict[str, Any]) -> str:
    a = s["agreement"]
    raters = "anonymous raters" if s["n_raters"] is None else f"{s['n_raters']:,} raters"
    text = f"data: {s['n_items']:,} items, {s['n_labels']:,} labels from {raters}"
    if a["pairwise"] is not None:
        text += f"; pairwise agreement {a['pairwise']:.3f}"
    if a["fleiss_kappa"] is not None:
        text += f", Fleiss' κ {a['fleiss_kappa']:.3f}"
    return text
