"""Don't Label Twice: two binary classifiers and noisy labellers, independent or correlated errors."""

from __future__ import annotations

import numpy as np

from ..data import Gold, InputError, ModelOutput, Predictions
from ._simulated import Seed, SimulatedData, _build_named, _check_sizes, _rng, _slot_raters

__all__ = ["pair"]


# ---------------------------------------------------------------------------------------- 3. pair
def pair(
    n_items: int,
    labels_per_item: int = 1,
    *,
    p: float | None = None,
    eps: float | None = None,
    q: float | None = None,
    q_b: float | None = None,
    q_w: float | None = None,
    p_w: float | None = None,
    p_b0: float | None = None,
    p_b1: float | None = None,
    q_agree: float | None = None,
    n_raters: int | None = None,
    seed: Seed = None,
    q_both_wrong: float | None = None,
    prior: float | None = None,
    class_shift: float = 0.0,
) -> SimulatedData:
    """Two binary classifiers and noisy labellers (Don't Label Twice, sections 2 and 3.2).

    Classes are 0 and 1. Models are ``better`` and ``worse`` (hard labels). Give either the
    independent parameters (``p``, ``eps``, ``q``) or the correlated ones (``q_b``, ``q_w``, ``p_w``,
    ``p_b0``, ``p_b1``).

    Parameters
    ----------
    n_items : int
        Items to simulate.
    labels_per_item : int
        Crowd labels per item (m).
    p, eps, q : float, optional
        Independent errors (Proposition 1): the worse classifier is right with probability p, the
        better with p + ε, independently; every label is right with probability q.
    q_b, q_w, p_w, p_b0, p_b1 : float, optional
        Correlated errors (Proposition 2): the worse classifier is right with probability p_w; the
        better one with p_b⁰ when the worse is wrong and p_b¹ when it is right; a label is right with
        probability q_b on items where only the better classifier is right, q_w where only the worse
        one is.
    q_agree : float, optional
        Label accuracy where the classifiers agree (default (q_b + q_w)/2).
    n_raters : int, optional
        Size of the rater pool (default: one rater per label slot).
    seed : int or numpy.random.Generator, optional
        The seed; the same seed gives the same data.
    q_both_wrong, prior : float, optional
        Label accuracy where both classifiers are wrong (default ``q_agree``; beyond the paper, for
        checking estimators), and P(true label = 1) (default a fair coin).
    class_shift : float
        Label accuracies are q + class_shift on items of class 1 and q − class_shift on items of
        class 0 (labellers leaning towards class 1).

    Returns
    -------
    SimulatedData
        Ratings, gold, the two models' predictions and ``truth`` (``"generator"``, the parameters,
        the true labels, the classifiers' accuracies on the simulated items).

    Raises
    ------
    InputError
        A mix of the two parameterisations, a missing parameter, a probability outside [0, 1].

    References
    ----------
    Dorner & Hardt, *Don't Label Twice: Quantity Beats Quality when Comparing Binary Classifiers on a
    Budget*, sections 2 and 3.2.

    Examples
    --------
    >>> d = pair(200, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> d.ratings.n_items, d.predictions.names
    (200, ('better', 'worse'))
    """
    _check_sizes(n_items, labels_per_item)
    rng = _rng(seed)
    independent, (q_b, q_w, q_agree, p_w, p_b0, p_b1, q_both_wrong) = _pair_params(
        p, eps, q, (q_b, q_w, p_w, p_b0, p_b1), q_agree, q_both_wrong, prior
    )
    if prior is None:
        y = rng.integers(0, 2, size=n_items).astype(np.int16)
    else:
        y = (rng.random(n_items) < prior).astype(np.int16)
    w_right = rng.random(n_items) < p_w
    b_right = rng.random(n_items) < np.where(w_right, p_b1, p_b0)
    only_b = b_right & ~w_right
    only_w = w_right & ~b_right
    both_wrong = ~w_right & ~b_right
    q_item = np.where(
        only_b, q_b, np.where(only_w, q_w, np.where(both_wrong, q_both_wrong, q_agree))
    )
    if class_shift:
        q_item = q_item + np.where(y == 1, class_shift, -class_shift)
        if np.any((q_item < 0) | (q_item > 1)):
            raise InputError(f"class_shift={class_shift}: label accuracies must stay in [0, 1]")
    k = int(labels_per_item)
    right = rng.random((n_items, k)) < q_item[:, None]
    labels = np.where(right, y[:, None], 1 - y[:, None]).astype(np.int16)
    raters = _slot_raters(rng, n_items, k, n_raters)
    ratings = _build_named(n_items, labels, np.ones_like(labels, dtype=bool), raters, (0, 1))
    better = np.where(b_right, y, 1 - y).astype(np.int16)
    worse = np.where(w_right, y, 1 - y).astype(np.int16)
    preds = Predictions(
        ratings.items,
        (0, 1),
        [ModelOutput("better", "label", better), ModelOutput("worse", "label", worse)],
        source="simulated",
    )
    gold = Gold(ratings.items, (0, 1), y, "simulated")
    names = ("q_b", "q_w", "q_agree", "p_w", "p_b0", "p_b1", "q_both_wrong")
    params = dict(zip(names, (q_b, q_w, q_agree, p_w, p_b0, p_b1, q_both_wrong), strict=True))
    params |= {"prior": 0.5 if prior is None else prior, "class_shift": class_shift}
    truth = {
        "generator": "pair-independent" if independent else "pair-correlated",
        "params": params,
        "labels": y,
        "better_accuracy": float(b_right.mean()),
        "worse_accuracy": float(w_right.mean()),
    }
    return SimulatedData(ratings, gold, preds, truth)


