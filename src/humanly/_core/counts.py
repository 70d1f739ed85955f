"""Count arithmetic shared by the analyses: everything that depends on an item only through its label
counts (how many raters chose each class).

* log-factorials, log-binomials and log-falling-factorials on integer arrays (:func:`logfact`,
  :func:`lncomb`, :func:`lnfall`);
* count vectors: :func:`compositions` (every vector of k labels under per-class caps),
  :func:`subcounts` (the k-label sub-count vectors each item can produce, with their multivariate
  hypergeometric weights — memory grows with what the items contain, not with every composition the
  classes allow), :func:`unique_rows`;
* plurality and agreement: :func:`plurality_shares`, :func:`plurality_credit`,
  :func:`pairwise_agreement`, :func:`expected_plurality_credit`.

Nothing here knows about raters, models or files; every function works on integer count matrices
(items × classes) and is vectorised over items.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "compositions",
    "count_subvectors",
    "expected_plurality_credit",
    "lncomb",
    "lnfall",
    "logfact",
    "pairwise_agreement",
    "plurality_credit",
    "plurality_shares",
    "subcounts",
    "subvectors",
    "unique_rows",
    "unique_rows_with_target",
]


def _logfact_table(size: int) -> np.ndarray:
    """log(n!) for n = 0 … size − 1 (``math.lgamma``: no SciPy import on the hot path)."""
    return np.array([math.lgamma(n + 1.0) for n in range(size)])


_LOGFACT = _logfact_table(1025)


def logfact(n: np.ndarray) -> np.ndarray:
    """log(n!) for non-negative integer arrays (table lookup; the table grows as needed).

    >>> round(float(logfact(np.array([5]))[0]), 12) == round(math.log(120), 12)
    True
    """
    global _LOGFACT
    n = np.asarray(n)
    top = int(n.max()) if n.size else 0
    if top >= len(_LOGFACT):
        _LOGFACT = _logfact_table(2 * top + 2)
    return _LOGFACT[n]


def lncomb(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
    """log C(a, b) for integers, -inf where b < 0 or b > a."""
    a_, b_ = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    ok = (b_ >= 0) & (b_ <= a_)
    aa = np.where(ok, a_, 0)
    bb = np.where(ok, b_, 0)
    out = logfact(aa) - logfact(bb) - logfact(aa - bb)
    return np.where(ok, out, -np.inf)


def lnfall(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
    """log of the falling factorial a (a-1) ... (a-b+1) for integers, -inf where b > a or b < 0."""
    a_, b_ = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    ok = (b_ <= a_) & (b_ >= 0)
    aa = np.where(ok, a_, 0)
    bb = np.where(ok, b_, 0)
    return np.where(ok, logfact(aa) - logfact(aa - bb), -np.inf)


def compositions(k: int, cap: np.ndarray) -> np.ndarray:
    """All count vectors of k labels over len(cap) classes with y_l <= cap_l (rows, lexicographic).

    The number of rows grows combinatorially with the number of classes; prefer :func:`subcounts`,
    which enumerates only what given items can produce.
    """
    cap = np.asarray(cap, dtype=np.int64)
    n_cls = len(cap)
    rest = np.concatenate([np.cumsum(cap[::-1])[::-1], [0]])  # most the classes j.. can hold
    if k > rest[0]:
        return np.zeros((0, n_cls), dtype=np.int64)
    rows = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    for j in range(n_cls - 1):
        hi = np.minimum(k - used, cap[j])
        lo = np.maximum(0, k - used - rest[j + 1])
        cnt = np.maximum(hi - lo + 1, 0)
        rep = np.repeat(np.arange(len(rows)), cnt)
        offs = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt) + lo[rep]
        rows = np.column_stack([rows[rep], offs])
        used = used[rep] + offs
    return np.column_stack([rows, k - used]).astype(np.int64)


def _support(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's classes with a positive count, in class order, padded to the widest row:
    ``(classes (R, m), counts (R, m))`` with count 0 in the padding."""
    nz = v > 0
    m = int(nz.sum(axis=1).max()) if v.size else 0
    cls = np.argsort(~nz, axis=1, kind="stable")[:, :m]
    return cls, np.take_along_axis(v, cls, axis=1)


