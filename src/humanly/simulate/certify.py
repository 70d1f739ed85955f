"""Humanly Certifying Superhuman Classifiers: true labels, raters with their own accuracies or
confusion matrices, models, optional item difficulty."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..data import Gold, InputError, ModelOutput, Predictions
from ..errors import setting
from ._simulated import (
    Seed,
    SimulatedData,
    _build_named,
    _check_sizes,
    _labels_from_probs,
    _n_labels_mask,
    _rng,
)

__all__ = ["oracle"]


# ---------------------------------------------------------------------------------------- 2. oracle
def _confusions(spec: Any, n: int, n_cls: int, what: str) -> np.ndarray:
    """Accuracies (length n) or confusion matrices (n × C × C, rows = true class) → n × C × C."""
    arr = np.asarray(spec, dtype=float)
    if arr.ndim == 1:
        if len(arr) != n:
            raise InputError(f"{what}: {len(arr)} accuracies for {n}")
        if ((arr < 0) | (arr > 1)).any():
            raise InputError(f"{what}: accuracies must be in [0, 1]")
        off = (1 - arr) / (n_cls - 1)
        conf = np.repeat(off[:, None, None], n_cls, axis=1).repeat(n_cls, axis=2)
        idx = np.arange(n_cls)
        conf[:, idx, idx] = arr[:, None]
        return conf
    if arr.shape != (n, n_cls, n_cls):
        raise InputError(f"{what}: confusion matrices must be {n} × {n_cls} × {n_cls}")
    if (arr < 0).any() or not np.allclose(arr.sum(axis=2), 1):
        raise InputError(f"{what}: each confusion-matrix row must be a probability distribution")
    return arr


def oracle(
    n_items: int,
    rater_accuracies: Sequence[float] | np.ndarray,
    *,
    n_classes: int = 2,
    classes: Sequence[Any] | None = None,
    prior: Sequence[float] | None = None,
    models: Mapping[str, Any] | None = None,
    difficulty: float = 0.0,
    labels_per_item: int | tuple[int, int] | None = None,
    copy_crowd: Mapping[str, float] | None = None,
    seed: Seed = None,
) -> SimulatedData:
    """True labels, raters with their own accuracies, models, and optional item difficulty.

    The toy experiments of *Humanly Certifying Superhuman Classifiers*: a true label ℓ* per item from
    ``prior``; each rater labels an item independently given ℓ*, right with their accuracy (errors
    uniform over the other classes) or as their confusion matrix says. (Long for its parameter
    documentation and one draw per kind of output.)

    Parameters
    ----------
    n_items : int
        The number of items.
    rater_accuracies : sequence of float or numpy.ndarray
        The K raters' accuracies, or K × C × C confusion matrices (row = true class).
    n_classes : int
        The number of classes (when ``classes`` is not given).
    classes : sequence or None
        The class names (default ``0..C-1``).
    prior : sequence of float or None
        The distribution of the true label (default uniform).
    models : mapping or None
        Model name → an accuracy or a C × C confusion matrix (hard labels).
    difficulty : float
        d ∈ [0, 1): a fraction d of the items is *hard*, and on a hard item everyone answers uniformly
        at random, so a rater with base accuracy a has marginal accuracy (1 − d)·a + d/C.
    labels_per_item : int, (int, int) or None
        Each item is labelled by a random subset of this many raters (or a number drawn in the range
        ``(low, high)``); default: every rater labels every item.
    copy_crowd : mapping or None
        Model name (of ``models``) → a probability c: on each item, with probability c the model
        outputs the raters' plurality label (ties broken at random) instead of its own draw — a model
        that learned the crowd's errors (Theorem 3's assumption fails). Its random numbers are drawn
        after everything else, so the other outputs are the same as without it.
    seed : int, numpy.random.Generator or None
        The seed; the same seed gives the same data.

    Returns
    -------
    SimulatedData
        Named ratings (raters ``a1``…), gold (the true labels), the models' outputs and ``truth``:
        ``generator`` (``"oracle"``), each rater's and model's realised accuracy, the hard items and
        the true labels.

    Raises
    ------
    InputError
        For accuracies or matrices that are not probabilities, or sizes that do not fit.

    Examples
    --------
    >>> d = oracle(2000, [0.7, 0.7, 0.7], models={"copy": 0.7}, copy_crowd={"copy": 0.9}, seed=0)
    >>> d.truth["model_accuracy"]["copy"] < 0.8
    True

    References
    ----------
    Xu, Q., Walder, C. & Xu, C. *Humanly Certifying Superhuman Classifiers* (the toy experiments).
    """
    _check_sizes(n_items, labels_per_item)
    rng = _rng(seed)
    cls = tuple(classes) if classes is not None else tuple(range(n_classes))
    n_cls = len(cls)
    ann_conf = _rater_confusions(rater_accuracies, n_cls)
    n_ann = len(ann_conf)
    pri = _prior(prior, n_cls, difficulty)
    truth_codes = rng.choice(n_cls, size=n_items, p=pri).astype(np.int16)
    hard = rng.random(n_items) < difficulty
    uniform = np.full(n_cls, 1 / n_cls)

    def draw(conf: np.ndarray) -> np.ndarray:
        probs = conf[truth_codes]
        probs[hard] = uniform
        return _labels_from_probs(rng, probs, 1)[:, 0]

    labels = np.column_stack([draw(ann_conf[a]) for a in range(n_ann)])
    mask = _subset_mask(rng, n_items, n_ann, labels_per_item)
    rater_ids = np.tile(np.arange(n_ann), (n_items, 1))
    names = [f"a{j + 1}" for j in range(n_ann)]
    ratings = _build_named(n_items, labels, mask, rater_ids, cls, rater_names=names)
    gold = Gold(ratings.items, cls, truth_codes, "simulated")
    outs = []
    model_acc = {}
    for name, spec in (models or {}).items():
        arr = np.asarray(spec, dtype=float)
        conf = _confusions(
            arr[None] if arr.ndim == 2 else arr.reshape(1), 1, n_cls, f"model {name}"
        )
        pred = draw(conf[0])
        outs.append(ModelOutput(str(name), "label", pred))
        model_acc[str(name)] = float((pred == truth_codes).mean())
    if copy_crowd:
        outs = _copy_crowd(rng, outs, copy_crowd, labels, mask, n_cls)
        model_acc = {m.name: float((m.values == truth_codes).mean()) for m in outs}
    preds = Predictions(ratings.items, cls, outs, source="simulated") if outs else None
    hits = (labels == truth_codes[:, None]) & mask
    ann_acc = hits.sum(axis=0) / np.maximum(mask.sum(axis=0), 1)
    truth = {
        "generator": "oracle",
        "annotator_accuracy": dict(zip(names, ann_acc.tolist(), strict=True)),
        "average_annotator_accuracy": float(hits.sum() / mask.sum()),
        "model_accuracy": model_acc,
        "difficulty": difficulty,
        "hard_items": hard,
        "labels": truth_codes,
    }
    return SimulatedData(ratings, gold, preds, truth)


def _rater_confusions(raters: Any, n_cls: int) -> np.ndarray:
    """The raters' confusion matrices (K × C × C) from their accuracies or matrices; at least one."""
    acc = np.asarray(raters, dtype=float)
    if acc.ndim == 0 or acc.shape[0] == 0:
        raise InputError(
            f"{setting('rater_accuracies', list(np.atleast_1d(acc)))}: give at least one rater's accuracy, "
            "e.g. rater_accuracies=[0.8, 0.7]"
        )
    return _confusions(acc, acc.shape[0], n_cls, "rater_accuracies")


