"""Don't Label Twice (Dorner & Hardt): majority accuracy, the gap indicator and exact win probabilities.

Notation follows the paper. Two classifiers c_b (better) and c_w (worse) are compared on n test items
whose label is the majority of m crowd labels. The gap indicator G of one item (section 2) is +1 when only
c_b agrees with the test label, −1 when only c_w does and 0 when they agree with each other; c_b is
identified when ΣG > 0. G is ternary with P(G = 1) = x, P(G = −1) = y, P(G = 0) = z.

* :func:`majority_accuracy` — M_m(q), Lemma C.1 / Lemma C.2.
* :class:`IndependentModel` — Proposition 1 (q, p, ε); :class:`CorrelatedModel` — Proposition 2
  (q_b, q_w, p_w, p_b⁰, p_b¹).
* :func:`outcome` — exact P(ΣG > 0), P(ΣG = 0), P(ΣG < 0) for n up to 10⁷ and beyond: conditioning on the
  number J ~ Binomial(n, x + y) of non-zero G's, the number of +1's among them is Binomial(J, x/(x + y)),
  whose tails are regularised incomplete beta functions. Only the range of J that carries the mass of the
  smaller of the two outcomes is summed (a window around the exponentially tilted mean, widened until
  its edges are negligible); the larger outcome is its complement, so neither exceeds 1 nor loses
  relative accuracy near 1 (the paper's convolutions did, Appendix A).
* :func:`hoeffding_error` (Lemma 1) and :func:`cramer_error` (Lemma 2: (2√(xy) + z)ⁿ bounds
  P(ΣG ≤ 0) for every n).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import special, stats

from .._result import Result
from ..data.errors import InputError

try:  # Boost's binomial pmf, the ufunc behind scipy.stats.binom.pmf, without its argument checks
    from scipy.special._ufuncs import _binom_pmf as _boost_binom_pmf
except ImportError:  # pragma: no cover - other scipy versions
    _boost_binom_pmf = None


def _binom_pmf(k: np.ndarray, n: np.ndarray | int, p: np.ndarray) -> np.ndarray:
    """P(Binomial(n, p) = k) for valid arguments (0 ≤ k ≤ n, 0 ≤ p ≤ 1)."""
    if _boost_binom_pmf is not None:
        return _boost_binom_pmf(k, n, p)
    return stats.binom.pmf(k, n, p)


__all__ = [
    "CorrelatedModel",
    "Gap",
    "IndependentModel",
    "Model",
    "Outcome",
    "Ties",
    "cramer_error",
    "cramer_exponent",
    "gap_correlated",
    "gap_independent",
    "hoeffding_error",
    "hoeffding_exponent",
    "majority_accuracy",
    "make_model",
    "outcome",
    "outcomes",
    "win_probability",
]

Ties = Literal["failure", "half"]

_TINY = 1e-290
#: Largest number of items for the exact computation (the window then spans ~10⁵ values of J).
MAX_N = 10**9
#: Half-width of the summation window in standard deviations of J before the edge check.
_K_SD = 8.0
#: An edge term of the window must be below this fraction of the window's sum.
_EDGE_TOL = 1e-17


# --------------------------------------------------------------------------- majority accuracy
def majority_accuracy(
    q: float | np.ndarray, m: int, ties: Literal["coin", "failure"] = "coin"
) -> float | np.ndarray:
    """M_m(q): probability that the majority of m independent labels, each right with probability q,
    is right (section 2; Lemma C.1 for even m).

    ``ties="coin"`` (default) breaks a tie of an even m by a fair coin — then M_2k = M_2k−1, so an even m
    never beats m − 1 at a higher cost. ``ties="failure"`` counts a tie as wrong, as in Lemma C.1:
    M_k = M_k−1 − C(k−1, k/2) q^(k/2) (1−q)^(k/2) for even k.
    """
    if int(m) != m or m < 1:
        raise InputError(f"m = {m}: the number of labels per item must be a positive integer")
    if ties not in ("coin", "failure"):
        raise InputError(f"ties = {ties!r}: use 'coin' or 'failure'")
    m = int(m)
    qa = np.asarray(q, dtype=float)
    qa = np.where(
        qa < _TINY, 0.0, qa
    )  # subnormal q: Boost's pmf overflows; M_m is 0 to double precision
    half = m // 2
    # P(Binomial(m, q) >= half + 1) = I_q(half + 1, m - half)
    above = special.betainc(half + 1, m - half, qa) if m > 1 else qa.copy()
    if m % 2 == 0:
        tie = stats.binom.pmf(half, m, qa)
        if ties == "coin":
            above = above + 0.5 * tie
    out = np.clip(above, 0.0, 1.0)
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------- gap indicator
@dataclass(frozen=True, repr=False)
class Gap(Result):
    """Distribution of the gap indicator G: P(G = 1) = x, P(G = −1) = y, P(G = 0) = z."""

    x: float
    y: float
    z: float

    @property
    def mean(self) -> float:
        """E[G] = x − y."""
        return self.x - self.y

    @property
    def cramer_rate(self) -> float:
        """log(2√(xy) + z) = −Λ*(0) of −G (Lemma 2); ≤ 0, the per-item log error exponent."""
        return cramer_exponent(self.x, self.y)


def _gap_arrays(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.clip(x, 0.0, 1.0)
    y = np.clip(y, 0.0, 1.0)
    z = np.clip(1.0 - x - y, 0.0, 1.0)
    return x, y, z


def gap_independent(
    q: float | np.ndarray, p: float | np.ndarray, eps: float | np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, z) of G(q, p, ε), Proposition 1 (vectorised, no checks):
    x = qε + (1 − p − ε)p, y = (1 − q)ε + (1 − p − ε)p."""
    q, p, eps = (np.asarray(v, dtype=float) for v in (q, p, eps))
    both = (1.0 - p - eps) * p
    return _gap_arrays(q * eps + both, (1.0 - q) * eps + both)


