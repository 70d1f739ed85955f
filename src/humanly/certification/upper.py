"""The upper bound for the average rater's oracle accuracy: U⁽ᵗ⁾ (Theorem 1, eq. 2), U⁽ᵉ⁾ (Definition 1,
eq. 8), U_N on N items (eq. 18) and its finite-sample bound sqrt(U_N² + t_u) (Theorem 5, eq. 16).

Two readings of the crowd (``raters=``): ``"slots"`` — an item's labels are exchangeable, so each item
contributes the agreement of two distinct random raters of it, Σ_c n_c(n_c − 1)/(n(n − 1)), with its own
K = n (ragged designs handled item by item); ``"named"`` — identified raters, P(ℓᵢ = ℓⱼ) per pair over the
items both labelled.

>>> round(theoretical_from_empirical(0.939, 3), 3)  # Table 3, SST-2
0.96
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._core.checks import check_number
from .._core.counts import pairwise_agreement
from .._core.result import Note
from ..data import InputError, Ratings
from ..errors import setting
from ._agreement import MATRIX_MAX_RATERS, rater_pairs
from ._bounds import BOUNDS, Sample, Tail
from .lemma2 import lemma2_check
from .result_parts import FiniteBound
from .results import Raters, UpperBound

__all__ = ["UpperPart", "theoretical_from_empirical", "upper_bound"]


def theoretical_from_empirical(empirical: float, k: float) -> float:
    """The theoretical upper bound U⁽ᵗ⁾ from the empirical U⁽ᵉ⁾ and K raters (the paper's Table 3).

    U⁽ᵗ⁾² = 1/K + (K − 1)/K · U⁽ᵉ⁾² (eqs. 2 and 8: the K diagonal terms of eq. 2 are 1, the
    K(K − 1) others average U⁽ᵉ⁾²).

    Parameters
    ----------
    empirical : float
        U⁽ᵉ⁾.
    k : float
        K, the raters per item (≥ 1).

    Returns
    -------
    float
        U⁽ᵗ⁾.

    Raises
    ------
    InputError
        For K below 1.

    References
    ----------
    Q. Xu, C. Walder & C. Xu, *Humanly Certifying Superhuman Classifiers*: Theorem 1, Definition 1,
    Table 3.

    Examples
    --------
    >>> round(theoretical_from_empirical(0.879, 5), 3)  # Table 3, SNLI
    0.904
    """
    check_number("k", k, minimum=1)
    return math.sqrt(1.0 / k + (k - 1.0) / k * empirical * empirical)


@dataclasses.dataclass(frozen=True)
class UpperPart:
    """The upper bound of a dataset with what the rest of certify needs: how the raters were read,
    the tail of every bound for U_N², and notes for the reader."""

    bound: UpperBound
    raters: Raters
    tails: dict[str, Tail]
    notes: tuple[Note, ...]


@dataclasses.dataclass(frozen=True)
class _Agreement:
    """Per-item X_n of eq. 17 (``x``: for the U_N used; ``x_other``: for the other kind) and the
    pooled U⁽ᵉ⁾², U⁽ᵗ⁾²; named raters add the pair counts Lemma 2's check reads."""

    emp2: float
    theo2: float
    x: np.ndarray
    x_other: np.ndarray
    raters: Raters
    notes: tuple[Note, ...]
    matrix: np.ndarray | None = None
    names: tuple[str, ...] | None = None
    pairs: int | None = None
    pairs_below_chance: int | None = None


def upper_bound(
    ratings: Ratings, raters: str, upper: str, delta: float, t_u: float | None
) -> UpperPart:
    """U⁽ᵗ⁾, U⁽ᵉ⁾ and U_N (``upper``: ``"empirical"`` or ``"theoretical"``) of ``ratings`` read as
    ``raters``, with the finite-sample bound under every bound at ``delta`` (or fixed ``t_u``)."""
    counts = ratings.counts
    n_lab = counts.sum(axis=1)
    multi = n_lab >= 2
    if not multi.any():
        raise InputError(
            f"{ratings.source or 'ratings'}: every item has at most one label; the upper bound needs "
            "at least two raters per item (agreement between raters)"
        )
    agr = (
        _named(ratings, n_lab, multi, upper)
        if raters == "named"
        else _slots(counts, n_lab, multi, upper)
    )
    n_u = int(multi.sum())
    u_emp, u_theo = math.sqrt(agr.emp2), math.sqrt(agr.theo2)
    u_used = u_emp if upper == "empirical" else u_theo
    var_u = float(np.var(agr.x, ddof=1)) if n_u >= 2 else 0.0
    var_other = float(np.var(agr.x_other, ddof=1)) if n_u >= 2 else 0.0
    other = "theoretical" if upper == "empirical" else "empirical"
    sample = Sample(n_u, u_used * u_used, var_u)
    tails = {name: b.upper(sample) for name, b in BOUNDS.items()}
    lemma, lemma_notes = lemma2_check(
        n_classes=ratings.n_classes,
        agreement=agr.emp2,
        k=agr.raters.labels_per_item,
        k_items=None if raters == "named" else n_lab[multi],
        theoretical=u_theo,
        empirical=u_emp,
        pairs=agr.pairs,
        pairs_below_chance=agr.pairs_below_chance,
    )
    ub = UpperBound(
        theoretical=u_theo,
        empirical=u_emp,
        n=n_u,
        used=upper,
        upper=u_used,
        finite={b: FiniteBound.upper_of(u_used * u_used, tails[b], delta, t_u) for b in BOUNDS},
        variance=var_u,
        agreement_matrix=agr.matrix,
        raters=agr.names,
        lemma2=lemma,
        variances={upper: var_u, other: var_other},
    )
    return UpperPart(ub, agr.raters, tails, (*agr.notes, *lemma_notes))


def _slots(counts: np.ndarray, n_lab: np.ndarray, multi: np.ndarray, upper: str) -> _Agreement:
    """Slots: per item, agreement of two distinct raters and U⁽ᵗ⁾'s X_n with the item's own K."""
    x_e = pairwise_agreement(counts[multi])
    kk = n_lab[multi].astype(np.float64)
    x_t = 1.0 / kk + (kk - 1.0) / kk * x_e
    kmin, kmax = int(n_lab[multi].min()), int(n_lab[multi].max())
    notes: list[Note] = []
    if kmin == kmax:
        raters = Raters("slots", kmin)
    else:
        raters = Raters("slots", float(kk.mean()), kmin, kmax)
        notes.append(Note("labels_per_item_vary", {"low": kmin, "high": kmax}))
    if int((~multi).sum()):
        notes.append(Note("single_label_items_left_out", {"count": int((~multi).sum())}))
    x, x_other = (x_e, x_t) if upper == "empirical" else (x_t, x_e)
    return _Agreement(float(x_e.mean()), float(x_t.mean()), x, x_other, raters, tuple(notes))


def _named(ratings: Ratings, n_lab: np.ndarray, multi: np.ndarray, upper: str) -> _Agreement:
    """Named: K identified raters, U⁽ᵉ⁾² the mean off-diagonal pair agreement (eq. 8) and U⁽ᵗ⁾² with
    the K ones of the diagonal (eq. 2); the finite-sample X_n is still per item (eq. 17)."""
    if not ratings.has_raters:
        raise InputError(
            f"{setting('rater_mode', 'named')} needs rater ids, but {ratings.source or 'the ratings'} holds "
            f"anonymous counts; use {setting('rater_mode', 'slots')}"
        )
    pairs = rater_pairs(ratings)
    k = pairs.n_raters
    emp2 = pairs.mean_agreement()
    if not math.isfinite(emp2):
        raise InputError(
            f"{ratings.source or 'ratings'}: no two named raters labelled a common item, so "
            f"their agreement is undefined; use {setting('rater_mode', 'slots')}"
        )
    notes: list[Note] = []
    n_pairs, all_pairs = pairs.n_pairs, k * (k - 1) // 2
    if n_pairs < all_pairs:
        notes.append(
            Note("rater_pairs_disjoint", {"count": all_pairs - n_pairs, "pairs": all_pairs})
        )
    if pairs.matrix is None:
        notes.append(Note("sparse_agreement", {"raters": k, "max_raters": MATRIX_MAX_RATERS}))
    theo2 = 1.0 / k + (k - 1.0) / k * emp2
    x_e = pairwise_agreement(ratings.counts[multi])
    n_u = int(multi.sum())
    if not bool((n_lab == k).all()):
        notes.append(Note("incomplete_named_design", {"items": n_u}))
    x_t = 1.0 / n_lab[multi] + (1.0 - 1.0 / n_lab[multi]) * x_e
    x, x_other = (x_e, x_t) if upper == "empirical" else (x_t, x_e)
    names = tuple(str(r) for r in ratings.raters) if ratings.raters is not None else None
    return _Agreement(
        emp2,
        theo2,
        x,
        x_other,
        Raters("named", k),
        tuple(notes),
        pairs.matrix,
        names,
        pairs=n_pairs,
        pairs_below_chance=pairs.below(1.0 / ratings.n_classes),
    )
