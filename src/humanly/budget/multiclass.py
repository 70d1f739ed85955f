"""More than two classes, exactly (section 5's open problem; beyond the paper's theorems).

K classes with prior π. Crowd labels of an item are drawn independently from a class-conditional
confusion matrix C (C[i, j] = P(label j | true class i)); the two classifiers have their own confusion
matrices B (better) and W (worse), independent of each other and of the labels given the true class.
m labels per item are aggregated by one of two rules:

* ``"plurality"`` — the most frequent label; a tie among the most frequent is broken uniformly at random
  (for K = 2 this is the m-majority with ``vote_ties="coin"``);
* ``"majority"`` — absolute majority: the label chosen by more than m/2 of the m labellers; when no label
  has it the item gets **no test label**: it counts for neither classifier (G = 0) but its m labels are
  spent (for K = 2 and even m, a tied vote drops the item).

Exact: the aggregated label's distribution given the true class sums the multinomial probability of every
count vector of m labels over K classes (C(m + K − 1, K − 1) of them); with L[i, j] = P(aggregated label
j | true i), the gap indicator of an item has

    x = P(G = 1) = Σ_i π_i Σ_b B[i, b] (1 − W[i, b]) L[i, b],
    y = P(G = −1) = Σ_i π_i Σ_a W[i, a] (1 − B[i, a]) L[i, a],

(G = 1 when the test label is c_b's prediction and c_w predicted something else) and the exact win
probability for n = ⌊k/m⌋ items is :func:`~humanly.budget.outcome` of (x, y, 1 − x − y), as in the binary
case. :func:`~humanly.budget.plurality_vs_single` estimates the symmetric special case by simulation;
the tests check this module against it and against a direct simulation with asymmetric confusions.

>>> res = multiclass_compare(symmetric_confusion(3, 0.7), symmetric_confusion(3, 0.8),
...                          symmetric_confusion(3, 0.7), 300, (1, 3))
>>> [(r.labels_per_item, r.rule, round(r.win, 3)) for r in res.rows]
[(1, 'plurality', 0.946), (1, 'majority', 0.946), (3, 'plurality', 0.874), (3, 'majority', 0.884)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.checks import check_choice, check_int, check_probability
from .._core.counts import compositions, logfact
from .._core.result import Result
from ..errors import InputError
from ._args import Ties, check_budget, check_ms, check_ties, items_for_budget
from .exact import outcome
from .gap import Gap

__all__ = [
    "RULES",
    "MulticlassComparison",
    "MulticlassRow",
    "MulticlassSetting",
    "Rule",
    "aggregated_label_distribution",
    "multiclass_compare",
    "multiclass_gap",
    "multiclass_setting",
    "symmetric_confusion",
]

#: Aggregation rules: plurality (ties at random) or absolute majority (no majority → no label).
Rule = Literal["plurality", "majority"]
RULES: tuple[Rule, ...] = ("plurality", "majority")
#: Largest number of count vectors enumerated per (K, m).
MAX_VECTORS = 5_000_000


def symmetric_confusion(n_classes: int, accuracy: float) -> np.ndarray:
    """A K × K confusion matrix: right with probability ``accuracy``, otherwise a uniform wrong class.

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    accuracy : float
        The probability of the right class.

    Returns
    -------
    numpy.ndarray
        K × K, rows the true class, each summing to 1.

    Examples
    --------
    >>> symmetric_confusion(3, 0.7).round(2).tolist()
    [[0.7, 0.15, 0.15], [0.15, 0.7, 0.15], [0.15, 0.15, 0.7]]
    """
    k = int(check_int("n_classes", n_classes, minimum=2))
    a = float(check_probability("accuracy", accuracy))
    out = np.full((k, k), (1.0 - a) / (k - 1))
    np.fill_diagonal(out, a)
    return out


def _confusion(name: str, value: Any, k: int | None = None) -> np.ndarray:
    c = np.asarray(value, dtype=float)
    if c.ndim != 2 or c.shape[0] != c.shape[1] or c.shape[0] < 2:
        raise InputError(
            f"{name}: give a square K × K confusion matrix (K ≥ 2), got shape {c.shape}"
        )
    if k is not None and c.shape[0] != k:
        raise InputError(f"{name}: give a {k} × {k} matrix like the labels' (got {c.shape[0]})")
    if (
        not np.all(np.isfinite(c))
        or np.any(c < 0)
        or not np.allclose(c.sum(axis=1), 1.0, atol=1e-9)
    ):
        raise InputError(f"{name}: every row must be probabilities summing to 1")
    return c


def aggregated_label_distribution(
    confusion: Any, labels_per_item: int, rule: Rule = "plurality"
) -> np.ndarray:
    """K × (K + 1) matrix: P(aggregated label = j | true class i) for m labels drawn from
    ``confusion``; the last column is P(no label) (absolute majority only, else 0).

    >>> aggregated_label_distribution(symmetric_confusion(2, 0.8), 3).round(3).tolist()
    [[0.896, 0.104, 0.0], [0.104, 0.896, 0.0]]
    """
    c = _confusion("confusion", confusion)
    m = int(check_int("labels_per_item", labels_per_item, minimum=1))
    rule = check_choice("rule", rule, RULES)
    k = c.shape[0]
    if math.comb(m + k - 1, k - 1) > MAX_VECTORS:
        raise InputError(
            f"labels_per_item={m} labels over {k} classes: {math.comb(m + k - 1, k - 1):,} count "
            "vectors, more than "
            f"{MAX_VECTORS:,}; use fewer labels or plurality_vs_single (simulation)"
        )
    vecs = compositions(m, np.full(k, m))  # (V, K)
    top = vecs.max(axis=1, keepdims=True)
    if rule == "plurality":
        winners = (vecs == top).astype(float)
        share = winners / winners.sum(axis=1, keepdims=True)  # random tie-break
    else:
        share = (2 * vecs > m).astype(float)
    none = 1.0 - share.sum(axis=1)
    log_coef = logfact(np.array(m)) - logfact(vecs).sum(axis=1)
    with np.errstate(divide="ignore"):
        logc = np.log(c)  # (K, K)
    # log P(vector | true i) = log coef + Σ_j v_j log C[i, j] (0 · log 0 = 0)
    used = vecs[None, :, :] > 0
    terms = vecs[None, :, :] * np.where(used, logc[:, None, :], 0.0)
    prob = np.exp(log_coef[None, :] + terms.sum(axis=2))  # (K, V)
    return np.column_stack([prob @ share, prob @ none])


@dataclass(frozen=True, repr=False)
class MulticlassSetting(Result):
    """K classes: the prior, the labels' confusion matrix and the two classifiers'.

    Rows of a matrix are the true class, columns the label or prediction.

    Parameters
    ----------
    n_classes : int
        K.
    prior : tuple of float
        P(true class).
    labels, better, worse : tuple of tuple of float
        The confusion matrices of a crowd label, of c_b and of c_w.

    Examples
    --------
    >>> from humanly.budget import multiclass_compare, symmetric_confusion
    >>> c = symmetric_confusion(2, 0.8)
    >>> multiclass_compare(c, symmetric_confusion(2, 0.9), c, 100, (1,)).setting.prior
    (0.5, 0.5)
    """

    n_classes: int
    prior: tuple[float, ...]
    labels: tuple[tuple[float, ...], ...]
    better: tuple[tuple[float, ...], ...]
    worse: tuple[tuple[float, ...], ...]

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The setting as numpy arrays.

        Returns
        -------
        tuple of numpy.ndarray
            (prior, labels, better, worse).

        Examples
        --------
        >>> s = MulticlassSetting(2, (0.5, 0.5), ((1.0, 0.0), (0.0, 1.0)), ((1.0, 0.0), (0.0, 1.0)),
        ...                       ((1.0, 0.0), (0.0, 1.0)))
        >>> s.arrays()[1].shape
        (2, 2)
        """
        return (
            np.asarray(self.prior),
            np.asarray(self.labels),
            np.asarray(self.better),
            np.asarray(self.worse),
        )


