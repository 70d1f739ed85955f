"""Data as users hold it, joined by item id in one place: :func:`join` (and :func:`humanly.read_study`,
which reads files and calls it) is the only join; every analysis takes its :class:`Study`.

Each analysis accepts the same forms:

* ``ratings``: a :class:`Ratings`, a long DataFrame (crowd-kit ``task, worker, label``), or a file path
  (other layouts and arrays: :func:`humanly.data.read_ratings`, or :func:`humanly.read_study`);
* ``predictions``: a :class:`Predictions`; a file path; a ``dict`` mapping model name → a
  ``pandas.Series`` indexed by item id (labels, or the positive-class probability for two classes), a
  ``pandas.DataFrame`` indexed by item id with one column per class (probabilities), or an array; or
  one such value alone (a model named ``"model"``, or the Series' name);
* ``gold``: a :class:`Gold`, a file path, a ``Series`` indexed by item id, or an array (every entry a
  class; use a Series for gold on a subset of items);
* ``judge``: one or more judges' labels or class probabilities, in any form ``predictions`` takes
  (several judges: a dict, or a :class:`Predictions` with one model per judge).

Series and frames are joined by item id, never by position. **An array without item ids follows the
ratings' items in the order the caller holds them** — ``R.items`` of a :class:`Ratings`, the items in
order of first appearance in the rows of a file or DataFrame (what :func:`read_ratings` gives) — and
is refused with the fix (a ``Series`` indexed by item id) when its length is not the number of those
items: the one rule of :mod:`humanly.data.positional`. Items with ratings but no prediction, and
predictions or gold for items without ratings, are an error naming the counts and the first id unless
``missing="drop"``, which keeps the items both have (gold may cover any subset of the rated items).
With a judge, the items are those the predictions and the judges cover, and rated items are some of
them (:mod:`humanly.data.judged`). :mod:`humanly.data.matching` holds the id rule and its wording.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._canonical import canonical_ratings
from .aligned import as_gold, by_id, outputs_for, read_outputs
from .design import ItemDesign, design_for
from .judged import judged
from .matching import MissingPolicy, align_index, check_missing
from .positional import is_array, keyed
from .predictions import Gold, Predictions
from .ratings import Ratings
from .readers import read_ratings
from .types import GoldLike, JudgeLike, PredictionsLike, RatingsLike

__all__ = ["MissingPolicy", "Study", "as_gold", "as_ratings", "join", "keyed_states"]

_PATH = (str, os.PathLike)


@dataclasses.dataclass(frozen=True)
class Study:
    """Ratings with the predictions, gold labels and judges that go with them, aligned to its items.

    What :func:`humanly.read_study` and :func:`humanly.data.join` return, and what every analysis accepts
    as ``ratings`` (it carries the rest, and is used as it is: no analysis joins again). Unpacks as
    ``ratings, predictions, gold = study``. A study holds its items and raters in the canonical order
    (sorted by id; each item's labels by rater), predictions, gold and judges along: the same data
    give the same random streams, numbers and report bytes whatever the row order of the inputs.

    Parameters
    ----------
    ratings : Ratings
        The crowd's labels. With a judge, every item of the study, those no rater labelled with no
        label (the unlabelled items).
    predictions : Predictions or None
        The models' outputs for exactly the study's items, in the ratings' order.
    gold : Gold or None
        One gold code per item, -1 where an item has no gold label.
    judge : Predictions or None
        The judges' labels or class probabilities for exactly the study's items, in the ratings'
        order: one model per judge, named (several judges are several models). Build it with
        ``join(..., judge=...)`` or ``read_study(..., judge=...)``. Not unpacked with the other three.
    notes : tuple of str
        What the join did that a reader should know: with ``missing="drop"``, how many rows of each
        input it dropped.
    design : ItemDesign or None
        Per item, its stratum and its probability of having been sent to raters, when given
        (``join(..., strata=, sampling_weights=)``, :mod:`humanly.data.design`); in the study's order.

    Raises
    ------
    TypeError
        For a ``judge`` that is not a :class:`Predictions`.
    InputError
        For a ``judge`` over other items than the ratings'.

    Examples
    --------
    >>> import pandas as pd
    >>> r = Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"], classes=[0, 1])
    >>> ratings, predictions, gold = join(r, gold=pd.Series([1], index=["b"]))
    >>> predictions is None, gold.codes.tolist()
    (True, [-1, 1])
    """

    ratings: Ratings
    predictions: Predictions | None = None
    gold: Gold | None = None
    judge: Predictions | None = None
    notes: tuple[str, ...] = ()
    design: ItemDesign | None = None

    def __post_init__(self) -> None:
        _check_judge(self.judge, self.ratings)
        # the canonical order (items and raters sorted by id): the same data give the same random
        # streams, numbers and report bytes whatever the row order of every input
        r, order = canonical_ratings(self.ratings)
        if r is self.ratings:
            return
        object.__setattr__(self, "ratings", r)
        if order is None:
            return
        for field in ("predictions", "judge"):
            p = getattr(self, field)
            if p is not None and len(p.items) == len(order):
                object.__setattr__(self, field, p.take(order))
        if self.design is not None:
            object.__setattr__(self, "design", self.design.take(order))
        g = self.gold
        if g is not None and len(g.items) == len(order):
            object.__setattr__(self, "gold", Gold(r.items, g.classes, g.codes[order], g.source))

    def __iter__(self) -> Iterator[Any]:
        """``ratings, predictions, gold = join(...)``."""
        return iter((self.ratings, self.predictions, self.gold))


def _check_judge(judge: Any, ratings: Ratings) -> None:
    """A study's judges: a :class:`Predictions` over exactly the ratings' items, in their order."""
    if judge is None:
        return
    if not isinstance(judge, Predictions):
        raise TypeError(
            f"Study(judge={type(judge).__name__}): a study holds its judges as a humanly.Predictions "
            "over its items; build it with humanly.data.join(ratings, predictions, gold, judge=...)"
        )
    same = len(judge.items) == ratings.n_items and (
        judge.items.equals(ratings.items)
        or bool((align_index(ratings.items, judge.items) == np.arange(ratings.n_items)).all())
    )
    if not same:
        raise InputError(
            "Study(judge=...): the judges' items are not the ratings' items in their order; build "
            "the study with humanly.data.join(ratings, predictions, gold, judge=...)"
        )


def as_ratings(value: Any, *, name: str = "ratings", canonical: bool = True) -> Ratings:
    """A :class:`Ratings` from a Ratings, a long DataFrame or a file path (``TypeError`` otherwise).

    >>> as_ratings(None)
    Traceback (most recent call last):
    TypeError: ratings=None: give the crowd's labels as a humanly.Ratings, a long DataFrame or a file path
    """
    if isinstance(value, (pd.DataFrame, *_PATH)):
        value = read_ratings(value)
    if isinstance(value, Ratings):
        return canonical_ratings(value)[0] if canonical else value
    if value is None:
        raise TypeError(
            f"{name}=None: give the crowd's labels as a humanly.Ratings, a long DataFrame or a file path"
        )
    if isinstance(value, (np.ndarray, list)):
        shape = np.shape(value)
        raise TypeError(
            f"{name}=array of shape {shape}: say what the array holds — "
            "humanly.data.read_ratings(array, wide=True) for an items × raters label matrix (NaN = missing), "
            "or humanly.Ratings.from_counts(array) for items × classes counts"
        )
    raise TypeError(
        f"{name}={type(value).__name__}: give a humanly.Ratings, a long DataFrame or a file path"
    )


# ------------------------------------------------------------------------------- join
def join(
    ratings: RatingsLike,
    predictions: PredictionsLike | None = None,
    gold: GoldLike | None = None,
    *,
    judge: JudgeLike | None = None,
    missing: MissingPolicy = "error",
    strata: Any = None,
    sampling_weights: Any = None,
) -> Study:
    """Join ratings, predictions, gold labels and judges held in memory by item id.

    The one join of humanly: :func:`humanly.read_study` reads files and calls it, and every analysis
    takes the :class:`Study` it returns as it is. Series and frames are matched by item id, never by
    position. **An array without item ids follows the ratings' items in the order the caller holds
    them** — ``R.items`` of a :class:`Ratings`, the items in order of first appearance in the rows of
    a file or DataFrame (what :func:`humanly.data.read_ratings` gives) — and is refused, with the fix
    (a ``pandas.Series`` indexed by item id), when its length is not the number of those items.

    Parameters
    ----------
    ratings : Ratings, Study, DataFrame, str or path
        The crowd's labels: a :class:`Ratings`, a long DataFrame (crowd-kit's ``task, worker,
        label``) or a file (other layouts: :func:`humanly.read_study`); a :class:`Study` is
        returned as it is (it carries its predictions, gold and judges).
    predictions : Predictions, dict, Series, DataFrame, numpy.ndarray, str, path or None
        A :class:`Predictions`; a file; a dict model name → a Series indexed by item id (labels, or the
        positive-class probability with two classes), a DataFrame indexed by item id with one
        probability column per class, or an array following the ratings' items (items × classes
        only for classes ``0..K-1``); or one such value alone (a model named ``"model"``, or the
        Series' name).
    gold : Gold, Series, numpy.ndarray, str, path or None
        A :class:`Gold`, a file, a Series indexed by item id (any subset of the items), or an array
        following the ratings' items.
    judge : Predictions, dict, Series, DataFrame, numpy.ndarray, str, path or None
        One or more judges' labels or class probabilities, in any form of ``predictions`` (several
        judges: a dict, or one model per judge). The study's items are then those the predictions
        and the judges cover: the rated items are some of them, the others have no label (the
        unlabelled items of :func:`humanly.judge`).
    missing : {"error", "drop"}
        Ids that do not match (rated items without a prediction; predictions, judge outputs or gold
        for items no other input has): an error naming the counts and the first id, or dropped (the
        items every input has are kept).
    strata : Series, numpy.ndarray or None
        Each item's stratum (a prompt category, a bin of the judge's confidence), by item id, for
        every item of the study (``Study.design``; :mod:`humanly.data.design`).
    sampling_weights : Series, numpy.ndarray or None
        Each item's sampling weight 1/π (≥ 1; π its probability of having been sent to human
        raters), by item id, for every item of the study.

    Returns
    -------
    Study
        The ratings in the canonical order (items and raters sorted by id), predictions and judges
        covering exactly its items in that order, and gold holding one code per item (-1: no gold
        label).

    Raises
    ------
    InputError
        For ids that do not match (``missing="error"``), values that are not classes or
        probabilities, or an array whose order is not one the caller holds.
    TypeError
        For a value of a form none of the above.

    Examples
    --------
    >>> import pandas as pd
    >>> r = Ratings.from_counts([[2, 1], [0, 3], [1, 2]], items=["c", "a", "b"], classes=[0, 1])
    >>> s = join(r, {"m": pd.Series([1, 0, 1], index=["c", "a", "b"])})
    >>> list(s.ratings.items), s.predictions.hard("m").tolist()  # by id, held sorted by id
    (['a', 'b', 'c'], [0, 1, 1])
    >>> join(r, {"m": [1, 0, 1]}).predictions.hard("m").tolist()  # an array follows r.items: c, a, b
    [0, 1, 1]
    >>> s = join(r, {"m": pd.Series([1, 0], index=["c", "a"])}, pd.Series([1], index=["c"]),
    ...          missing="drop")
    >>> list(s.ratings.items), s.gold.codes.tolist()
    (['a', 'c'], [-1, 1])
    >>> judged = join(r, {"m": pd.Series(1, index=list("abcd"))}, judge=pd.Series(1, index=list("abcd")))
    >>> judged.ratings.labels_per_item.tolist()  # item d: no human label
    [3, 3, 3, 0]
    """
    missing = check_missing(missing)
    if isinstance(ratings, Study):
        given = [
            k
            for k, v in (("predictions", predictions), ("gold", gold), ("judge", judge))
            if v is not None
        ]
        if given:
            raise InputError(
                "ratings= is a Study, which carries its predictions and gold (and judges); drop "
                + " and ".join(setting(k) for k in given)
                + " (or give them to the join that builds the Study)"
            )
        return _with_design(ratings, strata, sampling_weights, missing)
    study = _join(ratings, predictions, gold, judge, missing)
    return _with_design(study, strata, sampling_weights, missing, keyed_by=ratings)


def _with_design(
    study: Study,
    strata: Any,
    weights: Any,
    missing: MissingPolicy,
    keyed_by: Any = None,
    sources: tuple[str, str] = ("strata", "sampling_weights"),
) -> Study:
    """``study`` with the per-item design joined by item id (:mod:`humanly.data.design`); bare arrays
    follow the items of ``keyed_by``, the ratings as the caller holds them."""
    if strata is None and weights is None:
        return study
    had = study.design or ItemDesign()
    twice = [
        name
        for name, new, old in (
            ("strata", strata, had.strata),
            ("sampling_weights", weights, had.probabilities),
        )
        if new is not None and old is not None
    ]
    if twice:
        raise InputError(f"{twice[0]}: the study already has them; give them once")
    if is_array(strata) or is_array(weights):
        held = as_ratings(keyed_by, canonical=False) if keyed_by is not None else study.ratings
        strata = by_id(strata, held.items, held.classes, "strata") if is_array(strata) else strata
        if is_array(weights):
            weights = by_id(weights, held.items, held.classes, "sampling_weights")
    new = design_for(
        study.ratings.items,
        strata,
        weights,
        missing=missing,
        strata_source=sources[0],
        weights_source=sources[1],
    )
    assert new is not None
    design = ItemDesign(
        new.strata if new.strata is not None else had.strata,
        new.probabilities if new.probabilities is not None else had.probabilities,
        new.strata_source if new.strata is not None else had.strata_source,
        new.weights_source if new.probabilities is not None else had.weights_source,
    )
    return dataclasses.replace(study, design=design)


def _join(ratings: Any, predictions: Any, gold: Any, judge: Any, missing: MissingPolicy) -> Study:
    """The join itself (:func:`join` without its checks): the one place inputs are matched by id."""
    r = as_ratings(
        ratings, canonical=False
    )  # arrays follow the order the caller holds; Study sorts
    predictions = by_id(read_outputs(predictions, r.classes), r.items, r.classes, "predictions")
    if is_array(gold):
        gold = as_gold(gold, r)  # by position in r.items, before any item is added or dropped
    if judge is not None:
        judge = by_id(read_outputs(judge, r.classes), r.items, r.classes, "judge")
        j = judged(r, predictions, gold, judge, missing)
        return Study(j.ratings, j.predictions, j.gold, judge=j.judges, notes=j.notes)
    n_rated = r.n_items
    keep, preds = outputs_for(predictions, r, missing, "predictions")
    # gold is matched to every rated item: ``missing`` is about items with no ratings at all, not
    # about rated items dropped for want of a prediction
    g = None if gold is None else as_gold(gold, r, missing=missing)
    if not keep.all():
        r = r.take(np.flatnonzero(keep))
        if g is not None:
            g = Gold(r.items, r.classes, g.codes[keep], source=g.source)
    notes: tuple[str, ...] = ()
    if missing == "drop":
        notes = _dropped(n_rated, r.n_items, _given(predictions), preds, _given(gold), g)
    return Study(r, preds, g, notes=notes)


def _given(value: Any) -> int | None:
    """How many entries (items with an output or a gold label) an input held, if it says."""
    if isinstance(value, Predictions):
        return len(value.items)
    if isinstance(value, Gold):
        return int((np.asarray(value.codes) >= 0).sum())
    if isinstance(value, pd.Series):
        return int(value.notna().sum())
    if isinstance(value, (pd.DataFrame, np.ndarray, list, tuple)):
        return len(value)
    if isinstance(value, Mapping) and value:
        return max((n for n in map(_given, value.values()) if n is not None), default=None)
    return None


def _dropped(
    n_rated: int,
    n_kept: int,
    n_preds: int | None,
    preds: Predictions | None,
    n_gold: int | None,
    gold: Gold | None,
) -> tuple[str, ...]:
    """The note of ``missing="drop"``: how many entries of each input were dropped."""
    parts = []
    if n_kept < n_rated:
        parts.append(f"{n_rated - n_kept:,} of {n_rated:,} rated items (no prediction)")
    if preds is not None and n_preds is not None and len(preds.items) < n_preds:
        parts.append(
            f"{n_preds - len(preds.items):,} of {n_preds:,} predictions (items with no ratings)"
        )
    if gold is not None and n_gold is not None:
        kept = int((np.asarray(gold.codes) >= 0).sum())
        if kept < n_gold:
            parts.append(f"{n_gold - kept:,} of {n_gold:,} gold labels")
    return (f'missing="drop" dropped {"; ".join(parts)}',) if parts else ()


def keyed_states(ratings: RatingsLike, states: Any) -> tuple[RatingsLike, Any]:
    """An array of true states (items × classes) keyed by the ratings' items in the order the caller
    holds them (the one rule of :mod:`humanly.data.positional`), before the join: the ratings read
    once, here, when they are a file, and returned read. With a :class:`Study` (whose items, sorted,
    are the order the caller holds), no states or states that are not an array, both as they are.

    >>> import numpy as np
    >>> r = Ratings.from_counts([[2, 0], [1, 1]], items=["b", "a"])
    >>> _, states = keyed_states(r, np.array([[0.9, 0.1], [0.4, 0.6]]))
    >>> states.index.tolist()
    ['b', 'a']
    """
    if states is None or isinstance(ratings, Study) or not is_array(states):
        return ratings, states
    r = as_ratings(ratings, canonical=False)
    return r, keyed(states, r.items, r.classes, what="states", ordered_columns=True)
