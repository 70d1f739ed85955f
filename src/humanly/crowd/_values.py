"""Krippendorff's α from the labels' numeric values, for data with too many distinct values for a
q × q table (interval scores, say): memory and time grow with the number of labels, never with the
number of distinct values squared.

Krippendorff's interval metric is ``δ² = (v − v')²``, and his ordinal metric is the same on mid-ranks
(:func:`humanly.crowd.weights.ordinal_scores`), so α needs only, per item, the number of labels ``r_i``
and the sums ``S1_i = Σ s``, ``S2_i = Σ s²`` of their scores:

    Σ_{a≠b} (s_a − s_b)² = 2 r_i S2_i − 2 S1_i²,   α = 1 − (N − 1) Σ_i D_i / (2 N T2 − 2 T1²)

with ``D_i`` that sum over ``r_i − 1``, ``N = Σ r_i`` and ``T = Σ S`` over pairable items. Gwet's
variance (with weights ``1 − δ²`` on scores scaled to [0, 1]) is built from the same sums. The bootstrap
redraws items (in sorted-id order) and recomputes from the per-item sums — for the interval metric only:
the ordinal metric's mid-ranks change with every replicate and would need the values' table again.
The ratio metric ``((v − v')/(v + v'))²`` does not split into sums, so it is not offered here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.rng import stream
from ._coefficients import chance_corrected, rank_alpha_variance
from ._conger import sorted_ids
from .weights import ordinal_scores

__all__ = [
    "ValueDesign",
    "rank_value_variance",
    "value_alpha",
    "value_design",
    "value_replicates",
    "value_variance",
]


@dataclasses.dataclass(frozen=True)
class ValueDesign:
    """Per item with a label (sorted-id order): ``size`` r_i, and the sums ``s1``, ``s2`` of its scores
    scaled to [0, 1]."""

    size: np.ndarray
    s1: np.ndarray
    s2: np.ndarray


def _labels(ratings: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(item, class code, count)`` per label (named raters) or per non-zero count (anonymous)."""
    if ratings.has_raters:
        item = np.asarray(ratings.item_codes, dtype=np.int64)
        code = np.asarray(ratings.label_codes, dtype=np.int64)
        return item, code, np.ones(len(item))
    item, code = np.nonzero(np.asarray(ratings.counts))
    return item, code, np.asarray(ratings.counts)[item, code].astype(float)


def value_design(ratings: Any, values: np.ndarray, scale: str) -> ValueDesign:
    """The per-item sums of ``ratings`` (a :class:`humanly.data.Ratings`) with class values ``values``;
    on an ordinal scale the scores are the mid-ranks of the pairable values."""
    order = sorted_ids(ratings.items)
    item, code, count = _labels(ratings)
    n_items = len(ratings.items)
    size = np.bincount(item, weights=count, minlength=n_items)
    if scale == "ordinal":
        pairable = size[item] >= 2
        marg = np.bincount(code[pairable], weights=count[pairable], minlength=len(values))
        scores = ordinal_scores(marg, values)
    else:
        scores = np.asarray(values, dtype=float)
    lo, hi = float(scores.min()), float(scores.max())
    scaled = (scores - lo) / (hi - lo) if hi > lo else np.zeros_like(scores)
    v = scaled[code]
    s1 = np.bincount(item, weights=count * v, minlength=n_items)
    s2 = np.bincount(item, weights=count * v * v, minlength=n_items)
    order = order[size[order] > 0]
    return ValueDesign(size[order], s1[order], s2[order])


def _parts(size: np.ndarray, s1: np.ndarray, s2: np.ndarray, m: np.ndarray) -> tuple[Any, ...]:
    """Sums over pairable items with multiplicities ``m`` (replicates × items): N, Σ D_i, T1, T2."""
    two = size >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(two, (2.0 * size * s2 - 2.0 * s1 * s1) / (size - 1.0), 0.0)
    w = m * two
    return w @ size, m @ d, w @ s1, w @ s2


