"""Per-rater quality at the data level: how often each rater agrees with the rest of the crowd, and
the classic Dawid–Skene estimate of each rater's accuracy.

Both work on the coded arrays of named :class:`~humanly.data.Ratings` (item, rater and label code of
every label), so memory grows with the number of labels — never an items × raters matrix.

* :func:`rater_agreement` — per label, the credit it earns against the plurality of the *other* labels
  of its item (1 when it is their strict plurality, ``1/|T|`` when it is one of ``|T|`` tied top
  classes, 0 otherwise; items with no other label are skipped), averaged per rater and over the crowd.
* :func:`humanly.crowd.dawid_skene.dawid_skene` — Dawid & Skene (1979) EM for per-rater confusion matrices
  and a class prior; a rater's accuracy is ``Σ_c π_c θ_r[c, c]``.
* :func:`rater_summary` — both, plus accuracy against gold where it exists, as one table
  (:class:`RaterSummary`, what :func:`humanly.inspect` reports under ``raters``).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from .._core.result import Note, Result
from ..data import Ratings, join
from .dawid_skene import MAX_ITER, TOL, DawidSkeneFit, _coded_labels, _require_raters
from .dawid_skene import dawid_skene as fit_dawid_skene

__all__ = [
    "DawidSkeneSummary",
    "RaterAgreement",
    "RaterRow",
    "RaterSummary",
    "Spread",
    "label_credit",
    "rater_agreement",
    "rater_summary",
]

# ---------------------------------------------------------------------------- agreement with the rest


@dataclasses.dataclass(frozen=True, repr=False)
class RaterAgreement(Result):
    """Each rater's agreement with the plurality of the other labels of the same items.

    Parameters
    ----------
    raters : tuple
        The rater ids, in the ratings' order: the index of the two arrays.
    n_compared : numpy.ndarray
        Per rater, the labels compared (those on an item with another label).
    agreement : numpy.ndarray
        Per rater, the mean credit of those labels against the others' plurality (NaN: none).
    crowd : float
        The mean credit over every compared label of the crowd.

    Examples
    --------
    >>> r = Ratings.from_long(["a", "a", "a", "b", "b"], ["u", "v", "w", "u", "v"], [0, 0, 1, 1, 1])
    >>> res = rater_agreement(r)
    >>> res.to_frame()["agreement"].to_dict(), res.crowd
    ({'u': 0.75, 'v': 0.75, 'w': 0.0}, 0.6)
    """

    raters: tuple[Any, ...]
    n_compared: np.ndarray
    agreement: np.ndarray
    crowd: float

    def to_frame(self) -> pd.DataFrame:
        """One row per rater (the index): ``n_compared`` and ``agreement``.

        Returns
        -------
        pandas.DataFrame
            The per-rater arrays, labelled by rater.
        """
        index = pd.Index(list(self.raters), name="rater")
        return pd.DataFrame(
            {"n_compared": np.asarray(self.n_compared), "agreement": np.asarray(self.agreement)},
            index=index,
        )


def label_credit(counts: np.ndarray, item_codes: np.ndarray, label_codes: np.ndarray) -> np.ndarray:
    """Per label, the credit it earns against the plurality of the other labels of its item.

    Only an item's strict plurality class can earn credit once one of its labels is set aside: if the
    item's largest count ``m1`` belongs to one class ``k`` and the next largest is ``m2`` (held by ``t2``
    classes), a label ``k`` earns 1 when ``m1 − 1 > m2`` and ``1/(1 + t2)`` when ``m1 − 1 = m2``; any
    other label is below the others' plurality (it earns 0). Vectorised over items (``O(items ×
    classes)``) and then gathered per label.

    Parameters
    ----------
    counts : numpy.ndarray
        Items × classes label counts.
    item_codes, label_codes : numpy.ndarray
        Each label's item (row of ``counts``) and class code.

    Returns
    -------
    numpy.ndarray
        One credit per label, NaN when its item has no other label.

    Examples
    --------
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
    """Each named rater's mean credit against the plurality of the other labels of the same items.

    The credit is :func:`label_credit`'s; the crowd's mean counts every compared label once. With
    ``ReadOptions(duplicates="keep")`` a rater's second label of an item is one of the "other labels".

    Parameters
    ----------
    ratings : Ratings
        Named ratings.

    Returns
    -------
    RaterAgreement
        Labels compared and mean credit per rater, and the crowd's mean.

    Raises
    ------
    InputError
        For anonymous counts.

    Examples
    --------
    >>> import pandas as pd
    >>> from humanly.data import read_ratings
    >>> ratings = read_ratings(pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    ...                                      "rater": list("abcabcabc"),
    ...                                      "label": list("xxyyyyxyx")}))
    >>> res = rater_agreement(ratings)
    >>> res.agreement.round(4).tolist(), round(res.crowd, 4)
    ([0.6667, 0.5, 0.5], 0.5556)
    """
    rater_ids = _require_raters(ratings, "per-rater agreement")
    n_r = len(rater_ids)
    items, raters, labels = _coded_labels(ratings)
    credit = label_credit(ratings.counts, items, labels)
    ok = ~np.isnan(credit)
    n_cmp = np.bincount(raters[ok], minlength=n_r)
    total = np.bincount(raters[ok], weights=credit[ok], minlength=n_r)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n_cmp > 0, total / np.maximum(n_cmp, 1), np.nan)
    crowd = float(credit[ok].mean()) if ok.any() else float("nan")
    return RaterAgreement(
        raters=tuple(rater_ids.tolist()), n_compared=n_cmp, agreement=mean, crowd=crowd
    )


