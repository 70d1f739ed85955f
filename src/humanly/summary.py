"""A ten-second summary of a :class:`~humanly.data.Ratings` (what ``humanly inspect`` prints)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ._counts import plurality_credit
from ._result import Result
from .agreement import fleiss_kappa, krippendorff_alpha_nominal, mean_pairwise_agreement
from .data import Gold, Predictions, Ratings

__all__ = ["RatingsSummary", "summarize"]


@dataclasses.dataclass(frozen=True, repr=False)
class RatingsSummary(Result):
    """Summary statistics of a ratings table.

    ``agreement.pairwise`` is the mean over items (with ≥ 2 labels) of the fraction of agreeing pairs
    of distinct raters; ``fleiss_kappa`` uses the unequal-raters generalisation documented in
    :func:`humanly.agreement.fleiss_kappa`; ``krippendorff_alpha`` is nominal alpha.
    """

    source: str | None
    kind: str
    n_items: int
    n_raters: int | None
    n_labels: int
    classes: tuple[Any, ...]
    labels_per_item: dict[str, Any]
    labels_per_rater: dict[str, Any] | None
    class_frequencies: dict[str, float]
    agreement: dict[str, Any]
    gold: dict[str, Any] | None
    models: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def _describe(x: np.ndarray) -> dict[str, Any]:
    return {
        "min": int(x.min()),
        "median": float(np.median(x)),
        "max": int(x.max()),
        "mean": float(x.mean()),
    }


def summarize(
    ratings: Ratings, gold: Gold | None = None, predictions: Predictions | None = None
) -> RatingsSummary:
    """Summarise ``ratings``: sizes, labels per item (and rater), class balance, agreement, and — with
    ``gold`` — how often the plurality label and a single label match it.

    With ``predictions`` (aligned to ``ratings``, see :func:`humanly.align`), each model's kind and its
    agreement with the plurality label (fractional credit on ties; also with gold, its accuracy).
    """
    counts = ratings.counts
    per_item = ratings.labels_per_item
    values, freq = np.unique(per_item, return_counts=True)
    lpi = _describe(per_item) | {
        "histogram": {str(int(v)): int(f) for v, f in zip(values, freq, strict=True)}
    }
    lpr = _describe(ratings.labels_per_rater) if ratings.has_raters else None
    totals = counts.sum(axis=0)
    n_labels = int(totals.sum())
    class_freq = {
        str(c): float(t / n_labels) if n_labels else 0.0
        for c, t in zip(ratings.classes, totals, strict=True)
    }
    agreement = {
        "pairwise": mean_pairwise_agreement(counts),
        "fleiss_kappa": fleiss_kappa(counts),
        "krippendorff_alpha": krippendorff_alpha_nominal(counts),
        "n_items": int((per_item >= 2).sum()),
    }
    gold_summary = None
    codes = gold.for_items(ratings.items) if gold is not None else None
    if codes is not None:
        has = codes >= 0
        credit = plurality_credit(counts, codes)
        label_hits = counts[has, codes[has]].sum() if has.any() else 0
        labels_on_gold = per_item[has].sum()
        gold_summary = {
            "n_items": int(has.sum()),
            "plurality_accuracy": float(np.nanmean(credit[has])) if has.any() else None,
            "label_accuracy": float(label_hits / labels_on_gold) if labels_on_gold else None,
        }
    models = []
    for m in predictions.models if predictions is not None else ():
        entry: dict[str, Any] = {"model": m.name, "kind": m.kind, "n_items": len(m.values)}
        if m.kind != "score":
            hard = predictions.hard(m.name)  # type: ignore[union-attr]
            plur = plurality_credit(counts, hard.astype(np.int64))
            mask = ~np.isnan(plur)
            entry["plurality_agreement"] = float(np.nanmean(plur)) if mask.any() else None
            if codes is not None and (codes >= 0).any():
                has = codes >= 0
                entry["gold_accuracy"] = float((hard[has] == codes[has]).mean())
        models.append(entry)
    return RatingsSummary(
        source=ratings.source,
        kind="named" if ratings.has_raters else "counts",
        n_items=ratings.n_items,
        n_raters=ratings.n_raters,
        n_labels=n_labels,
        classes=ratings.classes,
        labels_per_item=lpi,
        labels_per_rater=lpr,
        class_frequencies=class_freq,
        agreement=agreement,
        gold=gold_summary,
        models=models,
    )