def multiclass_setting(
    labels: Any, better: Any, worse: Any, prior: Any = None
) -> MulticlassSetting:
    """A checked :class:`MulticlassSetting`: three K × K confusion matrices (rows sum to 1) and a prior
    (default uniform).

    >>> multiclass_setting(symmetric_confusion(2, 0.8), symmetric_confusion(2, 0.9),
    ...                    symmetric_confusion(2, 0.8)).prior
    (0.5, 0.5)
    """
    c = _confusion("labels", labels)
    k = c.shape[0]
    b, w = _confusion("better", better, k), _confusion("worse", worse, k)
    pr = np.full(k, 1.0 / k) if prior is None else np.asarray(prior, dtype=float)
    if pr.shape != (k,) or np.any(pr < 0) or not math.isclose(float(pr.sum()), 1.0, abs_tol=1e-9):
        raise InputError(f"prior: give {k} class probabilities summing to 1")

    def rows(a: np.ndarray) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(float(v) for v in r) for r in a)

    return MulticlassSetting(k, tuple(float(v) for v in pr), rows(c), rows(b), rows(w))


def multiclass_gap(
    setting: MulticlassSetting, labels_per_item: int, rule: Rule = "plurality"
) -> Gap:
    """The gap indicator's distribution for m labels aggregated by ``rule`` (see the module docstring).

    >>> s = multiclass_setting(symmetric_confusion(2, 0.8), symmetric_confusion(2, 0.81),
    ...                        symmetric_confusion(2, 0.8))
    >>> g = multiclass_gap(s, 1)
    >>> round(g.x, 4), round(g.y, 4)
    (0.16, 0.154)
    """
    prior, labels, b, w = setting.arrays()
    dist = aggregated_label_distribution(labels, labels_per_item, rule)[
        :, :-1
    ]  # (K, K): the "no label" never matches
    x = float(np.sum(prior[:, None] * b * (1.0 - w) * dist))
    y = float(np.sum(prior[:, None] * w * (1.0 - b) * dist))
    return Gap(x, y, max(0.0, 1.0 - x - y))


