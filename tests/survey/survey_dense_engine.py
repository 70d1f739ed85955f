"""The wave-1 exact engine of humanly.survey, frozen as a test reference (dense over every composition
of k into C classes, one replicate at a time). tests/survey/test_survey_engine.py checks the current
engine against it on a grid of small data sets where it fits in memory.

Every combiner and decomposable scorer depends on an item only through its label-count vector, so
items are compressed into their D distinct count vectors ``V`` with multiplicities ``mult``; a bootstrap
replicate (items drawn with replacement) is just another multiplicity vector, and every curve is a
matrix product over those vectors.

Exact expectation (``method="exact"``). For an item with counts ``v`` (N labels) at level k with r
reference raters, the k surveyed labels (count vector ``y``) and the r reference labels (count vector
``z``) are a uniformly random draw without replacement from the item's labels (all rater subsets and
reference raters of Algorithms 1–3 when every item has the same raters), so::

    P(y, z | v) = prod_l C(v_l, y_l) C(v_l - y_l, z_l) / (C(N, k) C(N - k, r))

(multivariate hypergeometric), and the reference label is the plurality of ``z`` (random tie-break;
for r = 1 the single reference label). The expected per-item score is
``E_k[v] = sum_{y,c} W[v, y, c] T[y, c]`` with ``W[v, y, c] = sum_z P(y, z | v) Q[z, c]`` and ``T`` the
scorer's term for prediction ``comb(y)`` and reference class ``c``. The curve point is the mean of
``E_k`` over items with at least k + r labels.

Anonymous Bayesian Combiner (Algorithms 5–6). PROBABILITYONEITEM is the probability that k labels
drawn in order from item u form one given sequence with counts ``y``:
``prod_l (v_l)_(y_l) / (N)_(k)`` (falling factorials, in log space). ABC predicts label l after ``y``
for item i with probability proportional to ``sum_{u != i} P_u(y + e_l)``. Excluding the item is done
with integer multiplicities (``mult - e_v``) and prefix/suffix sums of non-negative terms, never by
subtracting floats (no cancellation when one item dominates a rare label sequence). The
proportionality normalises over l, which equals Algorithm 6's ratio when every item has at least
k + 1 labels (and keeps predictions summing to one on ragged data).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from humanly._core.counts import compositions, lncomb, lnfall, unique_rows
from humanly.survey.combiners import clip_probs, tie_uniform
from humanly.survey.scorers import Scorer

__all__ = ["Plan", "make_plan"]


def _codes(y: np.ndarray, base: int) -> np.ndarray:
    w = base ** np.arange(y.shape[1], dtype=np.int64)
    return (y.astype(np.int64) * w).sum(axis=1)


def plurality_dist(z: np.ndarray) -> np.ndarray:
    """Distribution of the plurality label of each count row (uniform over ties)."""
    return tie_uniform(z)


@dataclasses.dataclass
class Level:
    k: int
    y: np.ndarray  # (Y, C) survey count vectors
    w: np.ndarray  # (D, Y, C) P(y, reference class c | v)
    elig: np.ndarray  # (D,) bool: N_v >= k + r
    # ABC pieces
    z_idx: np.ndarray | None = None  # (Y, C) index of y + e_l into the level-(k+1) sequences
    pt: np.ndarray | None = None  # (D, Z) sequence probabilities of y + e_l, column z scaled by
    scale: np.ndarray | None = None  # (Y, C) exp(column log-scale - row max): restores the ratios


@dataclasses.dataclass
class Plan:
    """Everything about a data set that does not change between bootstrap replicates."""

    v: np.ndarray  # (D, C) distinct count vectors
    inv: np.ndarray  # (n,) item -> distinct vector
    mult: np.ndarray  # (D,) multiplicities in the data
    n_labels: np.ndarray  # (D,)
    r: int
    levels: list[Level]
    qref: np.ndarray  # (D, C) reference-label distribution for the classifier (r labels)
    ref_elig: np.ndarray  # (D,) N_v >= r
    abc: bool
    abc_floor: float = 1e-3

    @property
    def ks(self) -> np.ndarray:
        return np.array([lv.k for lv in self.levels])


def make_plan(
    counts: np.ndarray, max_k: int, r: int = 1, abc: bool = False, abc_floor: float = 1e-3
) -> Plan:
    """Precompute the hypergeometric weights (and ABC sequence probabilities) for levels 0..max_k."""
    counts = np.asarray(counts, dtype=np.int64)
    v, inv, mult = unique_rows(counts)
    n_lab = v.sum(axis=1)
    cap = v.max(axis=0)
    n_cls = v.shape[1]
    base = int(cap.max()) + 2
    levels = []
    zr = compositions(r, np.full(n_cls, r))
    q = plurality_dist(zr)  # (Zr, C)
    for k in range(max_k + 1):
        y = compositions(k, cap)
        elig = n_lab >= k + r
        if not elig.any() or len(y) == 0:
            break
        lw = (
            lncomb(v[:, None, None, :], y[None, :, None, :])
            + lncomb(v[:, None, None, :] - y[None, :, None, :], zr[None, None, :, :])
        ).sum(-1)
        norm = lncomb(n_lab, np.full_like(n_lab, k)) + lncomb(n_lab - k, np.full_like(n_lab, r))
        lw = lw - np.where(elig, norm, 0)[:, None, None]
        p = np.where(elig[:, None, None], np.exp(lw), 0.0)
        w = p @ q  # (D, Y, C)
        keep = w.reshape(len(v), len(y), -1).sum(axis=(0, 2)) > 0
        y, w = y[keep], w[:, keep]
        lvl = Level(k=k, y=y, w=w, elig=elig)
        if abc:
            z = compositions(k + 1, cap)
            zcode = _codes(z, base)
            order = np.argsort(zcode)
            nxt = y[:, None, :] + np.eye(n_cls, dtype=np.int64)[None]
            ncode = _codes(nxt.reshape(-1, n_cls), base)
            pos = np.searchsorted(zcode[order], ncode)
            pos = np.minimum(pos, len(order) - 1)
            found = zcode[order][pos] == ncode
            idx = np.where(found, order[pos], -1).reshape(len(y), n_cls)
            has = n_lab >= k + 1
            den = np.where(has, lnfall(n_lab, np.full_like(n_lab, k + 1)), 0.0)
            lp = lnfall(v[:, None, :], z[None, :, :]).sum(-1) - den[:, None]
            lp = np.where(has[:, None], lp, -np.inf)
            top = lp.max(axis=0)
            top = np.where(np.isfinite(top), top, 0.0)
            pt = np.exp(lp - top[None, :])
            # append a zero column for vectors y + e_l beyond every item's counts
            pt = np.column_stack([pt, np.zeros(len(v))])
            top = np.append(top, 0.0)
            idx = np.where(idx < 0, pt.shape[1] - 1, idx)
            ltop = top[idx]
            lvl.z_idx, lvl.pt = idx, pt
            lvl.scale = np.exp(ltop - ltop.max(axis=1, keepdims=True))
        levels.append(lvl)
    zq = compositions(r, np.full(n_cls, r))
    lq = (lncomb(v[:, None, :], zq[None]).sum(-1)) - np.where(
        n_lab >= r, lncomb(n_lab, np.full_like(n_lab, r)), 0
    )[:, None]
    ref_elig = n_lab >= r
    qref = np.where(ref_elig[:, None], np.exp(lq) @ plurality_dist(zq), 0.0)
    return Plan(v, inv, mult, n_lab, r, levels, qref, ref_elig, abc, abc_floor)


def leave_one_out(mult: np.ndarray, pt: np.ndarray) -> np.ndarray:
    """``a[v] = sum_u (mult_u - [u = v]) pt[u]`` for every row v, without cancellation: the sum over
    u != v is a prefix plus a suffix sum of non-negative terms (no float subtraction)."""
    w = mult.reshape((-1,) + (1,) * (pt.ndim - 1)) * pt
    cs = np.cumsum(w, axis=0)
    before = np.concatenate([np.zeros_like(w[:1]), cs[:-1]], axis=0)
    rs = np.cumsum(w[::-1], axis=0)[::-1]
    after = np.concatenate([rs[1:], np.zeros_like(w[:1])], axis=0)
    own = np.maximum(mult - 1, 0).reshape((-1,) + (1,) * (pt.ndim - 1)) * pt
    return before + after + own


def abc_predictions(plan: Plan, lvl: Level, mult: np.ndarray) -> np.ndarray:
    """ABC predictions (D, Y, C) for a held-out item with each distinct vector (Algorithms 5–6)."""
    assert lvl.pt is not None and lvl.z_idx is not None and lvl.scale is not None
    pt = lvl.pt
    mult = np.asarray(mult, dtype=float)
    a = leave_one_out(mult, pt)
    a = np.maximum(a, 0.0)
    num = a[:, lvl.z_idx] * lvl.scale[None]  # (D, Y, C)
    den = num.sum(axis=-1, keepdims=True)
    n_cls = num.shape[-1]
    smooth = (lvl.y + 1.0) / (lvl.k + n_cls)  # fallback when no other item has such a sequence
    p = np.where(den > 0, num / np.where(den > 0, den, 1.0), smooth[None])
    if plan.abc_floor > 0:
        p = clip_probs(p, (plan.abc_floor, 1.0))
    return p


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


def curve_terms(
    plan: Plan,
    combiner: Any,
    scorer: Scorer,
    clip: tuple[float, float],
    mult: np.ndarray | None = None,
    cache: dict[int, np.ndarray] | None = None,
) -> np.ndarray:
    """E (D, L): expected per-item score of each distinct vector at each level."""
    mult = plan.mult if mult is None else mult
    out = np.zeros((len(plan.v), len(plan.levels)))
    for j, lvl in enumerate(plan.levels):
        if plan.abc:
            p = abc_predictions(plan, lvl, mult)
            t = output_terms(scorer, p, False, clip)  # (D, Y, C)
            out[:, j] = np.einsum("dyc,dyc->d", lvl.w, t)
        else:
            if cache is not None and j in cache:
                out[:, j] = cache[j]
                continue
            p = combiner.predict(lvl.y)
            t = output_terms(scorer, p, combiner.hard, clip)  # (Y, C)
            out[:, j] = np.einsum("dyc,yc->d", lvl.w, t)
            if cache is not None:
                cache[j] = out[:, j]
    return out


def curve_from_terms(plan: Plan, e: np.ndarray, mult: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Curve points and item counts per level from per-vector terms and multiplicities."""
    elig = np.column_stack([lvl.elig for lvl in plan.levels]).astype(float)  # (D, L)
    n = mult @ elig
    with np.errstate(invalid="ignore", divide="ignore"):
        c = (mult @ (e * elig)) / n
    return c, n


def n_subsets(n: int, k: int) -> int:
    return math.comb(n, k)
