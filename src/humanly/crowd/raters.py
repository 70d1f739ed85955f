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
  (:class:`RaterSummary`, what :func:`humanly.summarize` reports under ``raters``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from .._core.result import Result
from ..data import Ratings, join
from .dawid_skene import MAX_ITER, TOL, DawidSkeneFit, coded_labels, require_raters
from .dawid_skene import dawid_skene as fit_dawid_skene

__all__ = [
    "DawidSkeneSummary",
    "RaterAgreement",
    "RaterRow",
    "RaterSummary",
    "label_credit",
    "rater_agreement",
    "rater_summary",
]

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

    >>> import pandas as pd
    >>> from humanly import read_ratings
    >>> ratings = read_ratings(pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    ...                                      "rater": list("abcabcabc"),
    ...                                      "label": list("xxyyyyxyx")}))
    >>> res = rater_agreement(ratings)
    >>> res.agreement.round(4).tolist(), round(res.crowd, 4)
    ([0.6667, 0.5, 0.5], 0.5556)
    """
    n_r = len(require_raters(ratings, "per-rater agreement"))
    items, raters, labels = coded_labels(ratings)
    credit = label_credit(ratings.counts, items, labels)
    ok = ~np.isnan(credit)
    n_cmp = np.bincount(raters[ok], minlength=n_r)
    total = np.bincount(raters[ok], weights=credit[ok], minlength=n_r)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n_cmp > 0, total / np.maximum(n_cmp, 1), np.nan)
    crowd = float(credit[ok].mean()) if ok.any() else float("nan")
    return RaterAgreement(n_compared=n_cmp, agreement=mean, crowd=crowd)


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
    """What the rater table says about its Dawid–Skene fit (:func:`humanly.crowd.dawid_skene.dawid_skene`):
    converged or not, M steps taken, tolerance, limit, whether SQUAREM was used, the estimated class
    prior (class → π_c) and the log-likelihood."""

    converged: bool
    iterations: int
    tol: float
    max_iter: int
    accelerate: bool
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
    )


def rater_summary(
    ratings: Any,
    gold: Any = None,
    *,
    missing: str = "error",
    dawid_skene: bool = True,
    tol: float = TOL,
    max_iter: int = MAX_ITER,
    accelerate: bool = True,
) -> RaterSummary:
    """The per-rater table of named ``ratings``: :func:`rater_agreement`, Dawid–Skene accuracies
    (:func:`humanly.crowd.dawid_skene.dawid_skene` with ``tol``, ``max_iter``, ``accelerate``; skipped with
    ``dawid_skene=False``), and with ``gold`` each rater's accuracy on the gold items. ``ratings`` and
    ``gold`` take the forms :func:`humanly.join` accepts, joined by item id (``missing="drop"``: gold
    for items nobody rated is left out).

    A Dawid–Skene accuracy is given when EM converged and the rater gave at least one label;
    otherwise it is ``None`` (the fit's ``converged`` says which).

    >>> import pandas as pd
    >>> from humanly import read_ratings
    >>> ratings = read_ratings(pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    ...                                      "rater": list("abcabcabc"),
    ...                                      "label": list("xxyyyyxyx")}))
    >>> rater_summary(ratings).to_frame()[["rater", "n_labels", "agreement"]].round(4).values.tolist()
    [['a', 3, 0.6667], ['b', 3, 0.5], ['c', 3, 0.5]]
    """
    if not isinstance(dawid_skene, (bool, np.bool_)):
        raise TypeError(f"dawid_skene={dawid_skene!r}: give True or False")
    study = join(ratings, None, gold, missing=missing)  # type: ignore[arg-type]
    ratings = study.ratings
    codes = None if study.gold is None else study.gold.codes
    raters = require_raters(ratings, "the per-rater table")
    items, who, labels = coded_labels(ratings)
    n_r = len(raters)
    n_labels = np.bincount(who, minlength=n_r)
    agree = rater_agreement(ratings)
    fit = None
    ds_acc = np.full(n_r, np.nan)
    if dawid_skene:
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
    return RaterSummary(
        rows=tuple(RaterRow(*values) for values in columns),
        crowd_agreement=_float_or_none(agree.crowd),
        dawid_skene=None if fit is None else _fit_summary(fit, ratings.classes),
    )
