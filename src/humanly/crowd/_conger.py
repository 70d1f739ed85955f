"""Cohen's and Conger's κ: chance agreement from each rater's own class shares, so rater identity matters.

Conger (1980) generalises Cohen's κ (1960; weighted, 1968) to r raters: the percent agreement is Fleiss'
(pairs of labels of an item), and chance agreement averages Cohen's over all pairs of raters,
``p_e = Σ_kl w_kl (p̄_k p̄_l − s²_kl / r)`` with ``p_gk`` rater g's share of class k among the items g
labelled, ``p̄_k`` their mean over raters and ``s²_kl`` their covariance — equivalently
``p_e = (Pᵀ W P − Σ_g p_gᵀ W p_g) / (r (r − 1))`` with ``P = Σ_g p_g``. With two raters and no missing
label it is Cohen's κ; with missing labels it is Gwet's treatment (Handbook, 4th ed., ch. 2 and 5):
agreement over the items both rated, each rater's shares over all the items it rated.

The variance is Gwet's (irrCAC ``conger.kappa.raw``): item i's linearised term holds
``λ_i = Σ_g λ_ig`` over *every* rater, labelled or not. Written out, ``λ_ig = c_g + [g rated i] (n / n_g)
((W A_g)_y − c_g)`` with ``A_g = Σ_{h≠g} p_h`` and ``c_g = A_gᵀ W p_g``, so the sum costs one term per
label — never an items × raters matrix.

Items are grouped by their *pattern* (which rater gave which label): items with the same pattern have
the same terms, and a bootstrap replicate is a vector of pattern multiplicities (as for the count rows of
:mod:`humanly.crowd._coefficients`, which a pattern refines).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ._coefficients import chance_corrected, count_rows

__all__ = [
    "Patterns",
    "conger_estimates",
    "conger_variance",
    "duplicates",
    "patterns",
    "sorted_ids",
]


@dataclasses.dataclass(frozen=True)
class Patterns:
    """Items grouped into distinct patterns, in a canonical order that does not depend on the rows'
    order: ``rows`` (P × q class counts), ``mult`` (items per pattern), ``onehot`` (P × r·q sparse: the
    pattern's label from each rater, column ``g·q + k``; ``None`` for anonymous counts) and ``raters``
    (r, raters with at least one label; 0 for anonymous counts)."""

    rows: np.ndarray
    mult: np.ndarray
    onehot: sp.csr_matrix | None
    raters: int


def sorted_ids(items: pd.Index) -> np.ndarray:
    """Positions of the ids (items or raters) in sorted order (compared as strings when they do not
    compare)."""
    try:
        return np.asarray(items.argsort(), dtype=np.int64)
    except TypeError:
        return np.asarray(pd.Index(items.astype(str)).argsort(), dtype=np.int64)


def patterns(ratings: Any, *, dense_cells: int, repeated: bool | None = None) -> Patterns:
    """The distinct patterns of ``ratings`` (a :class:`humanly.data.Ratings`), items with no label left
    out.

    Named raters: items with the same labels from the same raters share a pattern, sorted by the
    pattern (as an integer in base q + 1 when it fits, else bytewise on the items × raters matrix when
    that has at most ``dense_cells`` cells); with too many raters for either, every item is its own
    pattern, in sorted item-id order. Raters are numbered in sorted-id order, so the patterns and their
    order do not depend on the order of the rows. Anonymous counts, or raters who labelled an item
    more than once (``duplicates="keep"``): the distinct count rows (sorted), no rater identity.
    ``repeated`` is :func:`duplicates` of the ratings when already known.
    """
    counts = np.asarray(ratings.counts)
    q = counts.shape[1]
    has = counts.sum(axis=1) > 0
    if repeated is None:
        repeated = ratings.has_raters and duplicates(ratings)
    if not ratings.has_raters or repeated:
        rows, mult = count_rows(counts)
        return Patterns(rows, mult, None, 0)
    item, rater, label = ratings.item_codes, ratings.rater_codes, ratings.label_codes
    used = np.flatnonzero(np.bincount(rater, minlength=len(ratings.raters)) > 0)
    used = used[sorted_ids(ratings.raters[used])]  # raters in sorted-id order: canonical patterns
    new_rater = np.full(len(ratings.raters), -1, dtype=np.int64)
    new_rater[used] = np.arange(len(used))
    r = len(used)
    n = int(has.sum())
    if (
        r * np.log2(q + 1.0) < 52
    ):  # a pattern as one integer, exact in float64: no items × raters matrix
        # digit (label + 1) at the rater's place; one lookup per label (few full-size temporaries)
        place = np.where(new_rater >= 0, (q + 1.0) ** np.maximum(new_rater, 0), 0.0)
        digit = place[:, None] * np.arange(1.0, q + 1.0)[None, :]
        code = rater.astype(np.int64) * q + label
        key = np.bincount(item, weights=digit.ravel()[code], minlength=len(counts))
        key = key[has].astype(np.int64)
        span = int((q + 1) ** r)
        if span <= 4 * n + 2**16:
            mult_all = np.bincount(key, minlength=span)
            uniq = np.flatnonzero(mult_all)
            mult = mult_all[uniq]
        else:
            uniq, mult = np.unique(key, return_counts=True)
        pat: np.ndarray = (uniq[:, None] // ((q + 1) ** np.arange(r, dtype=np.int64))) % (q + 1) - 1
        return _from_matrix(pat, mult, q, r)
    rater = new_rater[rater]
    if n * r <= dense_cells:
        mat = np.full((len(counts), r), -1, dtype=np.int16 if q < 32_000 else np.int32)
        mat[item, rater] = label
        mat = np.ascontiguousarray(mat[has])
        rowkey = mat.view(np.dtype((np.void, mat.dtype.itemsize * r))).ravel()
        _, first, mult = np.unique(rowkey, return_index=True, return_counts=True)
        return _from_matrix(mat[first], mult, q, r)
    order = sorted_ids(ratings.items)
    order = order[has[order]]
    position = np.full(len(counts), -1, dtype=np.int64)
    position[order] = np.arange(len(order))
    onehot = sp.csr_matrix(
        (np.ones(len(item)), (position[item], rater * q + label)), shape=(n, r * q), dtype=float
    )
    return Patterns(counts[order].astype(float), np.ones(n), onehot, r)


def duplicates(ratings: Any) -> bool:
    """Whether some rater labelled some item more than once (a Ratings read with duplicates='keep').

    The labels are stored sorted by item, so the (item, rater) keys are sorted but for the order of
    the raters within each item: a stable sort of them is close to linear, with no table of
    items × raters entries."""
    item = np.asarray(ratings.item_codes, dtype=np.int64)
    if len(item) < 2:
        return False
    pairs = item * len(ratings.raters) + ratings.rater_codes
    if bool(np.all(pairs[1:] > pairs[:-1])):
        return False
    pairs = np.sort(pairs, kind="stable")
    return bool(np.any(pairs[1:] == pairs[:-1]))


def _from_matrix(pat: np.ndarray, mult: np.ndarray, q: int, r: int) -> Patterns:
    """Patterns from their patterns × raters label matrix (−1: no label)."""
    rows = np.stack([(pat == c).sum(axis=1) for c in range(q)], axis=1).astype(float)
    where = np.argwhere(pat >= 0)
    cols = where[:, 1] * q + pat[where[:, 0], where[:, 1]]
    onehot = sp.csr_matrix(
        (np.ones(len(where)), (where[:, 0], cols)), shape=(len(pat), r * q), dtype=float
    )
    return Patterns(rows, np.asarray(mult, dtype=float), onehot, r)


def conger_estimates(
    pa: np.ndarray, rater_sums: np.ndarray, raters: int, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Conger's κ and its chance agreement for each replicate: ``pa`` (b) the percent agreement,
    ``rater_sums`` (b × r·q) the number of items each rater put in each class. A rater with no label
    in a replicate is left out of it (as it would be from those data)."""
    q = len(weights)
    sums = np.atleast_2d(np.asarray(rater_sums, dtype=float))
    n_gk = sums.reshape(len(sums), raters, q)
    n_g = n_gk.sum(axis=2)
    rated = n_g > 0
    p = n_gk / np.where(rated, n_g, 1.0)[:, :, None]
    r = rated.sum(axis=1).astype(float)
    total = p.sum(axis=1)
    cross = np.einsum("bk,kl,bl->b", total, weights, total)
    own = np.einsum("bgk,bgk->b", p @ weights, p)
    with np.errstate(invalid="ignore", divide="ignore"):
        pe = np.where(r >= 2, (cross - own) / (r * (r - 1.0)), np.nan)
    return chance_corrected(pa, pe), pe


def conger_variance(
    pats: Patterns, weights: np.ndarray, pa: float, pe: float, kappa: float, population: float
) -> float:
    """Gwet's variance of Conger's κ (irrCAC ``conger.kappa.raw``), conditional on the raters, over
    items, with the finite-population correction ``1 − n/N``."""
    assert pats.onehot is not None
    rows, mult, w = pats.rows, pats.mult, weights
    q, r = len(w), pats.raters
    n_gk = np.asarray(pats.onehot.T @ mult).reshape(r, q)
    n_g = n_gk.sum(axis=1)
    p = n_gk / n_g[:, None]
    a = p.sum(axis=0)[None, :] - p
    wa = a @ w
    c = (wa * p).sum(axis=1)
    n = float(mult.sum())
    size = rows.sum(axis=1)
    two = size >= 2
    n2 = float(mult[two].sum())
    per_label = (n / n_g)[:, None] * (wa - c[:, None])
    lam = c.sum() + pats.onehot @ per_label.ravel()
    pe_i = lam / (r * (r - 1.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        pa_i = np.where(two, (rows * (rows @ w - 1.0)).sum(axis=1) / (size * (size - 1.0)), 0.0)
    kappa_i = n / n2 * (pa_i - pe * two) / (1.0 - pe)
    x = kappa_i - 2.0 * (1.0 - kappa) * (pe_i - pe) / (1.0 - pe)
    if n < 2:
        return float("nan")
    f = n / population
    return float((1.0 - f) / (n * (n - 1.0)) * (mult * (x - kappa) ** 2).sum())
