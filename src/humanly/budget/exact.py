"""Exact probabilities of the sign of ΣG over n items (section 3 of the paper).

:func:`outcomes` gives exact P(ΣG > 0), P(ΣG = 0), P(ΣG < 0) for n up to 10⁹: conditioning on the number
J ~ Binomial(n, x + y) of non-zero G's, the number of +1's among them is Binomial(J, x/(x + y)), whose
tails are regularised incomplete beta functions. Only the range of J that carries the mass of the smaller
of the two outcomes is summed (a window around the exponentially tilted mean, widened until its edges are
negligible); the larger outcome is its complement, so neither exceeds 1 nor loses relative accuracy near
1 (the paper's convolutions did, Appendix A).

The paper's Fig. 2 setting (p = 0.8, ε = 0.01, q = 0.8: x = 0.16, y = 0.154) at 1,500 single labels:

>>> o = outcome((0.16, 0.154, 0.686), 1500)
>>> round(o.win, 4), round(o.win + o.tie + o.loss, 12)
(0.6524, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._core.result import Result
from ..errors import InputError
from ._args import Ties, check_n, check_ties
from ._binom import binom_pmf
from .gap import Gap, as_gap

__all__ = ["MAX_N", "Outcome", "outcome", "outcomes", "win_probability"]

_TINY = 1e-300
#: Largest number of items for the exact computation (the window then spans ~10⁵ values of J).
MAX_N = 10**9
#: Half-width of the summation window in standard deviations of J before the edge check.
_K_SD = 8.0
#: An edge term of the window must be below this fraction of the window's sum.
_EDGE_TOL = 1e-17


def _binom_pmf(k: np.ndarray, n: np.ndarray | int, p: np.ndarray) -> np.ndarray:
    """P(Binomial(n, p) = k) for valid arguments (0 ≤ k ≤ n, 0 ≤ p ≤ 1): Loader's algorithm
    (:mod:`humanly.budget._binom`, relative error ~1e-15; no ``scipy.stats`` at start-up)."""
    return binom_pmf(k, n, p)


@dataclass(frozen=True, repr=False)
class Outcome(Result):
    """The exact distribution of the sign of ΣG over n items: win (> 0), tie (= 0), loss (< 0).

    Parameters
    ----------
    n : int
        Items.
    win, tie, loss : float
        P(ΣG > 0), P(ΣG = 0), P(ΣG < 0).

    Examples
    --------
    >>> o = Outcome(n=1, win=0.3, tie=0.4, loss=0.3)
    >>> o.win_probability(), o.win_probability(ties="half"), o.error()
    (0.3, 0.5, 0.7)
    """

    n: int
    win: float
    tie: float
    loss: float

    def win_probability(self, ties: Ties = "loss") -> float:
        """P(c_b identified): P(ΣG > 0), plus P(ΣG = 0)/2 with ``ties="half"``.

        Parameters
        ----------
        ties : {"loss", "half"}
            What a tied comparison ΣG = 0 counts as: a failure (the paper) or half a win.

        Returns
        -------
        float
            The probability of ranking the better classifier first.

        Examples
        --------
        >>> Outcome(n=1, win=0.3, tie=0.4, loss=0.3).win_probability("half")
        0.5
        """
        if check_ties(ties) == "half":
            return min(1.0, self.win + 0.5 * self.tie)
        return self.win

    def error(self, ties: Ties = "loss") -> float:
        """1 − :meth:`win_probability`, computed without cancellation.

        Parameters
        ----------
        ties : {"loss", "half"}
            What a tied comparison ΣG = 0 counts as.

        Returns
        -------
        float
            P(c_b not identified).

        Examples
        --------
        >>> Outcome(n=1, win=0.3, tie=0.4, loss=0.3).error()
        0.7
        """
        if check_ties(ties) == "half":
            return min(1.0, self.loss + 0.5 * self.tie)
        return min(1.0, self.loss + self.tie)


def _tail(kind: str, j: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Given J = j non-zero G's with U ~ Binomial(j, r) of them +1 (s = 1 − r): "gt" P(U > j/2) =
    I_r(⌊j/2⌋ + 1, j − ⌊j/2⌋), "lt" P(U < j/2) (the same with r and s swapped, U ↔ j − U). Arrays j, r,
    s of one shape."""
    half = np.floor(j / 2.0)
    a = half + 1.0
    b = np.maximum(j - half, 1.0)
    p, q = (r, s) if kind == "gt" else (s, r)  # P(Binomial(j, p) ≥ a) = I_p(a, b) = 1 − I_q(b, a)
    # hand Boost the smaller of p, q so that 1 − it (formed inside) loses nothing
    low = p <= 0.5
    val = np.empty(j.shape)
    val[low] = special.betainc(a[low], b[low], p[low])
    high = ~low
    val[high] = special.betaincc(b[high], a[high], q[high])
    return np.where(a <= j, val, 0.0)


