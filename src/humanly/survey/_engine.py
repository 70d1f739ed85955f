"""Count-based evaluation of the survey power curve (Survey Equivalence, Algorithms 1–6) on a
:class:`~humanly.survey._levels.Plan`, vectorised over bootstrap replicates.

Exact expectation (``method="exact"``). For an item with counts ``v`` (N labels) at level k with r
reference raters, the k surveyed labels (counts ``y``) and the r reference labels (counts ``z``) are a
uniformly random draw without replacement from the item's labels (all rater subsets and reference
raters of Algorithms 1–3 when every item has the same raters), so::

    P(y, z | v) = prod_l C(v_l, y_l) C(v_l - y_l, z_l) / (C(N, k) C(N - k, r))

(multivariate hypergeometric), and the reference label is the plurality of ``z`` (random tie-break;
for r = 1 the single reference label). The expected per-item score is ``E_k[v] = sum_{(y, c)} w T`` over
the plan's reference triplets (row (v, y), class c, weight w = P(y, reference = c | v)), with ``T`` the
scorer's term for prediction ``comb(y)`` and reference class ``c``. The curve point is the mean of
``E_k`` over items with at least k + r labels. A bootstrap replicate is a multiplicity vector over the
distinct count vectors; B replicates are one (B, D) matrix.

Anonymous Bayesian Combiner (Algorithms 5–6). PROBABILITYONEITEM is the probability that k + 1 labels
drawn in order from item u form one given sequence with counts ``z``: ``prod_l (v_l)_(z_l) / (N)_(k+1)``
(falling factorials, log space). ABC predicts label l after ``y`` for item i with probability
proportional to ``sum_{u != i} P_u(y + e_l)``. The sum over the other items is taken over the items
that contain ``y + e_l`` only, with integer multiplicities (``mult - e_v``) and segmented prefix and
suffix sums of non-negative terms — never by subtracting floats (no cancellation when one item
dominates a rare label sequence). The proportionality normalises over l, which equals Algorithm 6's
ratio when every item has at least k + 1 labels (and keeps predictions summing to one on ragged
data). A class l with no item containing ``y + e_l`` gets probability 0, raised to the floor.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.progress import task
from ._levels import AbcLevel, Level, Plan, make_plan
from .combiners import TIE_TOL, clip_probs
from .scorers import LOG_FLOOR, Scorer, agreement_terms, ce_terms

__all__ = [
    "BATCH_BUDGET",
    "Plan",
    "abc_row_probs",
    "curves",
    "fixed_terms",
    "make_plan",
    "output_terms",
]

#: Bytes the arrays of one batch of bootstrap replicates may take at one level (the batch is split
#: to stay under it).
BATCH_BUDGET = 128 << 20


def output_terms(
    scorer: Scorer, probs: np.ndarray, hard: bool, clip: tuple[float, float]
) -> np.ndarray:
    """Scorer terms T[..., c] of predictions; a hard output is a random label with distribution
    ``probs`` scored as its (clipped) one-hot vector."""
    assert scorer.terms is not None
    if hard:
        n_cls = probs.shape[-1]
        base = scorer.terms(clip_probs(np.eye(n_cls), clip))  # (h, c)
        return probs @ base
    return scorer.terms(probs)


def _by_owner(lvl: Level, vals: np.ndarray, n_vec: int) -> np.ndarray:
    """Sum of reference-triplet values ``vals`` (R, B) per distinct vector → (D, B)."""
    out = np.zeros((n_vec, vals.shape[1]))
    if vals.shape[0]:
        out[lvl.owners] = np.add.reduceat(vals, lvl.owner_start, axis=0)
    return out


def fixed_terms(plan: Plan, combiner: Any, scorer: Scorer, clip: tuple[float, float]) -> np.ndarray:
    """E (D, L): the expected per-item score of each distinct vector at each level, for a combiner that
    does not learn from the data (its prediction depends on y only): computed once."""
    out = np.zeros((len(plan.v), len(plan.levels)))
    for j, lvl in enumerate(plan.levels):
        t = output_terms(scorer, combiner.predict(lvl.ys), combiner.hard, clip)  # (Y, C)
        vals = lvl.ref_w * t[lvl.row_y[lvl.ref_row], lvl.ref_cls]
        out[:, j] = _by_owner(lvl, vals[:, None], len(plan.v))[:, 0]
    return out


# ----------------------------------------------------------------------------- ABC
# Arrays over replicates are laid out (items, replicates): gathers copy contiguous rows and the
# segment sums run down the first axis, the same additions in the same order for every replicate.
def _leave_one_out(a: AbcLevel, mt: np.ndarray) -> np.ndarray:
    """For replicates ``mt`` (D, B): each contributor pair's sum over the *other* items that contain
    its z (T, B), followed by each z's sum over all items (Z, B); segmented prefix and suffix sums of
    non-negative terms (Hillis–Steele doubling), no subtraction."""
    m_t = mt[a.t_owner]
    w = m_t * a.t_p[:, None]
    pre = w.copy()
    for i, idx in enumerate(a.scan):
        pre[idx] = pre[idx] + pre[idx - (1 << i)]
    suf = w
    for i, idx in enumerate(a.scan_rev):
        suf[idx] = suf[idx] + suf[idx + (1 << i)]
    loo = np.maximum(m_t - 1, 0, out=m_t)
    loo *= a.t_p[:, None]
    has = a.prev >= 0
    loo[has] += pre[a.prev[has]]
    has = a.next >= 0
    loo[has] += suf[a.next[has]]
    return np.concatenate([loo, pre[a.z_last]])


def _abc_entries(
    lvl: Level, mt: np.ndarray, floor: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ABC's floored, unnormalised probabilities at the entries (E, B), their normaliser per row
    (S, B), the probability of a class with no entry (S, B) and whether each row had any other item
    to learn from (S, B): the probability of entry e is ``q[e] / norm[row of e]``.

    With p = num / den and the floor f, the floored and renormalised probability of an entry is
    max(num, f·den) / (Σ_row max(num, f·den) + n_absent·f·den): one normalisation instead of two."""
    a = lvl.abc
    assert a is not None
    src = _leave_one_out(a, mt)
    if a.src_scale is not None:
        src *= a.src_scale[:, None]
    num = src[np.where(a.e_t >= 0, a.e_t, len(a.t_owner) + a.e_z)]
    if a.e_scale is not None:
        num *= a.e_scale[:, None]
    den = np.add.reduceat(num, a.row_start, axis=0)
    ok = den > 0
    if floor > 0:
        fden = floor * den
        np.maximum(num, np.repeat(fden, a.per_row, axis=0), out=num)
        tot = np.add.reduceat(num, a.row_start, axis=0)
        tot += a.n_absent[:, None] * fden
        tot = np.where(ok, tot, 1.0)
        back = np.where(a.n_absent[:, None] > 0, fden / tot, 0.0)
    else:
        tot, back = np.where(ok, den, 1.0), np.zeros(den.shape)
    return num, tot, back, ok