def value_alpha(design: ValueDesign, m: np.ndarray | None = None) -> tuple[Any, Any, Any]:
    """Krippendorff's α, Gwet's ``p_a`` and ``p_e`` (with weights ``1 − δ²``), per row of ``m``
    (item multiplicities; the data themselves when ``None``)."""
    mult = np.ones((1, len(design.size))) if m is None else np.atleast_2d(m)
    big_n, d_sum, t1, t2 = _parts(design.size, design.s1, design.s2, mult)
    with np.errstate(invalid="ignore", divide="ignore"):
        mu1, mu2 = t1 / big_n, t2 / big_n
        pe = 1.0 - 2.0 * (mu2 - mu1 * mu1)
        pa = 1.0 - (1.0 - 1.0 / big_n) * d_sum / big_n
    return chance_corrected(pa, pe), pa, pe


def value_variance(design: ValueDesign, population: float) -> float:
    """Gwet's variance of α (irrCAC ``krippen.alpha.raw``, centred on ``α'``) from the per-item sums."""
    n0 = float(len(design.size))
    two = design.size >= 2
    r, s1, s2 = design.size[two], design.s1[two], design.s2[two]
    n = float(len(r))
    if n < 2:
        return float("nan")
    big_n = float(r.sum())
    r_bar = big_n / n
    mu1, mu2 = s1.sum() / big_n, s2.sum() / big_n
    pe = 1.0 - 2.0 * (mu2 - mu1 * mu1)
    d = (2.0 * r * s2 - 2.0 * s1 * s1) / (r - 1.0)
    pa_prime = 1.0 - d.sum() / big_n
    alpha_prime = (pa_prime - pe) / (1.0 - pe)
    pa_i = (r - d) / r_bar - pa_prime * (r - r_bar) / r_bar
    pe_i = (r - s2 + 2.0 * mu1 * s1 - r * mu2) / r_bar - pe * (r - r_bar) / r_bar
    x = (pa_i - pe) / (1.0 - pe) - 2.0 * (1.0 - alpha_prime) * (pe_i - pe) / (1.0 - pe)
    f = n0 / population
    return float((1.0 - f) / (n * (n - 1.0)) * ((x - alpha_prime) ** 2).sum())


def rank_value_variance(ratings: Any, values: np.ndarray, population: float) -> float:
    """The delta-method variance of ordinal α (:func:`humanly.crowd._coefficients.rank_alpha_variance`)
    from per-label codes: every sum runs over labels, none over pairs of values."""
    item, code, count = _labels(ratings)
    n_items = len(ratings.items)
    size_all = np.bincount(item, weights=count, minlength=n_items)
    keep = size_all[item] >= 2
    pairable = np.flatnonzero(size_all >= 2)
    position = np.full(n_items, -1, dtype=np.int64)
    position[pairable] = np.arange(len(pairable))
    item, code, count = position[item[keep]], code[keep], count[keep]
    q, n = len(values), len(pairable)

    def dot(x: np.ndarray) -> np.ndarray:
        return np.bincount(item, weights=count * x[code], minlength=n)

    def tdot(w: np.ndarray) -> np.ndarray:
        return np.bincount(code, weights=count * w[item], minlength=q)

    f = float((size_all > 0).sum()) / population
    return rank_alpha_variance(dot, tdot, size_all[pairable], np.ones(n), values, f)


def value_replicates(design: ValueDesign, b: int, seed: int, memory: int) -> np.ndarray:
    """α on ``b`` bootstrap replicates: replicate i draws how often each item (sorted-id order) is
    drawn, ``multinomial(n, 1/n)`` from ``stream(seed, i)``."""
    n = len(design.size)
    out = np.empty(b)
    p = np.full(n, 1.0 / n)
    block = int(max(1, min(b, (memory // 8) // (8 * max(n, 1) * 2))))
    for start in range(0, b, block):
        stop = min(b, start + block)
        m = np.stack([stream(seed, i).multinomial(n, p) for i in range(start, stop)]).astype(float)
        out[start:stop] = value_alpha(design, m)[0]
    return out
