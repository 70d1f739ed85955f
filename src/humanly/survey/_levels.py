"""The plan of the exact engine (Survey Equivalence, Algorithms 1–6): everything about a data set that
does not change between bootstrap replicates, enumerated from what the items contain.

Items are compressed into their D distinct count vectors ``v`` (multiplicities ``mult``). Level k holds

* the *survey rows* (d, y): every k-label sub-count vector y of every eligible vector v_d (at least
  k + r labels), with its hypergeometric probability P(y | v_d) = Π_c C(v_dc, y_c) / C(N_d, k) — at
  most Π_c (v_dc + 1) rows per vector (32 for 5 labels), never the compositions of k into C classes;
* the *reference triplets* (row, c, w): w = P(y | v) · P(the r held-out labels' plurality is c | v − y);
* for the Anonymous Bayesian Combiner, the level-(k+1) sequence probabilities P_u(z) of Algorithm 5
  for every pair (u, z) with z a (k+1)-sub-vector of v_u (``contributors``), and the *entries*
  (row, l) with z = y + e_l a vector some item contains — the only classes whose prediction is not
  the floor.

Before allocating, :func:`make_plan` estimates the bytes these arrays need from the number of
sub-count vectors of each item (:func:`humanly._core.counts.count_subvectors`) and stops with one sentence
naming what to change (``max_k=`` or ``method="sampled"``) when they exceed
:data:`EXACT_MEMORY_BUDGET`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._core.counts import (
    count_subvectors,
    lncomb,
    lnfall,
    plurality_shares,
    subvectors,
    unique_rows,
)
from ..data import InputError
from ..errors import setting

__all__ = [
    "EXACT_MEMORY_BUDGET",
    "AbcLevel",
    "Level",
    "Plan",
    "make_plan",
    "plan_bytes",
    "row_codes",
]

#: Bytes the exact engine's plan may hold (the arrays of every level together); beyond it
#: :func:`make_plan` stops before allocating and says what to change.
EXACT_MEMORY_BUDGET = 1 << 30

#: Bytes per survey row, reference triplet, contributor pair and entry that the plan keeps (indices
#: and weights), and per cell of the dense count vectors (and their temporaries) built while
#: enumerating one level.
_ROW_BYTES, _REF_BYTES, _PAIR_BYTES, _ENTRY_BYTES, _CELL_BYTES = 24, 32, 56, 56, 32


def row_codes(*arrays: np.ndarray) -> list[np.ndarray]:
    """One integer per row, equal for equal rows across all ``arrays`` (non-negative integer matrices
    with the same number of columns): a positional code when it fits in int64, else the index of the
    row among the distinct rows of all arrays together.

    >>> [c.tolist() for c in row_codes(np.array([[1, 0], [0, 2]]), np.array([[0, 2]]))]
    [[1, 6], [6]]
    """
    base = 1 + max((int(a.max()) for a in arrays if a.size), default=0)
    n_cls = arrays[0].shape[1]
    if n_cls * np.log2(max(base, 2)) < 62:
        w = base ** np.arange(n_cls, dtype=np.int64)
        return [(np.asarray(a, dtype=np.int64) * w).sum(axis=1) for a in arrays]
    _, inv, _ = unique_rows(np.vstack(arrays))
    cuts = np.cumsum([len(a) for a in arrays])[:-1]
    return list(np.split(inv, cuts))


def _segments(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For sorted ``keys``: the start of each run of equal keys, each element's position in its run and
    the length of its run."""
    n = len(keys)
    if not n:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    start = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    lens = np.diff(np.r_[start, n])
    run = np.repeat(np.arange(len(start)), lens)
    return start, np.arange(n) - start[run], lens[run]


