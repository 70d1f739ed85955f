"""Dawid & Skene (1979): maximum-likelihood confusion matrices of named raters by EM, vectorised over
the coded labels (memory ∝ labels, never an items × raters matrix).

The model: item ``i`` has a hidden true class drawn from a prior ``π``; rater ``r`` gives label ``k``
to an item of class ``c`` with probability ``θ_r[c, k]``, independently of every other label given
the class. EM alternates the E step (each item's posterior over classes from π and θ) and the M step
(π, θ from the posteriors: the posterior-weighted label counts of each rater, normalised).

Choices, documented because every implementation makes them differently:

* **initialisation** — the majority vote: each item's posterior is uniform over its most frequent
  classes (:func:`humanly._core.counts.plurality_shares`); the first M step turns it into π, θ;
* **floor** — probabilities are floored at :data:`FLOOR` inside logarithms (crowd-kit uses the same
  ``1e-10``), so a rater who never gave label k to class c in the current fit cannot veto class c;
  a true class a rater never met (no posterior mass on their items) gets a uniform row of θ;
* **convergence** — the EM map moves no entry of π or θ by more than ``tol`` (default :data:`TOL`),
  within ``max_iter`` M steps (default :data:`MAX_ITER`); otherwise ``converged=False``;
* **acceleration** — by default the fixed point of the *same* EM map is found with SQUAREM
  (Varadhan & Roland 2008, the squared-extrapolation "SqS3" step with a monotone safeguard: an
  extrapolated point must be a probability vector and is kept only if its log-likelihood is at least
  that of the plain EM step). On sparse designs (three labels per item) plain EM moves at a
  linear rate close to 1 and needs thousands of steps; SQUAREM needs 4–10 times fewer. Pass
  ``accelerate=False`` for the textbook iteration, step for step.

A rater's accuracy is ``Σ_c π_c θ_r[c, c]``: the chance that their label is right on an item drawn from
the prior.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_number
from .._core.counts import plurality_shares
from .._core.result import Result
from ..data import InputError, Ratings

__all__ = ["DawidSkeneFit", "dawid_skene"]

#: probabilities are floored at this value inside logarithms (as crowd-kit does)
FLOOR = 1e-10
#: default tolerance: converged when the EM map moves no entry of π or θ by more than this
TOL = 1e-6
#: default limit on M steps; a fit that has not converged by then reports ``converged=False``
MAX_ITER = 5000


def _require_raters(ratings: Ratings, what: str) -> pd.Index:
    """The rater ids of named ratings; an :class:`InputError` for anonymous counts (``TypeError`` for
    something that is not a :class:`Ratings`)."""
    if not isinstance(ratings, Ratings):
        got = "None" if ratings is None else type(ratings).__name__
        raise TypeError(f"ratings={got}: give a humanly.Ratings with named raters")
    if ratings.raters is None:
        raise InputError(
            f"{what} needs named raters, but {ratings.source or 'these ratings'} holds anonymous "
            "counts only; read the labels in long format (item, rater, label)"
        )
    return ratings.raters


def _coded_labels(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Item, rater and label codes (int64) of every label of named ratings."""
    return (
        ratings.item_codes.astype(np.int64),
        ratings.rater_codes.astype(np.int64),
        ratings.label_codes.astype(np.int64),
    )


