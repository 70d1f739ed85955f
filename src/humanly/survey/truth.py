"""Scores against the true item states: HSCORE* and SEQ* (Survey Equivalence, section 6, footnotes 9,
11 and 17), available when the states are known — in simulations (:func:`humanly.simulate.urn`,
:func:`humanly.simulate.running_example`).

HSCORE* is Algorithm 1 with line 3 scoring against the item's state s(i) instead of a reference
rater's label; for a scorer that is a mean of per-item terms this is the expected term when the
reference label is drawn from the state, ``Σ_c s(i)_c T(h(i), c)`` (for cross-entropy, minus the
cross-entropy between the state and the prediction). SPC* is Algorithm 3 with line 8 scoring the same
way, so no rater is held out: c*_k is the mean over items with at least k labels of the exact
expectation over every k-subset of the item's labels (hypergeometric, as in the exact engine) of the
combiner's prediction scored against the state. The Anonymous Bayesian Combiner is learned from the
ratings with each item's own labels left out, as in the rater-based curve. SEQ* reads HSCORE* off
SPC* with Algorithm 4. ``ideal_score`` is the score of the omniscient classifier that outputs each
item's state (the asymptote of section 4: −0.699 bits on the running example).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.result import Result
from ..data import InputError, Ratings, Study, as_ratings, join
from ..data.positional import keyed
from ..errors import setting
from . import _engine as eng
from ._prepare import _max_k, _model_outputs, check_options, positive_index
from .calibration import DEFAULT_CALIBRATION
from .combiners import ABC
from .crossing import curve_points, equivalence_point
from .options import EquivalenceOptions, checked, only
from .results import PowerCurvePoint, _Curve

__all__ = ["TruthEquivalence", "TruthModel", "truth_equivalence"]


@dataclasses.dataclass(frozen=True, repr=False)
class TruthModel(Result):
    """A classifier scored against the true item states.

    Parameters
    ----------
    model : str
        The model's name.
    score : float
        HSCORE*: its score against each item's state.
    equivalence : float or None
        SEQ*: HSCORE* read off the state-scored curve; ``None`` with ``equivalence_note``.
    equivalence_note : {None, "below_0", "above_max"}
        As in :class:`~humanly.survey.ModelEquivalence`.

    Examples
    --------
    >>> TruthModel("m", -0.75, 2.1, None).equivalence
    2.1
    """

    model: str
    score: float
    equivalence: float | None
    equivalence_note: str | None


@dataclasses.dataclass(frozen=True, repr=False)
class TruthEquivalence(_Curve, Result):
    """HSCORE* and SEQ* against the true item states (see :mod:`humanly.survey.truth`).

    Parameters
    ----------
    combiner, scorer : str
        The combiner of k labels and the scorer (their names).
    n_items : int
        The rated items.
    power_curve : tuple of PowerCurvePoint
        c*_k for k = 0 … max_k: k raters scored against the states (no bootstrap: the ranges are
        empty).
    models : tuple of TruthModel
        Each model's HSCORE* and SEQ*.
    ideal_score : float
        The score of the classifier that outputs each item's state (the limit of c*_k).

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> res = truth_equivalence(running_example(300, 10, seed=1))
    >>> round(res.ideal_score, 2), res.to_frame()["model"].tolist()
    (-0.7, ['hard', 'soft'])
    """

    combiner: str
    scorer: str
    n_items: int
    power_curve: tuple[PowerCurvePoint, ...]
    models: tuple[TruthModel, ...]
    ideal_score: float

    def model(self, name: str) -> TruthModel:
        """The row of one model.

        Parameters
        ----------
        name : str
            The model's name.

        Returns
        -------
        TruthModel

        Raises
        ------
        KeyError
            When no model has that name.

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> res = truth_equivalence(running_example(300, 10, seed=1))
        >>> round(res.model("soft").score, 2)
        -0.81
        """
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(f"no model {name!r}; models are {[m.model for m in self.models]}")

    def to_frame(self) -> pd.DataFrame:
        """One row per model: ``model, score, equivalence, equivalence_note``."""
        cols = ["model", "score", "equivalence", "equivalence_note"]
        return pd.DataFrame([{c: getattr(m, c) for c in cols} for m in self.models], columns=cols)


def _states(states: Any, ratings: Ratings) -> np.ndarray:
    """The states as an (items × classes) array in the ratings' item order: an array already in that
    order, or a DataFrame indexed by item id (or with an ``item`` column) with one column per class
    (named as the class or ``p_<class>``, as ``SimulatedData.write`` does)."""
    if isinstance(states, pd.DataFrame):
        frame = states.set_index("item") if "item" in states.columns else states
        cols = []
        for c in ratings.classes:
            name = next((n for n in (c, str(c), f"p_{c}") if n in frame.columns), None)
            if name is None:
                raise InputError(f"states: no column for class {c!r} (name it {c!r} or 'p_{c}')")
            cols.append(name)
        frame = frame.copy()
        frame.index = frame.index.map(str)
        missing = [i for i in map(str, ratings.items) if i not in frame.index]
        if missing:
            raise InputError(
                f"states: {len(missing)} rated item(s) have no state, e.g. {missing[0]!r}"
            )
        arr = frame.loc[[str(i) for i in ratings.items], cols].to_numpy(dtype=float)
    else:
        arr = np.asarray(states, dtype=float)
    if arr.shape != (ratings.n_items, ratings.n_classes):
        raise InputError(
            f"states: need {ratings.n_items} × {ratings.n_classes} (items × classes), got "
            f"{' × '.join(map(str, arr.shape))}"
        )
    if (arr < 0).any() or not np.allclose(arr.sum(axis=1), 1.0, atol=1e-6):
        raise InputError(
            "states: each item's state must be a probability distribution over the classes"
        )
    return arr


def _inputs(ratings: Any, states: Any, predictions: Any, missing: str) -> tuple[Ratings, Any, Any]:
    """Ratings, states and predictions from a simulation result, a study or given separately, joined
    by id once (a Study as it is); an array of states follows the ratings' items in the order the
    caller holds them (:mod:`humanly.data.positional`)."""
    if hasattr(ratings, "truth") and hasattr(ratings, "ratings"):  # SimulatedData
        sim = ratings
        if states is None:
            if "states" not in sim.truth:
                raise InputError("this simulation has no item states (use humanly.simulate.urn)")
            states = pd.DataFrame(sim.truth["states"], index=sim.ratings.items.map(str))
            states.columns = list(sim.ratings.classes)
        predictions = sim.predictions if predictions is None else predictions
        ratings = sim.ratings
    if states is None:
        raise InputError(
            f"{setting('states', None)}: give each item's true state (items × classes)"
        )
    if not isinstance(ratings, Study) and isinstance(states, (np.ndarray, list, tuple)):
        ratings = as_ratings(ratings, canonical=False)  # the order the caller holds
        states = keyed(states, ratings.items, ratings.classes, what="states", ordered_columns=True)
    study = join(ratings, predictions, missing=missing)  # type: ignore[arg-type]
    full = study.ratings
    if isinstance(states, (np.ndarray, list, tuple)):  # a Study's items, sorted: the order held
        states = keyed(states, full.items, full.classes, what="states", ordered_columns=True)
    arr = _states(states, full)
    frame = pd.DataFrame(arr, index=full.items.map(str), columns=list(full.classes))
    return full, frame, study.predictions


def truth_equivalence(
    ratings: Any,
    predictions: Any = None,
    states: Any = None,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    calibrate: str = DEFAULT_CALIBRATION,
    seed: int | None = 0,
    missing: Literal["error", "drop"] = "error",
    options: EquivalenceOptions | None = None,
) -> TruthEquivalence:
    """HSCORE* and SEQ*: scores and survey equivalences against the true item states of a simulation.

    HSCORE* scores a model against each item's state instead of a held-out rater; c*_k scores k
    raters the same way, and SEQ* reads HSCORE* off c*_k (see :mod:`humanly.survey.truth`). No
    rater is held out and there is no bootstrap.

    Parameters
    ----------
    ratings : Ratings, DataFrame, path, Study or SimulatedData
        The crowd's labels, or a simulation result (:class:`~humanly.simulate.SimulatedData`),
        whose predictions and states are used when not given.
    predictions : optional
        The models' outputs, joined by item id.
    states : DataFrame or array
        Each item's true state: an items × classes array in the ratings' order, or a DataFrame by
        item id (an ``item`` column or the index) with one column per class (named as the class or
        ``p_<class>``, e.g. the ``X.states.csv`` that ``humanly simulate urn`` writes).
    combiner : str or object
        The combiner of k labels (see :func:`~humanly.survey.equivalence`).
    scorer : {"cross_entropy", "agreement"} or Scorer
        A scorer that is a mean of per-item terms.
    calibrate : {"auto", "none", "isotonic", "temperature", "per-value"}
        Calibrate the models against the ratings exactly as :func:`~humanly.survey.equivalence`
        does (the same default, ``"auto"``), so SEQ* and SEQ score the same predictions
        (calibration never sees the states).
    seed : int or None
        The seed of cross-fitted calibration.
    missing : {"error", "drop"}
        Ids that do not match between ratings and predictions are an error, or only the items both
        have are kept.
    options : EquivalenceOptions, optional
        ``max_k`` (default as in :func:`~humanly.survey.equivalence`), ``positive``, ``clip`` and
        ``calibration_folds``.

    Returns
    -------
    TruthEquivalence
        The state-scored curve, each model's HSCORE* and SEQ*, and the ideal classifier's score.

    Raises
    ------
    InputError
        For states that do not match the ratings or are not distributions, a scorer that is not a
        mean of per-item terms, or an option that does not apply.

    References
    ----------
    Resnick, P., Kong, Y., Schoenebeck, G. & Weninger, T. (2021). Survey Equivalence, section 6.

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> res = truth_equivalence(running_example(1000, 10, seed=1))
    >>> round(res.model("soft").score, 3), round(res.model("soft").equivalence, 2)
    (-0.818, 1.96)
    """
    given = checked(options)
    only(given, ("method", "calibration_folds", "max_k", "positive", "clip"), "truth_equivalence")
    if given.method == "sampled":
        raise InputError(
            'options.method="sampled": HSCORE* and SEQ* are exact; leave method at None or "exact"'
        )
    opts = check_options(
        combiner=combiner,
        scorer=scorer,
        calibrate=calibrate,
        seed=seed,
        options=dataclasses.replace(given, method="exact", draws=1, reference_size=1),
    )
    r, frame, preds = _inputs(ratings, states, predictions, missing)
    s = frame.loc[[str(i) for i in r.items]].to_numpy(dtype=float)
    counts = r.counts
    n_lab = counts.sum(axis=1)
    comb, sc = opts.combiner, opts.scorer
    is_abc = isinstance(comb, ABC)
    plan = eng.make_plan(
        counts, _max_k(n_lab, 1, opts.max_k), 0, abc=is_abc, abc_floor=getattr(comb, "floor", 1e-3)
    )
    curve, n_items = [], []
    for lvl in plan.levels:
        if is_abc:
            p = eng.abc_row_probs(lvl, plan.mult[None], plan.abc_floor, r.n_classes)[0]
            t = sc.terms(p)  # type: ignore[misc]
        else:
            t = eng.output_terms(sc, comb.predict(lvl.ys), comb.hard, opts.clip)[lvl.row_y]
        per_vec = np.zeros((len(plan.v), r.n_classes))
        np.add.at(per_vec, lvl.row_owner, lvl.row_w[:, None] * t)
        elig = lvl.elig[plan.inv]
        curve.append(float((per_vec[plan.inv][elig] * s[elig]).sum(axis=1).mean()))
        n_items.append(int(elig.sum()))
    ks = plan.ks
    c = np.array(curve)
    out = _model_outputs(r, preds, opts, positive_index(r.classes, opts.positive))
    models = []
    for name, p, hard in zip(out.names, out.probs, out.hard, strict=True):
        h = float((eng.output_terms(sc, p, hard, opts.clip) * s).sum(axis=1).mean())
        eq, note = equivalence_point(ks, c, h)
        models.append(TruthModel(name, h, eq, note))
    ideal = float((sc.terms(s) * s).sum(axis=1).mean())  # type: ignore[misc]
    return TruthEquivalence(
        combiner=comb.name,
        scorer=sc.name,
        n_items=int(r.n_items),
        power_curve=curve_points(ks, c, np.array(n_items), None),
        models=tuple(models),
        ideal_score=ideal,
    )
