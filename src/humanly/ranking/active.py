"""Active selection (Zrnic & Candès 2024), as :mod:`humanly.judging` does it for items: which
judge-only comparisons to send to human voters next, and with what probability; the ranking after the
votes come back is :func:`~humanly.ranking.rank` with ``options=RankOptions(probabilities=selection)``
(inverse-probability weighted, so it stays unbiased).

The rule. A comparison c of models a and b, once labelled, moves the strengths by about
H⁻¹(e_a − e_b)·r_c/n, r_c the rectified residual (s_h − σ·d_h) − Σλ_j(s_j − σ·d_j) of the current PPI++
fit with every judge. Its expected square is estimated from the labelled comparisons on which the
judges voted the same way (each judge: the first model won, the second won, a tie, or mixed votes;
the average over every labelled comparison when a pattern has fewer than 5). What matters is the
adjacent pairs the rank-sets cannot yet order (all adjacent pairs when every one is ordered), each
weighed by the inverse of its variance. So

    u_c = √( E[r² | the judges' votes on c] · Σ_k (g_kᵀ H⁻¹ (e_a − e_b))² / var_k )

with g_k the contrast of the k-th unresolved adjacent pair, and π follows u (water-filling, capped at
``max_probability``) mixed with the uniform share ``mixing`` (:mod:`humanly._core.sampling`), Σπ =
``budget``. Each comparison is then sent independently with probability π, drawn from
``humanly._core.rng.stream(seed, 0)`` over the comparisons in sorted-id order.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.checks import check_choice, check_int
from .._core.result import Result
from .._core.sampling import (
    checked_budget,
    draw,
    probabilities,
    selected_ids,
    selection_frame,
    selection_series,
)
from ..data.matching import check_missing
from ..errors import InputError
from ._bt import component, sigmoid, strengths
from ._design import Design, design
from .api import TIES, RankOptions, as_study, checked_options

__all__ = ["ComparisonSelection", "select"]

#: a judge-vote pattern needs this many labelled comparisons for its own mean squared residual
MIN_PATTERN = 5


@dataclasses.dataclass(frozen=True, repr=False)
class ComparisonSelection(Result):
    """The judge-only comparisons to send to human voters next (:func:`select`).

    Parameters
    ----------
    budget : float
        The expected number of comparisons sent (Σ π).
    pool : int
        The judge-only comparisons that could be sent.
    n_selected : int
        The comparisons drawn.
    mixing, max_probability : float
        The rule's knobs.
    seed : int or None
        The seed of the draw.
    comparisons : tuple
        The pool's comparison ids, sorted.
    probability : numpy.ndarray
        Each one's probability of being sent.
    selected : numpy.ndarray
        1 for the comparisons drawn, else 0.
    codes : tuple of str
        ``no_unresolved_pairs`` when every adjacent pair is already ordered (all of them steer).

    Examples
    --------
    >>> s = ComparisonSelection(1.0, 2, 1, 0.5, 0.9, 0, (4, 7), np.array([0.3, 0.7]),
    ...                         np.array([0, 1]))
    >>> s.selected_comparisons(), s.to_series().to_dict()
    ((7,), {4: 0.3, 7: 0.7})
    """

    budget: float
    pool: int
    n_selected: int
    mixing: float
    max_probability: float
    seed: int | None
    comparisons: tuple[Any, ...]
    probability: np.ndarray
    selected: np.ndarray
    codes: tuple[str, ...] = ()

    def to_series(self) -> pd.Series:
        """Each pool comparison's probability, by comparison id.

        Returns
        -------
        pandas.Series
            What ``RankOptions.probabilities`` takes.

        Examples
        --------
        >>> s = ComparisonSelection(1.0, 2, 1, 0.5, 0.9, 0, (4, 7), np.array([0.3, 0.7]),
        ...                         np.array([0, 1]))
        >>> s.to_series().to_dict()
        {4: 0.3, 7: 0.7}
        """
        return selection_series(self.comparisons, self.probability)

    def selected_comparisons(self) -> tuple[Any, ...]:
        """The ids of the comparisons to send to human voters.

        Returns
        -------
        tuple
            The drawn comparisons' ids, sorted.

        Examples
        --------
        >>> s = ComparisonSelection(1.0, 2, 1, 0.5, 0.9, 0, (4, 7), np.array([0.3, 0.7]),
        ...                         np.array([0, 1]))
        >>> s.selected_comparisons()
        (7,)
        """
        return selected_ids(self.comparisons, self.selected)

    def to_frame(self) -> pd.DataFrame:
        """One row per pool comparison: ``comparison``, ``probability``, ``selected``."""
        return selection_frame("comparison", self.comparisons, self.probability, self.selected)


def _patterns(d: Design, judges: int) -> np.ndarray:
    """Per comparison, the judges' votes as one code: per judge 0 first won, 1 second won, 2 tie,
    3 mixed votes."""
    code = np.zeros(len(d.labelled), dtype=np.int64)
    for j in range(1, judges + 1):
        f, s = d.x[:, 2 * j], d.x[:, 2 * j + 1]
        one = np.where(f == 1, 0, np.where(s == 1, 1, np.where(f + s == 0, 2, 3)))
        code = code * 4 + one
    return code


def _squared_residuals(d: Design, fit: Any, ties: str) -> np.ndarray:
    """E[r² | the judges' vote pattern] for every comparison (see the module docstring)."""
    j = len(d.study.judges)
    pair = d.pair_of
    sig = sigmoid(np.nan_to_num(fit.point[d.first] - fit.point[d.second]))[pair]
    x = d.x
    half = ties == "half"

    def score(k: int) -> tuple[np.ndarray, np.ndarray]:
        f, s = x[:, 2 * k], x[:, 2 * k + 1]
        return (0.5 + 0.5 * (f - s), np.ones_like(f)) if half else (f, f + s)

    s_h, d_h = score(0)
    r = s_h - sig * d_h
    for k in range(1, j + 1):
        s_j, d_j = score(k)
        r = r - fit.lam[k - 1] * (s_j - sig * d_j)
    lab = d.labelled
    pattern = _patterns(d, j)
    n_patterns = 4**j
    count = np.bincount(pattern[lab], minlength=n_patterns)
    total = np.bincount(pattern[lab], weights=r[lab] ** 2, minlength=n_patterns)
    overall = float((r[lab] ** 2).mean())
    mean = np.where(count >= MIN_PATTERN, total / np.maximum(count, 1), overall)
    return mean[pattern]


def _relevance(d: Design, fit: Any) -> tuple[np.ndarray, tuple[str, ...]]:
    """Per pair: how much one more human vote on it informs the unresolved adjacent pairs."""
    from ._ranksets import critical_value, pairs

    ok = np.flatnonzero(np.isfinite(fit.point))
    if len(ok) < 2:
        return np.ones(d.n_pairs), ("no_unresolved_pairs",)
    order = ok[np.argsort(-fit.point[ok], kind="stable")]
    hi, lo = order[:-1], order[1:]
    var = fit.cov[hi, hi] + fit.cov[lo, lo] - 2 * fit.cov[hi, lo]
    sub = fit.cov[np.ix_(ok, ok)]
    c, _ = critical_value(sub, pairs(fit.point[ok], sub), 0.95, 0, None, 0)
    unresolved = fit.point[hi] - fit.point[lo] - c * np.sqrt(np.clip(var, 0, None)) <= 0
    codes: tuple[str, ...] = ()
    if not unresolved.any():
        unresolved[:] = True
        codes = ("no_unresolved_pairs",)
    hi, lo, var = hi[unresolved], lo[unresolved], var[unresolved]
    contrast = fit.inv_hessian[hi] - fit.inv_hessian[lo]  # g_kᵀ H⁻¹ per contrast (K, M)
    effect = contrast[:, d.first] - contrast[:, d.second]  # (K, P)
    return (effect**2 / np.where(var > 0, var, np.inf)[:, None]).sum(axis=0), codes


def select(
    votes: Any,
    *,
    judges: Any = None,
    budget: float,
    ties: Literal["half", "loss", "drop"] = "half",
    missing: Literal["error", "drop"] = "error",
    seed: int | None = 0,
    options: RankOptions | None = None,
) -> ComparisonSelection:
    """Choose the judge-only comparisons to send to human voters next.

    Parameters
    ----------
    votes, judges, ties, missing
        As for :func:`~humanly.ranking.rank` (at least one judge).
    budget : float
        The expected number of comparisons to send (Σ π); at most ``max_probability`` × the pool.
    seed : int or None
        The seed of the draw.
    options : RankOptions, optional
        ``mixing`` and ``max_probability`` of the rule.

    Returns
    -------
    ComparisonSelection
        Pass it back as ``rank(..., options=RankOptions(probabilities=selection))`` once the
        selected comparisons have their human votes.

    Raises
    ------
    InputError
        No judge, no judge-only comparison, a budget ≤ 0 or more than the pool can take, or the
        input errors of :func:`~humanly.ranking.rank`.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> pairs = rng.choice([("a", "b"), ("a", "c"), ("b", "c")], 2000)
    >>> frame = pd.DataFrame({"id": range(2000), "model_a": pairs[:, 0], "model_b": pairs[:, 1],
    ...                       "winner": rng.choice(["model_a", "model_b", "tie"], 2000)})
    >>> sel = select(frame.iloc[:300], judges={"llm": frame}, budget=100)
    >>> sel.pool, round(float(sel.probability.sum()), 6)
    (1700, 100.0)
    """
    check_choice("ties", ties, TIES)
    missing = check_missing(missing)
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    opts = checked_options(options)
    study = as_study(votes, judges, missing)
    if not study.judges:
        raise InputError("judges=None: selecting comparisons needs a judge's votes; give judges=")
    d = design(study)
    every = tuple(range(1, len(study.judges) + 1))
    pool = np.flatnonzero(d.unlabelled_mask(every))
    if not len(pool):
        raise InputError(
            "judges: no comparison has the judges' votes without a human vote; there is nothing to "
            "send to human voters"
        )
    b = checked_budget(
        budget,
        opts.max_probability,
        len(pool),
        "comparisons; lower the budget (or send every judge-only comparison to human voters)",
    )
    main, _, _ = component(d, ties)
    fit = strengths(d, every, "ppi++", ties, main)
    relevance, codes = _relevance(d, fit)
    u = np.sqrt(_squared_residuals(d, fit, ties)[pool] * relevance[d.pair_of[pool]])
    pi = probabilities(np.nan_to_num(u), b, mixing=opts.mixing, cap=opts.max_probability)
    chosen = draw(pi, None if seed is None else int(seed))
    return ComparisonSelection(
        budget=b,
        pool=len(pool),
        n_selected=int(chosen.sum()),
        mixing=float(opts.mixing),
        max_probability=float(opts.max_probability),
        seed=None if seed is None else int(seed),
        comparisons=tuple(study.ids[pool].tolist()),
        probability=pi,
        selected=chosen,
        codes=codes,
    )
