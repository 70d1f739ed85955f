"""The chance-corrected agreement coefficients that need only per-item class counts, their Gwet
variances, and the sufficient statistics that make every bootstrap replicate one matrix product.

Notation (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed., ch. 2–5): item i has ``r_ik``
labels in class k and ``r_i`` labels in all; ``W`` is the weight matrix; ``r*_ik = Σ_l w_kl r_il``;
items with ``r_i ≥ 2`` are *pairable* (n₂ of the n items with a label).

* percent agreement ``p_a = (1/n₂) Σ_i Σ_k r_ik (r*_ik − 1) / (r_i (r_i − 1))`` over pairable items;
* Fleiss' κ, per-item shares (Gwet's Handbook and irrCAC): ``π_k = (1/n) Σ_i r_ik / r_i`` over all n
  items, ``p_e = Σ_kl w_kl π_k π_l``;
* Fleiss' κ, pooled shares (humanly's ``inspect`` before 0.1): ``π_k = Σ_i r_ik / Σ_i r_i`` over
  pairable items — Krippendorff's chance model. On full designs (every item the same number of labels)
  the two are the same number;
* Gwet's AC1/AC2: ``p_e = T_w Σ_k π_k (1 − π_k) / (q (q − 1))``, ``T_w = Σ_kl w_kl``, per-item shares;
* Brennan–Prediger: ``p_e = T_w / q²``;
* Krippendorff's α in Gwet's form: ``p_a = (1 − ε) p'_a + ε``, ``ε = 1 / Σ r_i``,
  ``p'_a = Σ_i Σ_k r_ik (r*_ik − 1) / (r_i − 1) / Σ_i r_i``, ``p_e`` with pooled shares. With
  ``W = 1 − δ² / max δ²`` this is Krippendorff's α under the metric δ² exactly; Krippendorff's ordinal
  metric depends on the data, so it is computed from the coincidence matrix instead.

Every coefficient is a smooth function of sums over items of a few per-item terms (:func:`features`).
Items with the same count row give the same terms, so the data are held as distinct rows with a
multiplicity; a bootstrap replicate is a vector of multiplicities, and the coefficients of a block of
replicates come from one product of the multiplicity matrix with the features (:func:`estimates`).

The variances (:func:`variances`) are Gwet's linearisations, conditional on the raters, over items, with
the finite-population correction ``1 − n/N`` (irrCAC's ``N``): ``v = (1 − f) / (n (n − 1)) Σ_i
(x_i − c)²`` where ``x_i`` is item i's linearised term. For α they follow Gwet's R package irrCAC
(``krippen.alpha.raw``, which centres the item terms of ``p'_a`` on ``p'_a``; the Python port irrCAC
0.4.4 centres them on ``p_a`` and so differs slightly). The pooled Fleiss κ has no published variance;
its linearisation here is the same construction, over pairable items. Krippendorff's ordinal metric
moves with the data, so its α has the full delta-method variance (:func:`rank_alpha_variance`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np

from .._core.counts import unique_rows
from .weights import ordinal_scores

__all__ = [
    "COUNT_COEFFICIENTS",
    "CountDesign",
    "chance_corrected",
    "count_rows",
    "estimates",
    "features",
    "rank_alpha_variance",
    "variances",
]

#: the coefficients computed here, by id
COUNT_COEFFICIENTS: tuple[str, ...] = (
    "percent_agreement",
    "fleiss_kappa",
    "fleiss_kappa_pooled",
    "gwet_ac",
    "brennan_prediger",
    "krippendorff_alpha",
    "krippendorff_alpha_weighted",
)

_FIXED = ("one", "two", "pa", "size", "a_w", "a_m")


@dataclasses.dataclass(frozen=True)
class CountDesign:
    """Distinct count rows of the items with at least one label, and the weights.

    ``rows`` (P × q) and ``mult`` (P) are the distinct rows and how many items have each; ``weights``
    are Gwet's (the κ family); ``metric`` are the weights of Krippendorff's metric for α when it is fixed
    (nominal, interval, ratio), ``None`` for the ordinal metric, which comes from the coincidence matrix
    and the classes' ``values``.
    """

    rows: np.ndarray
    mult: np.ndarray
    weights: np.ndarray
    metric: np.ndarray | None
    values: np.ndarray

    @property
    def q(self) -> int:
        return int(self.rows.shape[1])

    @property
    def ordinal(self) -> bool:
        return self.metric is None

    def width(self) -> int:
        """Number of feature columns (:func:`features`)."""
        return len(_FIXED) + 2 * self.q + (self.q * self.q if self.ordinal else 0)


def count_rows(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of an items × classes count matrix among the items with a label, and how many
    items have each (both float), in the order of :func:`humanly._core.counts.unique_rows` on those
    items (by the row read as a number in base ``max + 1``). The same rows, in the same order, as
    :func:`humanly.crowd._conger.patterns` gives anonymous counts, at a fraction of the cost: no
    inverse index, and a ``bincount`` of the codes when they span little.

    >>> rows, mult = count_rows(np.array([[2, 0], [0, 0], [1, 1], [2, 0]]))
    >>> rows.tolist(), mult.tolist()
    ([[2.0, 0.0], [1.0, 1.0]], [2.0, 1.0])
    """
    c = np.asarray(counts, dtype=np.int64)
    q = c.shape[1]
    base = int(c.max()) + 1 if c.size else 1
    if c.size == 0 or q * math.log2(max(base, 2)) >= 62:
        rows, _, mult = unique_rows(c[c.sum(axis=1) > 0])
        return rows.astype(float), mult.astype(float)
    w = base ** np.arange(q, dtype=np.int64)
    code = c @ w  # 0 only for an item without labels
    if base**q <= 4 * len(c) + 2**16:
        every = np.bincount(code, minlength=base**q)
        every[0] = 0
        uniq = np.flatnonzero(every)
        mult = every[uniq]
    else:
        uniq, mult = np.unique(code, return_counts=True)
        keep = uniq > 0
        uniq, mult = uniq[keep], mult[keep]
    rows = (uniq[:, None] // w[None, :]) % base
    return rows.astype(float), mult.astype(float)


def chance_corrected(pa: np.ndarray, pe: np.ndarray) -> np.ndarray:
    """``(p_a − p_e) / (1 − p_e)``, NaN where chance agreement is 1 (only one class is used).

    >>> chance_corrected(np.array([0.9, 1.0]), np.array([0.5, 1.0])).tolist()
    [0.8, nan]
    """
    pa, pe = np.broadcast_arrays(np.asarray(pa, dtype=float), np.asarray(pe, dtype=float))
    denom = 1.0 - pe
    ok = np.abs(denom) > 1e-12
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, (pa - pe) / np.where(ok, denom, 1.0), np.nan)