@dataclasses.dataclass(frozen=True)
class AbcLevel:
    """The ABC at level k (Algorithms 5–6). Contributor pairs (u, z) are sorted by (z, u): ``t_owner``
    u, ``t_p`` P_u(z) scaled by exp(−max_u log P_u(z)) per z, ``scan``/``scan_rev`` the index steps of
    a segmented prefix / suffix sum over each z's pairs, ``prev``/``next`` the neighbour within the
    segment (−1 at its ends), ``z_last`` each z's last pair. Entries (``e_row``, ``e_cls``) sorted by
    row and class: ``e_z``, ``e_t`` (the pair (row's own vector, z) when the row's item contains z,
    else −1), ``e_scale`` (restores the ratios between a row's entries; ``None`` when one factor per
    pair and z, ``src_scale``, does so well inside the float range), ``row_start`` and ``per_row``
    (each row's first entry and number of entries), ``n_absent`` (classes of the row with no entry)
    and ``ref_entry`` (the entry of each reference triplet)."""

    t_owner: np.ndarray
    t_p: np.ndarray
    scan: tuple[np.ndarray, ...]
    scan_rev: tuple[np.ndarray, ...]
    prev: np.ndarray
    next: np.ndarray
    z_last: np.ndarray
    e_row: np.ndarray
    e_z: np.ndarray
    e_t: np.ndarray
    e_cls: np.ndarray
    e_scale: np.ndarray | None
    src_scale: np.ndarray | None
    row_start: np.ndarray
    per_row: np.ndarray
    n_absent: np.ndarray
    ref_entry: np.ndarray

    @property
    def nbytes(self) -> int:
        return sum(int(np.asarray(x).nbytes) for x in dataclasses.astuple(self) if x is not None)


@dataclasses.dataclass(frozen=True)
class Level:
    """Survey size k: ``ys`` the distinct survey vectors (Y, C); rows (``row_owner``, ``row_y``, their
    probability ``row_w`` = P(y | v)) sorted by owner; reference triplets (``ref_row``, ``ref_cls``,
    ``ref_w``) sorted by row, grouped by owner (``owners``, ``owner_start``); ``elig`` the vectors with
    at least k + r labels; ``abc`` the ABC's pieces (``None`` for other combiners)."""

    k: int
    ys: np.ndarray
    row_owner: np.ndarray
    row_y: np.ndarray
    row_w: np.ndarray
    ref_row: np.ndarray
    ref_cls: np.ndarray
    ref_w: np.ndarray
    owners: np.ndarray
    owner_start: np.ndarray
    elig: np.ndarray
    abc: AbcLevel | None = None

    @property
    def n_rows(self) -> int:
        return len(self.row_owner)

    def row_index(self, owner: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The survey row of each (distinct vector ``owner[i]``, survey counts ``y[i]``); every pair
        must be a row (y a k-sub-vector of an eligible vector)."""
        qy, ly = row_codes(np.asarray(y, dtype=np.int64), self.ys)
        order = np.argsort(ly)
        yid = order[np.searchsorted(ly[order], qy)]
        n_y = len(self.ys)
        keys = self.row_owner * n_y + self.row_y
        ko = np.argsort(keys, kind="stable")
        return ko[np.searchsorted(keys[ko], np.asarray(owner) * n_y + yid)]


@dataclasses.dataclass(frozen=True)
class Plan:
    """Everything about a data set that does not change between bootstrap replicates: the distinct
    count vectors ``v`` (D, C), ``inv`` item → vector, ``mult``, ``n_labels``, the reference size ``r``,
    the levels, ``qref`` (D, C) the distribution of the plurality of r held-out labels (for the
    classifiers), ``ref_elig`` (vectors with at least r labels), whether the ABC is planned and its
    floor."""

    v: np.ndarray
    inv: np.ndarray
    mult: np.ndarray
    n_labels: np.ndarray
    r: int
    levels: tuple[Level, ...]
    qref: np.ndarray
    ref_elig: np.ndarray
    abc: bool
    abc_floor: float = 1e-3

    @property
    def ks(self) -> np.ndarray:
        return np.array([lv.k for lv in self.levels])

    @property
    def n_classes(self) -> int:
        return int(self.v.shape[1])


# ----------------------------------------------------------------------------- memory
@dataclasses.dataclass
class _Budget:
    """Running count of the bytes the plan holds; :meth:`take` stops before an allocation that would
    exceed the limit, with one sentence naming the largest ``max_k`` that fits."""

    limit: int
    n_items: int
    n_cls: int
    max_k: int
    used: float = 0.0

    def fail(self, need: float, k: int) -> InputError:
        fix = f"pass {setting('max_k', k - 1)} or " if k >= 2 else "pass "
        return InputError(
            f"the exact survey engine would need more than {need / 2**30:.1f} GiB for "
            f"{self.n_items:,} distinct items over {self.n_cls} classes up to k = {self.max_k} "
            f"(budget {self.limit / 2**30:.1f} GiB); {fix}{setting('method', 'sampled')}"
        )

    def take(self, nbytes: float, k: int) -> None:
        if self.used + nbytes > self.limit:
            raise self.fail(self.used + nbytes, k)
        self.used += nbytes


def plan_bytes(
    v: np.ndarray, n_lab: np.ndarray, max_k: int, r: int, abc: bool, sub: np.ndarray | None = None
) -> np.ndarray:
    """``out[k]``: the bytes the plan of levels 0..k needs (k = 0..max_k), from the number of
    sub-count vectors of each distinct vector (``sub``, :func:`count_subvectors` up to max_k + 1):
    the rows, reference triplets and contributor pairs of every level (kept), the ABC's entries (at
    most one per row and class) and the dense count vectors of the largest level (built while
    enumerating it)."""
    if max_k < 0:
        return np.zeros(0)
    sub = count_subvectors(v, max_k + 1) if sub is None else sub
    n_cls = v.shape[1]
    out = np.zeros(max_k + 1)
    kept = peak = 0.0
    for k in range(max_k + 1):
        rows = float(sub[n_lab >= k + r, k].sum())
        refs = rows * min(n_cls, r * max(1, int(n_lab.max()) - k))
        pairs = float(sub[n_lab >= k + 1, k + 1].sum()) if abc else 0.0
        entries = rows * n_cls if abc else 0.0
        kept += rows * (_ROW_BYTES + 8 * n_cls) + refs * _REF_BYTES + pairs * _PAIR_BYTES
        kept += entries * _ENTRY_BYTES
        peak = max(peak, (rows + pairs) * n_cls * _CELL_BYTES)
        out[k] = kept + peak
    return out


def _check_memory(
    v: np.ndarray, n_lab: np.ndarray, max_k: int, r: int, abc: bool, budget: _Budget
) -> None:
    """Before enumerating anything, :func:`plan_bytes` of every level must fit the budget."""
    need = plan_bytes(v, n_lab, max_k, r, abc)
    over = np.flatnonzero(need > budget.limit)
    if len(over):
        raise budget.fail(float(need[over[0]]), int(over[0]))


# ----------------------------------------------------------------------------- levels
def _references(
    v: np.ndarray, owner: np.ndarray, y: np.ndarray, log_hyp: np.ndarray, k: int, r: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reference triplets (row, class, weight) of survey rows: weight = P(y | v) · P(plurality of r
    held-out labels = c | v − y), sorted by row then class."""
    rem = v[owner] - y
    n_rem = rem.sum(axis=1)
    if r == 1:
        row, cls = np.nonzero(rem)
        lw = log_hyp[row] + lncomb(rem[row, cls], 1) - lncomb(n_rem[row], 1)
        return row, cls, np.exp(lw)
    sub_row, z = subvectors(rem, r)
    lz = lncomb(rem[sub_row], z).sum(axis=1) - lncomb(n_rem[sub_row], r)
    share = plurality_shares(z)
    s, cls = np.nonzero(share)
    row = sub_row[s]
    w = np.exp(log_hyp[row] + lz[s]) * share[s, cls]
    key = row * v.shape[1] + cls
    uk, inv = np.unique(key, return_inverse=True)
    return uk // v.shape[1], uk % v.shape[1], np.bincount(inv.reshape(-1), weights=w)