def _fallback(lvl: Level, scorer: Scorer, floor: float, n_cls: int) -> np.ndarray:
    """Scorer terms at the reference triplets when no other item has any sequence y + e_l: the
    prediction (y + 1)/(k + C), floored (R,)."""
    assert scorer.terms is not None
    p = (lvl.ys + 1.0) / (lvl.k + n_cls)
    if floor > 0:
        p = clip_probs(p, (floor, 1.0))
    t = scorer.terms(p)
    return t[lvl.row_y[lvl.ref_row], lvl.ref_cls]


def _abc_ref_terms(
    lvl: Level, mt: np.ndarray, scorer: Scorer, floor: float, n_cls: int, fb: np.ndarray
) -> np.ndarray:
    """Scorer terms of the ABC's predictions at the reference triplets (R, B)."""
    a = lvl.abc
    assert a is not None
    q, tot, back, ok = _abc_entries(lvl, mt, floor)
    x = q[a.ref_entry]
    x /= tot[lvl.ref_row]
    if scorer.terms is ce_terms:
        t = np.log2(np.maximum(x, LOG_FLOOR, out=x), out=x)
    elif scorer.terms is agreement_terms:
        p = q / np.repeat(tot, a.per_row, axis=0)
        top = np.maximum(np.maximum.reduceat(p, a.row_start, axis=0), back)
        cut = top - TIE_TOL * np.maximum(1.0, top)
        n_top = np.add.reduceat((p >= cut[a.e_row]).astype(float), a.row_start, axis=0)
        n_top += np.where(back >= cut, a.n_absent[:, None], 0)
        t = (x >= cut[lvl.ref_row]) / n_top[lvl.ref_row]
    else:  # any other decomposable scorer: dense predictions, replicate by replicate
        dense = abc_row_probs(lvl, mt.T, floor, n_cls)
        assert scorer.terms is not None
        t = np.stack([scorer.terms(d)[lvl.ref_row, lvl.ref_cls] for d in dense], axis=1)
    return np.where(ok[lvl.ref_row], t, fb[:, None])


