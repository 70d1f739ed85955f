"""The ratings at a glance (what ``humanly inspect`` prints and the report's ``inspect`` section
shows): sizes, labels per item and per rater, class balance, agreement with bootstrap intervals, the
raters table, and — with predictions and gold — how the models and the crowd match them.

>>> import humanly, pandas as pd
>>> r = humanly.Ratings.from_counts([[3, 0], [2, 1], [0, 3]], items=["a", "b", "c"],
...                                 classes=["no", "yes"])
>>> s = inspect(r, gold=pd.Series(["no", "yes"], index=["a", "c"]))
>>> s.labels_per_item.median, s.gold.plurality_accuracy
(3.0, 1.0)
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.checks import check_bootstrap, check_choice, check_probability, check_seed
from .._core.counts import plurality_credit
from .._core.result import Result
from ..data import Predictions, Study, join
from ..data.types import GoldLike, PredictionsLike, RatingsLike
from .agreement import (
    AgreementIntervals,
    agreement_intervals,
    fleiss_kappa,
    krippendorff_alpha_nominal,
    mean_pairwise_agreement,
)
from .family_results import AgreementResult
from .raters import RaterSummary, rater_summary

__all__ = [
    "AgreementSummary",
    "CountSummary",
    "GoldSummary",
    "InspectResult",
    "ModelSummary",
    "inspect",
]


@dataclasses.dataclass(frozen=True, repr=False)
class CountSummary(Result):
    """How many labels per item (or per rater): smallest, median, largest, mean.

    Parameters
    ----------
    min : int
        The smallest number.
    median : float
        The median.
    max : int
        The largest number.
    mean : float
        The mean.
    histogram : dict or None
        Per item only: number of labels (as text) → number of items with that many.

    Examples
    --------
    >>> CountSummary(min=2, median=3.0, max=5, mean=3.2).max
    5
    """

    min: int
    median: float
    max: int
    mean: float
    histogram: dict[str, int] | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class AgreementSummary(Result):
    """Agreement among raters, over the items with at least two labels (NaN when undefined).

    Parameters
    ----------
    pairwise : float
        The mean over items of the share of agreeing pairs of distinct raters
        (:func:`~humanly.crowd.agreement.mean_pairwise_agreement`).
    fleiss_kappa : float
        Fleiss' κ, generalised to unequal numbers of raters
        (:func:`~humanly.crowd.agreement.fleiss_kappa`).
    krippendorff_alpha : float
        Nominal Krippendorff's α (:func:`~humanly.crowd.agreement.krippendorff_alpha_nominal`).
    n_items : int
        The items with at least two labels.

    Examples
    --------
    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]])
    >>> round(inspect(r, bootstrap=0).agreement.pairwise, 4)
    0.6667
    """

    pairwise: float
    fleiss_kappa: float
    krippendorff_alpha: float
    n_items: int


@dataclasses.dataclass(frozen=True, repr=False)
class GoldSummary(Result):
    """How often the crowd matches gold, over the items with a gold label.

    Parameters
    ----------
    n_items : int
        The rated items with a gold label.
    plurality_accuracy : float or None
        How often the plurality label equals gold (a tie among t classes earns 1/t).
    label_accuracy : float or None
        How often a single label equals gold (every label on a gold item counts once).

    Examples
    --------
    >>> import humanly, pandas as pd
    >>> r = humanly.Ratings.from_counts([[2, 1], [1, 1]], items=["a", "b"])
    >>> inspect(r, gold=pd.Series([0, 1], index=["a", "b"]), bootstrap=0).gold.plurality_accuracy
    0.75
    """

    n_items: int
    plurality_accuracy: float | None
    label_accuracy: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class ModelSummary(Result):
    """One model at a glance: its kind, its agreement with the crowd and its accuracy on gold.

    Parameters
    ----------
    model : str
        The model's name.
    kind : {"label", "proba", "score"}
        Its output kind.
    n_items : int
        The items it predicts.
    plurality_agreement : float or None
        How often its label equals the plurality label (ties: fractional credit); ``None`` for
        scores, which have no label.
    gold_accuracy : float or None
        How often its label equals gold, over the gold items (``None`` without gold).

    Examples
    --------
    >>> import humanly, pandas as pd
    >>> r = humanly.Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"])
    >>> inspect(r, {"m": pd.Series([0, 1], index=["a", "b"])}, bootstrap=0).models[0].kind
    'label'
    """

    model: str
    kind: str
    n_items: int
    plurality_agreement: float | None = None
    gold_accuracy: float | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class InspectResult(Result):
    """The ratings at a glance: what :func:`inspect` returns and ``humanly inspect --json`` prints.

    Parameters
    ----------
    source : str or None
        Where the ratings were read from.
    kind : {"named", "counts"}
        Named raters, or anonymous counts.
    n_items, n_labels : int
        The rated items and their labels.
    n_raters : int or None
        The named raters (``None`` for anonymous counts).
    classes : tuple
        The classes, in order.
    labels_per_item : CountSummary
        Labels per item, with their histogram.
    labels_per_rater : CountSummary or None
        Labels per named rater.
    class_frequencies : dict
        Class (as text) → its share of all labels.
    agreement : AgreementSummary
        Pairwise agreement, Fleiss' κ and Krippendorff's α.
    gold : GoldSummary or None
        How often the plurality label and a single label equal gold (with gold).
    models : tuple of ModelSummary
        One entry per model (with predictions).
    agreement_intervals : AgreementIntervals or None
        The percentile bootstrap intervals over items of the three agreement statistics (``None``
        with ``bootstrap=0``).
    raters : RaterSummary or None
        The raters table (named raters only).
    family : AgreementResult or None
        The chance-corrected agreement family at the ratings' scale (:func:`humanly.agreement`) with
        Gwet's analytic intervals at ``level`` (no bootstrap here, to keep ``inspect`` fast:
        :func:`humanly.agreement` adds the family's bootstrap intervals); ``None`` where no
        coefficient is defined (no item with two labels, or a single class used).

    Examples
    --------
    >>> import json, humanly
    >>> r = humanly.Ratings.from_long(list("aabb"), list("uvuv"), [0, 0, 1, 0])
    >>> res = inspect(r, bootstrap=100)
    >>> res.n_raters, res.agreement.pairwise, res.raters.crowd_agreement
    (2, 0.5, 0.5)
    >>> InspectResult.from_dict(json.loads(res.to_json())).to_dict() == res.to_dict()
    True
    """

    source: str | None
    kind: str
    n_items: int
    n_raters: int | None
    n_labels: int
    classes: tuple[Any, ...]
    labels_per_item: CountSummary
    labels_per_rater: CountSummary | None
    class_frequencies: dict[str, float]
    agreement: AgreementSummary
    gold: GoldSummary | None
    models: tuple[ModelSummary, ...] = ()
    agreement_intervals: AgreementIntervals | None = None
    raters: RaterSummary | None = None
    family: AgreementResult | None = None


def _family(study: Study, level: float) -> AgreementResult | None:
    """The agreement family of the ratings (analytic intervals), or ``None`` where undefined."""
    from ..errors import InputError
    from .family import agreement

    try:
        return agreement(study, bootstrap=0, level=level)
    except InputError:
        return None


def _describe(x: np.ndarray, histogram: bool = False) -> CountSummary:
    hist = None
    if histogram:
        values, freq = np.unique(x, return_counts=True)
        hist = {str(int(v)): int(f) for v, f in zip(values, freq, strict=True)}
    return CountSummary(
        min=int(x.min()),
        median=float(np.median(x)),
        max=int(x.max()),
        mean=float(x.mean()),
        histogram=hist,
    )


def _gold_summary(counts: np.ndarray, codes: np.ndarray | None) -> GoldSummary | None:
    """How often the plurality label and a single label match gold (``codes``: -1 for no gold)."""
    if codes is None:
        return None
    has = codes >= 0
    credit = plurality_credit(counts, codes)
    label_hits = counts[has, codes[has]].sum() if has.any() else 0
    labels_on_gold = counts[has].sum()
    return GoldSummary(
        n_items=int(has.sum()),
        plurality_accuracy=float(np.nanmean(credit[has])) if has.any() else None,
        label_accuracy=float(label_hits / labels_on_gold) if labels_on_gold else None,
    )


def _model_summaries(
    counts: np.ndarray, preds: Predictions | None, codes: np.ndarray | None
) -> tuple[ModelSummary, ...]:
    """Each model's kind, agreement with the plurality label and (with gold) accuracy."""
    if preds is None:
        return ()
    models = []
    for m in preds.models:
        plurality = gold_accuracy = None
        if m.kind != "score":
            hard = preds.hard(m.name)
            plur = plurality_credit(counts, hard.astype(np.int64))
            plurality = float(np.nanmean(plur)) if (~np.isnan(plur)).any() else None
            if codes is not None and (codes >= 0).any():
                has = codes >= 0
                gold_accuracy = float((hard[has] == codes[has]).mean())
        models.append(ModelSummary(m.name, m.kind, len(m.values), plurality, gold_accuracy))
    return tuple(models)


