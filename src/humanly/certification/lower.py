"""The lower bound for a model's oracle accuracy: L_N, its agreement with the aggregated human label
(Theorem 3, eq. 11; Theorem 6, eq. 25), and what the finite-sample bounds of L_N need.

The aggregate ℓ_a (an :class:`Aggregate`) is one of

* ``plurality`` — the most frequent label; a tie among classes T gives the model credit 1/|T| if it predicts
  one of them (the expected credit of a fair random tie-break, deterministic);
* ``soft`` — each item's label distribution π_n (its label counts / its number of labels);
* ``weighted`` — the label distribution with each rater weighted by how often it agrees with the other
  raters of the items it labelled (footnote 2's "weighted averaging"; uniform for anonymous counts);
* ``dawid_skene`` — each item's most probable label under a Dawid–Skene fit
  (:mod:`humanly.crowd.dawid_skene`).

With a soft aggregate (``soft``, ``weighted``) ℓ_a is the label drawn at random from π_n, independently
of the model given the item, and L_N keeps the paper's definition P(ℓ_a = ℓ_M) (eq. 25): the model's
credit on item n is π_n(ℓ_M), the probability that the drawn label equals the model's. Theorem 3 then
holds for this randomised labeller under its own assumption (eq. 10 with ℓ_a the draw), so L_N is still
a lower bound on the model's oracle accuracy; each credit lies in [0, 1], so Theorems 4–6 apply
unchanged (and the exact bound draws each item's success with probability π_n(ℓ_M)). The rater weights
are estimated on the same items — as Dawid–Skene's are — and the finite-sample bounds treat them as fixed.

>>> from humanly import Ratings
>>> r = Ratings.from_counts([[2, 1], [1, 1], [0, 3]], classes=[0, 1])
>>> [round(s.lower, 4) for s in lower_samples(r, {"m": np.array([0, 0, 1])}, "plurality", seed=0)[0]]
[0.8333]
>>> [round(s.lower, 4) for s in lower_samples(r, {"m": np.array([0, 0, 1])}, "soft", seed=0)[0]]
[0.7222]
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.counts import plurality_credit
from .._core.result import Note
from .._core.rng import stream
from ..crowd.dawid_skene import dawid_skene
from ..data import InputError, Predictions, Ratings
from ..errors import setting
from ._bounds import BOUNDS, Sample, Tail

__all__ = [
    "Aggregate",
    "LowerSample",
    "aggregate_counts",
    "aggregate_of",
    "hard_predictions",
    "lower_samples",
    "rater_weights",
    "tie_broken_successes",
]


@dataclasses.dataclass(frozen=True)
class LowerSample:
    """One model's L_N (``lower``) on ``n`` items with what its finite-sample bounds need: the sample
    variance of the per-item credit, the tie-broken successes, and the tail of every bound."""

    model: str
    lower: float
    n: int
    variance: float
    successes: int
    tails: dict[str, Tail]


def hard_predictions(preds: Predictions | None) -> dict[str, np.ndarray]:
    """Each model's hard class codes (probabilities → argmax), in the predictions' item order."""
    if preds is None:
        return {}
    return {m.name: preds.hard(m.name).astype(np.int64) for m in preds.models}


def tie_broken_successes(credit: np.ndarray, seed: int | None, index: int) -> int:
    """Number of successes when each item succeeds with probability equal to its credit (1 and 0
    stay deterministic; fractional tie credit is resolved with the stream ``(seed, index)``).

    >>> tie_broken_successes(np.array([1.0, 0.0, 1.0]), 0, 0)
    2
    """
    frac = (credit > 0) & (credit < 1)
    full = int((credit == 1.0).sum())
    if frac.any():
        u = stream(seed, index).random(int(frac.sum()))
        full += int((u < credit[frac]).sum())
    return full


@dataclasses.dataclass(frozen=True)
class Aggregate:
    """The aggregate label ℓ_a of Theorem 3, item by item: ``weights`` (items × classes; the label
    counts for the plurality, a one-hot label for Dawid–Skene, the label distribution π_n for ``soft`` and
    ``weighted``, zero rows for items without labels) and whether it is ``soft`` (credit π_n(label))
    or hard (plurality credit). ``rater_weights``: the raters' weights of ``weighted``.

    >>> a = Aggregate("soft", np.array([[0.5, 0.5], [1.0, 0.0]]), soft=True)
    >>> a.credit(np.array([0, 0])).tolist()
    [0.5, 1.0]
    """

    name: str
    weights: np.ndarray
    soft: bool = False
    rater_weights: np.ndarray | None = None

    @property
    def labelled(self) -> np.ndarray:
        """Which items the aggregate labels (they have at least one label)."""
        return np.asarray(self.weights.sum(axis=1) > 0)

    def credit(self, labels: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Per item (all, or ``rows``), the credit of ``labels`` against the aggregate: P(ℓ_a = label)
        for a soft aggregate, the plurality credit otherwise; NaN without labels or for a label < 0."""
        w = self.weights if rows is None else self.weights[rows]
        labels = np.asarray(labels)
        if not self.soft:
            return plurality_credit(w, labels)
        out = np.full(len(w), np.nan)
        ok = (w.sum(axis=1) > 0) & (labels >= 0)
        out[ok] = w[np.flatnonzero(ok), labels[ok]]
        return out