def abc_row_probs(lvl: Level, mult: np.ndarray, floor: float, n_cls: int) -> np.ndarray:
    """The ABC's predictions (B, S, C) for every survey row of ``lvl`` (held-out item's vector, survey
    counts y) under each replicate's multiplicities ``mult`` (B, D): rows sum to one."""
    a = lvl.abc
    assert a is not None
    mt = np.atleast_2d(np.asarray(mult, dtype=float)).T.copy()
    q, tot, back, ok = _abc_entries(lvl, mt, floor)
    p = q / np.repeat(tot, a.per_row, axis=0)
    out = np.repeat(back.T[:, :, None], n_cls, axis=2)
    out[:, a.e_row, a.e_cls] = p.T
    smooth = (lvl.ys[lvl.row_y] + 1.0) / (lvl.k + n_cls)
    if floor > 0:
        smooth = clip_probs(smooth, (floor, 1.0))
    return np.where(ok.T[:, :, None], out, smooth[None])


# ----------------------------------------------------------------------------- curves
def _batch_size(plan: Plan) -> int:
    """Replicates per batch so that one level's per-replicate arrays stay under BATCH_BUDGET."""
    per = 1
    for lvl in plan.levels:
        a = lvl.abc
        n = len(lvl.ref_row) * 3 + len(plan.v) * 2
        if a is not None:
            n += len(a.t_owner) * 6 + len(a.e_z) * 5 + len(a.row_start) * 4
        per = max(per, n * 8)
    return max(1, BATCH_BUDGET // per)


def curves(
    plan: Plan,
    mult: np.ndarray,
    fixed: np.ndarray | None,
    scorer: Scorer,
    clip: tuple[float, float],
    show: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Curve points (B, L) and items per level (B, L) of replicates with multiplicities ``mult``
    (B, D); ``fixed``: the terms of a combiner that does not learn (:func:`fixed_terms`), else the ABC
    is re-learned on every replicate. Each replicate's numbers do not depend on the batch it is in
    (sums over items run along each replicate's own contiguous row; segment sums down the columns)."""
    mult = np.atleast_2d(np.asarray(mult, dtype=float))
    mt = mult.T  # (D, B)
    elig = np.column_stack([lvl.elig for lvl in plan.levels]).astype(float)  # (D, L)
    n_items = np.stack([(mult * elig[:, j]).sum(axis=1) for j in range(elig.shape[1])], 1)
    out = np.empty(n_items.shape)
    n_cls = plan.n_classes
    if fixed is not None:
        for j in range(elig.shape[1]):
            out[:, j] = (mult * (fixed[:, j] * elig[:, j])).sum(axis=1)
    else:
        fbs = [_fallback(lvl, scorer, plan.abc_floor, n_cls) for lvl in plan.levels]
        step = _batch_size(plan)
        n_steps = math.ceil(mt.shape[1] / step) * len(plan.levels)
        with task("survey curve", n_steps, enabled=show) as bar:
            for b0 in range(0, mt.shape[1], step):
                m = np.ascontiguousarray(mt[:, b0 : b0 + step])
                for j, lvl in enumerate(plan.levels):
                    t = _abc_ref_terms(lvl, m, scorer, plan.abc_floor, n_cls, fbs[j])
                    t *= lvl.ref_w[:, None]
                    e = _by_owner(lvl, t, len(plan.v))
                    e *= elig[:, j : j + 1]
                    e *= m
                    # each replicate's sum over its own contiguous row: the same for any batch
                    out[b0 : b0 + step, j] = np.ascontiguousarray(e.T).sum(axis=1)
                    bar.advance()
    with np.errstate(invalid="ignore", divide="ignore"):
        return out / n_items, n_items


def n_subsets(n: int, k: int) -> int:
    return math.comb(n, k)