def _conditionals(
    kinds: tuple[str, ...], j: np.ndarray, r: np.ndarray, s: np.ndarray
) -> dict[str, np.ndarray]:
    """P(side | J = j) on a window of consecutive j per row: "eq" P(U = j/2) (even j) and the tails.

    Tails are computed with the incomplete beta function at even j only; an odd j follows from the
    even j − 1 before it without cancellation: P(U_{2k+1} > k + ½) = P(U_{2k} > k) + r·P(U_{2k} = k)
    (and the same for "lt" with s), which halves the cost."""
    shape = j.shape
    rb, sb = np.broadcast_to(r, shape), np.broadcast_to(s, shape)
    even = (j % 2) == 0
    tie = np.zeros(shape)
    # C(j, j/2) (rs)^(j/2) is symmetric in r and s: pass the smaller one
    tie[even] = _binom_pmf(j[even] / 2.0, j[even], np.minimum(rb, sb)[even])
    out = {"eq": tie}
    odd_first = ~even.copy()
    odd_first[:, 1:] = False  # an odd j in the first column has no even j − 1 in the window
    direct = even | odd_first
    step = ~direct
    for kind in kinds:
        if kind == "eq":
            continue
        val = np.zeros(shape)
        val[direct] = _tail(kind, j[direct], rb[direct], sb[direct])
        prev_val = np.roll(val, 1, axis=1)
        prev_tie = np.roll(tie, 1, axis=1)
        factor = rb if kind == "gt" else sb
        val[step] = prev_val[step] + factor[step] * prev_tie[step]
        out[kind] = np.minimum(val, 1.0)
    return out


def _window_sum(
    n: int,
    pj: np.ndarray,
    center: np.ndarray,
    r: np.ndarray,
    s: np.ndarray,
    kinds: tuple[str, ...],
    p_width: np.ndarray,
    zq: np.ndarray,
) -> dict[str, np.ndarray]:
    """Σ_j P(J = j) · P(side | J = j) over a window of j around ``center`` (per row), widened until the
    window's edge terms are below _EDGE_TOL of its sum (or reach 0 / n)."""
    rows = pj.shape[0]
    # the window must cover J's spread both at its own and at the tilted success probability
    sd = np.sqrt(n * np.maximum(pj * (1.0 - pj), p_width * (1.0 - p_width)))
    width = math.ceil(_K_SD * float(sd.max(initial=0.0)) + 12)
    while True:
        if 2 * width + 1 >= n + 1:
            j = np.broadcast_to(np.arange(n + 1, dtype=float), (rows, n + 1))
            lo_edge = hi_edge = np.zeros(rows, dtype=bool)
        else:
            lo = np.clip(np.floor(center) - width, 0, n - 2 * width).astype(np.int64)
            j = (lo[:, None] + np.arange(2 * width + 1)[None, :]).astype(float)
            lo_edge = lo > 0
            hi_edge = lo + 2 * width < n
        # P(J = j): pass the smaller of P(G ≠ 0), P(G = 0) to Boost so the other is not rounded first
        use_z = (zq < 0.5)[:, None]
        w = _binom_pmf(np.where(use_z, n - j, j), n, np.where(use_z, zq[:, None], pj[:, None]))
        out: dict[str, np.ndarray] = {}
        ok = True
        cond = _conditionals(kinds, j, r[:, None], s[:, None])
        for kind in kinds:
            terms = w * cond[kind]
            total = terms.sum(axis=1)
            out[kind] = total
            limit = _EDGE_TOL * total
            bad = (lo_edge & (terms[:, 0] > limit)) | (hi_edge & (terms[:, -1] > limit))
            if bad.any():
                ok = False
        if ok:
            return out
        width *= 2