def rater_weights(ratings: Ratings) -> np.ndarray:
    """Each named rater's agreement with the other raters of the items it labelled, pooled over its
    labels: Σ_l (n_{item,label} − 1) / Σ_l (n_item − 1). A rater who never shares an item gets the mean
    weight of the others (1 when nobody shares an item).

    >>> r = Ratings.from_long([0, 0, 0, 1, 1], ["a", "b", "c", "a", "b"], [0, 0, 1, 1, 1])
    >>> rater_weights(r).round(4).tolist()
    [0.6667, 0.6667, 0.0]
    """
    counts = ratings.counts
    item, rater, label = ratings.item_codes, ratings.rater_codes, ratings.label_codes
    n_r = int(ratings.n_raters or 0)
    agree = np.bincount(rater, weights=counts[item, label] - 1.0, minlength=n_r)
    others = np.bincount(rater, weights=counts[item].sum(axis=1) - 1.0, minlength=n_r)
    w = np.full(n_r, np.nan)
    shared = others > 0
    w[shared] = agree[shared] / others[shared]
    w[~shared] = float(np.mean(w[shared])) if shared.any() else 1.0
    return w


def aggregate_of(ratings: Ratings, aggregate: Any) -> Aggregate:
    """The :class:`Aggregate` called ``aggregate`` (a name of ``certify``'s ``aggregate=``), or the
    labels of an aggregator object with crowd-kit's interface: ``aggregate.fit_predict(frame)`` on a long
    frame with columns ``task``, ``worker``, ``label`` (the ratings' item ids, rater ids and classes)
    returning one label per task (a Series indexed by task), e.g. ``crowdkit.aggregation.MMSR()``.

    >>> r = Ratings.from_counts([[2, 1], [0, 3]], classes=[0, 1])
    >>> aggregate_of(r, "soft").weights.round(4).tolist()
    [[0.6667, 0.3333], [0.0, 1.0]]
    """
    if not isinstance(aggregate, str):
        return Aggregate(type(aggregate).__name__, _aggregator_labels(ratings, aggregate))
    if aggregate in ("soft", "weighted"):
        counts = ratings.counts.astype(np.float64)
        rw = None
        if aggregate == "weighted" and ratings.has_raters:
            rw = rater_weights(ratings)
            n_i, n_c = ratings.n_items, ratings.n_classes
            flat = ratings.item_codes.astype(np.int64) * n_c + ratings.label_codes
            weighted = np.bincount(flat, weights=rw[ratings.rater_codes], minlength=n_i * n_c)
            weighted = weighted.reshape(n_i, n_c)
            zero = weighted.sum(axis=1) <= 0  # every rater of the item has weight 0: uniform
            counts = np.where(zero[:, None], counts, weighted)
        total = counts.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            dist = np.where(total > 0, counts / total, 0.0)
        return Aggregate(aggregate, dist, soft=True, rater_weights=rw)
    return Aggregate(aggregate, aggregate_counts(ratings, aggregate))


