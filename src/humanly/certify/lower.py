"""The lower bound for a model's oracle accuracy: L_N, its agreement with the aggregated human label
(Theorem 3, eq. 11; Theorem 6, eq. 25), and what the finite-sample bounds of L_N need.

The aggregate is the plurality label (a tie among classes T gives the model credit 1/|T| if it predicts
one of them — the expected credit of a fair random tie-break, deterministic) or a Dawid–Skene label
through the optional crowd-kit.

>>> from humanly import Ratings
>>> r = Ratings.from_counts([[2, 1], [1, 1], [0, 3]], classes=[0, 1])
>>> [round(s.lower, 4) for s in lower_samples(r, {"m": np.array([0, 0, 1])}, "majority", seed=0)[0]]
[0.8333]
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._counts import plurality_credit
from .._random import stream
from ..data import InputError, Predictions, Ratings
from ._bounds import BOUNDS, Sample, Tail

__all__ = [
    "LowerSample",
    "aggregate_counts",
    "hard_predictions",
    "lower_samples",
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


def aggregate_counts(ratings: Ratings, aggregate: str) -> np.ndarray:
    """Items × classes weights of the aggregate label: the counts for majority (plurality credit), or
    a one-hot Dawid–Skene label (crowd-kit)."""
    if aggregate in ("majority", "plurality"):
        return ratings.counts
    if aggregate in ("dawid-skene", "dawid_skene", "ds"):
        if not ratings.has_raters:
            raise InputError('aggregate="dawid-skene" needs named raters (long format)')
        try:
            from crowdkit.aggregation import DawidSkene
        except ImportError:
            raise InputError(
                "aggregate=\"dawid-skene\" needs crowd-kit: pip install 'humanly[crowdkit]'"
            ) from None
        import pandas as pd

        df = pd.DataFrame(
            {
                "task": ratings.item_codes,
                "worker": ratings.rater_codes,
                "label": ratings.label_codes,
            }
        )
        labels = DawidSkene(n_iter=100).fit_predict(df)
        out = np.zeros_like(ratings.counts)
        out[labels.index.to_numpy(dtype=np.int64), labels.to_numpy(dtype=np.int64)] = 1
        return out
    raise InputError(f"aggregate={aggregate!r}: use majority (or dawid-skene with crowd-kit)")


def lower_samples(
    ratings: Ratings, hard: dict[str, np.ndarray], aggregate: str | np.ndarray, seed: int | None
) -> tuple[list[LowerSample], list[str]]:
    """L_N of each model against the aggregate (a name, or items × classes weights from
    :func:`aggregate_counts`), on the items the aggregate labels; notes for the reader.

    The exact bound breaks ties at random — the stream ``(seed, model index)`` — so that each item is a
    Bernoulli success with probability equal to its fractional credit (a valid randomised
    Clopper–Pearson bound); the reported L_N keeps the deterministic fractional credit."""
    agg = aggregate_counts(ratings, aggregate) if isinstance(aggregate, str) else aggregate
    has_agg = agg.sum(axis=1) > 0
    out = []
    for index, (name, pred) in enumerate(hard.items()):
        cr = plurality_credit(agg[has_agg], pred[has_agg])
        n_l = len(cr)
        lower = float(cr.mean())
        var_l = float(np.var(cr, ddof=1)) if n_l >= 2 else 0.0
        full = tie_broken_successes(cr, seed, index)
        sample = Sample(n_l, lower, var_l, full)
        tails = {b: bound.lower(sample) for b, bound in BOUNDS.items()}
        out.append(LowerSample(name, lower, n_l, var_l, full, tails))
    notes = []
    if int((~has_agg).sum()):
        notes.append(f"{int((~has_agg).sum())} item(s) without labels left out of L_N")
    return out, notes