# ---------------------------------------------------------------------------- the table


@dataclasses.dataclass(frozen=True, repr=False)
class RaterRow(Result):
    """One rater's row of the raters table (``None`` where a number is undefined).

    Parameters
    ----------
    rater : object
        The rater's id.
    n_labels : int
        Labels the rater gave.
    n_compared : int
        Of those, the labels on an item with another label.
    agreement : float or None
        Their mean credit against the plurality of the other labels of the same item.
    dawid_skene_accuracy : float or None
        Σ_c π_c θ_r[c, c] under the Dawid–Skene fit (``None``: not fitted, or not converged).
    gold_accuracy : float or None
        The share of the rater's labels on gold items that equal gold.

    Examples
    --------
    >>> RaterRow("u", 10, 9, 0.8, None, None).n_compared
    9
    """

    rater: Any
    n_labels: int
    n_compared: int
    agreement: float | None
    dawid_skene_accuracy: float | None
    gold_accuracy: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class DawidSkeneSummary(Result):
    """What the raters table says about its Dawid–Skene fit (:func:`~humanly.crowd.dawid_skene.dawid_skene`).

    Parameters
    ----------
    converged : bool
        Whether EM from the kept start converged within ``max_iter`` M steps of polishing.
    iterations : int
        The M steps the kept start took (screening and polishing).
    tol : float
        The convergence tolerance.
    max_iter : int
        The limit on M steps of polishing (per start).
    accelerate : bool
        Whether SQUAREM was used.
    prior : dict
        The estimated class prior, class (as text) → π_c.
    log_likelihood : float
        The observed-data log-likelihood at the fit.
    start : str
        The kind of start whose fit is kept (``plurality``, ``vote_shares``, ``random`` or
        ``random_plurality``).
    log_likelihood_spread : float
        The highest minus the lowest final log-likelihood over the polished starts.
    accuracy_shift : float
        The largest move of a rater's accuracy between the kept fit and another polished start's.
    notes : tuple of Note
        A weak fit, as codes (``ds_not_converged``, ``ds_starts_disagree``), worded by
        :mod:`humanly.verdicts.notes`.
    start_seed : int or None
        The seed of the kept start when it is a random one.

    Examples
    --------
    >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
    >>> rater_summary(r).dawid_skene.prior
    {'0': 0.5, '1': 0.5}
    """

    converged: bool
    iterations: int
    tol: float
    max_iter: int
    accelerate: bool
    prior: dict[str, float]
    log_likelihood: float
    start: str = "plurality"
    log_likelihood_spread: float = 0.0
    accuracy_shift: float = 0.0
    notes: tuple[Note, ...] = ()
    start_seed: int | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class Spread(Result):
    """How a per-rater column spreads over the raters where it is defined.

    Quartiles interpolate linearly between order statistics (``numpy.quantile``'s default, Python's
    ``statistics.quantiles(method="inclusive")``).

    Parameters
    ----------
    n : int
        The raters where the column is defined.
    min, q1, median, q3, max : float
        The smallest value, lower quartile, median, upper quartile and largest value.

    Examples
    --------
    >>> r = Ratings.from_long(["a", "a", "a", "b", "b"], ["u", "v", "w", "u", "v"], [0, 0, 1, 1, 1])
    >>> sp = rater_summary(r, dawid_skene=False).agreement_spread
    >>> sp.n, sp.median, (sp.min, sp.max)
    (3, 0.75, (0.0, 0.75))
    """

    n: int
    min: float
    q1: float
    median: float
    q3: float
    max: float


