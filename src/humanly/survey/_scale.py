"""The scaling exact engine: survey power curves for items with many labels (100 and more), one
survey size at a time, vectorised over bootstrap replicates (Survey Equivalence, Algorithms 1–6).

The curve depends on the data only through the distinct count vectors v_d and their multiplicities
(re-weighted per replicate), and through the pairs (d, y) of level k (:mod:`._compositions`): the
k-sub-count vectors y of each v_d with P(y | v_d) (multivariate hypergeometric). Nothing is kept
between levels but the pairs of two consecutive ones, so memory follows the largest level.

Fixed combiners: E_k[d] = Σ_y P(y | v_d) Σ_c P(reference c | v_d − y) T[comb(y), c], once.

Anonymous Bayesian Combiner scored by cross-entropy. With z = y + e_c and L_d(z) = Σ_u (m_u − [u = d])
P(z | v_u) over the vectors with at least k + 1 labels (the held-out item's copy left out), the ABC's
prediction is p_c = (y_c + 1) L_d(y + e_c) / Σ_l (y_l + 1) L_d(y + e_l) (Algorithm 6's sequence
probabilities differ from P(z | v_u) by a factor that depends on y and c only through y_c + 1), and
Σ_l (y_l + 1) P(y + e_l | v_u) = (k + 1) P(y | v_u). Hence, while no probability is floored,

    log2 p_c = log2(y_c + 1) + log2 L_d(y + e_c) − log2(k + 1) − log2 L'_d(y),

with L'_d(y) the leave-one-out sum of P(y | v_u) over the vectors with at least k + 1 labels, and the
expected per-item score is Σ_z W_k[d, z] log2 L_d(z) − Σ_y P(y | v_d) log2 L'_d(y) + const_k(d), where
W_k[d, z] = Σ_c P(z − e_c | v_d) P(reference c | v_d − z + e_c). One logarithm per pair and replicate,
shared by two consecutive levels (L at level k + 1 is L' of level k + 1 when no item has exactly
k + 1 labels), instead of C + 1 per survey row and replicate.

Where a prediction could be floored (some p_l below max(floor, LOG_FLOOR), or a class seen on no
other item) — found per (column, replicate) from exact lower bounds — the pairs of that column are
worked out in full, with Algorithm 6's floor and fallback, and replace their share of the sum. Other
decomposable scorers (agreement) take that exact route for every pair.

Leave-one-out sums never subtract nearly equal numbers (:mod:`._loo`). A replicate's numbers do not
depend on the other replicates of its batch: every sum over pairs or items runs in a fixed order along
that replicate's own column.
"""

from __future__ import annotations

import dataclasses
import math
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._core.counts import unique_rows
from .._core.progress import task
from . import _engine as eng
from ._compositions import Pairs, level_pairs, lookup, next_columns
from ._levels import _qref, _references
from ._loo import Sums, column_sums, expand_cases, loo_values, patch_block
from .combiners import clip_probs
from .scorers import LOG_FLOOR, Scorer, ce_terms

__all__ = [
    "ScalePlan",
    "abc_curves",
    "curves",
    "fixed_terms",
    "make_scale_plan",
    "scale_fixed_terms",
]

#: Cells (pairs × replicates) per block of the main pass: its arrays stay in a core's cache.
BLOCK_CELLS = 1 << 18
#: An owner with more pairs than this is cut at fixed places (its sum is the same in any batch).
SPLIT = 4096
#: Entries (pair, replicate) worked out exactly at a time.
EXACT_CHUNK = 1 << 18
#: Seconds per pair of a level and per (pair × replicate), measured (the progress weights).
LEVEL_PAIR_SECONDS, LEVEL_CELL_SECONDS = 0.5e-6, 15e-9


@dataclasses.dataclass(frozen=True)
class Skeleton:
    """A survey size and the distinct vectors with enough labels for it (k + r)."""

    k: int
    elig: np.ndarray