def _aggregator_labels(ratings: Ratings, aggregator: Any) -> np.ndarray:
    """One-hot items × classes labels from an aggregator object's ``fit_predict`` (see
    :func:`aggregate_of`); an item it leaves out, or a label outside the classes, is an error."""
    import pandas as pd

    if not ratings.has_raters:
        raise InputError("an aggregator object needs named raters (long format ratings)")
    classes = np.asarray(ratings.classes, dtype=object)
    frame = pd.DataFrame(
        {
            "task": ratings.items[ratings.item_codes],
            "worker": ratings.raters[ratings.rater_codes],  # type: ignore[index]
            "label": classes[ratings.label_codes],
        }
    )
    labels = aggregator.fit_predict(frame)
    if not isinstance(labels, pd.Series):
        raise TypeError(
            f"aggregate={type(aggregator).__name__}: fit_predict must return a pandas Series of "
            "labels indexed by task"
        )
    pos = ratings.items.get_indexer(labels.index)
    lookup = {str(c): j for j, c in enumerate(ratings.classes)}
    codes = np.array([lookup.get(str(v), -1) for v in labels.to_numpy()], dtype=np.int64)
    if (pos < 0).any() or (codes < 0).any():
        raise InputError(
            f"{setting('aggregate', type(aggregator).__name__, raw=True)}: fit_predict returned tasks or "
            "labels that "
            "are not "
            "the ratings' items and classes"
        )
    out = np.zeros_like(ratings.counts)
    out[pos, codes] = 1
    return out


def aggregate_counts(ratings: Ratings, aggregate: str) -> np.ndarray:
    """Items × classes weights of a hard aggregate label: the counts for the plurality (plurality
    credit), or a one-hot Dawid–Skene label (the posterior mode of
    :func:`humanly.crowd.dawid_skene.dawid_skene`)."""
    if aggregate == "plurality":
        return ratings.counts
    if aggregate == "dawid_skene":
        if not ratings.has_raters:
            raise InputError(
                f"{setting('aggregate', 'dawid_skene')} needs named raters (long format)"
            )
        fit = dawid_skene(ratings)
        out = np.zeros_like(ratings.counts)
        labelled = ratings.labels_per_item > 0
        mode = np.argmax(fit.posterior, axis=1)
        out[np.flatnonzero(labelled), mode[labelled]] = 1
        return out
    raise InputError(
        f"{setting('aggregate', aggregate)}: use plurality, soft, weighted or dawid_skene"
    )


def lower_samples(
    ratings: Ratings,
    hard: dict[str, np.ndarray],
    aggregate: str | np.ndarray | Aggregate,
    seed: int | None,
) -> tuple[list[LowerSample], list[Note]]:
    """L_N of each model against the aggregate (a name, an :class:`Aggregate`, or items × classes
    weights of a hard aggregate), on the items the aggregate labels; notes for the reader.

    The exact bound breaks ties at random — the stream ``(seed, model index)`` — so that each item is a
    Bernoulli success with probability equal to its fractional credit (a valid randomised
    Clopper–Pearson bound); the reported L_N keeps the deterministic fractional credit."""
    if isinstance(aggregate, str):
        agg = aggregate_of(ratings, aggregate)
    elif isinstance(aggregate, Aggregate):
        agg = aggregate
    else:
        agg = Aggregate("counts", aggregate)
    has_agg = agg.labelled
    rows = np.flatnonzero(has_agg)
    out = []
    for index, (name, pred) in enumerate(hard.items()):
        cr = agg.credit(pred[has_agg], rows)
        n_l = len(cr)
        lower = float(cr.mean())
        var_l = float(np.var(cr, ddof=1)) if n_l >= 2 else 0.0
        full = tie_broken_successes(cr, seed, index)
        sample = Sample(n_l, lower, var_l, full)
        tails = {b: bound.lower(sample) for b, bound in BOUNDS.items()}
        out.append(LowerSample(name, lower, n_l, var_l, full, tails))
    notes: list[Note] = []
    if int((~has_agg).sum()):
        notes.append(Note("items_without_labels", {"count": int((~has_agg).sum())}))
    return out, notes
