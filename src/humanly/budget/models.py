"""The paper's two error models: how classifier errors and label errors relate.

* :class:`IndependentErrors` — the *independent* scenario (section 2, Proposition 1): c_w is right with
  probability p, c_b with p + ε, a crowd label with q, all independently.
* :class:`CorrelatedErrors` — the *correlated* scenario (section 3.2, Proposition 2): c_w is right with
  probability p_w; c_b with p_b⁰ when c_w is wrong and p_b¹ when it is right; a label is right with
  probability q_b where only c_b is right and q_w where only c_w is.

Either gives the gap indicator's distribution for m-majority labels (``gap``), using the majority
accuracy M_m(q) of :func:`majority_accuracy`. An *error model* describes errors; it is not a classifier
(the classifiers compared are c_b and c_w). Its name is its ``scenario``.

>>> make_error_model(p=0.8, eps=0.01, q=0.8).scenario
'independent'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from scipy import special

from .._core.checks import check_int, check_number
from .._core.result import Result
from ..errors import InputError
from ._args import VoteTies, check_accuracy, check_vote_ties
from ._binom import binom_pmf
from .gap import Gap, gap_correlated, gap_independent

__all__ = [
    "SCENARIOS",
    "CorrelatedErrors",
    "ErrorModel",
    "IndependentErrors",
    "majority_accuracy",
    "make_error_model",
    "subset_majority",
]

#: The paper's two scenarios of errors (the ``scenario`` of an error model and of a result).
SCENARIOS = ("independent", "correlated")

_TINY = 1e-290


def majority_accuracy(
    q: float | np.ndarray, labels_per_item: int, vote_ties: VoteTies = "coin"
) -> float | np.ndarray:
    """M_m(q): the probability that the majority of m independent labels is right.

    Each label is right with probability q (section 2; Lemma C.1 for even m).

    Parameters
    ----------
    q : float or numpy.ndarray
        The accuracy of one label, in [0, 1] (an array gives one M_m per entry).
    labels_per_item : int
        Labels per item (≥ 1).
    vote_ties : {"coin", "failure"}
        What a tied vote of an even m gives: ``"coin"`` (default) breaks it by a fair coin — then
        M_2k = M_2k−1, so an even m never beats m − 1 at a higher cost; ``"failure"`` counts it as a
        wrong label, as in Lemma C.1: M_k = M_k−1 − C(k−1, k/2) q^(k/2) (1−q)^(k/2) for even k.

    Returns
    -------
    float or numpy.ndarray
        M_m(q), of the shape of ``q``.

    Raises
    ------
    InputError
        For a q outside [0, 1] or not finite, or m < 1.

    Examples
    --------
    >>> round(majority_accuracy(0.8, 3), 6)
    0.896
    >>> round(majority_accuracy(0.8, 4), 6), round(majority_accuracy(0.8, 4, vote_ties="failure"), 6)
    (0.896, 0.8192)

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 2 and Lemma C.1.
    """
    m = int(check_int("labels_per_item", labels_per_item, minimum=1))
    vote_ties = check_vote_ties(vote_ties)
    qa = np.asarray(q, dtype=float)
    if not np.all(np.isfinite(qa)) or np.any((qa < 0.0) | (qa > 1.0)):
        raise InputError("q: give label accuracies in [0, 1] (finite numbers)")
    qa = np.where(
        qa < _TINY, 0.0, qa
    )  # subnormal q: Boost's pmf overflows; M_m is 0 to double precision
    half = m // 2
    # P(Binomial(m, q) >= half + 1) = I_q(half + 1, m - half)
    above = special.betainc(half + 1, m - half, qa) if m > 1 else qa.copy()
    if m % 2 == 0 and vote_ties == "coin":
        above = above + 0.5 * binom_pmf(half, m, qa)
    out = np.clip(above, 0.0, 1.0)
    return float(out) if np.ndim(out) == 0 else out


def subset_majority(
    correct: np.ndarray, total: np.ndarray, m: int, vote_ties: VoteTies = "coin"
) -> np.ndarray:
    """Per item: the probability that the majority of m of its labels, drawn without replacement, is
    right, when ``correct`` of its ``total`` labels are.

    Hypergeometric; a tied vote counts ½ with ``"coin"``, 0 with ``"failure"``. For labels drawn
    i.i.d. with accuracy q(x) this is an unbiased estimate of M_m(q(x)) whenever total ≥ m (a random
    m-subset of i.i.d. labels is m i.i.d. labels).

    Parameters
    ----------
    correct, total : numpy.ndarray
        Right labels and all labels of each item.
    m : int
        Labels per item drawn.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m counts.

    Returns
    -------
    numpy.ndarray
        One probability per item; NaN for items with fewer than m labels.

    Examples
    --------
    >>> subset_majority(np.array([2, 3]), np.array([3, 3]), 3).tolist()
    [1.0, 1.0]
    >>> subset_majority(np.array([2]), np.array([4]), 3).round(4).tolist()
    [0.5]
    """
    m = int(check_int("m", m, minimum=1))
    coin = check_vote_ties(vote_ties) == "coin"
    c = np.asarray(correct, dtype=np.int64)
    t = np.asarray(total, dtype=np.int64)
    # in halves: a majority of the m draws right counts 2, a tied vote 1 (coin) or 0, else 0
    halves = [2 if 2 * k > m else int(coin) if 2 * k == m else 0 for k in range(m + 1)]
    pairs, where = np.unique(np.stack([np.maximum(t, m), c], axis=1), axis=0, return_inverse=True)
    probs = np.array([_majority_of_draws(int(n), int(good), m, halves) for n, good in pairs])
    return np.where(t >= m, probs[where.reshape(-1)], np.nan)


def _majority_of_draws(n: int, good: int, m: int, halves: list[int]) -> float:
    """The hypergeometric sum of ``halves`` (each outcome's weight × 2) for m draws from n labels of
    which ``good`` are right, with exact integer binomials (one rounding at the end; no
    ``scipy.stats``, slow to import)."""
    ways = sum(h * math.comb(good, k) * math.comb(n - good, m - k) for k, h in enumerate(halves))
    return ways / (2 * math.comb(n, m))  # integer division, correctly rounded


def _as_floats(obj: Any, names: tuple[str, ...]) -> None:
    """Store each parameter as a Python float (a ``TypeError`` naming it for a non-number)."""
    for name in names:
        object.__setattr__(obj, name, float(check_number(name, getattr(obj, name))))


def _accuracy_m(q: float, m: int, vote_ties: VoteTies) -> float:
    return float(majority_accuracy(q, m, vote_ties))


@dataclass(frozen=True, repr=False)
class IndependentErrors(Result):
    """Independent classifier and label errors (section 2, Proposition 1).

    c_w is right with probability p, c_b with p + ε, a label with q, all independently.

    Parameters
    ----------
    p : float
        The accuracy of the worse classifier c_w, in [0.5, 1].
    eps : float
        The better classifier's margin ε, in (0, 1 − p].
    q : float
        The accuracy of one crowd label, in (0.5, 1].
    check : bool
        Check the paper's ranges (default); ``False`` accepts any probabilities (estimates).

    Raises
    ------
    InputError
        For a parameter outside its range.

    Examples
    --------
    >>> e = IndependentErrors(0.8, 0.01, 0.8)
    >>> round(e.label_accuracy(3), 3), round(e.gap(3).mean, 5)
    (0.896, 0.00792)

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Proposition 1.
    """

    scenario: ClassVar[str] = "independent"

    p: float
    eps: float
    q: float
    check: bool = field(default=True, repr=False, compare=False)

    def __post_init__(self) -> None:
        _as_floats(self, ("p", "eps", "q"))
        if self.check:
            check_accuracy("p", self.p, 0.5, 1.0)
            check_accuracy("eps", self.eps, 0.0, 1.0 - self.p, open_low=True)
            check_accuracy("q", self.q, 0.5, 1.0, open_low=True)
        else:
            for name in ("p", "q"):
                check_accuracy(name, getattr(self, name), 0.0, 1.0)
            check_accuracy("eps", self.eps, -self.p, 1.0 - self.p)

    def label_accuracy(self, labels_per_item: int = 1, vote_ties: VoteTies = "coin") -> float:
        """M_m(q): the accuracy of an m-majority label.

        Parameters
        ----------
        labels_per_item : int
            Labels per item.
        vote_ties : {"coin", "failure"}
            How a tied vote of an even m is settled (see :func:`majority_accuracy`).

        Returns
        -------
        float
            M_m(q).

        Examples
        --------
        >>> round(IndependentErrors(0.8, 0.01, 0.8).label_accuracy(3), 3)
        0.896
        """
        return _accuracy_m(self.q, labels_per_item, vote_ties)

    def gap(self, labels_per_item: int = 1, vote_ties: VoteTies = "coin") -> Gap:
        """The gap indicator's distribution G(M_m(q), p, ε) (Proposition 1 with m-majority labels).

        Parameters
        ----------
        labels_per_item : int
            Labels per item.
        vote_ties : {"coin", "failure"}
            How a tied vote of an even m is settled (see :func:`majority_accuracy`).

        Returns
        -------
        Gap
            P(G = 1), P(G = −1), P(G = 0).

        Examples
        --------
        >>> g = IndependentErrors(0.8, 0.01, 0.8).gap(1)
        >>> round(g.x, 4), round(g.y, 4)
        (0.16, 0.154)
        """
        x, y, z = gap_independent(self.label_accuracy(labels_per_item, vote_ties), self.p, self.eps)
        return Gap(float(x), float(y), float(z))

    def params(self) -> dict[str, float]:
        """The parameters by name.

        Returns
        -------
        dict
            ``{"p": …, "eps": …, "q": …}``.

        Examples
        --------
        >>> IndependentErrors(0.8, 0.01, 0.8).params()
        {'p': 0.8, 'eps': 0.01, 'q': 0.8}
        """
        return {"p": self.p, "eps": self.eps, "q": self.q}

    def accuracies(self) -> tuple[float, float]:
        """The two classifiers' accuracies.

        Returns
        -------
        tuple of float
            (better, worse) = (p + ε, p).

        Examples
        --------
        >>> IndependentErrors(0.7, 0.1, 0.8).accuracies()
        (0.7999999999999999, 0.7)
        """
        return self.p + self.eps, self.p


@dataclass(frozen=True, repr=False)
class CorrelatedErrors(Result):
    """Correlated classifiers and labels (section 3.2, Proposition 2).

    Assumption 1 (q_b ≥ q_w) is reported by :attr:`assumption1`, not enforced.

    Parameters
    ----------
    q_b, q_w : float
        The label accuracy where only c_b / only c_w is right, in (0.5, 1].
    p_w : float
        The accuracy of the worse classifier c_w, in [0.5, 1].
    p_b0, p_b1 : float
        The accuracy of c_b when c_w is wrong / right, in [0.5, 1]; (1 − p_w)p_b⁰ + p_w p_b¹ > p_w
        (c_b is the better classifier).
    check : bool
        Check the paper's ranges (default); ``False`` accepts any probabilities (estimates).

    Raises
    ------
    InputError
        For a parameter outside its range, or a c_b that is not better.

    Examples
    --------
    >>> e = CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9)
    >>> e.assumption1, round(e.gap(1).mean, 4)
    (True, 0.144)

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 3.2 and Proposition 2.
    """

    scenario: ClassVar[str] = "correlated"

    q_b: float
    q_w: float
    p_w: float
    p_b0: float
    p_b1: float
    check: bool = field(default=True, repr=False, compare=False)

    def __post_init__(self) -> None:
        _as_floats(self, ("q_b", "q_w", "p_w", "p_b0", "p_b1"))
        if not self.check:
            for name in ("q_b", "q_w", "p_w", "p_b0", "p_b1"):
                check_accuracy(name, getattr(self, name), 0.0, 1.0)
            return
        check_accuracy("q_b", self.q_b, 0.5, 1.0, open_low=True)
        check_accuracy("q_w", self.q_w, 0.5, 1.0, open_low=True)
        for name in ("p_w", "p_b0", "p_b1"):
            check_accuracy(name, getattr(self, name), 0.5, 1.0)
        acc_b = (1 - self.p_w) * self.p_b0 + self.p_w * self.p_b1
        if not acc_b > self.p_w:
            raise InputError(
                f"(1 − p_w)p_b0 + p_w p_b1 = {acc_b:.6g} must exceed p_w = {self.p_w:g} "
                "(c_b must be the better classifier)"
            )

    @property
    def assumption1(self) -> bool:
        """Assumption 1 (no biased label accuracy): q_b ≥ q_w.

        Examples
        --------
        >>> CorrelatedErrors(0.6, 0.9, 0.6, 0.7, 0.9, check=False).assumption1
        False
        """
        return self.q_b >= self.q_w

    def label_accuracy(self, labels_per_item: int = 1, vote_ties: VoteTies = "coin") -> float:
        """The label accuracy where the classifiers disagree: M_m averaged over E_b and E_w.

        Parameters
        ----------
        labels_per_item : int
            Labels per item.
        vote_ties : {"coin", "failure"}
            How a tied vote of an even m is settled (see :func:`majority_accuracy`).

        Returns
        -------
        float
            The mean accuracy of an m-majority label on items where exactly one classifier is right.

        Examples
        --------
        >>> round(CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9).label_accuracy(1), 4)
        0.7824
        """
        a = (1 - self.p_w) * self.p_b0
        b = self.p_w * (1 - self.p_b1)
        mb, mw = (
            _accuracy_m(self.q_b, labels_per_item, vote_ties),
            _accuracy_m(self.q_w, labels_per_item, vote_ties),
        )
        return float((a * mb + b * mw) / (a + b)) if a + b > 0 else float(mb)

    def gap(self, labels_per_item: int = 1, vote_ties: VoteTies = "coin") -> Gap:
        """The gap indicator's distribution G(M_m(q_b), M_m(q_w), p) (Proposition 2, m-majority labels).

        Parameters
        ----------
        labels_per_item : int
            Labels per item.
        vote_ties : {"coin", "failure"}
            How a tied vote of an even m is settled (see :func:`majority_accuracy`).

        Returns
        -------
        Gap
            P(G = 1), P(G = −1), P(G = 0).

        Examples
        --------
        >>> round(CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9).gap(1).x, 3)
        0.242
        """
        x, y, z = gap_correlated(
            _accuracy_m(self.q_b, labels_per_item, vote_ties),
            _accuracy_m(self.q_w, labels_per_item, vote_ties),
            self.p_w,
            self.p_b0,
            self.p_b1,
        )
        return Gap(float(x), float(y), float(z))

    def params(self) -> dict[str, float]:
        """The parameters by name.

        Returns
        -------
        dict
            ``{"q_b": …, "q_w": …, "p_w": …, "p_b0": …, "p_b1": …}``.

        Examples
        --------
        >>> list(CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9).params())
        ['q_b', 'q_w', 'p_w', 'p_b0', 'p_b1']
        """
        return {
            "q_b": self.q_b,
            "q_w": self.q_w,
            "p_w": self.p_w,
            "p_b0": self.p_b0,
            "p_b1": self.p_b1,
        }

    def accuracies(self) -> tuple[float, float]:
        """The two classifiers' accuracies.

        Returns
        -------
        tuple of float
            (better, worse) = ((1 − p_w)p_b⁰ + p_w p_b¹, p_w).

        Examples
        --------
        >>> [round(a, 2) for a in CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9).accuracies()]
        [0.82, 0.6]
        """
        return (1.0 - self.p_w) * self.p_b0 + self.p_w * self.p_b1, self.p_w


#: Either error model.
ErrorModel = IndependentErrors | CorrelatedErrors


def make_error_model(
    *,
    p: float | None = None,
    eps: float | None = None,
    q: float | None = None,
    q_b: float | None = None,
    q_w: float | None = None,
    p_w: float | None = None,
    p_b0: float | None = None,
    p_b1: float | None = None,
) -> ErrorModel:
    """The independent error model from (p, eps, q) or the correlated one from (q_b … p_b1).

    Parameters
    ----------
    p, eps, q : float, optional
        The independent scenario (:class:`IndependentErrors`).
    q_b, q_w, p_w, p_b0, p_b1 : float, optional
        The correlated scenario (:class:`CorrelatedErrors`).

    Returns
    -------
    IndependentErrors or CorrelatedErrors
        The error model of the scenario whose parameters are given.

    Raises
    ------
    InputError
        When the parameters of both scenarios, or of neither, or only some of one, are given.

    Examples
    --------
    >>> make_error_model(p=0.8, eps=0.01, q=0.8)
    IndependentErrors(p=0.8, eps=0.01, q=0.8)
    >>> make_error_model(q_b=0.8, q_w=0.7, p_w=0.6, p_b0=0.7, p_b1=0.9).scenario
    'correlated'
    """
    ind: dict[str, Any] = {"p": p, "eps": eps, "q": q}
    cor: dict[str, Any] = {"q_b": q_b, "q_w": q_w, "p_w": p_w, "p_b0": p_b0, "p_b1": p_b1}
    has_ind = any(v is not None for v in ind.values())
    has_cor = any(v is not None for v in cor.values())
    if has_ind == has_cor:
        raise InputError(
            "give either p, eps and q (the independent scenario) or q_b, q_w, p_w, p_b0 and p_b1 "
            "(the correlated scenario)"
        )
    chosen, scenario = (ind, "independent") if has_ind else (cor, "correlated")
    missing = [k for k, v in chosen.items() if v is None]
    if missing:
        raise InputError(f"the {scenario} error model also needs {', '.join(missing)}")
    if has_ind:
        return IndependentErrors(**chosen)
    return CorrelatedErrors(**chosen)
