"""The K-class error model of section 5 as an error model (beyond the paper's theorems): class-conditional
confusion matrices for the crowd and the two classifiers.

:class:`ConfusionErrors` holds a class prior π and three K × K confusion matrices (rows the true class):
a crowd label's, c_b's and c_w's, independent given the true class. m labels per item are combined by
plurality, a tie broken uniformly at random (for K = 2, the m-majority with ``vote_ties="coin"``); the
gap indicator is :func:`~humanly.budget.multiclass.multiclass_gap`'s, so :func:`~humanly.budget.compare`,
:func:`~humanly.budget.sample_size` and :func:`~humanly.budget.win_curve` take it like the two binary
error models. :func:`symmetric_errors` is the K-class analogue of the independent scenario (labels right
with probability q, classifiers with p + ε and p, every error uniform over the other classes).

>>> e = symmetric_errors(3, q=0.7, p=0.7, eps=0.1)
>>> round(e.label_accuracy(1), 3), round(e.label_accuracy(3), 3), e.accuracies()
(0.7, 0.816, (0.8, 0.7))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .._core.checks import check_int, check_probability
from .._core.result import Result
from ..errors import InputError, setting
from ._args import VoteTies, check_vote_ties
from .gap import Gap

# :mod:`humanly.budget.multiclass` (it loads pandas) is imported where it is used, so that the
# commands that only read this module's type (``humanly budget win``) stay light

__all__ = ["ConfusionErrors", "symmetric_errors"]


def _rows(a: Any) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in r) for r in np.asarray(a, dtype=float))


@dataclass(frozen=True, repr=False)
class ConfusionErrors(Result):
    """K classes: a class prior and the confusion matrices of a crowd label and of the two classifiers.

    Parameters
    ----------
    prior : tuple of float
        P(true class), K entries summing to 1.
    labels, better, worse : tuple of tuple of float
        K × K confusion matrices (rows the true class, columns the label or prediction, each row
        summing to 1) of one crowd label, of c_b and of c_w.

    Raises
    ------
    InputError
        For matrices that are not square, of one size, or stochastic, or a prior that is not a
        distribution.

    Examples
    --------
    >>> e = ConfusionErrors((0.5, 0.5), ((0.8, 0.2), (0.2, 0.8)), ((0.9, 0.1), (0.1, 0.9)),
    ...                     ((0.8, 0.2), (0.2, 0.8)))
    >>> round(e.gap(1).x, 4), round(e.gap(1).y, 4), e.n_classes
    (0.16, 0.1, 2)
    """

    scenario: ClassVar[str] = "confusion"

    prior: tuple[float, ...]
    labels: tuple[tuple[float, ...], ...]
    better: tuple[tuple[float, ...], ...]
    worse: tuple[tuple[float, ...], ...]

    def __post_init__(self) -> None:
        from .multiclass import multiclass_setting

        setting = multiclass_setting(self.labels, self.better, self.worse, self.prior)
        object.__setattr__(self, "prior", setting.prior)
        for name in ("labels", "better", "worse"):
            object.__setattr__(self, name, getattr(setting, name))

    @property
    def n_classes(self) -> int:
        """K, the number of classes.

        Examples
        --------
        >>> symmetric_errors(4, 0.7, 0.7, 0.05).n_classes
        4
        """
        return len(self.prior)

    def _check_ties(self, vote_ties: VoteTies) -> None:
        if check_vote_ties(vote_ties) != "coin":
            raise InputError(
                f"{setting('vote_ties', vote_ties)}: with K classes a tied plurality is broken at random; "
                f"use {setting('vote_ties', 'coin')}"
            )

    def label_accuracy(self, labels_per_item: int = 1, vote_ties: VoteTies = "coin") -> float:
        """P(the plurality of m labels is the true class).

        Parameters
        ----------
        labels_per_item : int
            Labels per item.
        vote_ties : {"coin"}
            A tied plurality is broken uniformly at random (the only rule for K classes).

        Returns
        -------
        float

        Examples
        --------
        >>> round(symmetric_errors(2, 0.8, 0.7, 0.1).label_accuracy(3), 3)
        0.896
        """
        from .multiclass import aggregated_label_distribution

        self._check_ties(vote_ties)
        m = int(check_int("labels_per_item", labels_per_item, minimum=1))
        dist = aggregated_label_distribution(self.labels, m, "plurality")[:, :-1]
        return float(np.sum(np.asarray(self.prior) * np.diag(dist)))

    def gap(self, labels_per_item: int = 1, vote_ties: VoteTies = "coin") -> Gap:
        """The gap indicator's distribution with plurality-of-m test labels.

        Parameters
        ----------
        labels_per_item : int
            Labels per item.
        vote_ties : {"coin"}
            A tied plurality is broken uniformly at random.

        Returns
        -------
        Gap

        Examples
        --------
        >>> g = symmetric_errors(3, 0.7, 0.7, 0.1).gap(1)
        >>> round(g.x, 4), round(g.y, 4)
        (0.1935, 0.1385)
        """
        from .multiclass import multiclass_gap, multiclass_setting

        self._check_ties(vote_ties)
        setting = multiclass_setting(self.labels, self.better, self.worse, self.prior)
        return multiclass_gap(
            setting, int(check_int("labels_per_item", labels_per_item, minimum=1)), "plurality"
        )

    def accuracies(self) -> tuple[float, float]:
        """The two classifiers' accuracies, Σ_c π_c B[c, c] and Σ_c π_c W[c, c].

        Returns
        -------
        tuple of float
            (better, worse).

        Examples
        --------
        >>> symmetric_errors(3, 0.7, 0.6, 0.2).accuracies()
        (0.8, 0.6)
        """
        pi = np.asarray(self.prior)
        b = float(np.sum(pi * np.diag(np.asarray(self.better))))
        w = float(np.sum(pi * np.diag(np.asarray(self.worse))))
        return round(b, 15), round(w, 15)

    def params(self) -> dict[str, float]:
        """The summary accuracies by name (the matrices are the fields).

        Returns
        -------
        dict
            ``label_accuracy`` (one label), ``better_accuracy``, ``worse_accuracy``.

        Examples
        --------
        >>> symmetric_errors(3, 0.7, 0.6, 0.2).params()["worse_accuracy"]
        0.6
        """
        b, w = self.accuracies()
        return {"label_accuracy": self.label_accuracy(1), "better_accuracy": b, "worse_accuracy": w}


def symmetric_errors(n_classes: int, q: float, p: float, eps: float) -> ConfusionErrors:
    """K classes with uniform errors: a label right with probability q, c_b with p + ε, c_w with p,
    every error uniform over the other classes, a uniform prior (the independent scenario for K
    classes).

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    q : float
        One label's accuracy.
    p : float
        c_w's accuracy.
    eps : float
        c_b's margin (p + ε ≤ 1).

    Returns
    -------
    ConfusionErrors

    Examples
    --------
    >>> symmetric_errors(4, 0.7, 0.7, 0.05).n_classes
    4
    """
    from .multiclass import symmetric_confusion

    k = int(check_int("n_classes", n_classes, minimum=2))
    q = float(check_probability("q", q))
    p = float(check_probability("p", p))
    better = float(check_probability("p + eps", p + eps))
    return ConfusionErrors(
        tuple(np.full(k, 1.0 / k).tolist()),
        _rows(symmetric_confusion(k, q)),
        _rows(symmetric_confusion(k, better)),
        _rows(symmetric_confusion(k, p)),
    )
