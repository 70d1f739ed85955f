"""Agreement statistics computed from per-item class counts (vectorised over items), and their
bootstrap intervals over items.

Everything here depends only on how many raters chose each class for each item, so it applies equally
to named raters and to anonymous counts. Items with fewer than two labels carry no pair of raters and
are left out of every pair-based statistic.

All three statistics are functions of a few sums over items (of ``[n_i ≥ 2]``, the per-item pairwise
agreement, the class counts and ``Σ_c n_ic (n_ic − 1) / (n_i − 1)``), and items with the same count
row contribute the same terms. A bootstrap replicate that resamples items with replacement is therefore
a vector of multiplicities over the *distinct* count rows (multinomial, :func:`agreement_replicates`),
and every replicate's statistics come from one matrix product: no loop over replicates recomputes a
statistic, and the cost grows with the number of distinct rows, not items.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.bootstrap import percentile_interval
from .._core.checks import check_int, check_memory, check_probability, check_seed
from .._core.counts import pairwise_agreement, unique_rows
from .._core.progress import task
from .._core.result import Interval, Result
from .._core.rng import stream
from ..data import InputError
from ..errors import setting

__all__ = [
    "AgreementIntervals",
    "agreement_intervals",
    "agreement_replicates",
    "fleiss_kappa",
    "krippendorff_alpha_nominal",
    "mean_pairwise_agreement",
]

#: replicates drawn per block: bounds the (block × distinct rows) weight matrix held at once
_BLOCK_CELLS = 4_000_000


def mean_pairwise_agreement(counts: np.ndarray) -> float:
    """The mean over items with at least two labels of the share of agreeing pairs of raters.

    For an item with ``n ≥ 2`` labels the share is ``Σ_c n_c (n_c − 1) / (n (n − 1))``
    (:func:`humanly._core.counts.pairwise_agreement`); each item weighs the same.

    Parameters
    ----------
    counts : numpy.ndarray
        Items × classes label counts.

    Returns
    -------
    float
        The mean pairwise agreement (NaN when no item has two labels).

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[3, 0], [2, 1], [0, 3], [1, 2]])  # items × classes
    >>> round(mean_pairwise_agreement(counts), 4)
    0.6667
    """
    per_item = pairwise_agreement(counts)
    ok = ~np.isnan(per_item)
    return float(per_item[ok].mean()) if ok.any() else float("nan")


def fleiss_kappa(counts: np.ndarray) -> float:
    """Fleiss' kappa, generalised to unequal numbers of raters per item.

    The observed agreement is the mean over items of the per-item pairwise agreement
    ``P_i = Σ_c n_ic (n_ic − 1) / (n_i (n_i − 1))`` (items with ``n_i ≥ 2``), and chance agreement
    ``P_e = Σ_c p_c²`` with ``p_c`` the share of class ``c`` among all labels of those items. With equal
    ``n_i`` this is exactly Fleiss' kappa.

    Parameters
    ----------
    counts : numpy.ndarray
        Items × classes label counts.

    Returns
    -------
    float
        κ (NaN when no item has two labels, or ``P_e = 1``: a single class is used).

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[3, 0], [2, 1], [0, 3], [1, 2]])  # items × classes
    >>> round(fleiss_kappa(counts), 4)
    0.3333

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychological
    Bulletin* 76(5), 378–382.
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
    ``α = 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k`` with ``n_c = Σ_k o_ck`` and ``n = Σ_c n_c``.

    Parameters
    ----------
    counts : numpy.ndarray
        Items × classes label counts.

    Returns
    -------
    float
        α (NaN when no item has two labels, or only one class occurs).

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[3, 0], [2, 1], [0, 3], [1, 2]])  # items × classes
    >>> round(krippendorff_alpha_nominal(counts), 4)
    0.3889

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication, University of Pennsylvania.
    """
    c = np.asarray(counts, dtype=np.float64)
    n_i = c.sum(axis=1)
    use = n_i >= 2
    if not use.any():
        return float("nan")
    c, n_i = c[use], n_i[use]
    w = c / (n_i - 1)[:, None]
    # the coincidence matrix's row sums and trace, without the classes × classes matrix itself
    # (memory grows with items × classes, not classes²)
    w_c = w.sum(axis=0)
    n_c = c.T @ (n_i / (n_i - 1)) - w_c
    n = n_c.sum()
    disagree_obs = n - (float((c * w).sum()) - float(w_c.sum()))
    disagree_exp = n * n - float((n_c**2).sum())
    if disagree_exp <= 0:
        return float("nan")
    return float(1.0 - (n - 1) * disagree_obs / disagree_exp)


# ---------------------------------------------------------------------------- bootstrap over items


@dataclasses.dataclass(frozen=True, repr=False)
class AgreementIntervals(Result):
    """Percentile bootstrap intervals over items of the three agreement statistics.

    Each interval is a JSON ``[low, high]`` pair; an end is ``None`` when no replicate defines it.

    Parameters
    ----------
    pairwise, fleiss_kappa, krippendorff_alpha : Interval
        The intervals of mean pairwise agreement, Fleiss' κ and nominal Krippendorff's α.
    level : float
        Their confidence level.
    bootstrap : int
        The replicates behind them.
    seed : int
        The seed used (one drawn from a Generator, or fresh entropy for ``seed=None``, is recorded
        too, so every run can be replayed).

    Examples
    --------
    >>> ci = agreement_intervals([[3, 0], [2, 1], [0, 3], [1, 2]], bootstrap=200)
    >>> ci.pairwise.low <= ci.pairwise.high, ci.level, ci.bootstrap
    (True, 0.95, 200)
    """

    pairwise: Interval
    fleiss_kappa: Interval
    krippendorff_alpha: Interval
    level: float
    bootstrap: int
    seed: int


def _features(rows: np.ndarray) -> np.ndarray:
    """Per distinct count row, the additive terms of the three statistics (zero for rows with fewer
    than two labels): ``[1, P_i, n_i1 … n_iC, Σ_c n_ic (n_ic − 1) / (n_i − 1)]``."""
    c = rows.astype(np.float64)
    n = c.sum(axis=1)
    ok = n >= 2
    same = (c * (c - 1)).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_i = np.where(ok, same / (n * (n - 1)), 0.0)
        t_i = np.where(ok, same / (n - 1), 0.0)
    return np.column_stack([ok.astype(np.float64), p_i, c * ok[:, None], t_i])


def _statistics(sums: np.ndarray) -> np.ndarray:
    """(replicates × 3) pairwise agreement, Fleiss' kappa and Krippendorff's alpha from the summed
    :func:`_features` of each replicate, with the same rules as the plain functions (NaN when there is
    no pairable item, when chance agreement is 1, when only one class occurs)."""
    m, p_sum, n_c, trace = sums[:, 0], sums[:, 1], sums[:, 2:-1], sums[:, -1]
    n = n_c.sum(axis=1)
    sq = (n_c**2).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_bar = np.where(m > 0, p_sum / m, np.nan)
        p_e = sq / (n * n)
        kappa = np.where(np.isclose(p_e, 1.0), np.nan, (p_bar - p_e) / (1.0 - p_e))
        d_exp = n * n - sq
        alpha = np.where(d_exp > 0, 1.0 - (n - 1) * (n - trace) / d_exp, np.nan)
    return np.column_stack([p_bar, kappa, alpha])


def _seed_int(seed: Any) -> int:
    """An int seed: a Generator is asked for one and ``None`` draws fresh entropy, so that replicate
    streams can be derived from it and the run replayed from the seed the result records."""
    seed = check_seed("seed", seed)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2**63))
    if seed is None:
        entropy = np.random.SeedSequence().entropy  # an int when drawn fresh
        assert isinstance(entropy, int)
        return entropy
    return int(seed)


def _counts_matrix(counts: Any) -> np.ndarray:
    """``counts`` as an int64 items × classes matrix; one sentence naming ``counts=`` otherwise."""
    try:
        arr = np.asarray(counts)
        ok = arr.ndim == 2 and arr.dtype.kind in "iuf" and bool(np.all(arr >= 0))
        ok = ok and bool(np.all(arr == np.floor(arr)))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise InputError(
            f"{setting('counts', type(counts).__name__, raw=True)}: give an items × classes matrix of "
            "non-negative "
            "whole numbers (how many raters chose each class for each item)"
        )
    return arr.astype(np.int64)


def agreement_replicates(counts: Any, *, bootstrap: int = 1000, seed: Any = 0) -> np.ndarray:
    """Bootstrap replicates over items of pairwise agreement, Fleiss' kappa and Krippendorff's alpha.

    Replicate ``i`` draws, from :func:`humanly._core.rng.stream` ``(seed, i)``, how many times each
    distinct count row is drawn: ``multinomial(n_items, multiplicity / n_items)`` over the rows of
    :func:`humanly._core.counts.unique_rows` in its order — the same law as drawing ``n_items`` item
    indices uniformly. The statistics of all replicates of a block come from one product of the weight matrix
    with the rows' :func:`_features`. Item order never matters (distinct rows are sorted).

    Parameters
    ----------
    counts : array-like
        Items × classes label counts.
    bootstrap : int
        The number of replicates.
    seed : int, numpy.random.Generator or None
        The seed of the replicate streams.

    Returns
    -------
    numpy.ndarray
        ``bootstrap`` × 3: pairwise agreement, κ and α of each replicate (NaN where undefined).

    Raises
    ------
    InputError
        For counts that are not an items × classes matrix of whole numbers.

    Examples
    --------
    >>> agreement_replicates([[2, 0], [1, 1], [0, 2]], bootstrap=3).shape
    (3, 3)
    """
    b = check_int("bootstrap", bootstrap, minimum=0)
    check_memory(f"{setting('bootstrap', b)}", 24.0 * b, "give fewer replicates")
    seed_ = _seed_int(seed)
    c = _counts_matrix(counts)
    if len(c) == 0:
        return np.full((b, 3), np.nan)
    rows, _, mult = unique_rows(c)
    feats = _features(rows)
    n_items = int(mult.sum())
    p = mult / n_items
    block = max(1, min(b, _BLOCK_CELLS // max(len(rows), 1)))
    out = np.empty((b, 3))
    with task("bootstrap", b) as bar:
        for start in range(0, b, block):
            stop = min(b, start + block)
            w = np.stack([stream(seed_, i).multinomial(n_items, p) for i in range(start, stop)])
            out[start:stop] = _statistics(w.astype(np.float64) @ feats)
            bar.advance(stop - start)
    return out


def agreement_intervals(
    counts: Any, *, bootstrap: int = 1000, seed: Any = 0, level: float = 0.95
) -> AgreementIntervals:
    """Percentile bootstrap intervals over items of pairwise agreement, Fleiss' κ and Krippendorff's α.

    The replicates are :func:`agreement_replicates`'; each interval runs between the
    ``(1 − level)/2`` and ``(1 + level)/2`` order statistics of the replicates where the statistic is
    defined (:func:`humanly._core.bootstrap.percentile_interval`).

    Parameters
    ----------
    counts : array-like
        Items × classes label counts.
    bootstrap : int
        The number of replicates.
    seed : int, numpy.random.Generator or None
        The seed of the replicate streams (the int used is recorded).
    level : float
        The confidence level, strictly between 0 and 1.

    Returns
    -------
    AgreementIntervals
        The three intervals with their level, replicates and seed.

    Raises
    ------
    InputError
        For counts that are not counts, or ``level``/``bootstrap`` out of range.

    Examples
    --------
    >>> agreement_intervals([[3, 0], [3, 0], [0, 3], [2, 1]], bootstrap=100).fleiss_kappa.high
    1.0
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    seed_ = _seed_int(seed)  # the int actually used, so that the intervals can be replayed
    values = agreement_replicates(counts, bootstrap=bootstrap, seed=seed_)
    pairwise, kappa, alpha = (percentile_interval(values[:, j], level) for j in range(3))
    return AgreementIntervals(
        pairwise=pairwise,
        fleiss_kappa=kappa,
        krippendorff_alpha=alpha,
        level=float(level),
        bootstrap=len(values),
        seed=seed_,
    )
