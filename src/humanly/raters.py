"""Per-rater quality at the data level: how often each rater agrees with the rest of the crowd, and
the classic Dawid–Skene estimate of each rater's accuracy.

Both work on the coded arrays of named :class:`~humanly.data.Ratings` (item, rater and label code of
every label), so memory grows with the number of labels — never an items × raters matrix.

* :func:`rater_agreement` — per label, the credit it earns against the plurality of the *other* labels
  of its item (1 when it is their strict plurality, ``1/|T|`` when it is one of ``|T|`` tied top
  classes, 0 otherwise; items with no other label are skipped), averaged per rater and over the crowd.
* :func:`dawid_skene` — Dawid & Skene (1979) EM for per-rater confusion matrices and a class prior;
  a rater's accuracy is ``Σ_c π_c θ_r[c, c]``.
* :func:`rater_summary` — both, plus accuracy against gold where it exists, as one table
  (:class:`RaterSummary`, what :func:`humanly.summarize` reports under ``raters``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._checks import check_int, check_number
from ._counts import plurality_shares
from ._result import Result
from .data import InputError, Ratings

__all__ = [
    "DawidSkeneFit",
    "DawidSkeneSummary",
    "RaterAgreement",
    "RaterRow",
    "RaterSummary",
    "dawid_skene",
    "label_credit",
    "rater_agreement",
    "rater_summary",
]

#: confusion probabilities and priors are floored at this value inside logarithms (as crowd-kit does),
#: so that one rater who never gave label k for class c cannot rule class c out with ``log 0``
FLOOR = 1e-10
#: default convergence tolerance: stop when no entry of π or θ moves by more than this
TOL = 1e-6
#: default iteration limit; a fit that has not converged by then reports ``converged=False``
MAX_ITER = 5000


def _raters(ratings: Ratings, what: str) -> pd.Index:
    """The rater ids of named ratings; an :class:`InputError` for anonymous counts or other values."""
    if not isinstance(ratings, Ratings):
        got = "None" if ratings is None else type(ratings).__name__
        raise TypeError(f"ratings={got}: give a humanly.Ratings with named raters")
    if ratings.raters is None:
        raise InputError(
            f"{what} needs named raters, but {ratings.source or 'these ratings'} holds anonymous "
            "counts only; read the labels in long format (item, rater, label)"
        )
    return ratings.raters


def _named(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Item, rater and label codes (int64) of every label."""
    return (
        ratings.item_codes.astype(np.int64),
        ratings.rater_codes.astype(np.int64),
        ratings.label_codes.astype(np.int64),
    )


# ---------------------------------------------------------------------------- agreement with the rest


@dataclasses.dataclass(frozen=True, repr=False)
class RaterAgreement(Result):
    """Per rater (in :attr:`Ratings.raters` order): labels compared (on an item with another label)
    and their mean credit against the plurality of the other labels (NaN when none was compared);
    ``crowd`` is the mean credit over every compared label of the crowd.

    >>> r = Ratings.from_long(["a", "a", "a", "b", "b"], ["u", "v", "w", "u", "v"], [0, 0, 1, 1, 1])
    >>> rater_agreement(r).agreement.tolist(), rater_agreement(r).crowd
    ([0.75, 0.75, 0.0], 0.6)
    """

    n_compared: np.ndarray
    agreement: np.ndarray
    crowd: float


def label_credit(counts: np.ndarray, item_codes: np.ndarray, label_codes: np.ndarray) -> np.ndarray:
    """Per label, the credit it earns against the plurality of the other labels of its item (NaN when
    the item has no other label).

    Only an item's strict plurality class can earn credit once one of its labels is set aside: if the
    item's largest count ``m1`` belongs to one class ``k`` and the next largest is ``m2`` (held by ``t2``
    classes), a label ``k`` earns 1 when ``m1 − 1 > m2`` and ``1/(1 + t2)`` when ``m1 − 1 = m2``; any
    other label is below the others' plurality (it earns 0). Vectorised over items (``O(items ×
    classes)``) and then gathered per label.

    >>> label_credit(np.array([[2, 1], [1, 1]]), np.array([0, 0, 0, 1, 1]), np.array([0, 0, 1, 0, 1]))
    array([0.5, 0.5, 0. , 0. , 0. ])
    """
    c = np.asarray(counts, dtype=np.int64)
    n = c.sum(axis=1)
    if c.shape[1] == 1:
        top_k = np.zeros(len(c), dtype=np.int64)
        value = np.ones(len(c))
    else:
        part = np.sort(c, axis=1)
        m1, m2 = part[:, -1], part[:, -2]
        top_k = np.argmax(c, axis=1)
        t2 = (c == m2[:, None]).sum(axis=1)
        strict = m1 > m2
        value = np.where(m1 - 1 > m2, 1.0, 1.0 / (1 + t2)) * strict
    item_codes = np.asarray(item_codes, dtype=np.int64)
    out = np.where(np.asarray(label_codes) == top_k[item_codes], value[item_codes], 0.0)
    out[n[item_codes] < 2] = np.nan
    return out