def _spread(values: Iterable[float | None]) -> Spread | None:
    """The :class:`Spread` of the defined values (``None`` when there are none)."""
    xs = sorted(float(v) for v in values if v is not None and math.isfinite(v))
    if not xs:
        return None
    q1, med, q3 = statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else xs * 3
    return Spread(len(xs), xs[0], q1, med, q3, xs[-1])


@dataclasses.dataclass(frozen=True, repr=False)
class RaterSummary(Result):
    """Per-rater quality: one row per named rater, in the ratings' rater order.

    Parameters
    ----------
    rows : tuple of RaterRow
        One row per rater.
    crowd_agreement : float or None
        The crowd's mean credit over every compared label, the reference a rater is read against.
    dawid_skene : DawidSkeneSummary or None
        The Dawid–Skene fit (``None`` when it was left out).
    agreement_spread, dawid_skene_spread, gold_spread : Spread or None
        How the rows' ``agreement``, ``dawid_skene_accuracy`` and ``gold_accuracy`` spread over the
        raters where they are defined (``None`` where no rater has one).

    Examples
    --------
    >>> r = Ratings.from_long(["a", "a", "a", "b", "b"], ["u", "v", "w", "u", "v"], [0, 0, 1, 1, 1])
    >>> s = rater_summary(r)
    >>> s.to_frame()[["rater", "n_labels", "agreement"]].values.tolist()
    [['u', 2, 0.75], ['v', 2, 0.75], ['w', 1, 0.0]]
    """

    rows: tuple[RaterRow, ...]
    crowd_agreement: float | None
    dawid_skene: DawidSkeneSummary | None
    agreement_spread: Spread | None = None
    dawid_skene_spread: Spread | None = None
    gold_spread: Spread | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per rater: the :class:`RaterRow` fields as columns."""
        cols = [f.name for f in dataclasses.fields(RaterRow)]
        return pd.DataFrame([[getattr(r, c) for c in cols] for r in self.rows], columns=cols)


def _float_or_none(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _floats(x: np.ndarray) -> list[float | None]:
    """Python floats, ``None`` for NaN (one pass, no per-element numpy scalars)."""
    return [None if v != v else v for v in np.asarray(x, dtype=np.float64).tolist()]


def _gold_accuracy(
    who: np.ndarray, items: np.ndarray, labels: np.ndarray, gold: np.ndarray | None, n_r: int
) -> np.ndarray:
    """Per rater, the share of their labels on gold items that equal gold (NaN: none)."""
    if gold is None:
        return np.full(n_r, np.nan)
    g = np.asarray(gold, dtype=np.int64)[items]
    has = g >= 0
    n_gold = np.bincount(who[has], minlength=n_r)
    hits = np.bincount(who[has], weights=(labels[has] == g[has]), minlength=n_r)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n_gold > 0, hits / np.maximum(n_gold, 1), np.nan)


def _fit_summary(fit: DawidSkeneFit, classes: tuple[Any, ...]) -> DawidSkeneSummary:
    return DawidSkeneSummary(
        converged=fit.converged,
        iterations=fit.iterations,
        tol=fit.tol,
        max_iter=fit.max_iter,
        accelerate=fit.accelerate,
        prior={str(c): float(p) for c, p in zip(classes, fit.prior, strict=True)},
        log_likelihood=fit.log_likelihood,
        start=fit.start,
        log_likelihood_spread=fit.log_likelihood_spread,
        accuracy_shift=fit.accuracy_shift,
        notes=fit.notes,
        start_seed=fit.start_seed,
    )


def rater_summary(
    ratings: Any,
    *,
    gold: Any = None,
    missing: str = "error",
    dawid_skene: bool = True,
    tol: float = TOL,
    max_iter: int = MAX_ITER,
    accelerate: bool = True,
) -> RaterSummary:
    """The raters table of named ratings: agreement with the others, Dawid–Skene and gold accuracy.

    A Dawid–Skene accuracy is given when EM converged and the rater gave at least one label;
    otherwise it is ``None`` (the fit's ``converged`` says which).

    Parameters
    ----------
    ratings : Ratings, Study or any form :func:`humanly.data.join` accepts
        Named ratings (a :class:`~humanly.data.Study` carries its gold).
    gold : Gold, Series, numpy.ndarray, str, path or None
        Gold labels, joined by item id: adds each rater's accuracy on the gold items.
    missing : {"error", "drop"}
        Gold for items nobody rated: an error, or left out.
    dawid_skene : bool
        Fit Dawid–Skene (:func:`~humanly.crowd.dawid_skene.dawid_skene`, with ``tol``, ``max_iter``
        and ``accelerate``) for the raters' accuracies.
    tol, max_iter, accelerate
        The fit's tolerance, limit on M steps and acceleration.

    Returns
    -------
    RaterSummary
        One row per rater, the crowd's agreement and the fit's summary.

    Raises
    ------
    InputError
        For anonymous counts, gold that does not match (``missing="error"``), or a Study given with
        ``gold=``.

    Examples
    --------
    >>> import pandas as pd
    >>> from humanly.data import read_ratings
    >>> ratings = read_ratings(pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    ...                                      "rater": list("abcabcabc"),
    ...                                      "label": list("xxyyyyxyx")}))
    >>> rater_summary(ratings).to_frame()[["rater", "n_labels", "agreement"]].round(4).values.tolist()
    [['a', 3, 0.6667], ['b', 3, 0.5], ['c', 3, 0.5]]

    References
    ----------
    Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer error-rates using
    the EM algorithm. *Applied Statistics* 28(1), 20–28.
    """
    if not isinstance(dawid_skene, (bool, np.bool_)):
        raise TypeError(f"dawid_skene={dawid_skene!r}: give True or False")
    study = join(ratings, None, gold, missing=missing)  # type: ignore[arg-type]
    ratings = study.ratings
    codes = None if study.gold is None else study.gold.codes
    raters = _require_raters(ratings, "the per-rater table")
    items, who, labels = _coded_labels(ratings)
    n_r = len(raters)
    n_labels = np.bincount(who, minlength=n_r)
    agree = rater_agreement(ratings)
    fit = None
    ds_acc = np.full(n_r, np.nan)
    if dawid_skene:
        # the fit refuses, before allocating, what would not fit its memory budget
        fit = fit_dawid_skene(ratings, tol=tol, max_iter=max_iter, accelerate=accelerate)
        if fit.converged:
            ds_acc = np.where(n_labels > 0, fit.accuracy, np.nan)
    columns = zip(
        raters.tolist(),
        n_labels.tolist(),
        agree.n_compared.tolist(),
        _floats(agree.agreement),
        _floats(ds_acc),
        _floats(_gold_accuracy(who, items, labels, codes, n_r)),
        strict=True,
    )
    rows = tuple(RaterRow(*values) for values in columns)
    return RaterSummary(
        rows=rows,
        crowd_agreement=_float_or_none(agree.crowd),
        dawid_skene=None if fit is None else _fit_summary(fit, ratings.classes),
        agreement_spread=_spread(r.agreement for r in rows),
        dawid_skene_spread=_spread(r.dawid_skene_accuracy for r in rows),
        gold_spread=_spread(r.gold_accuracy for r in rows),
    )
