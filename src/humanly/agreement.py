"""Agreement statistics computed from per-item class counts (vectorised over items).

Everything here depends only on how many raters chose each class for each item, so it applies equally
to named raters and to anonymous counts. Items with fewer than two labels carry no pair of raters and
are left out of every pair-based statistic.
"""

from __future__ import annotations

import numpy as np

from ._counts import pairwise_agreement

__all__ = [
    "fleiss_kappa",
    "krippendorff_alpha_nominal",
    "mean_pairwise_agreement",
    "pairwise_agreement",
]


def mean_pairwise_agreement(counts: np.ndarray) -> float:
    """Mean over items with at least two labels of :func:`pairwise_agreement` (NaN if none)."""
    per_item = pairwise_agreement(counts)
    ok = ~np.isnan(per_item)
    return float(per_item[ok].mean()) if ok.any() else float("nan")


def fleiss_kappa(counts: np.ndarray) -> float:
    """Fleiss' kappa (Fleiss 1971), generalised to unequal numbers of raters per item.

    Generalisation used: the observed agreement is the mean over items of the per-item pairwise
    agreement ``P_i = Σ_c n_ic (n_ic − 1) / (n_i (n_i − 1))`` (items with ``n_i ≥ 2``), and chance
    agreement ``P_e = Σ_c p_c²`` with ``p_c`` the share of class ``c`` among all labels of those items.
    With equal ``n_i`` this is exactly Fleiss' kappa. NaN when ``P_e = 1`` (a single class is used).
    """
    c = np.asarray(counts, dtype=np.float64)
    n = c.sum(axis=1)
    use = n >= 2
    if not use.any():
        return float("nan")
    c = c[use]
    p_bar = float(pairwise_agreement(c).mean())
    p_c = c.sum(axis=0) / c.sum()
    p_e = float((p_c**2).sum())
    if np.isclose(p_e, 1.0):
        return float("nan")
    return (p_bar - p_e) / (1.0 - p_e)


def krippendorff_alpha_nominal(counts: np.ndarray) -> float:
    """Krippendorff's alpha for nominal data, from the coincidence matrix of per-item counts.

    ``o_ck = Σ_i n_ic (n_ik − [c = k]) / (n_i − 1)`` over pairable items (``n_i ≥ 2``);
    ``α = 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k`` with ``n_c = Σ_k o_ck`` and ``n = Σ_c n_c``
    (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"). NaN when only one class occurs.
    """
    c = np.asarray(counts, dtype=np.float64)
    n_i = c.sum(axis=1)
    use = n_i >= 2
    if not use.any():
        return float("nan")
    c, n_i = c[use], n_i[use]
    w = c / (n_i - 1)[:, None]
    o = c.T @ w - np.diag(w.sum(axis=0))
    n_c = o.sum(axis=1)
    n = n_c.sum()
    disagree_obs = n - np.trace(o)
    disagree_exp = n * n - float((n_c**2).sum())
    if disagree_exp <= 0:
        return float("nan")
    return float(1.0 - (n - 1) * disagree_obs / disagree_exp)
