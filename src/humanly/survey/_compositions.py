"""One survey size at a time for the scaling exact engine (:mod:`humanly.survey._scale`): the (vector,
sub-count) pairs of level j, their columns, hypergeometric weights in log space and the maps between
consecutive levels.

Level j holds every pair (d, y) with y a j-label sub-count vector of a distinct count vector v_d that
has at least j labels — as many as the items contain (Σ_d of the coefficient of x^j in
Π_c (1 + … + x^{v_dc})), never the items × compositions grid. Its *columns* are the distinct y: at most
the compositions of j into C classes (5,151 for j = 99 and three classes), however many items share
them. When those compositions are few, a column is the lexicographic rank of y among them (no sort:
:func:`subvectors` already enumerates each vector's sub-counts in that order); otherwise the columns
are the distinct y the items contain.

Each pair keeps ``lh`` = ln P(y | v_d) (multivariate hypergeometric) and ``ht`` = exp(lh − top(y)),
its probability relative to the largest of its column (in (0, 1]; the column's log2 scale is ``ls2``).
Sums over a column's pairs are taken in that scale, so 1,000 labels per item do not overflow.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._core.counts import logfact, subvectors

__all__ = [
    "LN2",
    "Pairs",
    "composition_count",
    "level_pairs",
    "log_hyp",
    "lookup",
    "match_rows",
    "next_columns",
]

LN2 = math.log(2.0)

#: Rank columns among all compositions of j when there are at most this many of them per pair of the
#: level (and at most :data:`_RANK_MAX` in all); otherwise number the distinct sub-count vectors.
_RANK_PER_PAIR, _RANK_MAX = 4, 1 << 21


def composition_count(j: int, n_cls: int) -> int:
    """How many count vectors of j labels over ``n_cls`` classes there are: C(j + C − 1, C − 1)."""
    return math.comb(j + n_cls - 1, n_cls - 1) if n_cls else int(j == 0)


def _rank(y: np.ndarray, j: int) -> np.ndarray:
    """Lexicographic rank (first class most significant, ascending) of each row of ``y`` among the
    compositions of j into C parts: Σ_i [C(n_i + m_i, m_i) − C(n_i − y_i + m_i, m_i)] with n_i the
    labels left before class i and m_i = C − i − 1 (the hockey-stick identity)."""
    n_cls = y.shape[1]
    out = np.zeros(len(y), dtype=np.int64)
    left = np.full(len(y), j, dtype=np.int64)
    for i in range(n_cls - 1):
        m = n_cls - i - 1
        out += _binom(left + m, m) - _binom(left - y[:, i] + m, m)
        left -= y[:, i]
    return out


def _binom(n: np.ndarray, m: int) -> np.ndarray:
    """C(n, m) for an integer array n ≥ m ≥ 1, exact: C(n, t + 1) = C(n, t) (n − t) / (t + 1) is an
    integer at every step (and small here: ranks are used for at most 2^21 compositions)."""
    out = np.ones(len(n), dtype=np.int64)
    for t in range(m):
        out = out * (n - t) // (t + 1)
    return out


def _unrank(j: int, n_cls: int) -> np.ndarray:
    """Every composition of j into ``n_cls`` parts in lexicographic order (the rows of the ranks)."""
    from .._core.counts import compositions

    return compositions(j, np.full(n_cls, j, dtype=np.int64))


@dataclasses.dataclass(frozen=True)
class Pairs:
    """Level j: pairs sorted by (owner, column); ``ys`` (Y, C) the columns' vectors; ``cord`` the pairs
    in column order (by owner within a column) and ``hord`` by decreasing ``ht`` within a column, with
    ``cstart`` (Y + 1) each column's first entry; ``ranked``: columns are ranks among all compositions
    (some may hold no pair); ``dense`` (D · Y,) the pair of each (owner, column), −1 for none, when
    that table is small (else ``None``); ``tiny``: some ``ht`` is below 2^−900 (sums of a column may
    lose its smallest terms)."""

    j: int
    owner: np.ndarray
    col: np.ndarray
    ys: np.ndarray
    lh: np.ndarray
    ht: np.ndarray
    ls2: np.ndarray
    cord: np.ndarray
    hord: np.ndarray
    cstart: np.ndarray
    ranked: bool
    dense: np.ndarray | None
    tiny: bool

    @property
    def n(self) -> int:
        return len(self.owner)

    @property
    def n_cols(self) -> int:
        return len(self.ys)

    @property
    def keys(self) -> np.ndarray:
        """owner · Y + column, sorted (pairs are in that order)."""
        return self.owner * self.n_cols + self.col

    def y(self, idx: np.ndarray | None = None) -> np.ndarray:
        """The sub-count vectors of pairs ``idx`` (all pairs when ``None``)."""
        return np.take(self.ys, self.col if idx is None else self.col[idx], axis=0)


#: Largest (vectors × columns) table of pair positions kept per level (int32 entries).
_DENSE_MAX = 1 << 23


def log_hyp(
    v: np.ndarray, n_lab: np.ndarray, owner: np.ndarray, y: np.ndarray, j: int
) -> np.ndarray:
    """ln P(y | v_owner) = Σ_c ln C(v_c, y_c) − ln C(N, j) for j-sub-count vectors y ≤ v_owner."""
    lf = logfact(np.arange(int(n_lab.max()) + 1 if len(n_lab) else 1))
    per_vec = lf[v].sum(axis=1) - lf[n_lab] + lf[j] + lf[np.maximum(n_lab - j, 0)]
    out = per_vec[owner]
    rest = np.take(v, owner, axis=0) - y
    for c in range(y.shape[1]):
        out -= lf[y[:, c]] + lf[rest[:, c]]
    return out


def level_pairs(v: np.ndarray, n_lab: np.ndarray, j: int) -> Pairs:
    """The pairs of level j over the vectors ``v`` with at least j labels (see :class:`Pairs`)."""
    owner, y = subvectors(v, j, rows=np.flatnonzero(n_lab >= j))
    n_cls = v.shape[1]
    lh = log_hyp(v, n_lab, owner, y, j)
    n_comp = composition_count(j, n_cls)
    ranked = n_comp <= min(_RANK_MAX, max(_RANK_PER_PAIR * len(owner), 4096))
    if ranked:
        col = _rank(y, j)
        ys = _unrank(j, n_cls)
    else:
        from ._levels import row_codes

        (codes,) = row_codes(y)
        _, first, col = np.unique(codes, return_index=True, return_inverse=True)
        col = col.reshape(-1)
        ys = y[first]
        order = np.lexsort((col, owner))
        owner, col, lh = owner[order], col[order], lh[order]
    n_y = len(ys)
    cord = np.argsort(col, kind="stable")
    cstart = np.searchsorted(col[cord], np.arange(n_y + 1))
    top = np.full(n_y, -np.inf)
    np.maximum.at(top, col, lh)
    ht = np.exp(lh - top[col])
    hord = np.argsort(col + 0.5 * (1.0 - ht))  # by column (keys in [col, col + 1/2]), then ht ↓
    ls2 = np.where(np.isfinite(top), top, 0.0) / LN2
    dense = None
    if len(v) * n_y <= _DENSE_MAX:
        dense = np.full(len(v) * n_y, -1, dtype=np.int32)
        dense[owner * n_y + col] = np.arange(len(owner), dtype=np.int32)
    tiny = bool(len(ht)) and float(ht.min()) < 2.0**-900
    return Pairs(j, owner, col, ys, lh, ht, ls2, cord, hord, cstart, ranked, dense, tiny)


def next_columns(lo: Pairs, hi: Pairs) -> np.ndarray:
    """(Y_j, C): the column of level j + 1 holding y + e_l for each column y of level j and class l,
    −1 when no vector contains it."""
    n_y, n_cls = lo.ys.shape
    step = lo.ys[:, None, :] + np.eye(n_cls, dtype=np.int64)[None]
    flat = step.reshape(-1, n_cls)
    if hi.ranked:
        return _rank(flat, hi.j).reshape(n_y, n_cls)
    return match_rows(flat, hi.ys).reshape(n_y, n_cls)


def match_rows(query: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The row of ``table`` equal to each row of ``query`` (−1 where none)."""
    from ._levels import row_codes

    if not len(table) or not len(query):
        return np.full(len(query), -1, dtype=np.int64)
    qc, tc = row_codes(np.asarray(query, dtype=np.int64), np.asarray(table, dtype=np.int64))
    order = np.argsort(tc)
    pos = np.minimum(np.searchsorted(tc[order], qc), len(order) - 1)
    hit = tc[order][pos] == qc
    return np.where(hit, order[pos], -1)


def lookup(pr: Pairs, owner: np.ndarray, col: np.ndarray) -> np.ndarray:
    """The pair (``owner``, ``col``) of level ``pr`` (−1 where the vector does not contain the column,
    or ``col`` is −1)."""
    if not pr.n:
        return np.full(len(owner), -1, dtype=np.int64)
    want = owner * pr.n_cols + col
    ok = col >= 0
    if pr.dense is not None:
        return np.where(ok, pr.dense[np.where(ok, want, 0)], -1).astype(np.int64)
    keys = pr.keys
    pos = np.minimum(np.searchsorted(keys, want), pr.n - 1)
    return np.where(ok & (keys[pos] == want), pos, -1)
