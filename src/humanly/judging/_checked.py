"""The design checks on plain arrays (public through :mod:`humanly.judging.arrays`): do the labelled
items look like a random sample, is the judge one of the models, and how often do the intervals
cover (the coverage table). The machinery is in :mod:`humanly.judging._design` and
:mod:`humanly.judging._crossfit` (agreement); the coverage table is :mod:`humanly.judging._coverage`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._core.checks import check_int, check_probability
from ..errors import InputError
from . import _crossfit, _design
from .extended import DesignCheck, SelfJudgeCheck, SelfJudgeRow

__all__ = ["design_check", "self_judge_check"]


def self_judge_check(judge: Any, models: Mapping[str, Any]) -> SelfJudgeCheck:
    """Is the judge one of the models? Each model's agreement with the judge, and the code
    ``self_judge`` when a model's outputs are the judge's on every item.

    Parameters
    ----------
    judge : array_like
        The judge's output per item (labels, scores, or rows of class probabilities).
    models : mapping of str to array_like
        Each model's output on the same items, in the same order.

    Returns
    -------
    SelfJudgeCheck

    Examples
    --------
    >>> m = np.array([0, 1, 1, 0])
    >>> self_judge_check(m.copy(), {"m": m, "other": 1 - m}).code
    'self_judge'
    """
    rows = []
    for name, out in models.items():
        a = _crossfit.agreement(judge, out)
        rows.append(SelfJudgeRow(str(name), a, a == 1.0))
    return SelfJudgeCheck("self_judge" if any(r.identical for r in rows) else None, tuple(rows))


def design_check(
    columns: Any,
    labelled: Any,
    *,
    strata: Any = None,
    names: Sequence[str] | None = None,
    bins: int = _design.BINS,
    draws: int = _design.DRAWS,
    significance: float = _design.SIGNIFICANCE,
    seed: int | None = 0,
    probabilities: Any = None,
) -> DesignCheck:
    """Compare the judge's outputs on the labelled and the unlabelled items: a permutation
    chi-square test per column (exact under random sampling), Bonferroni across columns.

    Parameters
    ----------
    columns : array_like
        The judge's outputs on every item (items × C): its label codes, its score of each model.
    labelled : array_like of bool
        Whether each item has human labels.
    strata : array_like, optional
        Each item's stratum: items are compared within their stratum (a stratified design samples
        strata at different rates on purpose).
    names : sequence of str, optional
        The columns' names.
    bins : int
        Score columns with more distinct values are cut into this many quantile bins (2–255).
    draws : int
        Random designs drawn per column for the null distribution.
    significance : float
        The check fires (``not_random_sample``) when the combined p-value is below it.
    seed : int or None
        The seed of the draws (column j draws from ``stream(seed, j)``).
    probabilities : array_like, optional
        Sampling probabilities of the design, if known: the estimate weights by them and the check
        does not apply (status ``"weighted"``).

    Returns
    -------
    DesignCheck

    Raises
    ------
    InputError
        Arrays that do not match, ``bins`` or ``draws`` out of range.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> hard = rng.random(2000)
    >>> judge_right = (rng.random(2000) > hard * 0.6).astype(float)
    >>> hardest = hard > np.quantile(hard, 0.9)  # human labels on the hardest 10% only
    >>> design_check(judge_right, hardest).code
    'not_random_sample'
    >>> design_check(judge_right, rng.permutation(hardest)).code is None
    True

    References
    ----------
    Angelopoulos et al., "Prediction-powered inference", *Science* (2023).
    """
    b = check_int("bins", bins, minimum=2, maximum=255)
    d = check_int("draws", draws, minimum=1)
    t = check_probability("significance", significance, open_low=True, open_high=True)
    s = check_int("seed", seed, minimum=0, allow_none=True)
    shape = np.shape(columns)
    count = 1 if len(shape) == 1 else shape[1]
    if names is not None and len(names) != count:
        raise InputError(f"names: {len(names)} names for {count} columns; give one per column")
    return _design.check(
        columns,
        labelled,
        strata=strata,
        names=names,
        bins=b,
        draws=d,
        significance=t,
        seed=s,
        weighted=probabilities is not None,
    )