def rater_agreement(ratings: Ratings) -> RaterAgreement:
    """Each named rater's mean credit against the plurality of the other labels of the same items
    (:func:`label_credit`), and the crowd's (every compared label counts once).

    With ``duplicates="keep"`` a rater's second label of an item is one of the "other labels".
    """
    n_r = len(_raters(ratings, "per-rater agreement"))
    items, raters, labels = _named(ratings)
    credit = label_credit(ratings.counts, items, labels)
    ok = ~np.isnan(credit)
    n_cmp = np.bincount(raters[ok], minlength=n_r)
    total = np.bincount(raters[ok], weights=credit[ok], minlength=n_r)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n_cmp > 0, total / np.maximum(n_cmp, 1), np.nan)
    crowd = float(credit[ok].mean()) if ok.any() else float("nan")
    return RaterAgreement(n_compared=n_cmp, agreement=mean, crowd=crowd)


# ---------------------------------------------------------------------------- Dawid–Skene


@dataclasses.dataclass(frozen=True, repr=False)
class DawidSkeneFit(Result):
    """A Dawid–Skene fit: class prior ``prior`` (π, one per class), per-rater confusion matrices
    ``confusion`` (raters × true class × given label, rows sum to 1), item posteriors ``posterior``
    (items × classes; zero rows for items without labels), per-rater ``accuracy`` ``Σ_c π_c θ_r[c, c]``,
    the observed-data log-likelihood, and whether EM converged within ``max_iter`` iterations
    (largest change of any entry of π or θ ≤ ``tol``).

    >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
    >>> fit = dawid_skene(r)
    >>> fit.converged, fit.accuracy.round(6).tolist()
    (True, [1.0, 1.0])
    """

    prior: np.ndarray
    confusion: np.ndarray = dataclasses.field(repr=False)
    posterior: np.ndarray = dataclasses.field(repr=False)
    accuracy: np.ndarray
    log_likelihood: float
    iterations: int
    converged: bool
    tol: float
    max_iter: int


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
    items, raters, labels = _named(ratings)
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


def dawid_skene(ratings: Ratings, *, tol: float = TOL, max_iter: int = MAX_ITER) -> DawidSkeneFit:
    """Classic Dawid–Skene (1979) EM on named ratings: each rater ``r`` has a confusion matrix
    ``θ_r[c, k]`` (the chance of label ``k`` when the true class is ``c``), items draw their true class
    from a prior ``π``, and labels are independent given the true class.

    Initialisation: item posteriors are the majority vote (uniform over an item's most frequent
    classes, :func:`humanly._counts.plurality_shares`); then M step (π, θ from the posteriors), E step
    (posteriors from π, θ), repeated until no entry of π or θ changes by more than ``tol`` between
    successive M steps, or ``max_iter`` M steps. Probabilities are floored at :data:`FLOOR` inside
    logarithms. Deterministic (no random step). Vectorised over labels with ``bincount``: each
    iteration costs ``O(labels × classes)`` time and memory, plus ``raters × classes²``.
    """
    tol = check_number("tol", tol, minimum=0.0, open_low=True)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    codes = _codes(ratings, len(_raters(ratings, "Dawid–Skene")))
    post = np.ascontiguousarray(plurality_shares(ratings.counts).T, dtype=np.float64)
    prior, theta = _m_step(post, codes)
    converged, iterations = False, 1
    while iterations < max_iter:
        post, _ = _e_step(prior, theta, codes)
        new_prior, new_theta = _m_step(post, codes)
        iterations += 1
        change = max(np.abs(new_prior - prior).max(), np.abs(new_theta - theta).max(initial=0.0))
        prior, theta = new_prior, new_theta
        if change <= tol:
            converged = True
            break
    post, loglik = _e_step(prior, theta, codes)
    accuracy = np.einsum("c,rcc->r", prior, theta)
    return DawidSkeneFit(
        prior=prior,
        confusion=theta,
        posterior=np.ascontiguousarray(post.T),
        accuracy=accuracy,
        log_likelihood=loglik,
        iterations=iterations,
        converged=converged,
        tol=float(tol),
        max_iter=max_iter,
    )


