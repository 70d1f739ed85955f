"""The binomial probability C(n, k)·pᵏ·(1 − p)^(n−k), vectorised, by Loader's saddle-point algorithm.

Loader, *Fast and accurate computation of binomial probabilities* (2000) — R's ``dbinom_raw``:

    P(k) = exp(stirlerr(n) − stirlerr(k) − stirlerr(n − k) − bd0(k, np) − bd0(n − k, nq))
           / sqrt(2π k (1 − k/n)),

where ``stirlerr`` is the error of Stirling's formula and ``bd0(x, m) = x log(x/m) + m − x`` is computed
without cancellation near x = m. The relative error is ~1e-15 for every n, where exp(lgamma(n + 1) − …)
loses ~n·1e-16 to cancellation. It needs numpy only: the exact engine of ``humanly budget win`` then
loads no ``scipy.stats`` (a third of a second at start-up). The compiled sweep kernel (``_kernel``) uses
the same algorithm, scalar and with the same constants.

>>> import math
>>> exact = math.comb(10, 3) * 0.3**3 * 0.7**7
>>> abs(float(binom_pmf(3, 10, 0.3)) / exact - 1) < 1e-14
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["LN_2PI", "STIRLERR", "STIRLERR_SERIES", "binom_pmf"]

#: the coefficients of Stirling's series 1/12, 1/360, 1/1260, 1/1680, 1/1188
STIRLERR_SERIES = (1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188)
LN_2PI = math.log(2.0 * math.pi)
#: stirlerr(k) = log(k!) − (k + ½)log k + k − ½log(2π) for k = 1..15 (k = 0: 0, unused).
STIRLERR = np.array(
    [0.0]
    + [math.lgamma(k + 1.0) - (k + 0.5) * math.log(k) + k - 0.5 * LN_2PI for k in range(1, 16)]
)


def _stirlerr(k: np.ndarray) -> np.ndarray:
    """log(k!) − (k + ½)log k + k − ½log(2π) for whole numbers k ≥ 1 (a table up to 15, then the
    series with as many terms as double precision needs)."""
    s0, s1, s2, s3, s4 = STIRLERR_SERIES
    out = np.empty_like(k)
    small = k <= 15.0
    out[small] = STIRLERR[k[small].astype(np.int64)]
    big = ~small
    x = k[big]
    kk = x * x
    series = np.where(
        x > 500.0,
        (s0 - s1 / kk) / x,
        np.where(
            x > 80.0,
            (s0 - (s1 - s2 / kk) / kk) / x,
            np.where(
                x > 35.0,
                (s0 - (s1 - (s2 - s3 / kk) / kk) / kk) / x,
                (s0 - (s1 - (s2 - (s3 - s4 / kk) / kk) / kk) / kk) / x,
            ),
        ),
    )
    out[big] = series
    return out


def _bd0(x: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """x·log(x/mean) + mean − x, by a series without cancellation when x ≈ mean (x, mean > 0)."""
    near = np.abs(x - mean) < 0.1 * (x + mean)
    out = np.empty_like(x)
    far = ~near & (x > 0)
    out[far] = x[far] * np.log(x[far] / mean[far]) + mean[far] - x[far]
    none = ~near & (x <= 0)  # x log(x/m) → 0 as x → 0
    out[none] = mean[none]
    if near.any():
        xn, mn = x[near], mean[near]
        v = (xn - mn) / (xn + mn)
        s = (xn - mn) * v
        ej = 2.0 * xn * v
        v2 = v * v
        for j in range(1, 1000):  # |v| < 1/10: each term is < 1/100 of the last
            ej = ej * v2
            s_next = s + ej / (2 * j + 1)
            if np.array_equal(s_next, s):
                break
            s = s_next
        out[near] = s
    return out


def binom_pmf(k: Any, n: Any, p: Any) -> np.ndarray:
    """P(Binomial(n, p) = k), broadcast over arrays; 0 outside 0 ≤ k ≤ n (k, n whole numbers)."""
    k, n, p = np.broadcast_arrays(
        np.asarray(k, dtype=float), np.asarray(n, dtype=float), np.asarray(p, dtype=float)
    )
    out = np.zeros(k.shape)
    q = 1.0 - p
    inside = (k >= 0) & (k <= n)
    # degenerate p (or n = 0): all mass at k = 0 (p = 0) or k = n (p = 1)
    zero_p = inside & ((p == 0.0) | (n == 0))
    one_p = inside & (q == 0.0) & ~zero_p
    out[zero_p] = (k[zero_p] == 0).astype(float)
    out[one_p] = (k[one_p] == n[one_p]).astype(float)
    live = inside & ~zero_p & ~one_p
    first = live & (k == 0)
    last = live & (k == n) & ~first
    mid = live & ~first & ~last
    if first.any():
        nn, pp, qq = n[first], p[first], q[first]
        out[first] = np.exp(np.where(pp < 0.1, -_bd0(nn, nn * qq) - nn * pp, nn * np.log(qq)))
    if last.any():
        nn, pp, qq = n[last], p[last], q[last]
        out[last] = np.exp(np.where(qq < 0.1, -_bd0(nn, nn * pp) - nn * qq, nn * np.log(pp)))
    if mid.any():
        kk, nn, pp, qq = k[mid], n[mid], p[mid], q[mid]
        lc = (
            _stirlerr(nn)
            - _stirlerr(kk)
            - _stirlerr(nn - kk)
            - _bd0(kk, nn * pp)
            - _bd0(nn - kk, nn * qq)
        )
        # log(k (1 − k/n)) as log k + log(n − k) − log n: n − k is exact, where 1 − k/n loses digits
        # when k is close to n (R's log1p(−k/n) does)
        lf = LN_2PI + np.log(kk) + np.log(nn - kk) - np.log(nn)
        out[mid] = np.exp(lc - 0.5 * lf)
    return out
