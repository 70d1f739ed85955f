"""Result types of survey equivalence: frozen values that print, serialise (``to_dict``/``to_json``, the
``--json`` contract) and turn into tables (``to_frame``). Every range is an
:class:`~humanly._core.result.Interval` at the result's ``level``; nothing here computes a statistic
(the ranges are read off the bootstrap replicates by :mod:`humanly.survey.crossing`), except
:meth:`ModelEquivalence.items_needed`, a rule of three on two stored fields."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from .._core.result import Interval, Note, Result
from ..errors import InputError, setting
from ._tables import check_width as _check_width
from ._tables import frame as _frame
from ._tables import items_for_width as items_for_width
from .curve_results import _POINT_COLUMNS, PowerCurve, PowerCurvePoint, _Curve
from .headroom_result import Headroom, HeadroomSupport
from .target_results import LatentTarget, TargetFlips, check_targets

__all__ = [
    "EquivalenceResult",
    "Headroom",
    "HeadroomSupport",
    "ModelEquivalence",
    "PowerCurve",
    "PowerCurvePoint",
    "TargetEquivalence",
]


@dataclasses.dataclass(frozen=True, repr=False)
class ModelEquivalence(Result):
    """A classifier's score (Algorithm 1) and survey equivalence (Algorithm 4) with their ranges.

    Parameters
    ----------
    model : str
        The model's name.
    score : float
        Its score against held-out raters (the scorer's units; bits for cross-entropy).
    score_interval : Interval
        The score's percentile bootstrap range at the result's ``level``.
    equivalence : float or None
        How many raters the model is worth: the fractional k where the power curve first reaches
        its score. ``None`` when the curve does not place it (see ``equivalence_note``).
    equivalence_note : {None, "below_0", "above_max"}
        Why there is no equivalence: the score is at or below c_0, or above every point of the curve.
    equivalence_interval : Interval
        The equivalence's bootstrap range: replicates at or below c_0 count as 0 raters, replicates
        above the curve as +∞ (a ``None`` high end).
    n_items : int
        The items with at least r labels (the items scored).
    information : float or None
        With the ABC and cross-entropy: score − c_0, the bits the model gives over no labels.
    information_interval : Interval or None
        The range of ``information``, taken replicate by replicate (c_0 moves with the replicate).
    performance_ratio : float or None
        ``information`` over the headroom's (with ``headroom=True``).
    equivalence_mean : float or None
        The mean equivalence over the bootstrap replicates (the paper's "mean survey equivalence",
        e.g. 4.17 beside 4.31); ``None`` without a bootstrap or when a replicate lies above the curve.
    calibration : str
        How this model's outputs were calibrated before scoring (``"none"``,
        ``"isotonic (in-sample)"``, ``"temperature (5-fold cross-fitted)"``, …).
    uncalibrated : bool
        ``True`` when the scorer is proper (cross-entropy) and the outputs were scored as given, not
        calibrated: the score then understates what the outputs carry (the paper's footnote 7), and
        the verdict sentence says so.

    See Also
    --------
    EquivalenceResult : the result that holds one of these per model.

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> m = ModelEquivalence("m", -0.8, Interval(-0.82, -0.78), 2.5, None, Interval(2.1, 2.9), 1000)
    >>> m.equivalence, m.equivalence_interval.width
    (2.5, 0.7999999999999998)
    """

    model: str
    score: float
    score_interval: Interval
    equivalence: float | None
    equivalence_note: str | None
    equivalence_interval: Interval
    n_items: int
    information: float | None = None
    information_interval: Interval | None = None
    performance_ratio: float | None = None
    equivalence_mean: float | None = None
    calibration: str = "none"
    uncalibrated: bool = False

    def items_needed(self, width: float) -> int | None:
        """About how many items would narrow the equivalence's range below ``width`` raters.

        The range's width is taken to shrink as 1/√N from its width on the ``n_items`` items at hand
        (an approximation: the curve's shape near the crossing can make it narrow faster or slower):
        ``n_items · (range width / width)²``, rounded up. A number below ``n_items`` means the range
        is already narrower.

        Parameters
        ----------
        width : float
            The target width of the range, in raters (> 0).

        Returns
        -------
        int or None
            The items needed; ``None`` without a bootstrap range, when the range has no upper end,
            or when the model has no equivalence (below 0 or above the largest k raters: no range
            of raters to narrow, however many items).

        Examples
        --------
        >>> from humanly._core.result import Interval
        >>> m = ModelEquivalence("m", -0.8, Interval(-0.82, -0.78), 2.5, None, Interval(2.1, 2.9), 1000)
        >>> m.items_needed(0.4)
        4000
        """
        target = _check_width(width)
        if self.equivalence is None or self.equivalence_interval.low is None:
            return None
        return items_for_width(self.n_items, self.equivalence_interval.width, target)


_MODEL_COLUMNS = (
    "model",
    "score",
    "score_interval",
    "equivalence",
    "equivalence_note",
    "equivalence_interval",
    "equivalence_mean",
    "n_items",
    "information",
    "information_interval",
    "performance_ratio",
)


def _model_row(models: tuple[ModelEquivalence, ...], name: str) -> ModelEquivalence:
    for m in models:
        if m.model == name:
            return m
    raise KeyError(f"no model {name!r}; models are {[m.model for m in models]}")


@dataclasses.dataclass(frozen=True, repr=False)
class TargetEquivalence(_Curve, Result):
    """The power curve and each model's equivalence against one target panel
    (:attr:`EquivalenceResult.targets`; see :mod:`humanly.survey.target_results`).

    Parameters
    ----------
    target : int or str
        t: the plurality of t held-out raters, or ``"inf"``: each item's true class, estimated by a
        fitted latent-class model (``latent``).
    n_items : int
        The items scored against the target (with at least t labels; every labelled item for
        ``"inf"``).
    power_curve : tuple of PowerCurvePoint
        c_0 … c_K' against the target, with bootstrap ranges.
    models : tuple of ModelEquivalence
        Each model's score and equivalence against the target.
    codes : tuple of str
        Status codes: ``held_out_raters``, ``items_without_target`` (some items have fewer than t
        labels), ``rests_on_latent_class_model``, ``pooled_raters``, ``latent_fit_not_converged``.
    latent : LatentTarget or None
        For ``"inf"``: how the latent-class model was fitted.
    curve_samples, model_samples : numpy.ndarray or None
        The bootstrap replicates (in memory only).

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> from humanly.survey import EquivalenceOptions, equivalence
    >>> d = running_example(200, 6, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=0,
    ...                   options=EquivalenceOptions(targets=(1, 3)))
    >>> [(t.target, t.n_items, len(t.power_curve)) for t in res.targets]
    [(1, 200, 6), (3, 200, 4)]
    """

    target: int | str
    n_items: int
    power_curve: tuple[PowerCurvePoint, ...]
    models: tuple[ModelEquivalence, ...]
    codes: tuple[str, ...]
    latent: LatentTarget | None = None
    curve_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)
    model_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)

    def model(self, name: str) -> ModelEquivalence:
        """The row of one model.

        Parameters
        ----------
        name : str
            The model's name.

        Returns
        -------
        ModelEquivalence

        Raises
        ------
        KeyError
            When no model has that name.

        Examples
        --------
        >>> TargetEquivalence(3, 0, (), (), ()).model("m")
        Traceback (most recent call last):
        ...
        KeyError: "no model 'm'; models are []"
        """
        return _model_row(self.models, name)

    def to_frame(self) -> pd.DataFrame:
        """The per-model table (as :meth:`EquivalenceResult.to_frame`)."""
        return _frame(self.models, _MODEL_COLUMNS)


@dataclasses.dataclass(frozen=True, repr=False)
class EquivalenceResult(_Curve, Result):
    """Power curve, classifier scores and survey equivalences (``humanly equivalence --json``).

    Parameters
    ----------
    combiner, scorer : str
        The combiner of k labels and the scorer (their names).
    method : str
        ``"exact"`` or ``"sampled"``.
    n_items : int
        The rated items (joined with the predictions).
    bootstrap : int
        The bootstrap replicates behind the ranges (0: none).
    level : float
        The confidence level of every range.
    seed : int or None
        The seed of every random step.
    reference_size : int
        r, the held-out raters whose plurality is the reference label.
    calibration : str
        How the models were calibrated (``"none"``, ``"isotonic (in-sample)"``, …; each model's
        as ``"name: how"`` joined by ``"; "`` when they differ, see
        :attr:`ModelEquivalence.calibration`).
    classes : tuple
        The ratings' classes.
    positive : object
        The positive class of the two-class scorers.
    power_curve : tuple of PowerCurvePoint
        c_0 … c_K'.
    models : tuple of ModelEquivalence
        One row per model, in the order of the predictions.
    information : tuple of float or None
        With the ABC and cross-entropy: c_k − c_0 in bits, the mutual information between k raters
        and a held-out one (Theorem 1).
    information_intervals : tuple of Interval or None
        The range of each ``information`` entry, taken replicate by replicate.
    headroom : Headroom or None
        The curve's estimated asymptote (with ``headroom=True``).
    notes : tuple of Note
        What the reader should know about how the numbers were made, as codes with their numbers;
        :mod:`humanly.verdicts.notes` words them.
    curve_samples, model_samples : numpy.ndarray or None
        The bootstrap replicates of the curve (replicates × points) and of the models' scores
        (replicates × models); in memory only, not in the JSON (NaN: not computed).
    informative_max_k, informative_reason : int or None, {None, "falls"}
        ABC + cross-entropy: the last computed k before the curve first falls below an earlier
        point (it rises with k when the ABC learns from enough items, Corollary 2), and why.
        (replicates × models); in memory only, not in the JSON.
    targets : tuple of TargetEquivalence
        With ``EquivalenceOptions(targets=...)``: the curve and the models against each target
        panel, side by side (the top-level fields are those of ``reference_size``, 1 by default).
    target_flips : tuple of TargetFlips
        Per model, the panel sizes k whose order against the model flips between targets.

    See Also
    --------
    humanly.survey.equivalence : the analysis that returns it.

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> from humanly.survey import EquivalenceOptions, equivalence
    >>> d = running_example(100, 4, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=100,
    ...                   options=EquivalenceOptions(progress=False))
    >>> res.curve_frame().columns.tolist()
    ['k', 'score', 'score_low', 'score_high', 'n_items', 'information', 'information_low', 'information_high']
    >>> res.to_frame()["model"].tolist(), res.curve_samples.shape
    (['hard', 'soft'], (100, 4))
    """

    combiner: str
    scorer: str
    method: str
    n_items: int
    bootstrap: int
    level: float
    seed: int | None
    reference_size: int
    calibration: str
    classes: tuple[Any, ...]
    positive: Any
    power_curve: tuple[PowerCurvePoint, ...]
    models: tuple[ModelEquivalence, ...]
    information: tuple[float, ...] | None
    information_intervals: tuple[Interval, ...] | None
    headroom: Headroom | None
    notes: tuple[Note, ...]
    curve_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)
    model_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)
    informative_max_k: int | None = None
    informative_reason: str | None = None
    targets: tuple[TargetEquivalence, ...] = ()
    target_flips: tuple[TargetFlips, ...] = ()

    def target(self, t: int | str) -> TargetEquivalence:
        """The entry of one target panel.

        Parameters
        ----------
        t : int or str
            A target of ``options.targets`` (``"inf"``: the true class).

        Returns
        -------
        TargetEquivalence

        Raises
        ------
        KeyError
            When the result has no entry for ``t``.

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> from humanly.survey import EquivalenceOptions, equivalence
        >>> d = running_example(200, 6, seed=1)
        >>> equivalence(d.ratings, bootstrap=0, options=EquivalenceOptions(targets=(3,))).target(3).codes
        ('held_out_raters',)
        """
        key = check_targets((t,))[0]
        for entry in self.targets:
            if entry.target == key:
                return entry
        raise KeyError(t)

    @property
    def curve(self) -> PowerCurve:
        """The power curve alone (what :func:`~humanly.survey.power_curve` returns).

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> from humanly.survey import equivalence
        >>> res = equivalence(running_example(100, 4, seed=1).ratings, bootstrap=0)
        >>> res.curve.to_frame()["k"].tolist()
        [0, 1, 2, 3]
        """
        return PowerCurve(
            self.combiner,
            self.scorer,
            self.method,
            self.n_items,
            self.bootstrap,
            self.level,
            self.reference_size,
            self.power_curve,
            self.information_intervals,
            self.curve_samples,
            informative_max_k=self.informative_max_k,
            informative_reason=self.informative_reason,
        )

    def model(self, name: str) -> ModelEquivalence:
        """The row of one model.

        Parameters
        ----------
        name : str
            The model's name.

        Returns
        -------
        ModelEquivalence

        Raises
        ------
        KeyError
            When no model has that name.

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> from humanly.survey import equivalence
        >>> d = running_example(200, 5, seed=1)
        >>> round(equivalence(d.ratings, d.predictions, bootstrap=0).model("soft").equivalence, 2)
        1.8
        """
        return _model_row(self.models, name)

    def items_needed(self, width: float) -> tuple[int | None, ...]:
        """About how many items would narrow each model's equivalence range below ``width`` raters.

        Read off the stored ranges by 1/√N scaling (see :meth:`ModelEquivalence.items_needed`), so a
        result read back from its JSON answers any width without recomputing.

        Parameters
        ----------
        width : float
            The target width of the ranges, in raters (> 0).

        Returns
        -------
        tuple of (int or None)
            One entry per model, in the order of :attr:`models`.

        Raises
        ------
        InputError
            For a width ≤ 0, or a result without a bootstrap (it has no ranges).

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> from humanly.survey import equivalence
        >>> d = running_example(500, 10, seed=4)
        >>> res = equivalence(d.ratings, d.predictions, calibrate="none", bootstrap=100, seed=2)
        >>> [round(m.equivalence_interval.width, 2) for m in res.models]  # hard: all below c_0
        [0.0, 1.35]
        >>> res.items_needed(0.5)  # hard: below 0 raters; about 3,700 items for soft's range
        (None, 3672)
        """
        target = _check_width(width)
        if self.bootstrap == 0:
            raise InputError(
                f"width={width!r}: the items needed are read off the bootstrap ranges, and this "
                f"result has none; run the analysis with {setting('bootstrap', 1000)}"
            )
        return tuple(m.items_needed(target) for m in self.models)

    def to_frame(self) -> pd.DataFrame:
        """The per-model table: one row per model, the fields of :class:`ModelEquivalence` (each range
        as two columns, ``*_low`` and ``*_high``)."""
        return _frame(self.models, _MODEL_COLUMNS)

    def curve_frame(self) -> pd.DataFrame:
        """The power curve as a table.

        Returns
        -------
        pandas.DataFrame
            One row per k: ``k, score, score_low, score_high, n_items`` and, for ABC +
            cross-entropy, ``information`` (c_k − c_0) with ``information_low, information_high``.

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> from humanly.survey import equivalence
        >>> res = equivalence(running_example(100, 4, seed=1).ratings, bootstrap=0)
        >>> res.curve_frame()["information"].round(3).tolist()
        [0.0, 0.063, 0.109, 0.126]
        """
        out = _frame(self.power_curve, _POINT_COLUMNS)
        if self.information is not None:
            out["information"] = list(self.information)
            ranges = self.information_intervals or tuple(
                Interval(None, None) for _ in self.information
            )
            out["information_low"] = [r.low for r in ranges]
            out["information_high"] = [r.high for r in ranges]
        return out