def _prior(prior: Sequence[float] | None, n_cls: int, difficulty: float) -> np.ndarray:
    """The distribution of the true label (uniform by default); checks ``difficulty`` too."""
    pri = np.full(n_cls, 1 / n_cls) if prior is None else np.asarray(prior, dtype=float)
    if len(pri) != n_cls or (pri < 0).any() or not np.isclose(pri.sum(), 1):
        raise InputError(f"prior must be {n_cls} non-negative numbers summing to 1")
    if not 0 <= difficulty < 1:
        raise InputError(f"difficulty {difficulty} must be in [0, 1)")
    return pri


def _subset_mask(
    rng: np.random.Generator,
    n_items: int,
    n_ann: int,
    labels_per_item: int | tuple[int, int] | None,
) -> np.ndarray:
    """Which rater labels which item: everyone, or a random subset of ``labels_per_item`` each."""
    if labels_per_item is None:
        return np.ones((n_items, n_ann), dtype=bool)
    k, m = _n_labels_mask(rng, n_items, labels_per_item)
    if k > n_ann:
        raise InputError(f"{k} labels per item but only {n_ann} raters")
    order = np.argsort(rng.random((n_items, n_ann)), axis=1)
    mask = np.zeros((n_items, n_ann), dtype=bool)
    rows = np.repeat(np.arange(n_items), k)
    mask[rows, order[:, :k].ravel()] = m.ravel()
    return mask


def _copy_crowd(
    rng: np.random.Generator,
    outs: list[ModelOutput],
    copy: Mapping[str, float],
    labels: np.ndarray,
    mask: np.ndarray,
    n_cls: int,
) -> list[ModelOutput]:
    """The models of ``copy`` output the plurality of the present labels (ties at random) with their
    probability, item by item."""
    names = [m.name for m in outs]
    unknown = [k for k in copy if k not in names]
    if unknown:
        raise InputError(f"copy_crowd: {unknown} are not among the models {names}")
    counts = np.stack([((labels == c) & mask).sum(axis=1) for c in range(n_cls)], axis=1)
    tied = counts == counts.max(axis=1, keepdims=True)
    noise = rng.random(counts.shape)
    plurality = np.argmax(np.where(tied, noise, -1.0), axis=1).astype(np.int16)
    new = []
    for m in outs:
        c = copy.get(m.name)
        if c is None:
            new.append(m)
            continue
        if not 0 <= c <= 1:
            raise InputError(f"copy_crowd[{m.name!r}] = {c}: give a probability in [0, 1]")
        take = rng.random(len(plurality)) < c
        new.append(
            ModelOutput(m.name, "label", np.where(take, plurality, m.values).astype(np.int16))
        )
    return new
