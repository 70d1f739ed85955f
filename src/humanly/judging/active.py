"""Active labelling (Zrnic & Candès 2024): which unlabelled items to send to human raters next, and
with what probability, from the judge's uncertainty; the estimate after the labels come back is
:func:`~humanly.judging.judge` with ``options=JudgeOptions(probabilities=selection)``.

The rule. On an unlabelled item the judge's score for model m is f_m (its probability that the model
is right). Were the judge calibrated, the human reference would differ from f_m by a variance of
f_m(1 − f_m); the variance of the weighted estimate is smallest when an item is sent with probability
proportional to the square root of that variance (Zrnic & Candès, section 4), here averaged over the
models::

    u = sqrt(mean_m f_m (1 − f_m)),   π_active = min(max_probability, κ·u),   Σ π_active = A
    π = (1 − mixing)·π_active + mixing·A / pool

so the expected number of items sent is A (``expected_items``); the uniform share (``mixing``) keeps
every weight 1/π bounded.

With strata (``JudgeOptions(strata=...)``, ``--strata COLUMN``) A is first split across the strata by
the Neyman allocation, a_h ∝ P_h·σ_h (P_h the stratum's unlabelled items, σ_h the spread of the PPI++
rectifier Y − λ·f on its labelled items, or the judge's own uncertainty when too few are labelled;
at least 2 expected items per stratum), and the rule above runs inside each stratum with a_h
(:mod:`humanly.judging._select_strata`); :attr:`Selection.strata` records the split.

Each item is then sent independently with probability π (Bernoulli sampling), drawn from
``humanly._core.rng.stream(seed, 0)`` over the items in sorted-id order, so the same data and seed
select the same items whatever the row order. A judge that gives labels has no uncertainty to steer
by: every item (of a stratum) gets the same π, and without strata the estimate afterwards is exactly
PPI.

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
from . import _select_strata
from ._inputs import JudgeInputs, prepare
from .api import JudgeOptions, checked_options, joined

__all__ = ["MIN_PROBABILITY", "Selection", "SelectionStratum", "sampling_probabilities", "select"]


@dataclasses.dataclass(frozen=True, repr=False)
class SelectionStratum(Result):
    """One stratum of a stratified selection: its share of the expected items (Neyman allocation).

    Parameters
    ----------
    stratum : str
        The stratum.
    pool : int
        Its unlabelled items (those that could be sent), P_h.
    n_labelled : int
        Its items with a human label already.
    spread : float
        σ_h, the spread the allocation used (:attr:`Selection.spread_source` says which).
    expected_items : float
        The expected number of its items sent (Neyman: ∝ P_h·σ_h within the bounds).
    proportional : float
        The same under the allocation in proportion to the pools, for comparison.
    n_selected : int
        Its items drawn.

    Examples
    --------
    >>> SelectionStratum("chat", 900, 40, 0.2, 12.5, 18.0, 13).expected_items
    12.5
    """

    stratum: str
    pool: int
    n_labelled: int
    spread: float
    expected_items: float
    proportional: float
    n_selected: int


@dataclasses.dataclass(frozen=True, repr=False)
class Selection(Result):
    """The items to send to human raters next (:func:`select`).

    Parameters
    ----------
    judge : str
        The judge whose uncertainty steered the selection.
    expected_items : float
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
    strata : tuple of SelectionStratum
        With strata, the Neyman allocation of ``expected_items`` across them (empty without).
    spread_source : str or None
        With strata, where the spreads σ_h came from: ``"labelled"`` (the PPI++ rectifier on each
        stratum's labelled items), ``"judge"`` (the judge's uncertainty, too few labelled items) or
        ``"none"`` (neither: the allocation is proportional to the pools).

    Examples
    --------
    >>> s = Selection("llm", 1.0, 2, 1, 0.5, 0.9, 0, ("a", "b"), np.array([0.3, 0.7]), np.array([0, 1]))
    >>> s.selected_items()
    ('b',)
    """

    judge: str
    expected_items: float
    pool: int
    n_selected: int
    mixing: float
    max_probability: float
    seed: int | None
    items: tuple[str | int, ...]
    probability: np.ndarray
    selected: np.ndarray
    notes: tuple[Note, ...] = ()
    strata: tuple[SelectionStratum, ...] = ()
    spread_source: str | None = None

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

    def strata_frame(self) -> pd.DataFrame:
        """One row per stratum of the allocation (empty without strata).

        Returns
        -------
        pandas.DataFrame
            ``stratum``, ``pool``, ``n_labelled``, ``spread``, ``expected_items``,
            ``proportional``, ``n_selected``.

        Examples
        --------
        >>> s = Selection("llm", 1.0, 2, 1, 0.5, 0.9, 0, ("a", "b"), np.array([0.3, 0.7]),
        ...               np.array([0, 1]))
        >>> len(s.strata_frame())
        0
        """
        columns = [f.name for f in dataclasses.fields(SelectionStratum)]
        return pd.DataFrame([s.to_dict() for s in self.strata], columns=columns)


def sampling_probabilities(
    scores: np.ndarray, expected_items: float, *, mixing: float = 0.5, max_probability: float = 0.9
) -> np.ndarray:
    """Each item's probability of being sent to raters, from the judge's scores.

    Proportional to sqrt(mean_m f_m(1 − f_m)) (the judge's uncertainty about the models' correctness),
    capped at ``max_probability``, mixed with the uniform probability, and summing to
    ``expected_items``.

    Parameters
    ----------
    scores : numpy.ndarray
        The judge's score f per item and model (items × models), in [0, 1].
    expected_items : float
        The expected number of items to send: Σ π = ``expected_items`` (at most
        ``max_probability`` × items).
    mixing : float
        The share of the expected items spread uniformly; when positive, every π is at least the
        smallest normal float (``MIN_PROBABILITY``), so every weight 1/π is finite however small
        ``mixing``.
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
    return probabilities(_uncertainty(scores), expected_items, mixing=mixing, cap=max_probability)


