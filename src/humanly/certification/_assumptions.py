"""The arithmetic of the gold-label checks of Table 2, each side with its uncertainty.

Every check compares two sides estimated on the same gold items. What is reported is their difference
(the side the assumption says is larger minus the other) with a 95 % interval from the normal
approximation over items: the difference is a smooth function of means over items, so its linearisation
(the delta method, or infinitesimal jackknife) gives each item an influence φ_n with Σ_n φ_n = 0, and
Var ≈ N/(N − 1) · Σ_n φ_n². Deterministic, O(items) (O(labelled pairs) for named raters), and checked
against a bootstrap over items in ``tests/certify/test_certify_oracle.py``. When every item says the same
thing the spread is 0 and a normal interval would be a point; the standard error is then floored at
1.5/n (n: the items that carry weight), so the interval's half-width is at least ≈ 3/n — the "rule of
three" for an event never seen in n trials — and two items can never be evidence at 95 %.

* (a) Theorem 1, slots: per item with c correct of n labels, b = c(c − 1)/(n(n − 1)), o = c/n;
  left = b̄/ō, right = ō.
* (a) Theorem 1, named: per ordered pair p = (i, j) sharing gold items, cond_p = P(ℓᵢ = ℓ* | ℓⱼ = ℓ*) and
  marg_p = P(ℓᵢ = ℓ*) on those items; left and right are their means over pairs.
* (b) Theorem 3: with w_n the weight of "aggregate ≠ oracle" on item n, left = Σ w [model right] / Σ w
  against the largest wrong class x*, Σ w [model says x*] / Σ w; and the conclusion itself,
  L_N − accuracy on the gold items (paired), which Theorem 3 says is ≤ 0.

>>> e = Estimate.of_mean(np.tile([0.1, -0.2, 0.3, 0.0], 25))
>>> round(e.value, 4), [round(x, 4) for x in e.interval()]
(0.05, [0.0145, 0.0855])
>>> Estimate.of_mean(np.array([-1.0, -1.0])).interval().high > 0  # two items are no evidence
True
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy import sparse

from .._core.result import Interval
from ._agreement import pair_sums

__all__ = [
    "LEVEL",
    "METHOD",
    "Estimate",
    "named_theorem1",
    "slots_theorem1",
    "theorem3",
    "theorem3_conclusion",
]

#: the level of every interval of the gold checks
LEVEL = 0.95
_Z = 1.959963984540054  # standard normal quantile at 0.975
#: how the intervals are computed
METHOD = "normal_delta"
#: items × raters × raters up to which the named check uses dense matrices
_DENSE_WORK = 2**28


@dataclasses.dataclass(frozen=True)
class Estimate:
    """A difference ``value`` with its standard error ``se`` (NaN when fewer than two items)."""

    value: float
    se: float

    @classmethod
    def of_influence(cls, value: float, phi: np.ndarray, n_eff: int | None = None) -> Estimate:
        """``value`` with Var ≈ N/(N − 1) · Σ φ² from the items' influences ``phi``, the standard
        error floored at 1.5/``n_eff`` (the items that carry weight; default all)."""
        n = len(phi)
        n_eff = n if n_eff is None else n_eff
        if n < 2 or n_eff < 1 or not math.isfinite(value):
            return cls(value, math.nan)
        se = math.sqrt(n / (n - 1) * float(np.sum(phi * phi)))
        return cls(value, max(se, 1.5 / n_eff))

    @classmethod
    def of_mean(cls, x: np.ndarray) -> Estimate:
        """The mean of ``x`` with its standard error.

        >>> round(Estimate.of_mean(np.tile([1.0, 0.0], 50)).se, 4)
        0.0503
        """
        m = float(np.mean(x))
        return cls.of_influence(m, (x - m) / len(x))

    def interval(self) -> Interval:
        """The 95 % normal interval ``value ± 1.96 se`` (ends ``None`` when se is undefined)."""
        if not math.isfinite(self.se):
            return Interval(None, None)
        return Interval(self.value - _Z * self.se, self.value + _Z * self.se)


def slots_theorem1(counts: np.ndarray, g: np.ndarray) -> tuple[float, float, int, Estimate] | None:
    """Table 2(a), slots: (left, right, items, left − right) pooled over ordered pairs of distinct
    raters of the same item (items with ≥ 2 labels); ``None`` when no item has two labels.

    >>> left, right, n, d = slots_theorem1(np.array([[2, 1], [3, 0], [1, 2]]), np.array([0, 0, 1]))
    >>> round(left, 4), round(right, 4), n, round(d.value, 4)
    (0.7143, 0.7778, 3, -0.0635)
    """
    correct = counts[np.arange(len(g)), g].astype(np.float64)
    nn = counts.sum(axis=1).astype(np.float64)
    m2 = nn >= 2
    if not m2.any():
        return None
    b = correct[m2] * (correct[m2] - 1) / (nn[m2] * (nn[m2] - 1))
    o = correct[m2] / nn[m2]
    both, one = b.mean(), o.mean()
    if not one > 0:
        return float("nan"), float(one), int(m2.sum()), Estimate(math.nan, math.nan)
    left = float(both / one)
    n = len(b)
    phi = ((b - both) / one - both / one**2 * (o - one) - (o - one)) / n
    return left, float(one), int(m2.sum()), Estimate.of_influence(left - float(one), phi)


@dataclasses.dataclass(frozen=True)
class NamedTheorem1:
    """Table 2(a) for named raters: the means over ordered pairs, the share of pairs where it holds,
    the number of pairs and the difference with its uncertainty."""

    left: float
    right: float
    pairs_passed: float
    n_pairs: int
    difference: Estimate


def named_theorem1(
    item: np.ndarray, rater: np.ndarray, hit: np.ndarray, n_items: int, n_raters: int
) -> NamedTheorem1 | None:
    """Table 2(a) for named raters from the gold items' labels (item, rater, whether right; one label
    per item and rater): per ordered pair sharing items where j is right, cond = P(i right | j right)
    and marg = P(i right) on the common items. ``None`` when no pair qualifies.

    Dense R × R matrices when items × R² is small, else sparse pair sums over the co-labelled pairs, with
    the pairs of a rater who gave one label pooled per item (for them cond = marg = whether i is right).
    """
    if n_items * n_raters * n_raters <= _DENSE_WORK:
        return _named_dense(item, rater, hit, n_items, n_raters)
    return _named_sparse(item, rater, hit, n_items, n_raters)


def _named_dense(
    item: np.ndarray, rater: np.ndarray, hit: np.ndarray, n_items: int, n_raters: int
) -> NamedTheorem1 | None:
    """The dense computation (the check's original one, bit for bit) with the influences."""
    lab = np.zeros((n_items, n_raters))
    lab[item, rater] = 1.0
    h = np.zeros((n_items, n_raters))
    h[item, rater] = hit
    both = h.T @ h  # [i, j]: items both right
    j_ok = lab.T @ h  # [i, j]: items both labelled where j is right
    i_ok = h.T @ lab  # [i, j]: items both labelled where i is right
    common = lab.T @ lab
    off = ~np.eye(n_raters, dtype=bool) & (common > 0) & (j_ok > 0)
    if not off.any():
        return None
    cond = both[off] / j_ok[off]
    marg = i_ok[off] / common[off]
    left, right = float(cond.mean()), float(marg.mean())
    p = int(off.sum())
    alpha, beta, gamma, eta = (np.zeros((n_raters, n_raters)) for _ in range(4))
    alpha[off], beta[off] = 1.0 / j_ok[off], cond / j_ok[off]
    gamma[off], eta[off] = 1.0 / common[off], marg / common[off]
    phi = (
        ((h @ alpha) * h).sum(axis=1)
        - ((lab @ beta) * h).sum(axis=1)
        - ((h @ gamma) * lab).sum(axis=1)
        + ((lab @ eta) * lab).sum(axis=1)
    ) / p
    d = Estimate.of_influence(left - right, phi)
    return NamedTheorem1(left, right, float((cond >= marg).mean()), p, d)


def _named_sparse(
    item: np.ndarray, rater: np.ndarray, hit: np.ndarray, n_items: int, n_raters: int
) -> NamedTheorem1 | None:
    """The same check from sparse pair sums; pairs with a single-label rater pooled per item."""
    per_rater = np.bincount(rater, minlength=n_raters)
    single = per_rater[rater] == 1
    m = ~single
    hit = hit.astype(np.int64)
    ones = np.ones(int(m.sum()), dtype=np.int64)
    hm = hit[m]
    i, j, common, j_ok, i_ok, both = pair_sums(
        item[m],
        rater[m],
        n_items,
        n_raters,
        np.flatnonzero(per_rater >= 2),
        [[(ones, hm)], [(hm, ones)], [(hm, hm)]],
        ordered=True,
    )
    keep = j_ok > 0
    i, j, common, j_ok, i_ok, both = (x[keep] for x in (i, j, common, j_ok, i_ok, both))
    cond, marg = both / j_ok, i_ok / common
    # pooled single-label pairs, per item: m raters, c right; M, c_m among multi-label raters
    c_all = np.bincount(item, weights=hit, minlength=n_items)
    m_all = np.bincount(item, minlength=n_items).astype(np.float64)
    c_m = np.bincount(item[m], weights=hit[m], minlength=n_items)
    m_m = np.bincount(item[m], minlength=n_items).astype(np.float64)
    p_single = float(np.sum(c_all * (m_all - 1) - c_m * np.maximum(m_m - 1, 0)))
    h_single = float(np.sum(c_all * (c_all - 1) - c_m * (c_m - 1)))
    p = len(cond) + p_single
    if p == 0:
        return None
    left = (float(cond.sum()) + h_single) / p
    right = (float(marg.sum()) + h_single) / p
    passed = (float((cond >= marg).sum()) + p_single) / p
    shape = (n_raters, n_raters)

    def pair_matrix(v: np.ndarray) -> sparse.csr_matrix:
        return sparse.csr_matrix((v, (i, j)), shape=shape)

    lab = sparse.csr_matrix((np.ones(int(m.sum())), (item[m], rater[m])), shape=(n_items, n_raters))
    h = sparse.csr_matrix((hm.astype(float), (item[m], rater[m])), shape=(n_items, n_raters))
    phi = (
        np.asarray((h @ pair_matrix(1.0 / j_ok)).multiply(h).sum(axis=1)).ravel()
        - np.asarray((lab @ pair_matrix(cond / j_ok)).multiply(h).sum(axis=1)).ravel()
        - np.asarray((h @ pair_matrix(1.0 / common)).multiply(lab).sum(axis=1)).ravel()
        + np.asarray((lab @ pair_matrix(marg / common)).multiply(lab).sum(axis=1)).ravel()
    ) / p
    has = m_all > 0
    return NamedTheorem1(left, right, passed, int(p), Estimate.of_influence(left - right, phi[has]))


def theorem3(
    p: np.ndarray, g: np.ndarray, wrong: np.ndarray, n_cls: int
) -> tuple[float, float, np.ndarray, np.ndarray, Estimate] | None:
    """Table 2(b) with a = the aggregate and b = the model, weighting item n by ``wrong[n]`` (the
    weight of "aggregate ≠ oracle"): (left = P(ℓb = ℓ* | ℓa ≠ ℓ*), the paper's conservative right side
    Σ_{x≠*} P(ℓb = ℓx | ℓa ≠ ℓ*), P(ℓb = x | ℓa ≠ ℓ*) by class, the single wrong-class masses, and
    left − the largest of them); ``None`` when the aggregate is never wrong.

    >>> out = theorem3(np.array([0, 1, 1]), np.array([0, 0, 1]), np.array([1.0, 1.0, 0.0]), 2)
    >>> round(out[0], 4), round(out[4].value, 4)
    (0.5, 0.0)
    """
    w = wrong.sum()
    if w <= 0:
        return None
    dist = np.bincount(p, weights=wrong, minlength=n_cls) / w  # P(ℓb = x | ℓa ≠ ℓ*) by class
    right = wrong * (p == g)
    left = float(right.sum() / w)
    wrong_cls = np.where(p != g, p, -1)
    sel = wrong_cls >= 0
    per_class = np.bincount(wrong_cls[sel], weights=wrong[sel], minlength=n_cls) / w
    top = int(np.argmax(per_class))
    d_n = right - wrong * (wrong_cls == top)
    value = left - float(per_class[top])
    phi = (d_n - value * wrong) / w
    d = Estimate.of_influence(value, phi, int((wrong > 0).sum()))
    return left, 1.0 - left, dist, per_class, d


def theorem3_conclusion(credit: np.ndarray, correct: np.ndarray) -> Estimate:
    """Theorem 3's conclusion on the gold items: mean of (credit against the aggregate − whether the
    model is right), i.e. L_N − accuracy on the same items; Theorem 3 says it is ≤ 0.

    >>> round(theorem3_conclusion(np.array([1.0, 1.0, 0.5]), np.array([1.0, 0.0, 1.0])).value, 4)
    0.1667
    """
    ok = ~np.isnan(credit)
    return Estimate.of_mean(credit[ok] - correct[ok])