# ---------------------------------------------------------------------------- the table


@dataclasses.dataclass(frozen=True, repr=False)
class RaterRow(Result):
    """One rater: labels given, labels compared with another label of the same item, their mean
    credit against the others' plurality (``agreement``), the Dawid–Skene accuracy, and the share of
    the rater's labels on gold items that equal gold (``None`` where undefined)."""

    rater: Any
    n_labels: int
    n_compared: int
    agreement: float | None
    dawid_skene_accuracy: float | None
    gold_accuracy: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class DawidSkeneSummary(Result):
    """What the rater table says about its Dawid–Skene fit: converged or not, iterations, tolerance,
    the estimated class prior (class → π_c) and the log-likelihood."""

    converged: bool
    iterations: int
    tol: float
    max_iter: int
    prior: dict[str, float]
    log_likelihood: float


@dataclasses.dataclass(frozen=True, repr=False)
class RaterSummary(Result):
    """Per-rater quality, one row per named rater (in the ratings' rater order), with the crowd's mean
    agreement (every compared label counts once) for reference.

    >>> r = Ratings.from_long(["a", "a", "a", "b", "b"], ["u", "v", "w", "u", "v"], [0, 0, 1, 1, 1])
    >>> s = rater_summary(r)
    >>> s.to_frame()[["rater", "n_labels", "agreement"]].values.tolist()
    [['u', 2, 0.75], ['v', 2, 0.75], ['w', 1, 0.0]]
    """

    rows: tuple[RaterRow, ...]
    crowd_agreement: float | None
    dawid_skene: DawidSkeneSummary | None

    def to_frame(self) -> pd.DataFrame:
        """One row per rater: the :class:`RaterRow` fields as columns."""
        cols = [f.name for f in dataclasses.fields(RaterRow)]
        return pd.DataFrame([[getattr(r, c) for c in cols] for r in self.rows], columns=cols)


def _float_or_none(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _floats(x: np.ndarray) -> list[float | None]:
    """Python floats, ``None`` for NaN (one pass, no per-element numpy scalars)."""
    return [None if v != v else v for v in np.asarray(x, dtype=np.float64).tolist()]


def rater_summary(
    ratings: Ratings,
    gold: np.ndarray | None = None,
    *,
    tol: float = TOL,
    max_iter: int = MAX_ITER,
) -> RaterSummary:
    """The per-rater table of named ``ratings``: :func:`rater_agreement` and :func:`dawid_skene`
    accuracies, and with ``gold`` (one class code per item, -1 for none) each rater's accuracy on
    the gold items.

    A Dawid–Skene accuracy is given when EM converged and the rater gave at least one label;
    otherwise it is ``None`` (the fit's ``converged`` says which).
    """
    raters = _raters(ratings, "the per-rater table")
    items, who, labels = _named(ratings)
    n_r = len(raters)
    n_labels = np.bincount(who, minlength=n_r)
    agree = rater_agreement(ratings)
    fit = dawid_skene(ratings, tol=tol, max_iter=max_iter)
    gold_acc = np.full(n_r, np.nan)
    if gold is not None:
        g = np.asarray(gold, dtype=np.int64)[items]
        has = g >= 0
        n_gold = np.bincount(who[has], minlength=n_r)
        hits = np.bincount(who[has], weights=(labels[has] == g[has]), minlength=n_r)
        with np.errstate(invalid="ignore", divide="ignore"):
            gold_acc = np.where(n_gold > 0, hits / np.maximum(n_gold, 1), np.nan)
    ds_acc = fit.accuracy if fit.converged else np.full(n_r, np.nan)
    ds_acc = np.where(n_labels > 0, ds_acc, np.nan)
    columns = zip(
        raters.tolist(),
        n_labels.tolist(),
        agree.n_compared.tolist(),
        _floats(agree.agreement),
        _floats(ds_acc),
        _floats(gold_acc),
        strict=True,
    )
    rows = tuple(RaterRow(*values) for values in columns)
    ds = DawidSkeneSummary(
        converged=fit.converged,
        iterations=fit.iterations,
        tol=fit.tol,
        max_iter=fit.max_iter,
        prior={str(c): float(p) for c, p in zip(ratings.classes, fit.prior, strict=True)},
        log_likelihood=fit.log_likelihood,
    )
    return RaterSummary(rows=rows, crowd_agreement=_float_or_none(agree.crowd), dawid_skene=ds)