def _enumerate(cap: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every vector y with 0 ≤ y ≤ cap_d (per row d of ``cap``) and Σ y = k, lexicographic within a
    row: ``(row (S,), y (S, m))``."""
    n_rows, m = cap.shape
    rest = np.concatenate(
        [np.cumsum(cap[:, ::-1], axis=1)[:, ::-1], np.zeros((n_rows, 1), dtype=np.int64)], axis=1
    )
    row = np.flatnonzero(rest[:, 0] >= k)
    cols: list[np.ndarray] = []
    used = np.zeros(len(row), dtype=np.int64)
    for j in range(m - 1):
        hi = np.minimum(k - used, cap[row, j])
        lo = np.maximum(0, k - used - rest[row, j + 1])
        cnt = np.maximum(hi - lo + 1, 0)
        rep = np.repeat(np.arange(len(row)), cnt)
        offs = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt) + lo[rep]
        cols = [c[rep] for c in cols]
        cols.append(offs)
        row, used = row[rep], used[rep] + offs
    if m:
        cols.append(k - used)
    y = np.column_stack(cols) if cols else np.zeros((len(row), 0), dtype=np.int64)
    return row, y.astype(np.int64)


def subvectors(
    v: np.ndarray, k: int, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The k-label sub-count vectors of rows of ``v`` (all rows, or those listed in ``rows``) without
    their weights: ``(owner (S,), y (S, C))``, sorted by owner, lexicographic within an owner.

    Enumerated over each row's own classes (its support), so the work is S × (support size) plus
    writing the S × C output — never the compositions of k into C classes.

    >>> owner, y = subvectors(np.array([[2, 0, 1], [0, 1, 0]]), 2)
    >>> owner.tolist(), y.tolist()
    ([0, 0], [[1, 0, 1], [2, 0, 0]])
    """
    v = np.asarray(v, dtype=np.int64)
    n_cls = v.shape[1]
    rows = np.arange(len(v)) if rows is None else np.asarray(rows, dtype=np.int64)
    rows = rows[v[rows].sum(axis=1) >= k] if k >= 0 else rows[:0]
    if n_cls == 0 or not len(rows):
        return np.zeros(0, dtype=np.int64), np.zeros((0, n_cls), dtype=np.int64)
    cls, cap = _support(v[rows])
    local, ys = _enumerate(cap, k)
    y = np.zeros((len(local), n_cls), dtype=np.int64)
    if ys.shape[1]:
        np.put_along_axis(y, cls[local], ys, axis=1)
    return rows[local], y


def count_subvectors(v: np.ndarray, k_max: int) -> np.ndarray:
    """``out[d, k]``: how many distinct k-label sub-count vectors row d of ``v`` has (k = 0..k_max):
    the coefficient of x^k in Π_c (1 + x + … + x^{v_dc}). Floats, so that huge counts do not wrap.

    >>> count_subvectors(np.array([[2, 1], [1, 1]]), 3).tolist()
    [[1.0, 2.0, 2.0, 1.0], [1.0, 2.0, 1.0, 0.0]]
    """
    v = np.asarray(v, dtype=np.int64)
    _, cap = _support(v)
    poly = np.zeros((len(v), k_max + 1))
    poly[:, 0] = 1.0
    for j in range(cap.shape[1]):
        cs = np.cumsum(poly, axis=1)
        c = np.minimum(cap[:, j], k_max)
        shifted = np.zeros_like(cs)
        for t in range(k_max + 1):  # Σ_{i=0}^{c} poly[t - i] = cs[t] - cs[t - c - 1]
            lag = t - c - 1
            shifted[:, t] = np.where(lag >= 0, cs[np.arange(len(v)), np.maximum(lag, 0)], 0.0)
        poly = cs - shifted
    return np.rint(poly)


def subcounts(v: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k-label sub-count vectors of each row of ``v`` and their hypergeometric weights.

    For every row ``v_d`` (an item's class counts, N_d labels) with N_d ≥ k, every vector ``y`` with
    ``0 ≤ y ≤ v_d`` and ``Σ y = k`` — the class counts of a uniformly random k-subset of the item's
    labels — with probability ``Π_c C(v_dc, y_c) / C(N_d, k)`` (multivariate hypergeometric).

    Returns ``(owner, y, weight)``: ``owner[s]`` is the row of ``v`` that sub-vector ``s`` belongs to,
    ``y`` is (S, C) and ``weight`` (S,) sums to one over each owner. Rows with fewer than k labels own
    nothing. S is at most Σ_d Π_c (v_dc + 1), so memory grows with what the items contain — never with
    the number of compositions of k into C classes (see :func:`subvectors`).
    """
    v = np.asarray(v, dtype=np.int64)
    n_cls = v.shape[1]
    owner, y = subvectors(v, k)
    if k < 0 or n_cls == 0 or len(owner) == 0:
        return (
            np.zeros(0, dtype=np.int64),
            np.zeros((0, n_cls), dtype=np.int64),
            np.zeros(0, dtype=float),
        )
    n_lab = v.sum(axis=1)
    logw = lncomb(v[owner], y).sum(axis=1) - lncomb(n_lab[owner], k)
    return owner, y, np.exp(logw)


def unique_rows(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of a non-negative integer matrix, the inverse index and the multiplicities (rows
    coded as one integer when they fit in int64, much faster than sorting rows)."""
    counts = np.asarray(counts, dtype=np.int64)
    base = int(counts.max()) + 1 if counts.size else 1
    if counts.shape[1] * math.log2(max(base, 2)) < 62:
        w = base ** np.arange(counts.shape[1], dtype=np.int64)
        codes = (counts * w).sum(axis=1)
        uc, inv, mult = np.unique(codes, return_inverse=True, return_counts=True)
        v = (uc[:, None] // w[None]) % base
        return v.astype(np.int64), inv.reshape(-1), mult
    v, inv, mult = np.unique(counts, axis=0, return_inverse=True, return_counts=True)
    return v, inv.reshape(-1), mult


def unique_rows_with_target(
    counts: np.ndarray, target: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (counts, target) pairs: returns the distinct count rows, their targets (codes, -1 for
    none) and the inverse index of every item."""
    rows, inv, _ = unique_rows(np.column_stack([counts, np.asarray(target, dtype=np.int64) + 1]))
    return rows[:, :-1], rows[:, -1] - 1, inv


def plurality_shares(counts: np.ndarray) -> np.ndarray:
    """Per row, the uniform distribution over the most frequent classes (a fair random tie-break of
    the plurality label); all zero for rows with no labels."""
    c = np.asarray(counts)
    top = c.max(axis=-1, keepdims=True)
    tied = (c == top) & (top > 0)
    n_tied = tied.sum(axis=-1, keepdims=True)
    return tied / np.maximum(n_tied, 1)


def plurality_credit(counts: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Per item, the credit the plurality label earns against ``target`` codes.

    Ties are resolved by fractional credit: if the item's most frequent classes are a set T, the credit
    is ``1/|T|`` when ``target`` is in T, else 0 (the expected accuracy of a fair random tie-break, and
    deterministic). Items with no labels, or ``target < 0``, get NaN.

    >>> plurality_credit(np.array([[3, 1], [2, 2], [0, 0]]), np.array([0, 1, 0]))
    array([1. , 0.5, nan])
    """
    c = np.asarray(counts)
    target = np.asarray(target)
    top = c.max(axis=1, keepdims=True)
    tied = (c == top) & (top > 0)
    n_tied = tied.sum(axis=1)
    ok = (n_tied > 0) & (target >= 0)
    out = np.full(len(c), np.nan)
    rows = np.flatnonzero(ok)
    out[rows] = tied[rows, target[rows]] / n_tied[rows]
    return out


def pairwise_agreement(counts: np.ndarray) -> np.ndarray:
    """Per item, the fraction of ordered pairs of distinct raters who gave the same label.

    ``Σ_c n_c (n_c − 1) / (n (n − 1))`` for an item with ``n = Σ_c n_c ≥ 2`` labels; NaN for items with
    fewer than two labels. This is the unbiased per-item estimate of P(ℓᵢ = ℓⱼ) for two distinct raters
    drawn at random from the item's raters.

    >>> pairwise_agreement(np.array([[2, 1], [3, 0], [1, 0]]))
    array([0.33333333, 1.        ,        nan])
    """
    c = np.asarray(counts, dtype=np.float64)
    n = c.sum(axis=1)
    same = (c * (c - 1)).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = same / (n * (n - 1))
    out[n < 2] = np.nan
    return out


def expected_plurality_credit(counts: np.ndarray, target: np.ndarray, k: int) -> np.ndarray:
    """Per row, the expected plurality credit (:func:`plurality_credit`) against ``target`` of a
    uniformly random k-subset of the row's labels — exact, summed over the sub-count vectors the row
    can produce (:func:`subcounts`). Rows with fewer than k labels or no target (``< 0``) get NaN.

    >>> expected_plurality_credit(np.array([[2, 1]]), np.array([0]), 2)  # {0,0} once, {0,1} twice
    array([0.66666667])
    """
    counts = np.asarray(counts, dtype=np.int64)
    target = np.asarray(target, dtype=np.int64)
    out = np.full(len(counts), np.nan)
    ok = (counts.sum(axis=1) >= k) & (target >= 0)
    if not ok.any():
        return out
    rows = np.flatnonzero(ok)
    owner, y, w = subcounts(counts[rows], k)
    credit = plurality_shares(y)[np.arange(len(y)), target[rows][owner]]
    out[rows] = np.bincount(owner, weights=w * credit, minlength=len(rows))
    return out
