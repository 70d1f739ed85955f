"""A ten-second summary of ratings (what ``humanly inspect`` prints), with gold and predictions if given.

>>> import humanly, pandas as pd
>>> r = humanly.Ratings.from_counts([[3, 0], [2, 1], [0, 3]], items=["a", "b", "c"],
...                                 classes=["no", "yes"])
>>> s = summarize(r, gold=pd.Series(["no", "yes"], index=["a", "c"]))
>>> s.labels_per_item.median, s.gold.plurality_accuracy
(3.0, 1.0)
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.checks import check_int, check_probability, check_seed
from .._core.counts import plurality_credit
from .._core.result import Result
from ..data import Predictions, join
from .agreement import (
    AgreementIntervals,
    agreement_intervals,
    fleiss_kappa,
    krippendorff_alpha_nominal,
    mean_pairwise_agreement,
)
from .raters import RaterSummary, rater_summary

__all__ = [
    "AgreementIntervals",
    "AgreementSummary",
    "CountSummary",
    "GoldSummary",
    "ModelSummary",
    "RaterSummary",
    "RatingsSummary",
    "summarize",
]


class _Keyed(Result):
    """Read-only ``summary.agreement["pairwise"]`` access, for code written when these were dicts
    (prefer attributes: ``summary.agreement.pairwise``). Keys that do not apply are absent, as in JSON.
    """

    def _absent(self) -> tuple[str, ...]:
        """Fields left out of the JSON because they do not apply."""
        return ()

    def _keys(self) -> list[str]:
        assert dataclasses.is_dataclass(self)
        absent = self._absent()
        return [f.name for f in dataclasses.fields(self) if f.name not in absent]

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        """``self[key]``, or ``default`` when there is no such key."""
        return getattr(self, key) if key in self._keys() else default

    def to_dict(self) -> dict[str, Any]:
        """Fields as JSON-ready Python; keys that do not apply are left out."""
        out = super().to_dict()
        for key in self._absent():
            out.pop(key, None)
        return out


@dataclasses.dataclass(frozen=True, repr=False)
class CountSummary(_Keyed):
    """How many labels per item (or per rater): min, median, max, mean; per item also a histogram
    ``{"number of labels": number of items}``."""

    min: int
    median: float
    max: int
    mean: float
    histogram: dict[str, int] | None = None

    def _absent(self) -> tuple[str, ...]:
        return ("histogram",) if self.histogram is None else ()


@dataclasses.dataclass(frozen=True, repr=False)
class AgreementSummary(_Keyed):
    """Agreement among raters: mean pairwise agreement, Fleiss' kappa, nominal Krippendorff's alpha
    (NaN when undefined), over ``n_items`` items with at least two labels."""

    pairwise: float
    fleiss_kappa: float
    krippendorff_alpha: float
    n_items: int


@dataclasses.dataclass(frozen=True, repr=False)
class GoldSummary(_Keyed):
    """How often the plurality label (ties: fractional credit) and a single label match gold, over the
    ``n_items`` items with a gold label (``None`` when there are none)."""

    n_items: int
    plurality_accuracy: float | None
    label_accuracy: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class ModelSummary(_Keyed):
    """One model: its output kind, its agreement with the plurality label (fractional credit on ties;
    not for scores) and, with gold, its accuracy on the gold items."""

    model: str
    kind: str
    n_items: int
    plurality_agreement: float | None = None
    gold_accuracy: float | None = None

    def _absent(self) -> tuple[str, ...]:
        """Scores have no plurality agreement; without gold there is no gold accuracy."""
        out = ("plurality_agreement",) if self.kind == "score" else ()
        return out + (("gold_accuracy",) if self.gold_accuracy is None else ())


@dataclasses.dataclass(frozen=True, repr=False)
class RatingsSummary(Result):
    """Summary statistics of a ratings table.

    ``agreement.pairwise`` is the mean over items (with ≥ 2 labels) of the fraction of agreeing pairs
    of distinct raters; ``fleiss_kappa`` uses the unequal-raters generalisation documented in
    :func:`humanly.crowd.agreement.fleiss_kappa`; ``krippendorff_alpha`` is nominal alpha.
    ``agreement_ci`` holds their percentile bootstrap intervals over items (``None`` with
    ``bootstrap=0``); ``raters`` the per-rater table (``None`` for anonymous counts).
    """

    source: str | None
    kind: str
    n_items: int
    n_raters: int | None
    n_labels: int
    classes: tuple[Any, ...]
    labels_per_item: CountSummary
    labels_per_rater: CountSummary | None
    class_frequencies: dict[str, float]
    agreement: AgreementSummary
    gold: GoldSummary | None
    models: tuple[ModelSummary, ...] = ()
    agreement_ci: AgreementIntervals | None = None
    raters: RaterSummary | None = None


def _describe(x: np.ndarray, histogram: bool = False) -> CountSummary:
    hist = None
    if histogram:
        values, freq = np.unique(x, return_counts=True)
        hist = {str(int(v)): int(f) for v, f in zip(values, freq, strict=True)}
    return CountSummary(
        min=int(x.min()),
        median=float(np.median(x)),
        max=int(x.max()),
        mean=float(x.mean()),
        histogram=hist,
    )


def _gold_summary(counts: np.ndarray, codes: np.ndarray | None) -> GoldSummary | None:
    """How often the plurality label and a single label match gold (``codes``: -1 for no gold)."""
    if codes is None:
        return None
    has = codes >= 0
    credit = plurality_credit(counts, codes)
    label_hits = counts[has, codes[has]].sum() if has.any() else 0
    labels_on_gold = counts[has].sum()
    return GoldSummary(
        n_items=int(has.sum()),
        plurality_accuracy=float(np.nanmean(credit[has])) if has.any() else None,
        label_accuracy=float(label_hits / labels_on_gold) if labels_on_gold else None,
    )


def _model_summaries(
    counts: np.ndarray, preds: Predictions | None, codes: np.ndarray | None
) -> tuple[ModelSummary, ...]:
    """Each model's kind, agreement with the plurality label and (with gold) accuracy."""
    if preds is None:
        return ()
    models = []
    for m in preds.models:
        plurality = gold_accuracy = None
        if m.kind != "score":
            hard = preds.hard(m.name)
            plur = plurality_credit(counts, hard.astype(np.int64))
            plurality = float(np.nanmean(plur)) if (~np.isnan(plur)).any() else None
            if codes is not None and (codes >= 0).any():
                has = codes >= 0
                gold_accuracy = float((hard[has] == codes[has]).mean())
        models.append(ModelSummary(m.name, m.kind, len(m.values), plurality, gold_accuracy))
    return tuple(models)


