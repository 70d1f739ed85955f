"""Active labelling (Zrnic & Candès 2024): which unlabelled items to send to human raters next, and
with what probability, from the judge's uncertainty; the estimate after the labels come back is
:func:`~humanly.judging.judge` with ``options=JudgeOptions(probabilities=selection)``.

The rule. On an unlabelled item the judge's score for model m is f_m (its probability that the model
is right). Were the judge calibrated, the human reference would differ from f_m by a variance of
f_m(1 − f_m); the variance of the weighted estimate is smallest when an item is sent with probability
proportional to the square root of that variance (Zrnic & Candès, section 4), here averaged over the
models::

    u = sqrt(mean_m f_m (1 − f_m)),   π_active = min(max_probability, κ·u),   Σ π_active = budget
    π = (1 − mixing)·π_active + mixing·budget / pool

so the expected number of items sent is ``budget``; the uniform share (``mixing``) keeps every weight
1/π bounded. Each item is then sent independently with probability π (Bernoulli sampling), drawn from
``humanly._core.rng.stream(seed, 0)`` over the items in sorted-id order, so the same data and seed
select the same items whatever the row order. A judge that gives labels has no uncertainty to steer
by: every item gets the same π, and the estimate afterwards is exactly PPI.

References
----------
Zrnic & Candès, "Active statistical inference", ICML 2024.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.checks import check_int
from .._core.result import Note, Result
from .._core.sampling import (
    MIN_PROBABILITY,
    checked_budget,
    draw,
    probabilities,
    selected_ids,
    selection_frame,
    selection_series,
)
from ..data.matching import check_missing
from ..errors import InputError
from ._inputs import prepare
from .api import JudgeOptions, checked_options, joined

__all__ = ["MIN_PROBABILITY", "Selection", "sampling_probabilities", "select"]


@dataclasses.dataclass(frozen=True, repr=False)
class Selection(Result):
    """The items to send to human raters next (:func:`select`).

    Parameters
    ----------
    judge : str
        The judge whose uncertainty steered the selection.
    budget : float
        The expected number of items sent (Σ π).
    pool : int
        The unlabelled items that could be sent.
    n_selected : int
        The items drawn.
    mixing, max_probability : float
        The rule's knobs (:class:`~humanly.judging.JudgeOptions`).
    seed : int or None
        The seed of the draw.
    items : tuple
        The pool's item ids, in sorted order.
    probability : numpy.ndarray
        Each pool item's probability of being sent.
    selected : numpy.ndarray
        1 for the items drawn, else 0.
    notes : tuple of str
        E.g. a judge that gives labels (uniform probabilities).

    Examples
    --------
    >>> s = Selection("llm", 1.0, 2, 1, 0.5, 0.9, 0, ("a", "b"), np.array([0.3, 0.7]), np.array([0, 1]))
    >>> s.selected_items()
    ('b',)
    """

    judge: str
    budget: float
    pool: int
    n_selected: int
    mixing: float
    max_probability: float
    seed: int | None
    items: tuple[str | int, ...]
    probability: np.ndarray
    selected: np.ndarray
    notes: tuple[Note, ...] = ()

    def to_series(self) -> pd.Series:
        """Each pool item's probability, indexed by item id (what ``JudgeOptions.probabilities`` takes).

        Returns
        -------
        pandas.Series
            ``probability`` by item id, in sorted item order.

        Examples
        --------
        >>> s = Selection("llm", 1.0, 2, 1, 0.5, 0.9, 0, ("a", "b"), np.array([0.3, 0.7]),
        ...               np.array([0, 1]))
        >>> s.to_series().to_dict()
        {'a': 0.3, 'b': 0.7}
        """
        return selection_series(self.items, self.probability)

    def selected_items(self) -> tuple[Any, ...]:
        """The ids of the items to send to raters.

        Returns
        -------
        tuple
            The drawn items' ids, in sorted item order.

        Examples
        --------
        >>> s = Selection("llm", 1.0, 2, 1, 0.5, 0.9, 0, ("a", "b"), np.array([0.3, 0.7]),
        ...               np.array([0, 1]))
        >>> s.selected_items()
        ('b',)
        """
        return selected_ids(self.items, self.selected)

    def to_frame(self) -> pd.DataFrame:
        """One row per pool item: ``item``, ``probability``, ``selected``."""
        return selection_frame("item", self.items, self.probability, self.selected)


def sampling_probabilities(
    scores: np.ndarray, budget: float, *, mixing: float = 0.5, max_probability: float = 0.9
) -> np.ndarray:
    """Each item's probability of being sent to raters, from the judge's scores.

    Proportional to sqrt(mean_m f_m(1 − f_m)) (the judge's uncertainty about the models' correctness),
    capped at ``max_probability``, mixed with the uniform probability, and summing to ``budget``.

    Parameters
    ----------
    scores : numpy.ndarray
        The judge's score f per item and model (items × models), in [0, 1].
    budget : float
        The expected number of items to send: Σ π = ``budget`` (at most ``max_probability`` × items).
    mixing : float
        The share of the budget spread uniformly; when positive, every π is at least the smallest
        normal float (``MIN_PROBABILITY``), so every weight 1/π is finite however small ``mixing``.
    max_probability : float
        The cap on every π (< 1).

    Returns
    -------
    numpy.ndarray
        π per item.

    Examples
    --------
    >>> p = sampling_probabilities(np.array([[0.5], [0.9], [1.0], [0.99]]), 2.0)
    >>> round(float(p.sum()), 12), bool(p[0] > p[1] > p[3] > p[2])
    (2.0, True)

    References
    ----------
    Zrnic & Candès, "Active statistical inference", ICML 2024 (section 4: sampling in proportion to the
    square root of the expected squared error).
    """
    f = np.asarray(scores, dtype=float)
    u = np.sqrt(np.clip(f * (1 - f), 0, None).mean(axis=1))
    return probabilities(u, budget, mixing=mixing, cap=max_probability)


def select(
    ratings: Any,
    predictions: Any = None,
    gold: Any = None,
    *,
    judge: Any = None,
    budget: float,
    missing: Literal["error", "drop"] = "error",
    seed: int | None = 0,
    options: JudgeOptions | None = None,
) -> Selection:
    """Choose the unlabelled items to send to human raters next, steered by the judge's uncertainty.

    Parameters
    ----------
    ratings, predictions, gold, judge, missing
        As for :func:`~humanly.judging.judge` (any number of labelled items, none included; ``gold``
        is not used).
    budget : float
        The expected number of items to send (Σ π); at most ``max_probability`` × the pool.
    seed : int or None
        The seed of the draw.
    options : JudgeOptions, optional
        ``mixing`` and ``max_probability`` of the rule.

    Returns
    -------
    Selection
        Pass it back as ``judge(..., options=JudgeOptions(probabilities=selection))`` once the
        selected items have their labels.

    Raises
    ------
    InputError
        A budget ≤ 0 or more than the pool can take, no unlabelled item, or the input errors of
        :func:`~humanly.judging.judge`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> ids = np.arange(1000)
    >>> p_yes = rng.random(1000)
    >>> llm = pd.DataFrame({"no": 1 - p_yes, "yes": p_yes}, index=ids)
    >>> model = pd.Series(np.where(p_yes > 0.5, "yes", "no"), index=ids)
    >>> human = pd.DataFrame({"item": ids[:50], "rater": "r", "label": model[:50].to_numpy()})
    >>> sel = select(human, {"m": model}, judge=llm, budget=100)
    >>> sel.pool, round(float(sel.probability.sum()), 6)
    (950, 100.0)

    References
    ----------
    Zrnic & Candès, "Active statistical inference", ICML 2024.
    """
    opts = checked_options(options)
    missing = check_missing(missing)
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    data = prepare(joined(ratings, predictions, gold, judge, missing), min_labelled=0)
    if len(data.judges) > 1:
        raise InputError(
            f"judge: {len(data.judges)} judges {[j.name for j in data.judges]}; select steers by "
            "one judge's uncertainty: give one (study.judge.select([name]))"
        )
    pool = data.unlabelled
    b = checked_budget(
        budget,
        opts.max_probability,
        len(pool),
        "items; lower the budget (or send every unlabelled item to raters)",
    )
    pi = sampling_probabilities(
        data.scores(pool), b, mixing=opts.mixing, max_probability=opts.max_probability
    )
    chosen = draw(pi, None if seed is None else int(seed))
    notes: tuple[Note, ...] = ()
    if data.judge_proba is None:
        notes = (Note("labels_not_probabilities"),)
    return Selection(
        judge=data.judge_name,
        budget=b,
        pool=len(pool),
        n_selected=int(chosen.sum()),
        mixing=float(opts.mixing),
        max_probability=float(opts.max_probability),
        seed=None if seed is None else int(seed),
        items=tuple(data.items[pool].tolist()),
        probability=pi,
        selected=chosen,
        notes=notes,
    )