def _sum_q(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``Σ_k r_ik (r*_ik − 1)``: weighted agreeing ordered pairs of labels of each row."""
    return (rows * (rows @ weights - 1.0)).sum(axis=1)


def features(design: CountDesign) -> np.ndarray:
    """Per distinct row, the additive terms every coefficient is a function of (P × width):
    ``[1, [r≥2], p_a,i [r≥2], r_i [r≥2], a_i(W), a_i(metric), r_ik / r_i, r_ik [r≥2], coincidence]``
    with ``a_i = Σ_k r_ik (r*_ik − 1) / (r_i − 1)`` over pairable rows and the coincidence row
    ``(r_ik r_il − [k = l] r_ik) / (r_i − 1)`` only for the ordinal metric."""
    rows = design.rows
    r = rows.sum(axis=1)
    two = r >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        inv_pairs = np.where(two, 1.0 / (r * (r - 1.0)), 0.0)
        inv_less = np.where(two, 1.0 / (r - 1.0), 0.0)
    sum_w = _sum_q(rows, design.weights)
    sum_m = _sum_q(rows, design.metric) if design.metric is not None else np.zeros(len(rows))
    cols = [
        np.ones(len(rows)),
        two.astype(float),
        sum_w * inv_pairs,
        r * two,
        sum_w * inv_less,
        sum_m * inv_less,
        rows / r[:, None],
        rows * two[:, None],
    ]
    out = np.column_stack(cols)
    if design.ordinal:
        q = design.q
        coin = rows[:, :, None] * rows[:, None, :]
        coin[:, np.arange(q), np.arange(q)] -= rows
        coin = coin.reshape(len(rows), q * q) * inv_less[:, None]
        out = np.column_stack([out, coin])
    return out


def _quad(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``Σ_kl w_kl p_k p_l`` for each row of ``p``."""
    return np.einsum("bk,kl,bl->b", p, w, p)


def estimates(
    sums: np.ndarray, design: CountDesign, which: tuple[str, ...]
) -> dict[str, np.ndarray]:
    """The coefficients named in ``which`` for each row of ``sums`` (replicates × width: the features
    summed with one replicate's multiplicities), and the parts they are made of (``pa``, and ``pe_*``).

    Every value is NaN where it is undefined (no pairable item, chance agreement 1)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return _estimates(np.atleast_2d(sums), design, which)


def _estimates(s: np.ndarray, design: CountDesign, which: tuple[str, ...]) -> dict[str, np.ndarray]:
    q = design.q
    k = len(_FIXED)
    n, n2, pa_sum, size, a_w, a_m = (s[:, j] for j in range(k))
    share, pool = s[:, k : k + q], s[:, k + q : k + 2 * q]
    w = design.weights
    pa = np.where(n2 > 0, pa_sum / n2, np.nan)
    pi = share / n[:, None]
    pooled = pool / size[:, None]
    eps = 1.0 / size
    out: dict[str, np.ndarray] = {"pa": pa}
    total_w = float(w.sum())
    if "percent_agreement" in which:
        out["percent_agreement"] = pa
    if "fleiss_kappa" in which:
        out["pe_fleiss_kappa"] = _quad(pi, w)
        out["fleiss_kappa"] = chance_corrected(pa, out["pe_fleiss_kappa"])
    if "fleiss_kappa_pooled" in which or "krippendorff_alpha_weighted" in which:
        pe_pool = _quad(pooled, w)
        out["pe_fleiss_kappa_pooled"] = out["pe_krippendorff_alpha_weighted"] = pe_pool
        out["fleiss_kappa_pooled"] = chance_corrected(pa, pe_pool)
        pa_alpha = (1.0 - eps) * a_w / size + eps
        out["pa_krippendorff_alpha_weighted"] = pa_alpha
        out["krippendorff_alpha_weighted"] = chance_corrected(pa_alpha, pe_pool)
    if "gwet_ac" in which:
        out["pe_gwet_ac"] = total_w * (pi * (1.0 - pi)).sum(axis=1) / (q * (q - 1))
        out["gwet_ac"] = chance_corrected(pa, out["pe_gwet_ac"])
    if "brennan_prediger" in which:
        out["pe_brennan_prediger"] = np.full(len(s), total_w / (q * q))
        out["brennan_prediger"] = chance_corrected(pa, out["pe_brennan_prediger"])
    if "krippendorff_alpha" in which:
        if design.metric is not None:
            pe_m = _quad(pooled, design.metric)
            pa_m = (1.0 - eps) * a_m / size + eps
        else:
            pa_m, pe_m = _ordinal_parts(s[:, k + 2 * q :], pool, size, design.values)
        out["pa_krippendorff_alpha"], out["pe_krippendorff_alpha"] = pa_m, pe_m
        out["krippendorff_alpha"] = chance_corrected(pa_m, pe_m)
    return out


def _ordinal_parts(
    coin: np.ndarray, pool: np.ndarray, size: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Gwet's ``p_a`` and ``p_e`` of α under Krippendorff's ordinal metric, each replicate with the
    metric of its own marginals (``w = 1 − δ² / max δ²``), from the coincidence sums."""
    b, q = pool.shape
    scores = ordinal_scores(pool, values)  # b × q
    delta = (scores[:, :, None] - scores[:, None, :]) ** 2
    top = delta.reshape(b, q * q).max(axis=1)
    top = np.where(top > 0, top, 1.0)
    d_obs = (coin.reshape(b, q, q) * delta).sum(axis=(1, 2)) / top  # Σ o_kl δ_kl / max
    d_exp = np.einsum("bk,bkl,bl->b", pool, delta, pool) / top
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = 1.0 - (1.0 - 1.0 / size) * d_obs / size  # (1 − ε) p'_a + ε with w = 1 − δ²/max
        pe = 1.0 - d_exp / (size * size)
    return pa, pe


# ------------------------------------------------------------------------------- Gwet's variances
def _gwet(x: np.ndarray, centre: float, mult: np.ndarray, n: float, f: float) -> float:
    """``(1 − f) / (n (n − 1)) Σ_i (x_i − centre)²`` with items as rows × multiplicities."""
    if n < 2:
        return float("nan")
    return float((1.0 - f) / (n * (n - 1.0)) * (mult * (x - centre) ** 2).sum())


def variances(
    design: CountDesign, est: dict[str, np.ndarray], which: tuple[str, ...], population: float
) -> dict[str, float]:
    """Gwet's analytic variance of each coefficient in ``which`` (conditional on the raters, over items),
    from the point estimates ``est`` (:func:`estimates` with the data's own multiplicities).
    ``population`` is the number of items in the population (``inf`` for none): ``f = n / N``."""
    rows, mult, w = design.rows, design.mult, design.weights
    q = design.q
    r = rows.sum(axis=1)
    two = r >= 2
    n = float(mult.sum())
    n2 = float(mult[two].sum())
    f = n / population
    with np.errstate(invalid="ignore", divide="ignore"):
        pa_i = np.where(two, _sum_q(rows, w) / (r * (r - 1.0)), 0.0)
    pa = float(est["pa"][0])
    out: dict[str, float] = {}
    if "percent_agreement" in which:
        out["percent_agreement"] = _gwet(n / n2 * pa_i, pa, mult, n, f)
    for name in ("fleiss_kappa", "gwet_ac", "brennan_prediger"):
        if name not in which:
            continue
        pe = float(est[f"pe_{name}"][0])
        c = float(est[name][0])
        kappa_i = n / n2 * (pa_i - pe * two) / (1.0 - pe)
        if name == "brennan_prediger":
            out[name] = _gwet(kappa_i, c, mult, n, f)
            continue
        pi = (rows / r[:, None] * mult[:, None]).sum(axis=0) / n
        if name == "fleiss_kappa":
            pe_i = rows @ (w @ pi) / r
        else:
            pe_i = float(w.sum()) / (q * (q - 1)) * (rows @ (1.0 - pi)) / r
        x = kappa_i - 2.0 * (1.0 - c) * (pe_i - pe) / (1.0 - pe)
        out[name] = _gwet(x, c, mult, n, f)
    if "fleiss_kappa_pooled" in which:
        out["fleiss_kappa_pooled"] = _pooled_variance(design, est, f)
    for name in ("krippendorff_alpha", "krippendorff_alpha_weighted"):
        if name in which:
            out[name] = _alpha_variance(design, est, name, f)
    return out


def _pairable(design: CountDesign) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray]:
    """Pairable rows, their sizes and multiplicities, the mean size r̄ and the pooled class shares."""
    r_all = design.rows.sum(axis=1)
    keep = r_all >= 2
    rows, mult, r = design.rows[keep], design.mult[keep], r_all[keep]
    r_bar = float((mult * r).sum() / mult.sum())
    pooled = (rows * mult[:, None]).sum(axis=0) / float((mult * r).sum())
    return rows, mult, r, r_bar, pooled