def gap_correlated(
    q_b: float | np.ndarray,
    q_w: float | np.ndarray,
    p_w: float | np.ndarray,
    p_b0: float | np.ndarray,
    p_b1: float | np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, z) of G(q_b, q_w, p_w, p_b⁰, p_b¹), Proposition 2 (vectorised, no checks):
    x = q_b(1 − p_w)p_b⁰ + (1 − q_w)p_w(1 − p_b¹), y = (1 − q_b)(1 − p_w)p_b⁰ + q_w p_w(1 − p_b¹)."""
    q_b, q_w, p_w, p_b0, p_b1 = (np.asarray(v, dtype=float) for v in (q_b, q_w, p_w, p_b0, p_b1))
    a = (1.0 - p_w) * p_b0  # only c_b right
    b = p_w * (1.0 - p_b1)  # only c_w right
    return _gap_arrays(q_b * a + (1.0 - q_w) * b, (1.0 - q_b) * a + q_w * b)


def _check_range(name: str, value: float, lo: float, hi: float, lo_open: bool = False) -> None:
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"{name} = {value!r}: give a finite number")
    bad = value <= lo if lo_open else value < lo
    if bad or value > hi:
        left = "(" if lo_open else "["
        raise InputError(f"{name} = {value:g} violates {name} ∈ {left}{lo:g}, {hi:g}]")


@dataclass(frozen=True, repr=False)
class IndependentModel(Result):
    """Independent classifier and label errors (section 2, Proposition 1).

    c_w is right with probability p, c_b with p + ε, a label with q. Checks p ∈ [0.5, 1],
    ε ∈ (0, 1 − p], q ∈ (0.5, 1] unless ``check=False`` (any probabilities, e.g. estimates).
    """

    p: float
    eps: float
    q: float
    check: bool = True

    def __post_init__(self) -> None:
        if self.check:
            _check_range("p", self.p, 0.5, 1.0)
            _check_range("eps", self.eps, 0.0, 1.0 - self.p, lo_open=True)
            _check_range("q", self.q, 0.5, 1.0, lo_open=True)
        else:
            for name in ("p", "q"):
                _check_range(name, getattr(self, name), 0.0, 1.0)
            _check_range("eps", self.eps, -self.p, 1.0 - self.p)

    kind = "independent"

    def label_accuracy(self, m: int = 1) -> float:
        """M_m(q)."""
        return float(majority_accuracy(self.q, m))

    def gap(self, m: int = 1) -> Gap:
        """G(M_m(q), p, ε) (Proposition 1 with the majority label's accuracy)."""
        x, y, z = gap_independent(self.label_accuracy(m), self.p, self.eps)
        return Gap(float(x), float(y), float(z))

    def params(self) -> dict[str, float]:
        return {"p": self.p, "eps": self.eps, "q": self.q}


@dataclass(frozen=True, repr=False)
class CorrelatedModel(Result):
    """Correlated classifiers and labels (section 3.2, Proposition 2).

    p_w: accuracy of c_w; p_b⁰ / p_b¹: accuracy of c_b when c_w is wrong / right; q_b / q_w: label accuracy
    where only c_b / only c_w is right. Checks q_b, q_w ∈ (0.5, 1], p_w, p_b⁰, p_b¹ ∈ [0.5, 1] and
    (1 − p_w)p_b⁰ + p_w p_b¹ > p_w (c_b is better) unless ``check=False``. Assumption 1 (q_b ≥ q_w) is
    reported by :attr:`assumption1`, not enforced.
    """

    q_b: float
    q_w: float
    p_w: float
    p_b0: float
    p_b1: float
    check: bool = True

    def __post_init__(self) -> None:
        if self.check:
            _check_range("q_b", self.q_b, 0.5, 1.0, lo_open=True)
            _check_range("q_w", self.q_w, 0.5, 1.0, lo_open=True)
            for name in ("p_w", "p_b0", "p_b1"):
                _check_range(name, getattr(self, name), 0.5, 1.0)
            acc_b = (1 - self.p_w) * self.p_b0 + self.p_w * self.p_b1
            if not acc_b > self.p_w:
                raise InputError(
                    f"(1 − p_w)p_b0 + p_w p_b1 = {acc_b:.6g} must exceed p_w = {self.p_w:g} "
                    "(c_b must be the better classifier)"
                )
        else:
            for name in ("q_b", "q_w", "p_w", "p_b0", "p_b1"):
                _check_range(name, getattr(self, name), 0.0, 1.0)

    kind = "correlated"

    @property
    def assumption1(self) -> bool:
        """Assumption 1 (no biased label accuracy): q_b ≥ q_w."""
        return self.q_b >= self.q_w

    def label_accuracy(self, m: int = 1) -> float:
        """Overall label accuracy on items where the classifiers disagree, M_m averaged over E_b, E_w."""
        a = (1 - self.p_w) * self.p_b0
        b = self.p_w * (1 - self.p_b1)
        mb, mw = majority_accuracy(self.q_b, m), majority_accuracy(self.q_w, m)
        return float((a * mb + b * mw) / (a + b)) if a + b > 0 else float(mb)

    def gap(self, m: int = 1) -> Gap:
        """G(M_m(q_b), M_m(q_w), p) (Proposition 2 with the majority label's accuracies)."""
        x, y, z = gap_correlated(
            majority_accuracy(self.q_b, m),
            majority_accuracy(self.q_w, m),
            self.p_w,
            self.p_b0,
            self.p_b1,
        )
        return Gap(float(x), float(y), float(z))

    def params(self) -> dict[str, float]:
        return {
            "q_b": self.q_b,
            "q_w": self.q_w,
            "p_w": self.p_w,
            "p_b0": self.p_b0,
            "p_b1": self.p_b1,
        }


Model = IndependentModel | CorrelatedModel


def make_model(
    *,
    p: float | None = None,
    eps: float | None = None,
    q: float | None = None,
    q_b: float | None = None,
    q_w: float | None = None,
    p_w: float | None = None,
    p_b0: float | None = None,
    p_b1: float | None = None,
) -> Model:
    """The independent model from (p, eps, q) or the correlated one from (q_b, q_w, p_w, p_b0, p_b1)."""
    ind = {"p": p, "eps": eps, "q": q}
    cor = {"q_b": q_b, "q_w": q_w, "p_w": p_w, "p_b0": p_b0, "p_b1": p_b1}
    has_ind = any(v is not None for v in ind.values())
    has_cor = any(v is not None for v in cor.values())
    if has_ind == has_cor:
        raise InputError(
            "give either --p, --eps and --q (independent model) or --qb, --qw, --pw, --pb0 and --pb1 "
            "(correlated model)"
        )
    if has_ind:
        missing = [k for k, v in ind.items() if v is None]
        if missing:
            raise InputError(f"the independent model also needs {', '.join(missing)}")
        return IndependentModel(float(p), float(eps), float(q))  # type: ignore[arg-type]
    missing = [k for k, v in cor.items() if v is None]
    if missing:
        raise InputError(f"the correlated model also needs {', '.join(missing)}")
    return CorrelatedModel(float(q_b), float(q_w), float(p_w), float(p_b0), float(p_b1))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- exact probabilities
@dataclass(frozen=True, repr=False)
class Outcome(Result):
    """Exact distribution of the sign of ΣG over n items: win (> 0), tie (= 0), loss (< 0)."""

    n: int
    win: float
    tie: float
    loss: float

    def win_probability(self, ties: Ties = "failure") -> float:
        """P(c_b identified): P(ΣG > 0), plus P(ΣG = 0)/2 with ``ties="half"``."""
        return _win_with_ties(self.win, self.tie, ties)

    def error(self, ties: Ties = "failure") -> float:
        """1 − :meth:`win_probability`, computed without cancellation."""
        if ties == "half":
            return min(1.0, self.loss + 0.5 * self.tie)
        return min(1.0, self.loss + self.tie)


def _win_with_ties(win: float, tie: float, ties: str) -> float:
    if ties not in ("failure", "half"):
        raise InputError(f"ties = {ties!r}: use 'failure' (the paper) or 'half'")
    return min(1.0, win + 0.5 * tie) if ties == "half" else win


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
    """
    n = int(n)
    if n < 0:
        raise InputError(f"n = {n}: the number of items cannot be negative")
    if n > MAX_N:
        raise InputError(f"n = {n:,}: exact probabilities are computed for n ≤ {MAX_N:,} items")
    xa, ya = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    shape = xa.shape
    xa, ya = xa.ravel(), ya.ravel()
    # probabilities below 1e-290 cannot change any representable result; Boost overflows on subnormals
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
    root = 2.0 * np.sqrt(xs * ys)
    denom = root + zs
    tilted = np.where(denom > 0, n * root / np.where(denom > 0, denom, 1.0), n * ps)
    plain = n * ps
    w_, t_, l_ = np.empty(idx.size), np.empty(idx.size), np.empty(idx.size)
    for better in (True, False):
        sel = (xs >= ys) if better else (xs < ys)
        if not sel.any():
            continue
        small, big = ("lt", "gt") if better else ("gt", "lt")
        small_v = np.zeros(int(sel.sum()))
        tie_v = np.zeros(int(sel.sum()))
        todo = np.ones(small_v.size, dtype=bool)
        if floor > 0:
            d2 = (np.sqrt(xs[sel]) - np.sqrt(ys[sel])) ** 2  # 1 − (2√(xy) + z)
            todo = n * np.log1p(-np.minimum(d2, 1.0)) >= math.log(floor)
        if todo.any():
            ss = np.flatnonzero(sel)[todo]
            # sd of J at the tilted point: use the tilted success probability of J for the width
            sums = _grouped_window_sum(
                n, ps[ss], tilted[ss], r[ss], s[ss], (small, "eq"), tilted[ss] / n, zs[ss]
            )
            small_v[todo], tie_v[todo] = sums[small], sums["eq"]
        big_v = 1.0 - small_v - tie_v
        redo = small_v + tie_v > 0.5
        if redo.any():
            sub = np.flatnonzero(redo)
            direct = _grouped_window_sum(
                n,
                ps[sel][sub],
                plain[sel][sub],
                r[sel][sub],
                s[sel][sub],
                (big,),
                ps[sel][sub],
                zs[sel][sub],
            )[big]
            big_v[sub] = direct
        big_v = np.clip(big_v, 0.0, 1.0)
        if better:
            w_[sel], l_[sel] = big_v, small_v
        else:
            w_[sel], l_[sel] = small_v, big_v
        t_[sel] = tie_v
    win[idx], tie[idx], loss[idx] = (np.clip(v, 0.0, 1.0) for v in (w_, t_, l_))
    return win.reshape(shape), tie.reshape(shape), loss.reshape(shape)


def _as_gap(gap: Gap | tuple[float, float, float]) -> Gap:
    if isinstance(gap, Gap):
        return gap
    x, y, z = gap
    return Gap(float(x), float(y), float(z))


def outcome(gap: Gap | tuple[float, float, float], n: int) -> Outcome:
    """Exact win / tie / loss probabilities of ΣG over n items (see :func:`outcomes`)."""
    g = _as_gap(gap)
    w, t, lo = outcomes(g.x, g.y, n)
    return Outcome(int(n), float(w), float(t), float(lo))


def win_probability(gap: Gap | tuple[float, float, float], n: int, ties: Ties = "failure") -> float:
    """Exact P(ΣᵢGᵢ > 0) over n items (section 3); ``ties="half"`` adds P(ΣG = 0)/2."""
    return outcome(gap, n).win_probability(ties)


# --------------------------------------------------------------------------- bounds
def hoeffding_exponent(x: float | np.ndarray, y: float | np.ndarray) -> float | np.ndarray:
    """Per-item log error bound of Lemma 1: −E[G]²/2 when E[G] = x − y > 0, else 0 (vacuous)."""
    mean = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    out = np.where(mean > 0, -0.5 * mean**2, 0.0)
    return float(out) if np.ndim(out) == 0 else out


def cramer_exponent(x: float | np.ndarray, y: float | np.ndarray) -> float | np.ndarray:
    """Per-item log error bound of Lemma 2: log(2√(xy) + z) = log(1 − (√x − √y)²) when x > y, else 0."""
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    gap = (np.sqrt(xa) - np.sqrt(ya)) ** 2  # 1 − (2√(xy) + z), without cancellation
    out = np.where(xa > ya, np.log1p(-np.minimum(gap, 1.0)), 0.0)
    return float(out) if np.ndim(out) == 0 else out


def hoeffding_error(gap: Gap | tuple[float, float, float], n: int) -> float:
    """Lemma 1: P(ΣG ≤ 0) ≤ exp(−n E[G]²/2) (1 when E[G] ≤ 0)."""
    g = _as_gap(gap)
    return float(math.exp(n * hoeffding_exponent(g.x, g.y)))


def cramer_error(gap: Gap | tuple[float, float, float], n: int) -> float:
    """Lemma 2 / Cramér: P(ΣG ≤ 0) ≤ (2√(xy) + z)ⁿ for every n (1 when E[G] ≤ 0)."""
    g = _as_gap(gap)
    return float(math.exp(n * cramer_exponent(g.x, g.y)))