def summarize(
    ratings: Any,
    gold: Any = None,
    predictions: Any = None,
    *,
    missing: str = "error",
    bootstrap: int = 1000,
    seed: Any = 0,
    level: float = 0.95,
    dawid_skene: bool = True,
) -> RatingsSummary:
    """Summarise ``ratings``: sizes, labels per item (and rater), class balance, agreement with
    bootstrap intervals, and — with ``gold`` — how often the plurality label and a single label match it.

    ``agreement_ci``: central ``level`` percentile intervals from ``bootstrap`` resamples of the items
    drawn under ``seed`` (:func:`humanly.crowd.agreement.agreement_intervals`; ``bootstrap=0`` leaves them
    out). With named raters, ``raters`` is the per-rater table (:func:`humanly.crowd.raters.rater_summary`:
    agreement with the other labels of the same items, accuracy on gold items, and the Dawid–Skene
    accuracy unless ``dawid_skene=False`` — the one part whose cost can reach seconds on millions of
    labels).

    With ``predictions``, each model's kind and its agreement with the plurality label (fractional
    credit on ties; also with gold, its accuracy). Every argument takes the forms :func:`humanly.join`
    accepts and is joined by item id (``missing="drop"`` keeps the items that have both ratings and
    predictions).

    >>> import humanly, pandas as pd
    >>> r = humanly.Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"], classes=[0, 1])
    >>> s = summarize(r, predictions={"m": pd.Series([1, 0], index=["b", "a"])})
    >>> s.n_labels, s.agreement.n_items, s.models[0].plurality_agreement
    (6, 2, 1.0)
    """
    bootstrap = check_int("bootstrap", bootstrap, minimum=0)
    level = check_probability("level", level, open_low=True, open_high=True)
    check_seed("seed", seed)
    if not isinstance(dawid_skene, (bool, np.bool_)):
        raise TypeError(f"dawid_skene={dawid_skene!r}: give True or False")
    study = join(ratings, predictions, gold, missing=missing)  # type: ignore[arg-type]
    r = study.ratings
    counts = r.counts
    per_item = r.labels_per_item
    totals = counts.sum(axis=0)
    n_labels = int(totals.sum())
    class_freq = {
        str(c): float(t / n_labels) if n_labels else 0.0
        for c, t in zip(r.classes, totals, strict=True)
    }
    agreement = AgreementSummary(
        pairwise=mean_pairwise_agreement(counts),
        fleiss_kappa=fleiss_kappa(counts),
        krippendorff_alpha=krippendorff_alpha_nominal(counts),
        n_items=int((per_item >= 2).sum()),
    )
    codes = study.gold.codes if study.gold is not None else None
    return RatingsSummary(
        source=r.source,
        kind="named" if r.has_raters else "counts",
        n_items=r.n_items,
        n_raters=r.n_raters,
        n_labels=n_labels,
        classes=r.classes,
        labels_per_item=_describe(per_item, histogram=True),
        labels_per_rater=_describe(r.labels_per_rater) if r.has_raters else None,
        class_frequencies=class_freq,
        agreement=agreement,
        gold=_gold_summary(counts, codes),
        models=_model_summaries(counts, study.predictions, codes),
        agreement_ci=(
            agreement_intervals(counts, bootstrap=bootstrap, seed=seed, level=level)
            if bootstrap
            else None
        ),
        raters=rater_summary(r, study.gold, dawid_skene=dawid_skene) if r.has_raters else None,
    )