def _pooled_variance(design: CountDesign, est: dict[str, np.ndarray], f: float) -> float:
    """Linearised variance of Fleiss' κ with pooled shares, over the pairable items: item terms
    ``(p_a,i − p_e)/(1 − p_e) − 2 (1 − κ)(p_e,i − p_e)/(1 − p_e)`` with
    ``p_e,i = Σ_k r_ik (Wπ)_k / r̄ − p_e (r_i − r̄)/r̄`` (the ratio estimator's influence)."""
    rows, mult, r, r_bar, pooled = _pairable(design)
    w = design.weights
    pe = float(est["pe_fleiss_kappa_pooled"][0])
    c = float(est["fleiss_kappa_pooled"][0])
    if pe >= 1.0:  # one class on every pairable item: κ undefined, so is its variance
        return math.nan
    pa_i = _sum_q(rows, w) / (r * (r - 1.0))
    pe_i = rows @ (w @ pooled) / r_bar - pe * (r - r_bar) / r_bar
    x = (pa_i - pe) / (1.0 - pe) - 2.0 * (1.0 - c) * (pe_i - pe) / (1.0 - pe)
    return _gwet(x, c, mult, float(mult.sum()), f)


def _alpha_variance(design: CountDesign, est: dict[str, np.ndarray], name: str, f: float) -> float:
    """Gwet's variance of Krippendorff's α (irrCAC's ``krippen.alpha.raw``), over pairable items,
    centred on ``α' = (p'_a − p_e)/(1 − p_e)``; for the ordinal metric, :func:`rank_alpha_variance`."""
    rows, mult, r, r_bar, pooled = _pairable(design)
    if name == "krippendorff_alpha" and design.metric is None:
        return rank_alpha_variance(
            lambda x: rows @ x, lambda w: (w * mult) @ rows, r, mult, design.values, f
        )
    w = design.weights if name == "krippendorff_alpha_weighted" else design.metric
    assert w is not None
    pe = float(est[f"pe_{name}"][0])
    if pe >= 1.0:  # one class on every pairable item: α undefined, so is its variance
        return math.nan
    n2 = float(mult.sum())
    sum_q = _sum_q(rows, w)
    pa_prime = float((mult * sum_q / (r_bar * (r - 1.0))).sum() / n2)
    alpha_prime = (pa_prime - pe) / (1.0 - pe)
    pa_i = sum_q / (r_bar * (r - 1.0)) - pa_prime * (r - r_bar) / r_bar
    pe_i = rows @ (w @ pooled) / r_bar - pe * (r - r_bar) / r_bar
    x = (pa_i - pe) / (1.0 - pe) - 2.0 * (1.0 - alpha_prime) * (pe_i - pe) / (1.0 - pe)
    return _gwet(x, alpha_prime, mult, n2, f)