@dataclass(frozen=True, repr=False)
class MulticlassRow(Result):
    """One m and aggregation rule of a :class:`MulticlassComparison`.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    rule : {"plurality", "majority"}
        How the m labels are aggregated.
    n : int
        Items, ⌊budget/m⌋.
    label_accuracy : float
        P(aggregated label = truth).
    no_label : float
        P(no label) (absolute majority only).
    x, y : float
        The gap's P(G = 1) and P(G = −1).
    win : float
        The exact P(c_b identified) (a tied comparison as ``ties`` says).

    Examples
    --------
    >>> MulticlassRow(1, "plurality", 300, 0.7, 0.0, 0.2, 0.15, 0.9).to_dict()["rule"]
    'plurality'
    """

    labels_per_item: int
    rule: str
    n: int
    label_accuracy: float
    no_label: float
    x: float
    y: float
    win: float


@dataclass(frozen=True, repr=False)
class MulticlassComparison(Result):
    """Exact win probabilities with K classes per m and aggregation rule at one budget.

    Parameters
    ----------
    setting : MulticlassSetting
        The prior and the confusion matrices.
    budget : int
        The label budget.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    rows : tuple of MulticlassRow
        One row per m and rule.
    best : str
        The row with the highest win probability, as "m = 1 (plurality)".

    Examples
    --------
    >>> from humanly.budget import multiclass_compare, symmetric_confusion
    >>> c = symmetric_confusion(3, 0.7)
    >>> multiclass_compare(c, symmetric_confusion(3, 0.8), c, 300, (1, 3)).best
    'm = 1 (plurality)'
    """

    setting: MulticlassSetting
    budget: int
    ties: str
    rows: tuple[MulticlassRow, ...]
    best: str

    def to_frame(self) -> pd.DataFrame:
        """One row per (m, rule) (the columns of :class:`MulticlassRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.rows])


def multiclass_compare(
    labels: Any,
    better: Any,
    worse: Any,
    budget: int,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    *,
    prior: Any = None,
    rules: Sequence[Rule] = RULES,
    ties: Ties = "loss",
) -> MulticlassComparison:
    """The exact probability of ranking the better classifier first with K classes, per m and rule.

    See the module docstring: labels drawn from the confusion matrix ``labels``, classifiers with
    confusion matrices ``better`` and ``worse``, n = ⌊budget/m⌋ items.

    Parameters
    ----------
    labels, better, worse : array-like
        K × K confusion matrices (rows the true class, summing to 1) of a crowd label, c_b and c_w.
    budget : int
        The label budget.
    labels_per_item : int or sequence of int
        Labels per item.
    prior : array-like, optional
        The class prior (default uniform).
    rules : sequence of {"plurality", "majority"}
        The aggregation rules to compare.
    ties : {"loss", "half"}
        What a tied comparison counts as.

    Returns
    -------
    MulticlassComparison
        One row per m and rule, and the best.

    Raises
    ------
    InputError
        For matrices that are not square, of one size, or stochastic, or too many count vectors.

    Examples
    --------
    >>> res = multiclass_compare(symmetric_confusion(3, 0.7), symmetric_confusion(3, 0.8),
    ...                          symmetric_confusion(3, 0.7), 300, (1, 3), rules=("plurality",))
    >>> res.best, len(res.to_frame())
    ('m = 1 (plurality)', 2)
    """
    setting = multiclass_setting(labels, better, worse, prior)
    budget, ms, ties = check_budget(budget), check_ms(labels_per_item), check_ties(ties)
    chosen = tuple(check_choice("rules", r, RULES) for r in rules)
    if not chosen:
        raise InputError("rules=(): give at least one of 'plurality', 'majority'")
    prior_a, lab, _, _ = setting.arrays()
    rows = []
    for mm in ms:
        n = items_for_budget(budget, mm)
        for rule in chosen:
            dist = aggregated_label_distribution(lab, mm, rule)
            g = multiclass_gap(setting, mm, rule)
            rows.append(
                MulticlassRow(
                    labels_per_item=mm,
                    rule=rule,
                    n=n,
                    label_accuracy=float(np.sum(prior_a * np.diag(dist[:, :-1]))),
                    no_label=float(np.sum(prior_a * dist[:, -1])),
                    x=g.x,
                    y=g.y,
                    win=outcome(g, n).win_probability(ties),
                )
            )
    top = max(rows, key=lambda r: (r.win, -r.labels_per_item))
    return MulticlassComparison(
        setting, budget, ties, tuple(rows), f"m = {top.labels_per_item} ({top.rule})"
    )
