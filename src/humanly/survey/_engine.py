"""Count-based engine of the survey power curve (Survey Equivalence, Algorithms 1–6).

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
with integer multiplicities (``mult - e_v``), never by subtracting floats, except where the difference is
large; entries that could lose precision to cancellation are recomputed as a direct sum. The
proportionality normalises over l, which equals Algorithm 6's ratio when every item has at least
k + 1 labels (and keeps predictions summing to one on ragged data).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from scipy.special import gammaln

from .combiners import clip_probs, tie_uniform
from .scorers import Scorer

__all__ = ["Plan", "compositions", "lncomb", "make_plan"]


_LOGFACT = gammaln(np.arange(1025, dtype=float) + 1)


def _logfact(n: np.ndarray) -> np.ndarray:
    """log(n!) for non-negative integer arrays (table lookup; the table grows as needed)."""
    global _LOGFACT
    top = int(n.max()) if n.size else 0
    if top >= len(_LOGFACT):
        _LOGFACT = gammaln(np.arange(2 * top + 2, dtype=float) + 1)
    return _LOGFACT[n]


def lncomb(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log C(a, b) for integers, -inf where b < 0 or b > a."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    ok = (b >= 0) & (b <= a)
    aa = np.where(ok, a, 0)
    bb = np.where(ok, b, 0)
    out = _logfact(aa) - _logfact(bb) - _logfact(aa - bb)
    return np.where(ok, out, -np.inf)


def lnfall(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log of the falling factorial a (a-1) ... (a-b+1) for integers, -inf where b > a."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    ok = (b <= a) & (b >= 0)
    aa = np.where(ok, a, 0)
    bb = np.where(ok, b, 0)
    return np.where(ok, _logfact(aa) - _logfact(aa - bb), -np.inf)


def compositions(k: int, cap: np.ndarray) -> np.ndarray:
    """All count vectors of k labels over len(cap) classes with y_l <= cap_l (rows, lexicographic)."""
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


def unique_rows(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows, inverse and multiplicities (rows coded as one integer when they fit in int64,
    much faster than sorting rows)."""
    counts = np.asarray(counts, dtype=np.int64)
    base = int(counts.max()) + 1 if counts.size else 1
    if counts.shape[1] * math.log2(max(base, 2)) < 62:
        codes = _codes(counts, base)
        uc, inv, mult = np.unique(codes, return_inverse=True, return_counts=True)
        v = (uc[:, None] // base ** np.arange(counts.shape[1], dtype=np.int64)[None]) % base
        return v.astype(np.int64), inv.reshape(-1), mult
    v, inv, mult = np.unique(counts, axis=0, return_inverse=True, return_counts=True)
    return v, inv.reshape(-1), mult


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


def abc_predictions(plan: Plan, lvl: Level, mult: np.ndarray) -> np.ndarray:
    """ABC predictions (D, Y, C) for a held-out item with each distinct vector (Algorithms 5–6)."""
    assert lvl.pt is not None and lvl.z_idx is not None
    pt = lvl.pt
    mult = np.asarray(mult, dtype=float)
    s = mult @ pt  # (Z,)
    a = s[None, :] - pt
    # a = sum_u (mult_u - [u = v]) pt[u, z]; the subtraction loses precision only where item v's own
    # term dominates the sum: recompute those entries as a sum of non-negative terms
    risky = (a <= 1e-8 * s[None, :]) & (pt > 0) & (mult[:, None] > 0)
    if risky.any():
        vs, zs = np.nonzero(risky)
        terms = mult[:, None] * pt[:, zs]  # (D, P)
        terms[vs, np.arange(len(vs))] = (mult[vs] - 1) * pt[vs, zs]
        a[vs, zs] = terms.sum(axis=0)
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