@dataclasses.dataclass(frozen=True)
class _Pairs:
    """Contributor pairs (u, z) of level k + 1 sorted by (z, u), with each z's log-scale ``top``, its
    distinct vectors ``zs`` and the segment layout (``start``, ``pos``, ``lens``) of each z's pairs."""

    owner: np.ndarray
    z: np.ndarray
    p: np.ndarray
    top: np.ndarray
    zs: np.ndarray
    start: np.ndarray
    pos: np.ndarray
    lens: np.ndarray


def _pairs(v: np.ndarray, n_lab: np.ndarray, k: int, budget: _Budget) -> _Pairs:
    """Every (k+1)-sub-vector z of every vector with at least k + 1 labels, with PROBABILITYONEITEM
    P_u(z) = Π_l (v_ul)_(z_l) / (N_u)_(k+1), scaled by the largest P of each z (log space)."""
    owner, z = subvectors(v, k + 1, rows=np.flatnonzero(n_lab >= k + 1))
    budget.take(len(owner) * _PAIR_BYTES, k)
    lp = lnfall(v[owner], z).sum(axis=1) - lnfall(n_lab[owner], k + 1)
    (zc,) = row_codes(z)
    _, t_z = np.unique(zc, return_inverse=True)
    t_z = t_z.reshape(-1)
    order = np.lexsort((owner, t_z))
    owner, t_z, lp, z = owner[order], t_z[order], lp[order], z[order]
    start, pos, lens = _segments(t_z)
    top = np.maximum.reduceat(lp, start) if len(lp) else np.zeros(0)
    return _Pairs(owner, t_z, np.exp(lp - top[t_z]), top, z[start], start, pos, lens)


