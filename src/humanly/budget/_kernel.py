"""Compiled kernel for the Appendix A sweep: exact P(ΣG ≤ 0) with no special function per term.

The vectorised :func:`humanly.budget.outcomes` evaluates a regularised incomplete beta function and
a binomial pmf for every term J = j of its window; at the sweep's ~10¹⁰ (configuration, n) problems that
is ~100 hours on two cores. This kernel computes the same sum with recurrences, so each problem costs one
binomial-pmf anchor (Loader's algorithm) per factor and a few floating-point operations per term,
compiled by numba (the optional extra ``humanly[fast]``; without numba the sweep falls back to
``outcomes``).

Notation (section 3 of the paper, as in ``core``): G ∈ {+1, −1, 0} with probabilities x, y, z;
J ~ Binomial(N, p = x + y) non-zero G's; given J = j the count of the more likely sign among them is
V ~ Binomial(j, ρ), ρ = max(x, y)/p ≥ ½, σ = 1 − ρ. With A_j = P(V < j/2) and tie_j = P(V = j/2):

* x ≥ y: P(ΣG ≤ 0) = Σ_j P(J = j)·F_j, F_j = A_j + tie_j (the error, summed directly: it is the small side);
* x < y: P(ΣG > 0) = Σ_j P(J = j)·A_j (the win, small), and the error is 1 − win (≥ ½, no cancellation).

Recurrences (k ≥ 0, derived from V_{j+1} = V_j + Bernoulli(ρ); checked against mpmath in the tests):

* tie_{2k+2} = tie_{2k} · 2(2k + 1)τ/(k + 1), τ = ρσ, tie_{2k} = C(2k, k)τᵏ, upward from the window's first k
  (the largest tie, so nothing significant can underflow);
* A_{2k} = A_{2k+2} + σ·tie_{2k}·(k(ρ − σ) − σ)/(k + 1), run downward from an anchor A_{2K} (a short
  sum of binomial terms, all positive), with A₀ = 0 set exactly; the increments are positive once
  k > σ/(ρ − σ), so in the tail — where relative accuracy matters — the chain only adds;
* A_{2k+1} = A_{2k} + σ·tie_{2k} (odd j follow from even j by an addition);
* P(J = j) by ratios from an anchor at the window's centre, both ways.

The window of j is ±8.5 standard deviations around the exponentially tilted mean N·2√(xy)/(2√(xy) + z)
(as in ``exact.outcomes``), doubled until its edge terms are below 1e-15 of its sum, or the whole range.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._binom import LN_2PI, STIRLERR, STIRLERR_SERIES

__all__ = ["AVAILABLE", "compile_kernel", "jit", "sweep_error_grid", "sweep_errors"]

#: Whether numba is installed (the kernel is compiled on first use, not on import).
AVAILABLE = importlib.util.find_spec("numba") is not None

_TINY = 1e-290
_K_SD = 8.5
_EDGE_TOL = 1e-15
_GAP = 64  # windows of different n closer than this share one conditional chain
_SUM_TOL = 1e-18  # the anchor's binomial sum stops when a term is below this fraction of it

# Loader's saddle-point binomial pmf (the scalar form of ``_binom.binom_pmf``, same constants).
_S0, _S1, _S2, _S3, _S4 = STIRLERR_SERIES
_LN_2PI = LN_2PI
_STIRLERR = STIRLERR


def _stirlerr(k: float) -> float:
    if k <= 15.0:
        return _STIRLERR[int(k)]
    kk = k * k
    if k > 500.0:
        return (_S0 - _S1 / kk) / k
    if k > 80.0:
        return (_S0 - (_S1 - _S2 / kk) / kk) / k
    if k > 35.0:
        return (_S0 - (_S1 - (_S2 - _S3 / kk) / kk) / kk) / k
    return (_S0 - (_S1 - (_S2 - (_S3 - _S4 / kk) / kk) / kk) / kk) / k


def _bd0(k: float, mean: float) -> float:
    """k·log(k/mean) + mean − k, without cancellation when k ≈ mean."""
    if abs(k - mean) < 0.1 * (k + mean):
        v = (k - mean) / (k + mean)
        s = (k - mean) * v
        ej = 2.0 * k * v
        v2 = v * v
        j = 1
        while j < 1000:
            ej *= v2
            s1 = s + ej / (2 * j + 1)
            if s1 == s:
                return s1
            s = s1
            j += 1
        return s
    return k * math.log(k / mean) + mean - k


def _binom_pmf(k: int, n: int, p: float, q: float) -> float:
    """C(n, k)·pᵏ·q^(n−k) with q ≈ 1 − p given separately (Loader's algorithm).

    When the rounded p + q is not exactly 1, Loader's deviance form would add n(p + q − 1) to the
    exponent (~n·1e-16 relative at n = 10⁴); it is taken out, so the anchor agrees with the recurrences,
    which multiply by p/q and by pq."""
    if p == 0.0:
        return 1.0 if k == 0 else 0.0
    if q == 0.0:
        return 1.0 if k == n else 0.0
    if k < 0 or k > n:
        return 0.0
    excess = n * ((p - 1.0) + q if p >= q else (q - 1.0) + p)  # exact subtractions (Sterbenz)
    if k == 0:
        return math.exp(-_bd0(n, n * q) - n * p + excess if p < 0.1 else n * math.log(q))
    if k == n:
        return math.exp(-_bd0(n, n * p) - n * q + excess if q < 0.1 else n * math.log(p))
    lc = (
        _stirlerr(float(n))
        - _stirlerr(float(k))
        - _stirlerr(float(n - k))
        - _bd0(float(k), n * p)
        - _bd0(float(n - k), n * q)
        + excess
    )
    lf = _LN_2PI + math.log(k) + math.log(n - k) - math.log(n)
    return math.exp(lc - 0.5 * lf)


def _reciprocals(n: int) -> np.ndarray:
    """inv[k] = 1/k for k = 1 … n + 4 (inv[0] = 0): the recurrences multiply instead of dividing."""
    inv = np.empty(n + 5)
    inv[0] = 0.0
    for k in range(1, n + 5):
        inv[k] = 1.0 / k
    return inv


def _centre(n: int, p: float, z: float, root: float) -> tuple[float, float]:
    """Tilted mean n·2√(xy)/(2√(xy) + z) of J and its binomial standard deviation."""
    denom = root + z
    c = n * root / denom if denom > 0 else n * p
    t = min(max(c / n, 0.0), 1.0)
    return c, math.sqrt(n * t * (1.0 - t))


def _fill_chain(
    lo: int,
    hi: int,
    rho: float,
    sig: float,
    diff: float,
    strict: bool,
    tie: np.ndarray,
    a: np.ndarray,
    cond: np.ndarray,
    inv: np.ndarray,
) -> None:
    """C_j (A_j if strict, else A_j + tie_j) for j = lo … hi into cond[0 …], from tie_{2k} and A_{2k}
    (k = ⌊lo/2⌋ … ⌈hi/2⌉, into tie and a).

    The ties are anchored at the first k and run upward: tie_{2k+2}/tie_{2k} = 2(2k + 1)τ/(k + 1) < 4τ ≤ 1,
    so the first is the largest and only negligible ones can underflow (an anchor further up could
    underflow to 0 and zero the whole chain — e.g. σ ~ 1e-187)."""
    tau = rho * sig
    odds = sig / rho
    kmin = lo // 2
    kmax = (hi + 1) // 2
    nk = kmax - kmin + 1
    tie[0] = _binom_pmf(kmin, 2 * kmin, rho, sig)
    for k in range(kmin, kmax):
        tie[k + 1 - kmin] = tie[k - kmin] * ((2.0 * (2 * k + 1) * inv[k + 1]) * tau)
    # anchor A_{2K} = Σ_{u < K} P(Binomial(2K, ρ) = u), summed downward from u = K − 1 (all positive)
    big_k = kmax
    anchor = 0.0
    if big_k > 0:
        term = tie[nk - 1] * (big_k * inv[big_k + 1]) * odds
        u = big_k - 1
        while term > 0.0:
            anchor += term
            if u == 0 or term < _SUM_TOL * anchor:
                break
            term *= (u * inv[2 * big_k - u + 1]) * odds
            u -= 1
    a[nk - 1] = anchor
    for k in range(kmax - 1, kmin - 1, -1):
        if k == 0:
            a[0] = 0.0  # A_0 = P(V < 0) = 0 exactly (the chain would leave a rounding residue)
        else:
            a[k - kmin] = a[k + 1 - kmin] + sig * tie[k - kmin] * ((k * diff - sig) * inv[k + 1])
    for j in range(lo, hi + 1):
        k = j // 2 - kmin
        if j % 2 == 0:
            v = a[k] if strict else a[k] + tie[k]
        else:
            v = a[k] + sig * tie[k]
        cond[j - lo] = min(max(v, 0.0), 1.0)


def _weighted_sum(
    n: int,
    p: float,
    z: float,
    lo: int,
    hi: int,
    c: float,
    base: int,
    cond: np.ndarray,
    inv: np.ndarray,
) -> tuple[float, bool]:
    """Σ_{j = lo … hi} P(Binomial(n, p) = j)·cond[j − base], the weights by ratios from an anchor at
    the centre, and whether the window's edge terms are below _EDGE_TOL of the sum (or at 0 / n)."""
    jc = min(max(round(c), lo), hi)
    wc = _binom_pmf(jc, n, p, z)
    ratio = p / z
    iratio = z / p
    up = 0.0
    w = wc
    term = 0.0
    for j in range(jc, hi + 1):
        term = w * cond[j - base]
        up += term
        w *= ((n - j) * inv[j + 1]) * ratio
    last = term
    down = 0.0
    w = wc
    term = w * cond[jc - base] if jc == lo else 0.0
    for j in range(jc, lo, -1):
        w *= (j * inv[n - j + 1]) * iratio
        term = w * cond[j - 1 - base]
        down += term
    first = term
    total = up + down
    limit = _EDGE_TOL * total
    return total, (lo == 0 or first <= limit) and (hi == n or last <= limit)


def _bounds(n: int, c: float, sd: float, width_mult: float) -> tuple[int, int]:
    width = math.ceil(width_mult * sd + 12.0)
    centre = math.floor(c)
    return max(0, centre - width), min(n, centre + width)


def _tail_sum(
    n: int,
    p: float,
    z: float,
    rho: float,
    sig: float,
    diff: float,
    root: float,
    strict: bool,
    inv: np.ndarray,
) -> float:
    """Σ_j P(Binomial(n, p) = j)·C_j with C_j = A_j (strict) or A_j + tie_j (see the module) over a
    window of ±8.5 sd of the tilted J, doubled until its edges are negligible."""
    c, sd = _centre(n, p, z, root)
    mult = _K_SD
    while True:
        lo, hi = _bounds(n, c, sd, mult)
        nk = (hi + 1) // 2 - lo // 2 + 1
        tie, a, cond = np.empty(nk), np.empty(nk), np.empty(hi - lo + 1)
        _fill_chain(lo, hi, rho, sig, diff, strict, tie, a, cond, inv)
        total, ok = _weighted_sum(n, p, z, lo, hi, c, lo, cond, inv)
        if ok:
            return total
        mult *= 2.0


def _floored(x: float, y: float, n: int, floor: float) -> bool:
    """Whether the Cramér bound (2√(xy) + z)ⁿ = (1 − (√x − √y)²)ⁿ on the smaller side is below ``floor``
    (then that side is 0, as in ``exact.outcomes``)."""
    if floor <= 0.0:
        return False
    d2 = (math.sqrt(x) - math.sqrt(y)) ** 2
    return d2 >= 1.0 or n * math.log1p(-d2) < math.log(floor)


def _errors_grid(x: np.ndarray, y: np.ndarray, ns: np.ndarray, floor: float) -> np.ndarray:
    """P(ΣG ≤ 0) for every (x, y) row and every n in ``ns`` (ascending), shape (len(ns), rows).

    The conditional chain (ties and tails of V given J = j) depends on (x, y) only, so one chain serves
    every n whose window overlaps another's (all small n share [0, max n]; n and n + 1 share theirs);
    only the binomial weights of J are per n."""
    rows = x.size
    nn = ns.size
    out = np.empty((nn, rows))
    top = int(ns[nn - 1]) if nn else 0
    size = top + 2
    tie = np.empty(size // 2 + 3)
    a = np.empty(size // 2 + 3)
    cond = np.empty(size + 1)
    inv = _reciprocals(top)
    los = np.empty(nn, np.int64)
    his = np.empty(nn, np.int64)
    cs = np.empty(nn)
    active = np.empty(nn, np.bool_)
    for r in range(rows):
        xi, yi = x[r], y[r]
        hi_v, lo_v = (xi, yi) if xi >= yi else (yi, xi)
        p = xi + yi
        z = (1.0 - hi_v) - lo_v
        if lo_v < _TINY or z < _TINY or p > 1.0:  # the special cases of _error_one
            for i in range(nn):
                out[i, r] = _error_one(xi, yi, int(ns[i]), floor, inv)
            continue
        better = xi >= yi
        rho, sig = hi_v / p, lo_v / p
        diff = (hi_v - lo_v) / p
        root = 2.0 * math.sqrt(xi * yi)
        for i in range(nn):
            n = int(ns[i])
            active[i] = True
            if n == 0:
                out[i, r] = 1.0
                active[i] = False
            elif _floored(xi, yi, n, floor):
                out[i, r] = 0.0 if better else 1.0
                active[i] = False
            else:
                c, sd = _centre(n, p, z, root)
                lo, hi = _bounds(n, c, sd, _K_SD)
                los[i], his[i], cs[i] = lo, hi, c
        i = 0
        while i < nn:
            if not active[i]:
                i += 1
                continue
            # a cluster: the following active n whose windows start before this one's reach
            lo_u, hi_u, j = los[i], his[i], i + 1
            while j < nn and (not active[j] or los[j] <= hi_u + _GAP):
                if active[j]:
                    lo_u = min(lo_u, los[j])
                    hi_u = max(hi_u, his[j])
                j += 1
            _fill_chain(lo_u, hi_u, rho, sig, diff, not better, tie, a, cond, inv)
            for k in range(i, j):
                if not active[k]:
                    continue
                n = int(ns[k])
                total, ok = _weighted_sum(n, p, z, los[k], his[k], cs[k], lo_u, cond, inv)
                if not ok:
                    total = _tail_sum(n, p, z, rho, sig, diff, root, not better, inv)
                small = min(max(total, 0.0), 1.0)
                out[k, r] = small if better else 1.0 - small
            i = j
    return out


def _error_one(x: float, y: float, n: int, floor: float, inv: np.ndarray) -> float:
    """P(Σ_{i ≤ n} G_i ≤ 0) (ties count as failure); errors whose Cramér bound is below ``floor`` are 0
    (and a win probability whose bound is below it is 0, making the error 1), as in ``exact.outcomes``."""
    if x < _TINY:
        x = 0.0
    if y < _TINY:
        y = 0.0
    if n == 0:
        return 1.0
    p = x + y
    if p <= 0.0:
        return 1.0
    hi_v, lo_v = (x, y) if x >= y else (y, x)
    better = x >= y
    if _floored(x, y, n, floor):
        return 0.0 if better else 1.0
    if lo_v == 0.0:  # ρ = 1: only J = 0 can give ΣG ≤ 0 (x ≥ y), and the win is impossible (x < y)
        if not better:
            return 1.0
        z0 = 1.0 - x
        return 0.0 if z0 <= 0.0 else math.exp(n * math.log(z0))
    p = min(p, 1.0)
    z = max((1.0 - hi_v) - lo_v, 0.0)
    rho, sig = hi_v / p, lo_v / p
    diff = (hi_v - lo_v) / p
    root = 2.0 * math.sqrt(x * y)
    if z < _TINY:  # J = n almost surely: the conditional tail at j = n alone
        small = _tail_sum_full(n, rho, sig, diff, not better)
    else:
        small = _tail_sum(n, p, z, rho, sig, diff, root, not better, inv)
    small = min(max(small, 0.0), 1.0)
    return small if better else 1.0 - small


def _tail_sum_full(n: int, rho: float, sig: float, diff: float, strict: bool) -> float:
    """C_n (J = n with probability 1): P(V < n/2) (strict) or P(V ≤ n/2), V ~ Binomial(n, ρ), summed
    downward from ⌊n/2⌋ (all terms positive)."""
    top = n // 2
    if strict and n % 2 == 0:
        top -= 1
    if top < 0:
        return 0.0
    term = _binom_pmf(top, n, rho, sig)
    total = 0.0
    u = top
    while term > 0.0:
        total += term
        if u == 0 or term < _SUM_TOL * total:
            break
        term *= (u / (n - u + 1.0)) * (sig / rho)
        u -= 1
    return total


#: The functions compiled by numba, callees first (each resolves the others as compiled globals).
_COMPILED_NAMES = (
    "_stirlerr",
    "_bd0",
    "_binom_pmf",
    "_reciprocals",
    "_centre",
    "_floored",
    "_fill_chain",
    "_weighted_sum",
    "_bounds",
    "_tail_sum",
    "_tail_sum_full",
    "_error_one",
    "_errors_grid",
)
_compiled = False


def jit(func: Callable[..., Any], njit: Callable[..., Any]) -> Any:
    """``njit(cache=True)(func)``, or ``njit(func)`` without an on-disk cache when numba finds no
    writable cache folder (a read-only package folder and HOME: numba then raises "cannot cache
    function"; the kernel still compiles, only in every new process)."""
    try:
        return njit(cache=True)(func)
    except RuntimeError as exc:
        if "cannot cache" not in str(exc):
            raise
        return njit(cache=False)(func)


def compile_kernel() -> bool:
    """Compile the kernel's functions with numba (once per process); whether they are compiled."""
    global _compiled
    if _compiled or not AVAILABLE:
        return _compiled
    from numba import njit

    namespace = globals()
    for name in _COMPILED_NAMES:
        namespace[name] = jit(namespace[name], njit)
    _compiled = True
    return True


def sweep_errors(x: np.ndarray, y: np.ndarray, n: int, floor: float = 0.0) -> np.ndarray:
    """:func:`sweep_error_grid` for one n, shaped like ``x``."""
    return sweep_error_grid(x, y, [n], floor)[0].reshape(np.shape(x))


def sweep_error_grid(
    x: np.ndarray, y: np.ndarray, n_items: Sequence[int], floor: float = 0.0
) -> np.ndarray:
    """P(ΣG ≤ 0) over n items (ties count as failure) for each (x, y) and each n in ``n_items``, shape
    (len(n_items), len(x)); compiled when numba is installed.

    Equal to ``tie + loss`` of :func:`humanly.budget.outcomes` (relative error ≤ 1e-12 against
    mpmath in the tests). Windows that overlap share their conditional chain, so the small n and the
    pairs n, n + 1 cost little more than one. Without numba the same recurrences run in plain Python
    (slow: tests and small inputs only — the sweep then uses ``outcomes`` instead)."""
    compile_kernel()
    xa = np.ascontiguousarray(np.asarray(x, dtype=float).ravel())
    ya = np.ascontiguousarray(np.asarray(y, dtype=float).ravel())
    ns = np.asarray([int(v) for v in n_items], dtype=np.int64)
    order = np.argsort(ns, kind="stable")
    out = np.empty((ns.size, xa.size))
    out[order] = _errors_grid(xa, ya, np.ascontiguousarray(ns[order]), float(floor))
    return out
