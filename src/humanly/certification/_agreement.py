"""Agreement between named raters, shared by the upper bound (eqs. 2 and 8), Lemma 2's check and the
curve (Fig. 3), in memory that follows the data.

P(ℓᵢ = ℓⱼ) is needed only for the pairs of raters that share an item. :func:`rater_pairs` counts, for
each such pair, the items both labelled (``common``) and those they agree on (``agree``), from the coded
arrays (item, rater, label per label):

* up to :data:`MATRIX_MAX_RATERS` raters, as the R × R matrices of the dense reading (computed in chunks
  of items, or sparsely when the design is sparse — the counts are whole numbers either way, so the
  matrix, and U⁽ᵉ⁾ computed from it, are the same bit for bit);
* above it, as a list of pairs (sparse products over blocks of raters, memory ∝ the number of
  co-labelled pairs), never an R × R matrix; pairs with a rater who gave a single label share exactly
  that one item and are pooled per item from its label counts (so 10,000 raters on one item cost
  O(labels), not 10⁸ pairs).

Duplicate labels of one rater on one item (``duplicates="keep"``) count once, the last one, as in
:meth:`~humanly.data.Ratings.matrix`.

>>> from humanly import Ratings
>>> r = Ratings.from_long([0, 0, 1, 1], ["a", "b", "a", "b"], [0, 0, 0, 1])
>>> p = rater_pairs(r)
>>> p.matrix.tolist(), p.mean_agreement()
([[1.0, 0.5], [0.5, 1.0]], 0.5)
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from scipy import sparse

from ..data import Ratings

__all__ = [
    "DENSE_CELLS",
    "MATRIX_MAX_RATERS",
    "RaterPairs",
    "dedupe_last",
    "offdiag_mean",
    "rater_pairs",
]

#: up to this many raters ``UpperBound.agreement_matrix`` holds the R × R matrix; above it, ``None``
MATRIX_MAX_RATERS = 2000
#: items × raters cells per chunk of the dense computation
DENSE_CELLS = 2**22
#: largest output (pair entries) of one block of the sparse product
_BLOCK_PAIRS = 2**22


@dataclasses.dataclass(frozen=True)
class RaterPairs:
    """Co-labelled rater pairs. ``i < j``, ``common`` (items both labelled ≥ 1) and ``agree`` list the
    pairs counted one by one; ``single_pairs``/``single_agree`` pool the pairs with a rater who gave
    a single label (large R only). ``matrix`` is the R × R agreement (NaN where no common item, 1 on
    the diagonal of labelling raters) and ``common_matrix`` the common items, up to
    :data:`MATRIX_MAX_RATERS` raters."""

    n_raters: int
    i: np.ndarray
    j: np.ndarray
    common: np.ndarray
    agree: np.ndarray
    single_pairs: int = 0
    single_agree: int = 0
    matrix: np.ndarray | None = None
    common_matrix: np.ndarray | None = None

    @property
    def n_pairs(self) -> int:
        """Number of unordered rater pairs sharing at least one item."""
        return len(self.i) + self.single_pairs

    def mean_agreement(self) -> float:
        """U⁽ᵉ⁾² (eq. 8): the mean over co-labelled pairs of P(ℓᵢ = ℓⱼ); NaN when no pair shares an
        item. From the matrix when there is one (the dense reading's number, bit for bit)."""
        if self.matrix is not None:
            return offdiag_mean(self.matrix)
        if self.n_pairs == 0:
            return float("nan")
        total = float(np.sum(self.agree / self.common)) + self.single_agree
        return total / self.n_pairs

    def below(self, chance: float) -> int:
        """Number of co-labelled pairs that agree less often than ``chance``."""
        listed = int(np.sum(self.agree < chance * self.common))
        pooled = self.single_pairs - self.single_agree if chance > 0 else 0
        return listed + pooled


def offdiag_mean(a: np.ndarray) -> float:
    """Mean of the off-diagonal entries that are defined (NaN when none is).

    >>> offdiag_mean(np.array([[1.0, 0.5], [0.5, 1.0]]))
    0.5
    """
    k = a.shape[0]
    off = a[~np.eye(k, dtype=bool)]
    off = off[~np.isnan(off)]
    return float(off.mean()) if off.size else float("nan")


def dedupe_last(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coded arrays (item, rater, label) with one label per (item, rater): the last one given.

    >>> r = Ratings.from_long([0, 0, 0], ["a", "a", "b"], [0, 1, 1], duplicates="keep")
    >>> [x.tolist() for x in dedupe_last(r)]
    [[0, 0], [0, 1], [1, 1]]
    """
    item = ratings.item_codes.astype(np.int64)
    rater = ratings.rater_codes.astype(np.int64)
    label = ratings.label_codes.astype(np.int64)
    key = item * max(ratings.n_raters or 1, 1) + rater
    _, last = np.unique(key[::-1], return_index=True)
    keep = np.sort(len(key) - 1 - last)
    if len(keep) == len(key):
        return item, rater, label
    return item[keep], rater[keep], label[keep]


def rater_pairs(ratings: Ratings) -> RaterPairs:
    """The co-labelled pairs of the named raters of ``ratings`` (see the module).

    >>> from humanly import Ratings
    >>> r = Ratings.from_long([0, 0, 0, 1, 1], ["a", "b", "c", "a", "b"], [0, 0, 1, 1, 1])
    >>> p = rater_pairs(r)
    >>> p.n_pairs, round(p.mean_agreement(), 4)
    (3, 0.3333)
    """
    item, rater, label = dedupe_last(ratings)
    n_r = int(ratings.n_raters or 0)
    n_i, n_c = ratings.n_items, ratings.n_classes
    if n_r <= MATRIX_MAX_RATERS:
        cells = n_i * n_r
        if cells <= DENSE_CELLS or len(item) >= 0.1 * cells:
            common, agree = _dense_counts(item, rater, label, n_i, n_r, n_c)
        else:
            pairs = _sparse_counts(item, rater, label, n_i, n_r, n_c, np.arange(n_r))
            common, agree = _to_matrices(n_r, pairs, np.bincount(rater, minlength=n_r))
        with np.errstate(invalid="ignore", divide="ignore"):
            a = agree / common
        a[common == 0] = np.nan
        a.setflags(write=False)
        iu, ju = np.triu_indices(n_r, 1)
        shared = common[iu, ju] > 0
        return RaterPairs(
            n_r,
            iu[shared],
            ju[shared],
            common[iu, ju][shared].astype(np.int64),
            agree[iu, ju][shared].astype(np.int64),
            matrix=a,
            common_matrix=common,
        )
    per_rater = np.bincount(rater, minlength=n_r)
    single = per_rater[rater] == 1
    s_pairs, s_agree = _pooled_singles(item[single], label[single], item, label, n_i, n_c)
    multi = np.flatnonzero(per_rater >= 2)
    m = ~single
    pairs = _sparse_counts(item[m], rater[m], label[m], n_i, n_r, n_c, multi)
    i, j, common, agree = pairs
    return RaterPairs(n_r, i, j, common, agree, s_pairs, s_agree)


def _dense_counts(
    item: np.ndarray, rater: np.ndarray, label: np.ndarray, n_i: int, n_r: int, n_c: int
) -> tuple[np.ndarray, np.ndarray]:
    """R × R common items and agreements, from items × raters indicator matrices built a chunk of
    items at a time (float64 products of 0/1 matrices: exact whole numbers)."""
    common = np.zeros((n_r, n_r))
    agree = np.zeros((n_r, n_r))
    rows = max(1, DENSE_CELLS // max(n_r, 1))
    bounds = np.searchsorted(item, np.arange(0, n_i + rows, rows))
    for a, b in itertools.pairwise(bounds):
        if a == b:
            continue
        it0 = int(item[a])
        span = int(item[b - 1]) - it0 + 1
        mat = np.full((span, n_r), -1, dtype=np.int64)
        mat[item[a:b] - it0, rater[a:b]] = label[a:b]
        labelled = (mat >= 0).astype(np.float64)
        common += labelled.T @ labelled
        for c in range(n_c):
            y = (mat == c).astype(np.float64)
            agree += y.T @ y
    return common, agree


def _sparse_counts(
    item: np.ndarray,
    rater: np.ndarray,
    label: np.ndarray,
    n_i: int,
    n_r: int,
    n_c: int,
    raters: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """Pairs i < j among ``raters`` sharing an item, with common items and agreements
    (Σ_c over classes of Y_cᵀ Y_c, :func:`pair_sums`)."""
    terms = [[(label == c, label == c) for c in range(n_c)]]
    i, j, common, agree = pair_sums(item, rater, n_i, n_r, raters, terms)
    return i, j, common, agree


def pair_sums(
    item: np.ndarray,
    rater: np.ndarray,
    n_i: int,
    n_r: int,
    raters: np.ndarray,
    terms: list[list[tuple[np.ndarray, np.ndarray]]],
    *,
    ordered: bool = False,
) -> tuple[np.ndarray, ...]:
    """Sums over the items two raters share, for the pairs of ``raters`` that share one: ``(i, j,
    common, *sums)`` with pairs i < j (``ordered``: every i ≠ j). Each entry of ``terms`` is a list of
    per-label value pairs (u, v) and gives the sum Σ_t Σ_n u_t[n, i] · v_t[n, j] (whole numbers).

    Sparse products over blocks of raters, memory ∝ the co-labelled pairs of a block: each sum is packed
    with the common items as ``common · B + sum`` (``B`` > any count), so every product has exactly the
    pattern of ``Lᵀ L`` and their entries line up.

    >>> item, rater = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
    >>> hit = np.array([1, 1, 1, 0])
    >>> [x.tolist() for x in pair_sums(item, rater, 2, 2, np.arange(2), [[(hit, hit)]])]
    [[0], [1], [2], [1]]
    """
    empty = np.zeros(0, dtype=np.int64)
    if len(item) == 0:
        return (empty,) * (3 + len(terms))
    big = n_i + 1
    ones = np.ones(len(item), dtype=np.int64)

    def mat(v: np.ndarray) -> sparse.csr_matrix:
        v = np.asarray(v, dtype=np.int64)
        nz = v != 0
        return sparse.csr_matrix((v[nz], (item[nz], rater[nz])), shape=(n_i, n_r))

    lab = mat(ones)
    lab_t = lab.T.tocsr()
    mats = [[(mat(u).T.tocsr(), mat(v)) for u, v in t] for t in terms]
    per_item = np.bincount(item, minlength=n_i)
    load = np.bincount(rater, weights=per_item[item], minlength=n_r)[raters]
    cum = np.cumsum(load)
    out: list[list[np.ndarray]] = []
    start = 0
    while start < len(raters):
        stop = int(np.searchsorted(cum, cum[start] - load[start] + _BLOCK_PAIRS, side="right"))
        stop = max(stop, start + 1)
        block = raters[start:stop]
        base = (lab_t[block] @ lab).tocsr()
        base.sort_indices()
        coo = base.tocoo()
        rows = block[coo.row]
        keep = coo.col != rows if ordered else coo.col > rows
        cols = [rows[keep], coo.col[keep].astype(np.int64), coo.data[keep].astype(np.int64)]
        for t in mats:
            packed = base * big
            for u_t, v in t:
                packed = packed + u_t[block] @ v
            packed = packed.tocsr()
            packed.sort_indices()
            cols.append(packed.tocoo().data[keep].astype(np.int64) % big)
        out.append(cols)
        start = stop
    return tuple(np.concatenate([o[k] for o in out]) for k in range(3 + len(terms)))


def _to_matrices(
    n_r: int, pairs: tuple[np.ndarray, ...], labels: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Dense symmetric R × R matrices (common items, agreements) from a pair list; on the diagonal
    each rater's number of ``labels`` (a rater agrees with itself on every item it labelled)."""
    i, j, common, agree = pairs
    c = np.zeros((n_r, n_r))
    a = np.zeros((n_r, n_r))
    c[i, j] = c[j, i] = common
    a[i, j] = a[j, i] = agree
    d = np.arange(n_r)
    c[d, d] = a[d, d] = labels
    return c, a


def _pooled_singles(
    s_item: np.ndarray,
    s_label: np.ndarray,
    item: np.ndarray,
    label: np.ndarray,
    n_i: int,
    n_c: int,
) -> tuple[int, int]:
    """Unordered pairs with at least one single-label rater, and how many agree, from each item's
    label counts: with s_c single and a_c all labels of class c (s, a their totals), the ordered
    pairs are s(a − 1) + (a − s)s and the agreeing ones Σ_c s_c(a_c − 1) + (a_c − s_c)s_c."""
    if len(s_item) == 0:
        return 0, 0
    s_cnt = np.bincount(s_item * n_c + s_label, minlength=n_i * n_c).reshape(n_i, n_c)
    a_cnt = np.bincount(item * n_c + label, minlength=n_i * n_c).reshape(n_i, n_c)
    s, a = s_cnt.sum(axis=1), a_cnt.sum(axis=1)
    ordered = s * (a - 1) + (a - s) * s
    agree = (s_cnt * (a_cnt - 1) + (a_cnt - s_cnt) * s_cnt).sum(axis=1)
    return int(ordered.sum()) // 2, int(agree.sum()) // 2