def _grouped_window_sum(
    n: int,
    pj: np.ndarray,
    center: np.ndarray,
    r: np.ndarray,
    s: np.ndarray,
    kinds: tuple[str, ...],
    p_width: np.ndarray,
    zq: np.ndarray,
    group: int = 256,
) -> dict[str, np.ndarray]:
    """:func:`_window_sum` over rows grouped by the spread of J, so a group's window is sized by its own
    widest row rather than by the widest of all rows (many configurations at once, as in the sweep)."""
    if pj.size <= group:
        return _window_sum(n, pj, center, r, s, kinds, p_width, zq)
    spread = np.maximum(pj * (1 - pj), p_width * (1 - p_width))
    order = np.argsort(spread, kind="stable")
    out = {k: np.empty(pj.size) for k in kinds}
    for start in range(0, pj.size, group):
        o = order[start : start + group]
        part = _window_sum(n, pj[o], center[o], r[o], s[o], kinds, p_width[o], zq[o])
        for k in kinds:
            out[k][o] = part[k]
    return out


def _sides(
    n: int,
    better: bool,
    xs: np.ndarray,
    ys: np.ndarray,
    ps: np.ndarray,
    r: np.ndarray,
    s: np.ndarray,
    zs: np.ndarray,
    floor: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(smaller side, tie, larger side) for configurations where c_b has the larger (``better``: x ≥ y)
    or smaller gap probability: the smaller side and the tie summed around the tilted mean of J, the
    larger side their complement, or summed directly around J's own mean when they exceed ½."""
    small, big = ("lt", "gt") if better else ("gt", "lt")
    root = 2.0 * np.sqrt(xs * ys)
    denom = root + zs
    tilted = np.where(denom > 0, n * root / np.where(denom > 0, denom, 1.0), n * ps)
    small_v = np.zeros(xs.size)
    tie_v = np.zeros(xs.size)
    todo = np.ones(xs.size, dtype=bool)
    if floor > 0:
        d2 = (np.sqrt(xs) - np.sqrt(ys)) ** 2  # 1 − (2√(xy) + z)
        todo = n * np.log1p(-np.minimum(d2, 1.0)) >= math.log(floor)
    if todo.any():
        t = todo
        # sd of J at the tilted point: use the tilted success probability of J for the width
        sums = _grouped_window_sum(
            n, ps[t], tilted[t], r[t], s[t], (small, "eq"), tilted[t] / n, zs[t]
        )
        small_v[todo], tie_v[todo] = sums[small], sums["eq"]
    big_v = 1.0 - small_v - tie_v
    redo = small_v + tie_v > 0.5
    if redo.any():
        sub = np.flatnonzero(redo)
        big_v[sub] = _grouped_window_sum(
            n, ps[sub], n * ps[sub], r[sub], s[sub], (big,), ps[sub], zs[sub]
        )[big]
    return small_v, tie_v, np.clip(big_v, 0.0, 1.0)


def outcomes(
    x: np.ndarray | float, y: np.ndarray | float, n: int, *, floor: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact (win, tie, loss) = P(ΣG > 0), P(ΣG = 0), P(ΣG < 0) for n i.i.d. G with P(G = 1) = x and
    P(G = −1) = y, vectorised over configurations (x, y arrays of one shape).

    J ~ Binomial(n, x + y) counts non-zero G's; given J = j, the +1's are Binomial(j, r = x/(x + y)), so
    P(ΣG > 0) = Σ_j P(J = j) I_r(⌊j/2⌋ + 1, j − ⌊j/2⌋) (regularised incomplete beta). The smaller side
    (loss and tie when x ≥ y, win and tie when x < y) is summed directly over the j's that carry its mass
    — a window around the tilted mean n·2√(xy)/(2√(xy) + z) (Lemma 2's exponential tilt) — and the larger
    side is its complement; when the "smaller" side exceeds 1/2 (small n) the larger side is summed
    directly too. Each side therefore has relative error of a few ulps times the window length, and no
    probability exceeds 1.

    ``floor`` (default 0: off): configurations whose Cramér bound (2√(xy) + z)ⁿ on the smaller side
    (Lemma 2, valid for every n) is below ``floor`` get smaller side and tie 0 without summation — an
    absolute error below ``floor`` (the sweep uses 1e-300, where doubles underflow anyway).

    >>> win, tie, loss = outcomes(np.array([0.3, 0.2]), np.array([0.2, 0.3]), 2)
    >>> win.round(4).tolist(), tie.round(4).tolist()
    ([0.39, 0.24], [0.37, 0.37])
    """
    n = check_n(n)
    if n > MAX_N:
        raise InputError(f"n={n}: exact probabilities are computed for n ≤ {MAX_N:,} items")
    xa, ya = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    shape = xa.shape
    xa, ya = xa.ravel(), ya.ravel()
    if not (np.all(np.isfinite(xa)) and np.all(np.isfinite(ya))):
        raise InputError("x, y: gap probabilities must be finite numbers (found NaN or inf)")
    # Boost overflows on subnormal arguments: probabilities below 1e-300 (still normal doubles) are 0 —
    # an absolute error below 1e-300 (1e-290 was too coarse: a loss of 1.1e-290 came out 0)
    xa = np.where(xa < _TINY, 0.0, xa)
    ya = np.where(ya < _TINY, 0.0, ya)
    if np.any(xa < 0) or np.any(ya < 0) or np.any(xa + ya > 1 + 1e-12):
        raise InputError("gap probabilities must satisfy x, y ≥ 0 and x + y ≤ 1")
    win = np.zeros(xa.shape)
    tie = np.ones(xa.shape)
    loss = np.zeros(xa.shape)
    pj = np.minimum(xa + ya, 1.0)
    active = pj > 0
    if n == 0 or not active.any():
        return win.reshape(shape), tie.reshape(shape), loss.reshape(shape)
    idx = np.flatnonzero(active)
    xs, ys, ps = xa[idx], ya[idx], pj[idx]
    r, s = xs / ps, ys / ps
    # P(G = 0) without first rounding x + y: (1 − x) − y is exact to an ulp of z when x ≥ y
    zs = np.clip(np.where(xs >= ys, (1.0 - xs) - ys, (1.0 - ys) - xs), 0.0, 1.0)
    w_, t_, l_ = np.empty(idx.size), np.empty(idx.size), np.empty(idx.size)
    for better in (True, False):
        sel = (xs >= ys) if better else (xs < ys)
        if not sel.any():
            continue
        small_v, tie_v, big_v = _sides(
            n, better, xs[sel], ys[sel], ps[sel], r[sel], s[sel], zs[sel], floor
        )
        if better:
            w_[sel], l_[sel] = big_v, small_v
        else:
            w_[sel], l_[sel] = small_v, big_v
        t_[sel] = tie_v
    win[idx], tie[idx], loss[idx] = (np.clip(v, 0.0, 1.0) for v in (w_, t_, l_))
    return win.reshape(shape), tie.reshape(shape), loss.reshape(shape)


def outcome(gap: Gap | tuple[float, float, float], n: int) -> Outcome:
    """Exact win / tie / loss probabilities of ΣG over n items (see :func:`outcomes`).

    Parameters
    ----------
    gap : Gap or tuple of float
        The gap indicator's distribution (or an (x, y, z) triple).
    n : int
        Items (at most 10⁹).

    Returns
    -------
    Outcome
        P(ΣG > 0), P(ΣG = 0), P(ΣG < 0).

    Raises
    ------
    InputError
        For n > 10⁹ or gap probabilities that are not probabilities.

    Examples
    --------
    >>> o = outcome((0.3, 0.2, 0.5), 2)
    >>> round(o.win, 4), round(o.tie, 4), round(o.loss, 4)
    (0.39, 0.37, 0.24)

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 3.
    """
    g = as_gap(gap)
    w, t, lo = outcomes(g.x, g.y, n)
    return Outcome(int(n), float(w), float(t), float(lo))


def win_probability(gap: Gap | tuple[float, float, float], n: int, ties: Ties = "loss") -> float:
    """Exact P(ΣᵢGᵢ > 0) over n items: the probability of ranking the better classifier first.

    Parameters
    ----------
    gap : Gap or tuple of float
        The gap indicator's distribution (or an (x, y, z) triple).
    n : int
        Items.
    ties : {"loss", "half"}
        What a tied comparison ΣG = 0 counts as: a failure (the paper) or half a win.

    Returns
    -------
    float
        The win probability.

    Examples
    --------
    Fig. 2 of the paper (p = 0.8, ε = 0.01, q = 0.8, a budget of 1,500 single labels):

    >>> from humanly.budget import IndependentErrors
    >>> round(win_probability(IndependentErrors(0.8, 0.01, 0.8).gap(1), 1500), 3)
    0.652

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 3 and Fig. 2.
    """
    return outcome(gap, n).win_probability(ties)
