"""Agreement between named raters, shared by the upper bound (eqs. 2 and 8) and the curve (Fig. 3).

>>> from humanly import Ratings
>>> r = Ratings.from_long([0, 0, 1, 1], ["a", "b", "a", "b"], [0, 0, 0, 1])
>>> a, common, _ = named_agreement(r)
>>> a.tolist(), offdiag_mean(a)
([[1.0, 0.5], [0.5, 1.0]], 0.5)
"""

from __future__ import annotations

import numpy as np

from ..data import Ratings

__all__ = ["named_agreement", "offdiag_mean"]


def named_agreement(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """K × K agreement P(ℓᵢ = ℓⱼ) over items both labelled, the number of such items, and the
    items × raters code matrix (-1: no label)."""
    mat = ratings.matrix()
    labelled = (mat >= 0).astype(np.float64)
    common = labelled.T @ labelled
    agree = np.zeros_like(common)
    for c in range(ratings.n_classes):
        y = (mat == c).astype(np.float64)
        agree += y.T @ y
    with np.errstate(invalid="ignore", divide="ignore"):
        a = agree / common
    a[common == 0] = np.nan
    return a, common, mat


def offdiag_mean(a: np.ndarray) -> float:
    """Mean of the off-diagonal entries that are defined (NaN when none is)."""
    k = a.shape[0]
    off = a[~np.eye(k, dtype=bool)]
    off = off[~np.isnan(off)]
    return float(off.mean()) if off.size else float("nan")