@dataclasses.dataclass(frozen=True)
class ScalePlan:
    """What the scaling engine keeps between replicates: only the distinct count vectors ``v``, ``inv``
    (item → vector), ``mult``, ``n_labels``, the reference size ``r``, the survey sizes ``ks``,
    ``qref``/``ref_elig`` (the classifiers' reference distribution, as :class:`~._levels.Plan`), and
    whether the combiner is the ABC (with its floor). Levels are rebuilt on every pass."""

    v: np.ndarray
    inv: np.ndarray
    mult: np.ndarray
    n_labels: np.ndarray
    r: int
    ks: np.ndarray
    qref: np.ndarray
    ref_elig: np.ndarray
    abc: bool
    abc_floor: float = 1e-3

    @property
    def levels(self) -> tuple[Skeleton, ...]:
        return tuple(Skeleton(int(k), self.n_labels >= k + self.r) for k in self.ks)

    @property
    def n_classes(self) -> int:
        return int(self.v.shape[1])


def make_scale_plan(
    counts: np.ndarray, max_k: int, r: int = 1, abc: bool = False, abc_floor: float = 1e-3
) -> ScalePlan:
    """The plan of levels 0..max_k (those some vector has k + r labels for).

    >>> plan = make_scale_plan(np.array([[2, 1], [0, 3], [2, 1]]), 2, abc=True)
    >>> plan.ks.tolist(), plan.mult.tolist()
    ([0, 1, 2], [2, 1])
    """
    v, inv, mult = unique_rows(np.asarray(counts, dtype=np.int64))
    n_lab = v.sum(axis=1)
    top = int(n_lab.max()) - r if len(n_lab) else -1
    ks = np.arange(max(-1, min(max_k, top)) + 1)
    qref, ref_elig = _qref(v, n_lab, r)
    return ScalePlan(v, inv, mult, n_lab, r, ks, qref, ref_elig, abc, abc_floor)


# ----------------------------------------------------------------------------- weights
@dataclasses.dataclass(frozen=True)
class _Base:
    """Level k's pieces that need level k only: ``wq`` (P, C) = P(y | v) P(reference c | v − y) and
    ``hd`` (P,) = P(y | v) on the pairs of eligible vectors (k + r labels; 0 elsewhere), ``g`` (D,)
    = Σ wq log2(y_c + 1) per vector and ``elig`` (D,)."""

    k: int
    wq: np.ndarray
    hd: np.ndarray
    g: np.ndarray
    elig: np.ndarray


def _base(v: np.ndarray, n_lab: np.ndarray, pr: Pairs, r: int) -> _Base:
    k, n_d = pr.j, len(v)
    elig = n_lab >= k + r
    y = pr.y()
    h = np.where(elig[pr.owner], np.exp(pr.lh), 0.0)
    if r == 1:
        rem = np.take(v, pr.owner, axis=0) - y
        wq = rem * (h / np.maximum(n_lab[pr.owner] - k, 1))[:, None]
    else:
        wq = np.zeros(y.shape)
        rows = np.flatnonzero(h > 0)
        if len(rows):
            row, cls, w = _references(v, pr.owner[rows], y[rows], pr.lh[rows], k, r)
            wq[rows[row], cls] = w
    lg = np.log2(np.arange(1, int(y.max(initial=0)) + 2, dtype=float))  # log2(y_c + 1) by table
    g = np.bincount(pr.owner, weights=(wq * lg[y]).sum(axis=1), minlength=n_d)
    return _Base(k, wq, h, g, elig)


def _cross(
    base: _Base, lo: Pairs, hi: Pairs, zmap: np.ndarray, r: int
) -> tuple[np.ndarray, np.ndarray]:
    """W_k (Σ of wq over the survey rows (y, c) with y + e_c = z) on the pairs z of level k + 1, and
    const_k (D,) = g − log2(k + 1) + Σ_(y,c) wq (s(y + e_c) − s(y)), s the columns' log2 scales
    (:class:`~._compositions.Pairs`): scales near −1,000 (1,000 labels per item) cancel before they
    are weighted."""
    n_d, n_cls = len(base.g), base.wq.shape[1]
    wnum = np.zeros(hi.n)
    const = base.g - math.log2(base.k + 1) * base.elig
    for c in range(n_cls):
        # W regroups exactly the weights the survey rows carry (not P(z | v), equal only up to
        # rounding): its sum and Σ P(y | v) then agree, as the logs they weigh cancel
        p = np.flatnonzero(base.wq[:, c] > 0)
        w = base.wq[p, c]
        z = zmap[lo.col[p], c]
        wnum += np.bincount(lookup(hi, lo.owner[p], z), weights=w, minlength=hi.n)
        shift = hi.ls2[z] - lo.ls2[lo.col[p]]
        const += np.bincount(lo.owner[p], weights=w * shift, minlength=n_d)
    return wnum, const