def _above_half(c: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``Σ_{k above j} c_k + c_j / 2`` for every class j, classes ranked by value."""
    order = np.argsort(values, kind="stable")
    sorted_c = c[order]
    above = sorted_c.sum() - np.cumsum(sorted_c)
    out = np.empty_like(c)
    out[order] = above + sorted_c / 2.0
    return out


def rank_alpha_variance(
    dot: Callable[[np.ndarray], np.ndarray],
    tdot: Callable[[np.ndarray], np.ndarray],
    size: np.ndarray,
    mult: np.ndarray,
    values: np.ndarray,
    f: float,
) -> float:
    """The delta-method variance of Krippendorff's ordinal α, whose metric depends on the data.

    With ``n_k`` the pairable values in class k, mid-ranks ``s_k = Σ_{g<k} n_g + n_k/2``, ``A = Σ_i
    Σ_{a≠b} (s_a − s_b)² / (r_i − 1)`` and ``B = Σ_kl n_k n_l (s_k − s_l)²``, ``α' = 1 − N A / B``
    (α without Krippendorff's small-sample factor, as Gwet linearises it). Item i's term is ``n`` times
    ``∂α'/∂m_i`` — including the change of every mid-rank with the item's labels — and the variance is
    ``(1 − f)/(n (n − 1)) Σ_i x_i²``, the same form as Gwet's. Gwet's Handbook has no variance for
    this metric (his ordinal weights are fixed); with fixed scores this is exactly his α variance.

    ``dot(x)`` gives ``Σ_k r_ik x_k`` per pairable item, ``tdot(w)`` gives ``Σ_i m_i w_i r_ik`` per
    class; ``size`` and ``mult`` are the items' label counts and multiplicities. This lets the same
    code run on count rows and on per-label codes (:mod:`humanly.crowd._values`).
    """
    n = float(mult.sum())
    if n < 2:
        return float("nan")
    nk = tdot(np.ones(len(size)))
    big_n = float(nk.sum())
    s = ordinal_scores(nk, values)
    rs, rs2 = dot(s), dot(s * s)
    a = (2.0 * size * rs2 - 2.0 * rs * rs) / (size - 1.0)
    big_a = float((mult * a).sum())
    ns, ns2 = float(nk @ s), float(nk @ (s * s))
    big_b = 2.0 * big_n * ns2 - 2.0 * ns * ns
    if big_b <= 0:
        return float("nan")
    g, h = tdot(size / (size - 1.0)), tdot(rs / (size - 1.0))
    c_a = _above_half(4.0 * (s * g - h), values)
    c_b = _above_half(4.0 * big_n * nk * s - 4.0 * ns * nk, values)
    direct = 2.0 * ns2 + 2.0 * big_n * s * s - 4.0 * ns * s
    d_a = a + dot(c_a)
    d_b = dot(direct) + dot(c_b)
    grad = -(size * big_a / big_b + big_n * d_a / big_b - big_n * big_a * d_b / big_b**2)
    x = n * grad
    centre = float((mult * x).sum() / n)
    return float((1.0 - f) / (n * (n - 1.0)) * (mult * (x - centre) ** 2).sum())