@dataclasses.dataclass(frozen=True, repr=False)
class DawidSkeneFit(Result):
    """A Dawid–Skene fit, its arrays labelled by the classes and raters they are indexed by.

    Parameters
    ----------
    classes : tuple
        The classes, in the ratings' order: the index of ``prior`` and of both class axes of
        ``confusion``.
    raters : tuple
        The rater ids, in the ratings' order: the index of ``accuracy`` and the first axis of
        ``confusion``.
    prior : numpy.ndarray
        The class prior π, one probability per class.
    confusion : numpy.ndarray
        Raters × true class × given label: ``confusion[r, c, k]`` = θ_r[c, k], the probability that
        rater ``r`` gives label ``k`` to an item of class ``c`` (rows sum to 1).
    accuracy : numpy.ndarray
        Per rater, Σ_c π_c θ_r[c, c]: the chance their label is right on an item drawn from the prior.
    log_likelihood : float
        The observed-data log-likelihood at the fit.
    iterations : int
        The M steps taken.
    converged : bool
        Whether the EM map moved no entry of π or θ by more than ``tol`` within ``max_iter`` steps.
    tol : float
        The convergence tolerance.
    max_iter : int
        The limit on M steps.
    accelerate : bool
        Whether SQUAREM was used.
    posterior : numpy.ndarray
        Items × classes posteriors, in the ratings' item order (zero rows for items without labels).
        In memory only: not in the JSON, empty after :meth:`from_dict`.
    items : pandas.Index or None
        The item ids of the ``posterior`` rows (in memory only).

    Examples
    --------
    >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
    >>> fit = dawid_skene(r)
    >>> fit.converged, fit.raters, fit.accuracy.round(6).tolist()
    (True, ('u', 'v'), [1.0, 1.0])
    >>> fit.to_frame().loc["u"].round(6).values.tolist()  # rater u's confusion matrix
    [[1.0, 0.0], [0.0, 1.0]]
    """

    classes: tuple[Any, ...]
    raters: tuple[Any, ...]
    prior: np.ndarray
    confusion: np.ndarray
    accuracy: np.ndarray
    log_likelihood: float
    iterations: int
    converged: bool
    tol: float
    max_iter: int
    accelerate: bool
    posterior: np.ndarray = dataclasses.field(
        default_factory=lambda: np.empty((0, 0)), repr=False, compare=False
    )
    items: pd.Index | None = dataclasses.field(default=None, repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """The confusion matrices as one table.

        Returns
        -------
        pandas.DataFrame
            One row per (rater, true class), one column per given label: θ_r[c, k]. One rater's
            matrix is ``fit.to_frame().loc[rater]``.

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a"], ["u", "v"], ["x", "x"], classes=["x", "y"])
        >>> dawid_skene(r).to_frame().shape
        (4, 2)
        """
        n_r, n_c = len(self.raters), len(self.classes)
        index = pd.MultiIndex.from_product(
            [list(self.raters), list(self.classes)], names=["rater", "true_class"]
        )
        columns = pd.Index(list(self.classes), name="label")
        return pd.DataFrame(
            np.asarray(self.confusion).reshape(n_r * n_c, n_c), index=index, columns=columns
        )

    def prior_frame(self) -> pd.DataFrame:
        """The class prior π as a table.

        Returns
        -------
        pandas.DataFrame
            One row per class (the index), the column ``prior``.

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
        >>> dawid_skene(r).prior_frame()["prior"].round(3).tolist()
        [0.5, 0.5]
        """
        index = pd.Index(list(self.classes), name="class")
        return pd.DataFrame({"prior": np.asarray(self.prior, dtype=float)}, index=index)

    def accuracy_frame(self) -> pd.DataFrame:
        """Each rater's accuracy Σ_c π_c θ_r[c, c] as a table.

        Returns
        -------
        pandas.DataFrame
            One row per rater (the index), the column ``accuracy``.

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
        >>> dawid_skene(r).accuracy_frame()["accuracy"].round(3).to_dict()
        {'u': 1.0, 'v': 1.0}
        """
        index = pd.Index(list(self.raters), name="rater")
        return pd.DataFrame({"accuracy": np.asarray(self.accuracy, dtype=float)}, index=index)

    def posterior_frame(self) -> pd.DataFrame:
        """The items' posteriors over the classes as a table (in memory only).

        Returns
        -------
        pandas.DataFrame
            One row per item (the index, in the ratings' order), one column per class.

        Raises
        ------
        InputError
            For a fit read back with :meth:`from_dict` (the posteriors are not in the JSON).

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
        >>> dawid_skene(r).posterior_frame().round(3).values.tolist()
        [[1.0, 0.0], [0.0, 1.0]]
        """
        if self.items is None or len(self.posterior) != len(self.items):
            raise InputError(
                "this Dawid–Skene fit holds no posteriors (they are not in its JSON); fit it again "
                "with humanly.crowd.dawid_skene.dawid_skene"
            )
        columns = pd.Index(list(self.classes), name="class")
        return pd.DataFrame(self.posterior, index=self.items, columns=columns)


class _Codes(NamedTuple):
    """The coded labels as the EM steps use them: item code, ``rater × C + label`` (a cell of the
    per-rater label counts) and ``rater × C² + label`` (plus ``c × C``: the cell ``θ_r[c, label]`` of
    the flattened confusion matrices)."""

    items: np.ndarray
    rater_label: np.ndarray
    theta_cell: np.ndarray
    n_items: int
    n_raters: int
    n_classes: int
    labelled: np.ndarray


def _codes(ratings: Ratings, n_raters: int) -> _Codes:
    items, raters, labels = _coded_labels(ratings)
    n_c = ratings.n_classes
    return _Codes(
        items=items,
        rater_label=raters * n_c + labels,
        theta_cell=raters * n_c * n_c + labels,
        n_items=ratings.n_items,
        n_raters=n_raters,
        n_classes=n_c,
        labelled=ratings.labels_per_item > 0,
    )


def _m_step(post: np.ndarray, k: _Codes) -> tuple[np.ndarray, np.ndarray]:
    """Class prior (mean posterior over labelled items) and confusion matrices (posterior-weighted
    label counts per rater and true class, normalised over labels; a true class a rater never met
    gets a uniform row). ``post`` is classes × items (class-major: reductions over classes are then
    element-wise over items, much faster than row reductions of a narrow items × classes array)."""
    n_c, n_r = k.n_classes, k.n_raters
    prior = post.sum(axis=1) / np.count_nonzero(k.labelled)  # unlabelled items have zero columns
    mass = np.empty((n_r, n_c, n_c))
    for c in range(n_c):
        w = post[c][k.items]
        mass[:, c, :] = np.bincount(k.rater_label, weights=w, minlength=n_r * n_c).reshape(n_r, n_c)
    tot = mass[:, :, 0].copy()
    for j in range(1, n_c):  # faster than a sum over the short last axis
        tot += mass[:, :, j]
    met = tot > 0
    mass /= np.where(met, tot, 1.0)[:, :, None]
    mass[~met] = 1.0 / n_c
    return prior, mass


def _e_step(prior: np.ndarray, theta: np.ndarray, k: _Codes) -> tuple[np.ndarray, float]:
    """Item posteriors (classes × items) ∝ π_c Π_labels θ_r[c, label] (floored at :data:`FLOOR` in
    logs) and the observed-data log-likelihood Σ_items log Σ_c π_c Π_labels θ_r[c, label]."""
    n_c = k.n_classes
    log_theta = np.log(np.maximum(theta, FLOOR)).reshape(-1)
    log_prior = np.log(np.maximum(prior, FLOOR))
    log_post = np.empty((n_c, k.n_items))
    for c in range(n_c):
        w = log_theta[k.theta_cell + c * n_c]
        log_post[c] = np.bincount(k.items, weights=w, minlength=k.n_items) + log_prior[c]
    top = log_post.max(axis=0)
    post = np.exp(log_post - top)
    total = post.sum(axis=0)
    post /= total
    post[:, ~k.labelled] = 0.0
    norm = top + np.log(total)  # log Σ_c exp(log_post[c])
    return post, float(norm[k.labelled].sum())


def _em_map(x: np.ndarray, k: _Codes) -> tuple[np.ndarray, float]:
    """One EM step on the flat parameter vector ``x = [π, θ.ravel()]``: the next vector and the
    log-likelihood at ``x``."""
    n_c = k.n_classes
    prior, theta = x[:n_c], x[n_c:].reshape(k.n_raters, n_c, n_c)
    post, loglik = _e_step(prior, theta, k)
    new_prior, new_theta = _m_step(post, k)
    return np.concatenate([new_prior, new_theta.reshape(-1)]), loglik


def _extrapolate(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray) -> np.ndarray | None:
    """SQUAREM's squared extrapolation from two EM steps ``x0 → x1 → x2``: ``x0 − 2αr + α²v`` with
    ``r = x1 − x0``, ``v = x2 − 2 x1 + x0``, ``α = −‖r‖/‖v‖`` (at most −1). The coefficients sum to
    one, so π and every row of θ keep summing to one; while an entry would be negative α is moved
    half-way to −1 (at most 8 times). ``None`` when no such point exists short of ``α ≈ −1``, i.e.
    the plain step ``x2`` (clipping negative entries at zero instead would park them on the boundary,
    where EM creeps away from zero by tiny steps that look like convergence)."""
    r = x1 - x0
    v = x2 - x1 - r
    norm_v = float(np.sqrt(v @ v))
    if norm_v == 0.0:
        return None
    alpha = min(-float(np.sqrt(r @ r)) / norm_v, -1.0)
    for _ in range(8):
        if alpha > -1.01:
            return None
        x = x0 - 2.0 * alpha * r + alpha * alpha * v
        if x.min() >= 0.0:
            return x
        alpha = (alpha - 1.0) / 2.0
    return None


def _plain(x: np.ndarray, k: _Codes, tol: float, max_iter: int) -> tuple[np.ndarray, int, bool]:
    """Plain EM from ``x`` (one M step already taken): (parameters, M steps, converged)."""
    steps = 1
    while steps < max_iter:
        new, _ = _em_map(x, k)
        steps += 1
        change = float(np.abs(new - x).max())
        x = new
        if change <= tol:
            return x, steps, True
    return x, steps, False


def _squarem(x: np.ndarray, k: _Codes, tol: float, max_iter: int) -> tuple[np.ndarray, int, bool]:
    """SQUAREM from ``x`` (one M step already taken): two EM steps, an extrapolated point, one EM
    step from it when its log-likelihood is no worse than the plain path's; converged when an EM step
    moves no entry by more than ``tol`` (the same test as :func:`_plain`)."""
    steps = 1
    while steps < max_iter:
        x1, _ = _em_map(x, k)
        steps += 1
        if float(np.abs(x1 - x).max()) <= tol:
            return x1, steps, True
        if steps >= max_iter:
            return x1, steps, False
        x2, loglik_1 = _em_map(x1, k)
        steps += 1
        if float(np.abs(x2 - x1).max()) <= tol:
            return x2, steps, True
        jump = _extrapolate(x, x1, x2)
        if jump is None or steps >= max_iter:
            x = x2
            continue
        x3, loglik_jump = _em_map(jump, k)
        steps += 1
        if not (np.isfinite(loglik_jump) and loglik_jump >= loglik_1):
            x = x2  # the safeguard: never worse than plain EM
            continue
        if float(np.abs(x3 - jump).max()) <= tol:
            return x3, steps, True
        x = x3
    return x, steps, False


def dawid_skene(
    ratings: Ratings, *, tol: float = TOL, max_iter: int = MAX_ITER, accelerate: bool = True
) -> DawidSkeneFit:
    """The maximum-likelihood Dawid–Skene fit of named ratings, by EM.

    Deterministic (the choices — majority-vote start, floor, tolerance, SQUAREM — are in the module
    docstring). Each step costs ``O(labels × classes)`` time and memory, plus ``raters × classes²``.

    Parameters
    ----------
    ratings : Ratings
        Named ratings (anonymous counts have no raters to fit).
    tol : float
        Converged when an EM step moves no entry of π or θ by more than this.
    max_iter : int
        The limit on M steps; a fit that has not converged by then has ``converged=False``.
    accelerate : bool
        Find the fixed point of the same EM map with SQUAREM (``False``: the textbook iteration).

    Returns
    -------
    DawidSkeneFit
        π, θ and the raters' accuracies, labelled by classes and raters, with the item posteriors.

    Raises
    ------
    InputError
        For anonymous counts, or ``tol``/``max_iter`` out of range.
    TypeError
        For ``ratings`` that is not a :class:`~humanly.data.Ratings`, or ``accelerate`` not a bool.

    Examples
    --------
    >>> r = Ratings.from_long(list("aaabbbcccddd"), list("uvw") * 4, [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0])
    >>> fit = dawid_skene(r)  # u and v always agree; w agrees with them on two items of four
    >>> fit.converged, fit.prior.round(3).tolist(), fit.accuracy.round(3).tolist()
    (True, [0.5, 0.5], [1.0, 1.0, 0.5])

    References
    ----------
    Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer error-rates using
    the EM algorithm. *Applied Statistics* 28(1), 20–28.

    Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods for accelerating the
    convergence of any EM algorithm. *Scandinavian Journal of Statistics* 35(2), 335–353.
    """
    tol = check_number("tol", tol, minimum=0.0, open_low=True)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    if not isinstance(accelerate, (bool, np.bool_)):
        raise TypeError(f"accelerate={accelerate!r}: give True or False")
    raters = _require_raters(ratings, "Dawid–Skene")
    k = _codes(ratings, len(raters))
    post = np.ascontiguousarray(plurality_shares(ratings.counts).T, dtype=np.float64)
    prior, theta = _m_step(post, k)
    start = np.concatenate([prior, theta.reshape(-1)])
    solve = _squarem if accelerate else _plain
    x, steps, converged = solve(start, k, tol, max_iter)
    n_c = k.n_classes
    prior, theta = x[:n_c], x[n_c:].reshape(k.n_raters, n_c, n_c)
    post, loglik = _e_step(prior, theta, k)
    return DawidSkeneFit(
        classes=tuple(ratings.classes),
        raters=tuple(raters.tolist()),
        prior=prior,
        confusion=theta,
        accuracy=np.einsum("c,rcc->r", prior, theta),
        log_likelihood=loglik,
        iterations=steps,
        converged=converged,
        tol=float(tol),
        max_iter=max_iter,
        accelerate=bool(accelerate),
        posterior=np.ascontiguousarray(post.T),
        items=ratings.items,
    )