def _uncertainty(scores: np.ndarray) -> np.ndarray:
    """u = sqrt(mean_m f_m (1 − f_m)) per item."""
    f = np.asarray(scores, dtype=float)
    return np.sqrt(np.clip(f * (1 - f), 0, None).mean(axis=1))


def select(
    ratings: Any,
    predictions: Any = None,
    gold: Any = None,
    *,
    judge: Any = None,
    expected_items: float,
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
    expected_items : float
        The expected number of items to send (Σ π); at most ``max_probability`` × the pool.
    seed : int or None
        The seed of the draw.
    options : JudgeOptions, optional
        ``mixing`` and ``max_probability`` of the rule; ``strata`` (or a study that carries them)
        splits ``expected_items`` across the strata by the Neyman allocation first (each stratum
        sends at least 2 items in expectation, or all it can), then runs the rule inside each.

    Returns
    -------
    Selection
        Pass it back as ``judge(..., options=JudgeOptions(probabilities=selection))`` once the
        selected items have their labels.

    Raises
    ------
    InputError
        ``expected_items`` ≤ 0, more than the pool can take or (with strata) fewer than the strata's
        minimum, no unlabelled item, or the input errors of :func:`~humanly.judging.judge`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> ids = np.arange(1000)
    >>> p_yes = rng.random(1000)
    >>> llm = pd.DataFrame({"no": 1 - p_yes, "yes": p_yes}, index=ids)
    >>> model = pd.Series(np.where(p_yes > 0.5, "yes", "no"), index=ids)
    >>> human = pd.DataFrame({"item": ids[:50], "rater": "r", "label": model[:50].to_numpy()})
    >>> sel = select(human, {"m": model}, judge=llm, expected_items=100)
    >>> sel.pool, round(float(sel.probability.sum()), 6)
    (950, 100.0)

    With strata (here two halves of the items), the expected items split by the Neyman allocation:

    >>> half = pd.Series(np.where(ids < 500, "a", "b"), index=ids)
    >>> sel = select(human, {"m": model}, judge=llm, expected_items=100,
    ...              options=JudgeOptions(strata=half))
    >>> [s.stratum for s in sel.strata], round(sum(s.expected_items for s in sel.strata), 6)
    (['a', 'b'], 100.0)

    References
    ----------
    Zrnic & Candès, "Active statistical inference", ICML 2024.
    Neyman, "On the two different aspects of the representative method", JRSS 97 (1934).
    """
    opts = checked_options(options)
    missing = check_missing(missing)
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    data = prepare(joined(ratings, predictions, gold, judge, missing, opts), min_labelled=0)
    if len(data.judges) > 1:
        raise InputError(
            f"judge: {len(data.judges)} judges {[j.name for j in data.judges]}; select steers by "
            "one judge's uncertainty: give one (study.judge.select([name]))"
        )
    pool = data.unlabelled
    total = checked_budget(
        expected_items,
        opts.max_probability,
        len(pool),
        "items; lower expected_items (or send every unlabelled item to raters)",
        name="expected_items",
    )
    f_pool = data.scores(pool)
    u = _uncertainty(f_pool)
    strata: tuple[SelectionStratum, ...] = ()
    source = None
    if data.strata is None:
        pi = probabilities(u, total, mixing=opts.mixing, cap=opts.max_probability)
    else:
        pi, strata, source = _stratified(data, f_pool, u, total, opts)
    chosen = draw(pi, None if seed is None else int(seed))
    if strata:
        drawn = np.bincount(_pool_codes(data), weights=chosen, minlength=len(strata))
        strata = tuple(
            dataclasses.replace(s, n_selected=int(d)) for s, d in zip(strata, drawn, strict=True)
        )
    return Selection(
        judge=data.judge_name,
        expected_items=total,
        pool=len(pool),
        n_selected=int(chosen.sum()),
        mixing=float(opts.mixing),
        max_probability=float(opts.max_probability),
        seed=None if seed is None else int(seed),
        items=tuple(data.items[pool].tolist()),
        probability=pi,
        selected=chosen,
        notes=_notes(data.judge_proba is None, bool(strata)),
        strata=strata,
        spread_source=source,
    )


def _pool_codes(data: JudgeInputs) -> np.ndarray:
    """Each pool item's stratum code."""
    assert data.strata is not None
    return data.strata[data.unlabelled]


def _notes(labels: bool, stratified: bool) -> tuple[Note, ...]:
    """What a judge that gives labels means for the selection."""
    if not labels:
        return ()
    return (
        Note("labels_not_probabilities_in_strata" if stratified else "labels_not_probabilities"),
    )


def _stratified(
    data: JudgeInputs, f_pool: np.ndarray, u: np.ndarray, total: float, opts: JudgeOptions
) -> tuple[np.ndarray, tuple[SelectionStratum, ...], str]:
    """π per pool item under the Neyman allocation of ``total`` across the strata, the allocation,
    and where the spreads came from (:mod:`._select_strata`)."""
    assert data.strata is not None
    k = len(data.strata_names)
    codes = _pool_codes(data)
    size = np.bincount(codes, minlength=k)
    cap = float(opts.max_probability)
    _select_strata.checked_total(total, size, cap)
    spread, source = _select_strata.spreads(data, size, f_pool)
    neyman = _select_strata.neyman_split(total, size, spread, cap)
    proportional = _select_strata.neyman_split(total, size, np.ones(k), cap)
    pi = _select_strata.stratum_probabilities(u, codes, neyman, mixing=float(opts.mixing), cap=cap)
    n_lab = np.bincount(data.strata[data.labelled], minlength=k)
    strata = tuple(
        SelectionStratum(
            stratum=name,
            pool=int(size[h]),
            n_labelled=int(n_lab[h]),
            spread=float(spread[h]),
            expected_items=float(neyman[h]),
            proportional=float(proportional[h]),
            n_selected=0,
        )
        for h, name in enumerate(data.strata_names)
    )
    return pi, strata, source
