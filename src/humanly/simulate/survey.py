"""Survey Equivalence (section 2): the item-state urn and the paper's running example."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._core.checks import check_int
from ..data import Gold, InputError, ModelOutput, Predictions
from ._simulated import (
    Seed,
    SimulatedData,
    _build_named,
    _check_sizes,
    _labels_from_probs,
    _n_labels_mask,
    _rng,
    _slot_raters,
)

__all__ = ["RUNNING_EXAMPLE", "running_example", "urn"]

# ---------------------------------------------------------------------------------------- 1. urn
#: The running example of Survey Equivalence (section 2, Figs. 1–2): three item states with
#: P(C) = 0.8, 0.5, 0.1 in proportions 70%, 10%, 20%; a hard classifier that says C with probability
#: 0.9, 0.5, 0.05 in those states; the calibrated soft classifier outputs 0.77 after C and 0.32 after D.
RUNNING_EXAMPLE: dict[str, Any] = {
    "classes": ("C", "D"),
    "states": [[0.8, 0.2], [0.5, 0.5], [0.1, 0.9]],
    "weights": [0.7, 0.1, 0.2],
    "hard_p_c": [0.9, 0.5, 0.05],
    "soft_after": {"C": 0.77, "D": 0.32},
}


def urn(
    n_items: int,
    labels_per_item: int | tuple[int, int],
    *,
    states: Sequence[Sequence[float]] | None = None,
    weights: Sequence[float] | None = None,
    dirichlet: Sequence[Sequence[float]] | None = None,
    classes: Sequence[Any] | None = None,
    hard_classifiers: Mapping[str, Sequence[Sequence[float]] | np.ndarray] | None = None,
    soft_classifiers: Mapping[str, Sequence[Sequence[float]]] | None = None,
    n_raters: int | None = None,
    seed: Seed = None,
) -> SimulatedData:
    """The item-state urn of *Survey Equivalence* (section 2).

    Each item has a state, a distribution over the labels, drawn from a finite mixture (``states``
    with ``weights``) or a Dirichlet mixture (``dirichlet``); its labels are i.i.d. draws from it.
    Gold is the most likely label of the item's state (the first class on ties).

    Parameters
    ----------
    n_items : int
        The number of items.
    labels_per_item : int or (int, int)
        Labels per item, or a range ``(low, high)`` for ragged items.
    states : sequence of sequences of float or None
        S × C label distributions of the mixture's components.
    weights : sequence of float or None
        The S mixture weights (default uniform).
    dirichlet : sequence of sequences of float or None
        S × C Dirichlet concentrations (instead of ``states``): one component drawn per item with
        probability ``weights``, then the item's state from it.
    classes : sequence or None
        The class names (default ``0..C-1``).
    hard_classifiers : mapping or None
        Model name → an S × C table: the distribution of its hard output in each component.
    soft_classifiers : mapping or None
        Model name → an S × C table: the probability vector it outputs in each component.
    n_raters : int or None
        A pool of raters from which each item draws distinct raters (default: slot ``j`` is rater
        ``r{j+1}``).
    seed : int, numpy.random.Generator or None
        The seed; the same seed gives the same data.

    Returns
    -------
    SimulatedData
        Named ratings, gold, the models' outputs and ``truth``: ``generator`` (``"urn"``),
        ``states`` (items × C), ``state_index`` (the component of each item), ``weights``,
        ``components`` and ``kind`` (``finite`` or ``dirichlet``).

    Raises
    ------
    InputError
        For states, weights or tables that are not probabilities, or sizes that do not fit.

    Examples
    --------
    >>> d = urn(100, 4, states=[[0.9, 0.1], [0.2, 0.8]], weights=[0.5, 0.5], seed=1)
    >>> d.ratings
    Ratings(100 items, 4 raters, 400 labels, classes=(0, 1), source='simulated')

    References
    ----------
    Resnick, P., Kong, Y., Schoenebeck, G. & Weninger, T. *Survey Equivalence: A Procedure for
    Measuring Classifier Accuracy Against Human Labels*, section 2.
    """
    _check_sizes(n_items, labels_per_item)
    if n_raters is not None:
        check_int("n_raters", n_raters, minimum=1)
    rng = _rng(seed)
    if (states is None) == (dirichlet is None):
        raise InputError("give either states (a finite mixture) or dirichlet (a Dirichlet mixture)")
    comps = np.asarray(states if states is not None else dirichlet, dtype=float)
    if comps.ndim != 2 or comps.shape[1] < 2:
        raise InputError("states/dirichlet must be a components × classes table with ≥ 2 classes")
    n_comp, n_cls = comps.shape
    w = np.full(n_comp, 1 / n_comp) if weights is None else np.asarray(weights, dtype=float)
    if len(w) != n_comp or (w < 0).any() or not np.isclose(w.sum(), 1):
        raise InputError(f"weights {list(w)} must be {n_comp} non-negative numbers summing to 1")
    if states is not None and ((comps < 0).any() or not np.allclose(comps.sum(axis=1), 1)):
        raise InputError("each state must be a probability distribution over the classes")
    if dirichlet is not None and (comps <= 0).any():
        raise InputError("Dirichlet concentrations must be positive")
    cls = tuple(classes) if classes is not None else tuple(range(n_cls))
    if len(cls) != n_cls:
        raise InputError(f"{len(cls)} class names for {n_cls} classes")
    comp = rng.choice(n_comp, size=n_items, p=w)
    if states is not None:
        item_states = comps[comp]
    else:
        item_states = np.vstack([rng.dirichlet(comps[s]) for s in comp]) if n_items else comps[:0]
    k, mask = _n_labels_mask(rng, n_items, labels_per_item)
    labels = _labels_from_probs(rng, item_states, k)
    raters = _slot_raters(rng, n_items, k, n_raters)
    ratings = _build_named(n_items, labels, mask, raters, cls)
    gold = Gold(ratings.items, cls, np.argmax(item_states, axis=1).astype(np.int16), "simulated")
    models: list[ModelOutput] = []
    for name, table in (hard_classifiers or {}).items():
        dist = np.asarray(table, dtype=float)
        if dist.shape != (n_comp, n_cls):
            raise InputError(f"hard classifier {name!r}: need a {n_comp} × {n_cls} table")
        out = _labels_from_probs(rng, dist[comp], 1)[:, 0]
        models.append(ModelOutput(name, "label", out))
    for name, table in (soft_classifiers or {}).items():
        probs = np.asarray(table, dtype=float)
        if probs.shape != (n_comp, n_cls):
            raise InputError(f"soft classifier {name!r}: need a {n_comp} × {n_cls} table")
        models.append(ModelOutput(name, "proba", probs[comp].copy()))
    preds = Predictions(ratings.items, cls, models, source="simulated") if models else None
    truth = {
        "generator": "urn",
        "states": item_states,
        "state_index": comp,
        "weights": w.tolist(),
        "components": comps.tolist(),
        "kind": "finite" if states is not None else "dirichlet",
    }
    return SimulatedData(ratings, gold, preds, truth)


def running_example(
    n_items: int = 1000, labels_per_item: int | tuple[int, int] = 10, *, seed: Seed = None
) -> SimulatedData:
    """The running example of *Survey Equivalence* (section 2): see :data:`RUNNING_EXAMPLE`.

    Parameters
    ----------
    n_items : int
        The number of items.
    labels_per_item : int or (int, int)
        Labels per item, or a range ``(low, high)``.
    seed : int, numpy.random.Generator or None
        The seed; the same seed gives the same data.

    Returns
    -------
    SimulatedData
        The urn's data with two models: ``hard`` (outputs C with probability 0.9 / 0.5 / 0.05 in
        the three states) and ``soft`` (0.77 when ``hard`` says C, 0.32 when it says D — the
        calibrated version of ``hard``); ``truth["generator"]`` is ``"running-example"``.

    Examples
    --------
    >>> d = running_example(200, 5, seed=0)
    >>> d.ratings
    Ratings(200 items, 5 raters, 1000 labels, classes=('C', 'D'), source='simulated')
    >>> [m.name for m in d.predictions.models]
    ['hard', 'soft']

    References
    ----------
    Resnick, P., Kong, Y., Schoenebeck, G. & Weninger, T. *Survey Equivalence: A Procedure for
    Measuring Classifier Accuracy Against Human Labels*, section 2.
    """
    rng = _rng(seed)
    ex = RUNNING_EXAMPLE
    hard_p = np.asarray(ex["hard_p_c"])
    data = urn(
        n_items,
        labels_per_item,
        states=ex["states"],
        weights=ex["weights"],
        classes=ex["classes"],
        hard_classifiers={"hard": np.column_stack([hard_p, 1 - hard_p])},
        seed=rng,
    )
    assert data.predictions is not None
    hard = data.predictions["hard"].values
    p_c = np.where(hard == 0, ex["soft_after"]["C"], ex["soft_after"]["D"])
    soft = ModelOutput("soft", "proba", np.column_stack([p_c, 1 - p_c]))
    preds = Predictions(data.ratings.items, data.ratings.classes, [data.predictions["hard"], soft])
    truth = dict(data.truth, generator="running-example")
    return SimulatedData(data.ratings, data.gold, preds, truth)