# ----------------------------------------------------------------------------- main pass
def _blocks(owner: np.ndarray, n_rep: int) -> list[tuple[int, int]]:
    """Cut a sorted owner array into blocks of whole owners of about ``BLOCK_CELLS / n_rep`` entries
    (a block's arrays stay in cache); an owner with more than :data:`SPLIT` entries is cut every
    :data:`SPLIT` entries from its start, whatever ``n_rep`` (its sum is then the same in any batch)."""
    if not len(owner):
        return []
    size = max(64, BLOCK_CELLS // max(n_rep, 1))
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    ends = np.r_[starts[1:], len(owner)]
    big = ends - starts > SPLIT
    cuts = [starts[~big]]
    for a, b in zip(starts[big].tolist(), ends[big].tolist(), strict=True):
        cuts.append(np.arange(a, b, SPLIT))
    bounds = np.unique(np.concatenate(cuts))
    # group consecutive cut points into blocks of about ``size`` entries
    keep = np.r_[True, np.diff(bounds // size) > 0] | np.isin(
        bounds, np.concatenate(cuts[1:]) if len(cuts) > 1 else []
    )
    first = bounds[keep]
    return list(zip(first.tolist(), np.r_[first[1:], len(owner)].tolist(), strict=True))


def _log_block(pr: Pairs, idx: np.ndarray, sums: Sums) -> np.ndarray:
    """log2 L̃ (column scale) of pairs ``idx`` in every replicate; garbage where the pair's vector is
    absent from the replicate (masked by the caller)."""
    g = sums.s[pr.col[idx]]
    g -= pr.ht[idx, None]
    np.log2(g, out=g)
    patch_block(g, idx, sums)
    return g


def _main_pass(
    pr: Pairs,
    sel: np.ndarray,
    sums: tuple[Sums, Sums | None],
    weights: tuple[np.ndarray | None, np.ndarray | None],
    acc: tuple[np.ndarray, np.ndarray],
) -> None:
    """acc_A[d] += Σ_pairs of d w_A log2 L̃ (numerator set) and acc_B[d] += Σ w_B log2 L̃' (denominator
    set: ``sums[1]``, or the numerator's when they coincide), over the pairs ``sel``: per block, one
    sparse (owners × pairs) product per set of weights, each owner's pairs added in order."""
    from scipy import sparse

    num, den = sums
    own = pr.owner[sel]
    with np.errstate(divide="ignore", invalid="ignore"):
        for a, b in _blocks(own, num.n_rep):
            idx = sel[a:b]
            seg = np.flatnonzero(np.r_[True, own[a + 1 : b] != own[a : b - 1]])
            who = own[a:b][seg]
            indptr = np.r_[seg, b - a]
            cols = np.arange(b - a)
            g = _log_block(pr, idx, num)
            for which, w in enumerate(weights):
                if w is None:
                    continue
                if which == 1 and den is not None:
                    g = _log_block(pr, idx, den)
                red = sparse.csr_matrix((w[idx], cols, indptr), shape=(len(seg), b - a))
                acc[which][who] += red @ g


# ----------------------------------------------------------------------------- exact pairs
@dataclasses.dataclass(frozen=True)
class _Step:
    """Two consecutive levels k (``lo``) and k + 1 (``hi``) for a batch: their pairs, level k's base,
    the denominator sums of level k, the numerator sums of level k + 1 and ``zmap`` (y + e_l's
    column at k + 1)."""

    lo: Pairs
    hi: Pairs
    base: _Base
    den: Sums
    num: Sums
    zmap: np.ndarray


def _predict(ll: np.ndarray, y: np.ndarray, k: int, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """The ABC's floored predictions from log2 L_d(y + e_l) (−inf: no other item has it), as
    Algorithm 6 with the engine's floor and fallback, and which rows used the fallback rule (no
    other item has any y + e_l)."""
    n_cls = y.shape[1]
    fin = np.isfinite(ll)
    ok = fin.any(axis=1)
    top = np.where(ok, np.max(np.where(fin, ll, -np.inf), axis=1), 0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        num = np.where(fin, (y + 1.0) * np.exp2(ll - top[:, None]), 0.0)
    tot = num.sum(axis=1)
    if floor > 0:
        num = np.maximum(num, (floor * tot)[:, None])
        tot = num.sum(axis=1)
    p = num / np.where(ok, tot, 1.0)[:, None]
    smooth = (y + 1.0) / (k + n_cls)
    if floor > 0:
        smooth = clip_probs(smooth, (floor, 1.0))
    return np.where(ok[:, None], p, smooth), ~ok


def _exact(
    st: _Step, mt: np.ndarray, pairs: np.ndarray, reps: np.ndarray, scorer: Scorer, floor: float
) -> tuple[np.ndarray, np.ndarray]:
    """m × expected score of pairs ``pairs`` (level k) in replicates ``reps``, worked out in full; for
    cross-entropy minus what the main pass counted for them (so that adding replaces it); and m ×
    P(y | v) where the prediction used the fallback rule (0 elsewhere)."""
    lo, hi, k = st.lo, st.hi, st.lo.j
    n_cls = lo.ys.shape[1]
    d, col = lo.owner[pairs], lo.col[pairs]
    y = lo.ys[col].astype(float)
    zc = st.zmap[col]
    q = lookup(hi, np.repeat(d, n_cls), zc.reshape(-1)).reshape(zc.shape)
    rr = np.broadcast_to(reps[:, None], zc.shape)
    vnum = np.full(zc.shape, -np.inf)
    has = q >= 0
    vnum[has] = loo_values(st.num, hi, q[has], rr[has])
    whole = (~has) & (zc >= 0)  # the held-out item does not contain z: the whole column
    vnum[whole] = st.num.lsum[zc[whole], rr[whole]]
    # log2 L relative to the column scale of y (scales cancel before anything is weighted)
    scale = np.where(zc >= 0, hi.ls2[np.maximum(zc, 0)] - lo.ls2[col][:, None], 0.0)
    probs, fell = _predict(np.where(zc >= 0, scale + vnum, -np.inf), y, k, floor)
    assert scorer.terms is not None
    w = st.base.wq[pairs]
    val = (w * scorer.terms(probs)).sum(axis=1)
    if scorer.terms is ce_terms:
        safe = np.where(np.isfinite(vnum), vnum, 0.0)
        raw = np.where(w > 0, w * (np.log2(y + 1.0) + scale + safe), 0.0).sum(axis=1)
        vden = loo_values(st.den, lo, pairs, reps)
        vden = np.where(np.isfinite(vden), vden, 0.0)
        val -= raw - st.base.hd[pairs] * (math.log2(k + 1) + vden)
    m = mt[d, reps]
    return m * val, np.where(fell, m * st.base.hd[pairs], 0.0)


def _floor_cases(st: _Step, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """(column, replicate) of level k where some present vector's prediction could be floored or
    clamped: a lower bound of min_l p_l over the column's vectors below max(floor, LOG_FLOOR)."""
    lo, hi, k = st.lo, st.hi, st.lo.j
    n_cls = lo.ys.shape[1]
    bound = np.full(st.den.s.shape, np.inf)
    for c in range(n_cls):
        zc = st.zmap[:, c]
        ok = zc >= 0
        term = np.full(bound.shape, -np.inf)
        term[ok] = (np.log2(lo.ys[ok, c] + 1.0) + hi.ls2[zc[ok]])[:, None] + st.num.llo[zc[ok]]
        np.minimum(bound, term, out=bound)
    with np.errstate(divide="ignore", invalid="ignore"):
        bound -= math.log2(k + 1) + lo.ls2[:, None] + np.log2(st.den.s)
        low = bound < math.log2(max(floor, LOG_FLOOR)) + 1e-6  # margin: bounds are rounded
    cols, reps = np.nonzero(low)
    return cols, reps


def _exact_cases(
    st: _Step,
    mt: np.ndarray,
    cases: tuple[np.ndarray, np.ndarray],
    scorer: Scorer,
    floor: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Σ over the present eligible pairs of the (column, replicate) ``cases`` of :func:`_exact`, per
    replicate (B,): each case summed on its own, then the cases of a replicate in column order (the
    same sums whatever else is in the batch), in chunks of cases; and the fallback mass per
    replicate (B,) (every fallback case is among the ``cases``: its bound is −∞)."""
    cols, reps = cases
    per_case = np.zeros(st.den.s.shape)
    fell = np.zeros(st.den.s.shape[1])
    use = st.base.elig[st.lo.owner]
    lens = st.lo.cstart[cols + 1] - st.lo.cstart[cols]
    cuts = np.searchsorted(np.cumsum(lens), np.arange(EXACT_CHUNK, int(lens.sum()), EXACT_CHUNK))
    for a, b in zip(np.r_[0, cuts], np.r_[cuts, len(cols)], strict=True):
        case, pair, _ = expand_cases(st.lo, mt, cols[a:b], reps[a:b], use)
        if len(pair):
            rep = reps[a:b][case]
            val, fb = _exact(st, mt, pair, rep, scorer, floor)
            per_case[cols[a:b], reps[a:b]] = np.bincount(case, weights=val, minlength=b - a)
            fell += np.bincount(rep, weights=fb, minlength=len(fell))
    return per_case.sum(axis=0), fell


# ----------------------------------------------------------------------------- curves
@dataclasses.dataclass(frozen=True)
class _Fixed:
    """Level j's replicate-independent pieces: its pairs ``hi`` and base (``None`` above the top
    survey size), level j − 1's pairs ``lo`` and base, ``zmap`` (level j − 1 → j) and, for
    cross-entropy, W_(j−1) and const_(j−1)."""

    hi: Pairs
    base: _Base | None
    lo: Pairs | None
    lo_base: _Base | None
    zmap: np.ndarray | None
    w_a: np.ndarray | None
    const: np.ndarray | None


def _fixed(plan: ScalePlan, j: int, prev: _Fixed | None, ce: bool) -> _Fixed:
    v, n_lab, r = plan.v, plan.n_labels, plan.r
    hi = level_pairs(v, n_lab, j)
    base = _base(v, n_lab, hi, r) if j < len(plan.ks) else None
    if prev is None or prev.base is None:
        return _Fixed(hi, base, None, None, None, None, None)
    zmap = next_columns(prev.hi, hi)
    w_a, const = _cross(prev.base, prev.hi, hi, zmap, r) if ce else (None, None)
    return _Fixed(hi, base, prev.hi, prev.base, zmap, w_a, const)


@dataclasses.dataclass(frozen=True)
class _State:
    """What one batch of replicates carries from level k to k + 1: level k's denominator and
    numerator sums and, for cross-entropy, Σ P(y | v) log2 L̃' per vector (``acc_b``)."""

    den: Sums
    num: Sums
    acc_b: np.ndarray | None


def _batch_level(
    plan: ScalePlan, mt: np.ndarray, fx: _Fixed, prev: _State | None, scorer: Scorer
) -> tuple[np.ndarray, np.ndarray, _State | None]:
    """Level j for one batch of replicates: the finished total of level j − 1 (B,), its fallback
    mass (B,) and the state for level j + 1."""
    hi, n_lab, floor = fx.hi, plan.n_labels, plan.abc_floor
    ce = scorer.terms is ce_terms
    num = den = column_sums(hi, mt)
    if ce and fx.base is not None and (n_lab == hi.j).any():
        den = column_sums(hi, mt, use=n_lab[hi.owner] >= hi.j + 1)
    out = np.zeros(mt.shape[1])
    fell = np.zeros(mt.shape[1])
    acc_b = None
    step = None
    if prev is not None and fx.lo is not None and fx.lo_base is not None and fx.zmap is not None:
        step = _Step(fx.lo, hi, fx.lo_base, prev.den if ce else prev.num, num, fx.zmap)
    if ce:
        acc_a, acc_b = np.zeros(mt.shape), np.zeros(mt.shape)
        k_lo = hi.j - 1 if step is not None else hi.j  # the lowest survey size these pairs serve
        sel = np.flatnonzero(n_lab[hi.owner] >= k_lo + plan.r)
        w_b = fx.base.hd if fx.base is not None else None
        _main_pass(hi, sel, (num, den if den is not num else None), (fx.w_a, w_b), (acc_a, acc_b))
        if fx.base is not None:
            acc_b[~fx.base.elig] = 0.0  # vectors without k + r labels: not held out
        if (
            step is not None
            and prev is not None
            and prev.acc_b is not None
            and fx.const is not None
        ):
            with np.errstate(invalid="ignore"):
                part = step.base.elig[:, None] * (fx.const[:, None] + acc_a - prev.acc_b)
                part = np.where(mt > 0, mt * part, 0.0)  # absent vectors' logs are garbage
            extra, fell = _exact_cases(step, mt, _floor_cases(step, floor), scorer, floor)
            out = part.sum(axis=0) + extra
    elif step is not None:
        out, fell = _exact_cases(step, mt, _all_cases(step, mt), scorer, floor)
    return out, fell, (_State(den, num, acc_b) if fx.base is not None else None)


def _all_cases(st: _Step, mt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (column, replicate) of level k with an eligible pair (scorers without the cross-entropy
    route)."""
    lo = st.lo
    cols = np.flatnonzero(np.bincount(lo.col, weights=st.base.hd, minlength=lo.n_cols) > 0)
    reps = np.flatnonzero(mt.any(axis=0))
    return np.repeat(cols, len(reps)), np.tile(reps, len(cols))


def _threads(plan: ScalePlan, n_rep: int) -> int:
    """Worker threads for the replicates: one per available core (at most 4) when there is enough
    work to share (numpy and scipy release the GIL in the long loops)."""
    if n_rep < 8 or float(plan.n_labels.sum()) * n_rep < 1e6:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores, n_rep // 4))


def abc_curves(
    plan: ScalePlan, mult: np.ndarray, scorer: Scorer, show: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The ABC's curve points (B, L) and items per level (B, L) of replicates with multiplicities
    ``mult`` (B, D), level by level (progress per level when ``show``): :func:`sweep` over every
    survey size."""
    mult = np.atleast_2d(np.asarray(mult, dtype=float))
    costs = level_costs(plan, len(mult))
    with task("survey curve", float(costs.sum()), enabled=show, counted=False) as bar:
        out, _, _ = sweep(
            plan, mult, scorer, 0, len(plan.ks) - 1, on_level=bar.advance, costs=costs
        )
    n_items = items_per_level(plan, mult)
    with np.errstate(invalid="ignore", divide="ignore"):
        return out / n_items, n_items


def items_per_level(plan: ScalePlan, mult: np.ndarray) -> np.ndarray:
    """The items (with multiplicity) of each replicate with k + r labels, per level (B, L)."""
    mult = np.atleast_2d(np.asarray(mult, dtype=float))
    elig = np.column_stack([plan.n_labels >= k + plan.r for k in plan.ks]).astype(float)
    if not len(plan.ks):
        return np.zeros((len(mult), 0))
    return np.stack([(mult * elig[:, j]).sum(axis=1) for j in range(len(plan.ks))], axis=1)


def level_costs(plan: ScalePlan, n_rep: int) -> np.ndarray:
    """The estimated cost (seconds on one core, :mod:`._fit`'s unit costs) of the pass at each level
    j = 0 … L (L + 1 passes) for ``n_rep`` replicates: what progress is weighted by."""
    from .._core.counts import count_subvectors

    n_lv = len(plan.ks)
    sub = count_subvectors(plan.v, n_lv + 1) if len(plan.v) else np.zeros((0, n_lv + 2))
    pairs = np.array([sub[plan.n_labels >= j, j].sum() for j in range(n_lv + 1)], dtype=float)
    # building a level, one logarithm per pair and replicate, per-replicate work of a level
    return pairs * (LEVEL_PAIR_SECONDS + LEVEL_CELL_SECONDS * n_rep) + 20e-6 * n_rep


def sweep(
    plan: ScalePlan,
    mult: np.ndarray,
    scorer: Scorer,
    k0: int,
    k1: int,
    stop: Any = None,
    on_level: Any = None,
    costs: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The ABC's curve points c_k0 … c_k1 and their fallback mass of replicates ``mult`` (B, D),
    each (B, L) with NaN at the levels not computed, and the last size computed: the passes at
    levels k0 … k1 + 1, in order.

    ``stop(k, c_k)`` (c_k of every replicate, (B,)) may end the sweep after any c_k; ``on_level(x)``
    is told the cost ``costs[j]`` of each pass done. The replicates are split into contiguous groups,
    one per thread; a replicate's numbers do not depend on its group, on the other replicates or on
    where the sweep started (every sum runs down that replicate's own column, in a fixed order)."""
    mult = np.atleast_2d(np.asarray(mult, dtype=float))
    n_b, n_lv = len(mult), len(plan.ks)
    total = np.full((n_b, n_lv), np.nan)
    fell = np.full((n_b, n_lv), np.nan)
    if n_lv == 0 or k0 > k1:
        return total, fell, k0 - 1
    last = k1
    n_thr = _threads(plan, n_b)
    groups = np.array_split(np.arange(n_b), n_thr)
    # sums run down a replicate's own column of a block of at least two columns, as in any batch
    pad = [np.zeros((int(len(g) < 2), mult.shape[1])) for g in groups]
    mts = [
        np.ascontiguousarray(np.vstack([mult[g], z]).T) for g, z in zip(groups, pad, strict=True)
    ]
    ce = scorer.terms is ce_terms
    states: list[_State | None] = [None] * n_thr
    with ThreadPoolExecutor(max_workers=n_thr) as pool:
        fx = _fixed(plan, k0, None, ce)
        for j in range(k0, k1 + 2):
            jobs = [
                pool.submit(_batch_level, plan, mt, fx, st, scorer)
                for mt, st in zip(mts, states, strict=True)
            ]
            nxt = _fixed(plan, j + 1, fx, ce) if j <= k1 else None  # while the threads work
            done = [job.result() for job in jobs]
            if on_level is not None:
                on_level(float(costs[j]) if costs is not None else 1.0)
            if j > k0:
                total[:, j - 1] = np.concatenate(
                    [o[0][: len(g)] for o, g in zip(done, groups, strict=True)]
                )
                fell[:, j - 1] = np.concatenate(
                    [o[1][: len(g)] for o, g in zip(done, groups, strict=True)]
                )
                if stop is not None and j <= k1 and stop(j - 1, total[:, j - 1]):
                    last = j - 1
                    break
            states = [o[2] for o in done]
            if nxt is None:
                break
            fx = nxt
    return total, fell, last


def scale_fixed_terms(
    plan: ScalePlan, combiner: Any, scorer: Scorer, clip: tuple[float, float]
) -> np.ndarray:
    """E (D, L) for a combiner that does not learn from the data, one level at a time: the expected
    per-item score of each distinct vector at each survey size."""
    out = np.zeros((len(plan.v), len(plan.ks)))
    for j, k in enumerate(plan.ks):
        pr = level_pairs(plan.v, plan.n_labels, int(k))
        base = _base(plan.v, plan.n_labels, pr, plan.r)
        t = eng.output_terms(scorer, combiner.predict(pr.ys), combiner.hard, clip)
        out[:, j] = np.bincount(
            pr.owner, weights=(base.wq * t[pr.col]).sum(axis=1), minlength=len(plan.v)
        )
    return out


# ----------------------------------------------------------------------------- either path
def fixed_terms(plan: Any, combiner: Any, scorer: Scorer, clip: tuple[float, float]) -> np.ndarray:
    """:func:`~humanly.survey._engine.fixed_terms` of either path's plan."""
    if isinstance(plan, ScalePlan):
        return scale_fixed_terms(plan, combiner, scorer, clip)
    return eng.fixed_terms(plan, combiner, scorer, clip)


def curves(
    plan: Any,
    mult: np.ndarray,
    fixed: np.ndarray | None,
    scorer: Scorer,
    clip: tuple[float, float],
    show: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~humanly.survey._engine.curves` of either path's plan: the ABC on a :class:`ScalePlan`
    by :func:`abc_curves` (progress per level when ``show``)."""
    if fixed is None and isinstance(plan, ScalePlan):
        return abc_curves(plan, mult, scorer, show)
    return eng.curves(plan, mult, fixed, scorer, clip, show)