def inspect(
    ratings: RatingsLike,
    predictions: PredictionsLike | None = None,
    gold: GoldLike | None = None,
    *,
    bootstrap: int = 1000,
    level: float = 0.95,
    seed: Any = 0,
    dawid_skene: bool = True,
    missing: str = "error",
) -> InspectResult:
    """The ratings at a glance: sizes, class balance, agreement with its intervals, the raters.

    Agreement is pairwise agreement, Fleiss' κ and nominal Krippendorff's α over the items with at
    least two labels, with percentile bootstrap intervals over items (raters are not resampled). With
    named raters, the raters table: each rater's agreement with the plurality of the other labels of
    the same items, the Dawid–Skene accuracy (the one part whose cost can reach seconds on millions of
    labels) and, with gold, their accuracy on the gold items. With predictions, each model's agreement
    with the plurality label; with gold, how often the plurality label, a single label and each model
    match it.

    Parameters
    ----------
    ratings : Ratings, Study or any form :func:`humanly.data.join` accepts
        The crowd's labels (a :class:`~humanly.data.Study` carries its predictions and gold).
    predictions : Predictions, dict, Series, numpy.ndarray, str, path or None
        The models' outputs, joined by item id.
    gold : Gold, Series, numpy.ndarray, str, path or None
        Gold labels for any subset of the rated items, joined by item id.
    bootstrap : int
        Bootstrap replicates over items behind the agreement intervals (0: no intervals).
    level : float
        The intervals' confidence level, strictly between 0 and 1.
    seed : int, numpy.random.Generator or None
        The seed of the replicates (replicate ``i`` draws from its own stream).
    dawid_skene : bool
        Fit Dawid–Skene for the raters' accuracies (named raters).
    missing : {"error", "drop"}
        Ids that do not match: an error naming the counts and the first id, or dropped (the items
        both have are kept).

    Returns
    -------
    InspectResult
        Every number ``humanly inspect`` prints.

    Raises
    ------
    InputError
        For ids that do not match (``missing="error"``), settings out of range, or a Study given
        with ``predictions=`` or ``gold=``.
    TypeError
        For a setting of the wrong type.

    Examples
    --------
    >>> import humanly, pandas as pd
    >>> r = humanly.Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"], classes=[0, 1])
    >>> s = inspect(r, {"m": pd.Series([1, 0], index=["b", "a"])})
    >>> s.n_labels, s.agreement.n_items, s.models[0].plurality_agreement
    (6, 2, 1.0)

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychological
    Bulletin* 76(5), 378–382.

    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication, University of Pennsylvania.

    Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer error-rates using
    the EM algorithm. *Applied Statistics* 28(1), 20–28.
    """
    bootstrap = check_bootstrap(bootstrap, bytes_per_replicate=24)
    level = check_probability("level", level, open_low=True, open_high=True)
    check_seed("seed", seed)
    check_choice("missing", missing, ("error", "drop"))
    if not isinstance(dawid_skene, (bool, np.bool_)):
        raise TypeError(f"dawid_skene={dawid_skene!r}: give True or False")
    study = join(ratings, predictions, gold, missing=missing)  # type: ignore[arg-type]
    r = study.ratings
    counts = r.counts
    per_item = r.labels_per_item
    totals = counts.sum(axis=0)
    n_labels = int(totals.sum())
    shares = [float(t / n_labels) if n_labels else 0.0 for t in totals]
    class_freq = dict(zip(map(str, r.classes), shares, strict=True))
    agreement = AgreementSummary(
        pairwise=mean_pairwise_agreement(counts),
        fleiss_kappa=fleiss_kappa(counts),
        krippendorff_alpha=krippendorff_alpha_nominal(counts),
        n_items=int((per_item >= 2).sum()),
    )
    codes = study.gold.codes if study.gold is not None else None
    return InspectResult(
        source=r.source,
        kind="named" if r.has_raters else "counts",
        n_items=r.n_items,
        n_raters=r.n_raters,
        n_labels=n_labels,
        classes=r.classes,
        labels_per_item=_describe(per_item, histogram=True),
        labels_per_rater=_describe(r.labels_per_rater) if r.has_raters else None,
        class_frequencies=class_freq,
        agreement=agreement,
        gold=_gold_summary(counts, codes),
        models=_model_summaries(counts, study.predictions, codes),
        agreement_intervals=(
            agreement_intervals(counts, bootstrap=bootstrap, seed=seed, level=level)
            if bootstrap
            else None
        ),
        raters=(
            rater_summary(Study(r, None, study.gold), dawid_skene=dawid_skene)
            if r.has_raters
            else None
        ),
        family=_family(study, level),
    )