def _pair_params(
    p: float | None,
    eps: float | None,
    q: float | None,
    correlated_params: tuple[float | None, ...],
    q_agree: float | None,
    q_both_wrong: float | None,
    prior: float | None,
) -> tuple[bool, tuple[float, float, float, float, float, float, float]]:
    """:func:`pair`'s parameters, checked: whether they are the independent ones, and
    ``(q_b, q_w, q_agree, p_w, p_b0, p_b1, q_both_wrong)``."""
    q_b, q_w, p_w, p_b0, p_b1 = correlated_params
    independent = p is not None or eps is not None or q is not None
    correlated = any(x is not None for x in (q_b, q_w, p_w, p_b0, p_b1))
    if independent == correlated:
        raise InputError(
            "give either p, eps and q (independent errors) or q_b, q_w, p_w, p_b0 and p_b1 (correlated)"
        )
    if independent:
        if p is None or eps is None or q is None:
            raise InputError("independent errors need p, eps and q")
        q_b = q_w = q_agree = q
        p_w, p_b0, p_b1 = p, p + eps, p + eps
    if q_b is None or q_w is None or p_w is None or p_b0 is None or p_b1 is None:
        raise InputError("correlated errors need q_b, q_w, p_w, p_b0 and p_b1")
    if q_agree is None:
        q_agree = (q_b + q_w) / 2
    if q_both_wrong is None:
        q_both_wrong = q_agree
    checks = [("q_b", q_b), ("q_w", q_w), ("q_agree", q_agree), ("p_w", p_w)]
    checks += [("q_both_wrong", q_both_wrong)] + ([] if prior is None else [("prior", prior)])
    for name, v in checks:
        if not 0 <= v <= 1:
            raise InputError(f"{name} = {v} must be a probability in [0, 1]")
    for name, v in (("p_b0", p_b0), ("p_b1", p_b1)):
        if not 0 <= v <= 1:
            raise InputError(f"{name} = {v} must be a probability in [0, 1]")
    return independent, (q_b, q_w, q_agree, p_w, p_b0, p_b1, q_both_wrong)