def _entries(
    pr: _Pairs, ys: np.ndarray, row_y: np.ndarray, k: int, budget: _Budget
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Entries (row, l) with z = y_row + e_l a vector some item contains, sorted by row and class:
    each z's parents y = z − e_l (l in supp z) that are survey vectors, expanded to their rows."""
    zi, cls = np.nonzero(pr.zs)
    parent = pr.zs[zi].copy()
    parent[np.arange(len(zi)), cls] -= 1
    pc, ysc = row_codes(parent, ys)
    yorder = np.argsort(ysc)
    hit = np.minimum(np.searchsorted(ysc[yorder], pc), max(len(yorder) - 1, 0))
    found = (ysc[yorder][hit] == pc) if len(yorder) else np.zeros(len(pc), dtype=bool)
    zi, cls, yid = zi[found], cls[found], yorder[hit[found]]
    rows_by_y = np.argsort(row_y, kind="stable")
    ystart = np.searchsorted(row_y[rows_by_y], np.arange(len(ys)))
    n_per = np.bincount(row_y, minlength=len(ys))[yid]
    budget.take(float(n_per.sum()) * _ENTRY_BYTES, k)
    cand = np.repeat(np.arange(len(yid)), n_per)
    off = np.arange(int(n_per.sum())) - np.repeat(np.cumsum(n_per) - n_per, n_per)
    e_row = rows_by_y[ystart[yid[cand]] + off]
    e_cls, e_z = cls[cand], zi[cand]
    order = np.lexsort((e_cls, e_row))
    return e_row[order], e_cls[order], e_z[order]


#: Spread of log sequence probabilities within a level below which one scale per z suffices (exp of
#: −600 is far from underflow); beyond it every entry is scaled relative to its row's largest.
_SPREAD = 600.0


def _scales(
    pr: _Pairs, e_top: np.ndarray, row_top: np.ndarray, e_row: np.ndarray
) -> dict[str, np.ndarray | None]:
    """Restore the ratios between a row's entries (P_u(z) was scaled per z by exp(−top_z)): one
    factor per pair and z, exp(top_z − max top), when the level's spread allows, else per entry."""
    if not len(pr.top) or float(pr.top.max() - pr.top.min()) < _SPREAD:
        z_scale = np.exp(pr.top - (pr.top.max() if len(pr.top) else 0.0))
        return {"e_scale": None, "src_scale": np.concatenate([z_scale[pr.z], z_scale])}
    return {"e_scale": np.exp(e_top - row_top[e_row]), "src_scale": None}


def _abc_level(
    v: np.ndarray,
    n_lab: np.ndarray,
    k: int,
    ys: np.ndarray,
    row_owner: np.ndarray,
    row_y: np.ndarray,
    ref: tuple[np.ndarray, np.ndarray],
    budget: _Budget,
) -> AbcLevel:
    """The ABC's contributor pairs and entries at level k (see :class:`AbcLevel`)."""
    n_d, n_cls = v.shape
    pr = _pairs(v, n_lab, k, budget)
    n_t = len(pr.owner)
    idx = np.arange(n_t)
    scan, scan_rev = [], []
    d = 1
    while d < (int(pr.lens.max()) if n_t else 0):
        scan.append(idx[pr.pos >= d])
        scan_rev.append(idx[pr.lens - 1 - pr.pos >= d])
        d *= 2
    e_row, e_cls, e_z = _entries(pr, ys, row_y, k, budget)
    # the row's own item contains z when y_l < v_l: then its pair (own vector, z) is left out
    own = row_owner[e_row]
    inside = ys[row_y[e_row], e_cls] < v[own, e_cls]
    pos_t = np.searchsorted(pr.z * n_d + pr.owner, e_z * n_d + own)
    n_rows = len(row_owner)
    row_start = np.searchsorted(e_row, np.arange(n_rows))
    e_top = pr.top[e_z]
    row_top = np.maximum.reduceat(e_top, row_start) if len(e_top) else np.zeros(n_rows)
    ref_row, ref_cls = ref
    return AbcLevel(
        t_owner=pr.owner,
        t_p=pr.p,
        scan=tuple(scan),
        scan_rev=tuple(scan_rev),
        prev=np.where(pr.pos > 0, idx - 1, -1),
        next=np.where(pr.pos < pr.lens - 1, idx + 1, -1),
        z_last=pr.start + pr.lens[pr.start] - 1 if n_t else np.zeros(0, dtype=np.int64),
        e_row=e_row,
        e_z=e_z,
        e_t=np.where(inside, np.minimum(pos_t, max(n_t - 1, 0)), -1),
        e_cls=e_cls,
        **_scales(pr, e_top, row_top, e_row),
        row_start=row_start,
        per_row=np.bincount(e_row, minlength=n_rows),
        n_absent=n_cls - np.bincount(e_row, minlength=n_rows),
        ref_entry=np.searchsorted(e_row * n_cls + e_cls, ref_row * n_cls + ref_cls),
    )


def _level(
    v: np.ndarray, n_lab: np.ndarray, k: int, r: int, abc: bool, budget: _Budget
) -> Level | None:
    """Level k, or ``None`` when no vector has k + r labels."""
    elig = n_lab >= k + r
    if not elig.any():
        return None
    owner, y = subvectors(v, k, rows=np.flatnonzero(elig))
    budget.take(len(owner) * _ROW_BYTES, k)
    log_hyp = lncomb(v[owner], y).sum(axis=1) - lncomb(n_lab[owner], k)
    (codes,) = row_codes(y)
    _, first, row_y = np.unique(codes, return_index=True, return_inverse=True)
    row_y = row_y.reshape(-1)
    ys = y[first]
    ref_row, ref_cls, ref_w = _references(v, owner, y, log_hyp, k, r)
    budget.take(len(ref_row) * _REF_BYTES, k)
    ref_owner = owner[ref_row]
    owner_start, _, _ = _segments(ref_owner)
    lvl_abc = _abc_level(v, n_lab, k, ys, owner, row_y, (ref_row, ref_cls), budget) if abc else None
    return Level(
        k=k,
        ys=ys,
        row_owner=owner,
        row_y=row_y,
        row_w=np.exp(log_hyp),
        ref_row=ref_row,
        ref_cls=ref_cls,
        ref_w=ref_w,
        owners=ref_owner[owner_start],
        owner_start=owner_start,
        elig=elig,
        abc=lvl_abc,
    )


def _qref(v: np.ndarray, n_lab: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Distribution of the plurality of r held-out labels of each vector (D, C), and which vectors
    have r labels."""
    ref_elig = n_lab >= r
    owner, z = subvectors(v, r, rows=np.flatnonzero(ref_elig))
    lw = lncomb(v[owner], z).sum(axis=1) - lncomb(n_lab[owner], r)
    q = np.zeros(v.shape, dtype=float)
    np.add.at(q, owner, np.exp(lw)[:, None] * plurality_shares(z))
    return q, ref_elig


def make_plan(
    counts: np.ndarray,
    max_k: int,
    r: int = 1,
    abc: bool = False,
    abc_floor: float = 1e-3,
    budget: int | None = None,
) -> Plan:
    """The plan for levels 0..max_k (see the module docstring); stops with an :class:`InputError`
    before allocating when it would exceed ``budget`` bytes (default :data:`EXACT_MEMORY_BUDGET`).

    >>> plan = make_plan(np.array([[2, 1], [0, 3], [2, 1]]), 2, abc=True)
    >>> plan.ks.tolist(), plan.mult.tolist(), plan.levels[1].ys.tolist()
    ([0, 1, 2], [2, 1], [[1, 0], [0, 1]])
    """
    counts = np.asarray(counts, dtype=np.int64)
    v, inv, mult = unique_rows(counts)
    n_lab = v.sum(axis=1)
    limit = EXACT_MEMORY_BUDGET if budget is None else budget
    tally = _Budget(limit, len(v), v.shape[1], max_k)
    _check_memory(v, n_lab, max_k, r, abc, tally)
    levels = []
    for k in range(max_k + 1):
        lvl = _level(v, n_lab, k, r, abc, tally)
        if lvl is None:
            break
        levels.append(lvl)
    qref, ref_elig = _qref(v, n_lab, r)
    return Plan(v, inv, mult, n_lab, r, tuple(levels), qref, ref_elig, abc, abc_floor)
