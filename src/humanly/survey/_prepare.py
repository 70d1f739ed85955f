"""Input preparation for survey equivalence: argument checks that name the Python parameter, then the
typed :class:`Prepared` inputs (the ratings joined with the predictions by item id, the classifiers'
outputs as probability vectors, and the :class:`~humanly.survey._replicates.Engine` the replicates run
on)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.checks import check_choice, check_int
from .._core.result import Note
from ..data import InputError, Predictions, Ratings
from ..errors import setting
from . import _engine as eng
from ._fit import build_plan
from ._replicates import Engine
from ._sampled import label_matrix
from ._scale import fixed_terms
from .calibration import CALIBRATIONS, calibrate_outputs, resolve_calibration
from .combiners import ABC, get_combiner, is_matrix_combiner
from .options import EquivalenceOptions
from .scorers import Scorer, get_scorer

__all__ = ["Options", "Prepared", "check_options", "prepare"]


@dataclasses.dataclass(frozen=True)
class Options:
    """The checked arguments of :func:`humanly.survey.equivalence`: the combiner and scorer as objects,
    the method resolved (exact for a decomposable scorer unless asked otherwise)."""

    combiner: Any
    scorer: Scorer
    method: str
    calibrate: str
    calibration_folds: int | None
    reference_size: int
    max_k: int | None
    positive: Any
    clip: tuple[float, float]
    draws: int
    seed: int | None

    def describe(self, method: str) -> str:
        """How a classifier calibrated by ``method`` was calibrated, as the result reports it
        (``"none"``, ``"isotonic (in-sample)"``, ``"temperature (5-fold cross-fitted)"``, …)."""
        if method == "none":
            return "none"
        how = (
            "in-sample"
            if self.calibration_folds is None
            else f"{self.calibration_folds}-fold cross-fitted"
        )
        return f"{method} ({how})"


def check_options(
    *, combiner: Any, scorer: Any, calibrate: str, seed: int | None, options: EquivalenceOptions
) -> Options:
    """Check every argument that does not depend on the data; resolve the combiner, scorer and method
    (the fields of ``options`` are checked when it is built)."""
    comb = get_combiner(combiner, clip=options.clip)
    sc = get_scorer(scorer)
    method = options.method
    if method is None:
        method = "exact" if sc.decomposable and not is_matrix_combiner(comb) else "sampled"
    if method == "exact" and is_matrix_combiner(comb):
        raise InputError(
            f"combiner {comb.name!r} sees the whole rating matrix, so the exact engine cannot "
            f"enumerate its predictions; use {setting('method', 'sampled')} (Algorithm 2)"
        )
    if method == "exact" and not sc.decomposable:
        raise InputError(
            f"scorer {sc.name!r} is not an average of per-item terms, so its expectation over rater "
            f"subsets has no closed form; use {setting('method', 'sampled')} (Algorithm 2)"
        )
    return Options(
        combiner=comb,
        scorer=sc,
        method=method,
        calibrate=check_choice("calibrate", calibrate, CALIBRATIONS),
        calibration_folds=options.calibration_folds,
        reference_size=options.reference_size,
        max_k=options.max_k,
        positive=options.positive,
        clip=options.clip,
        draws=options.draws,
        seed=check_int("seed", seed, minimum=0, allow_none=True),
    )


# ----------------------------------------------------------------------------- data-dependent
def positive_index(classes: tuple[Any, ...], positive: Any) -> int:
    """Position of the positive class (default: the second of two classes, else the first)."""
    if positive is None:
        return len(classes) - 1 if len(classes) == 2 else 0
    for j, c in enumerate(classes):
        if c == positive or str(c) == str(positive):
            return j
    listed = ", ".join(repr(c) for c in classes)
    raise InputError(f"{setting('positive', positive)}: give one of the ratings' classes {listed}")


def _check_data(ratings: Ratings, opts: Options) -> None:
    n_cls = ratings.n_classes
    if opts.scorer.binary_only and n_cls != 2:
        raise InputError(
            f"scorer {opts.scorer.name!r} needs two classes; these ratings have {n_cls}"
        )
    if opts.combiner.name == "majority" and n_cls != 2:
        raise InputError(
            f"the majority combiner needs two classes, these ratings have {n_cls}; "
            f"use {setting('combiner', 'plurality')}"
        )
    n_lab = ratings.counts.sum(axis=1)
    r = opts.reference_size
    if (n_lab < r).all():
        raise InputError(f"no item has {r} labels; a reference of {r} rater(s) needs them")
    if opts.calibrate != "none" and opts.calibration_folds is not None:
        if opts.calibration_folds > int((n_lab > 0).sum()):
            raise InputError(
                f"{setting('calibration_folds', opts.calibration_folds)}: more folds than labelled items"
            )


def _max_k(n_lab: np.ndarray, r: int, max_k: int | None) -> int:
    """The largest survey size: ``max_k`` (default: median labels per item − r), at most the most
    labels of an item − r."""
    top = int(n_lab.max()) - r
    if max_k is None:
        lab = n_lab[n_lab > 0]
        if not len(lab):
            raise InputError("no item has any label")
        max_k = int(max(0, min(int(np.median(lab)), int(lab.max())) - r))
    return min(max_k, top)


@dataclasses.dataclass(frozen=True)
class _Outputs:
    """The classifiers' outputs as probability vectors (``hard``: a one-hot label)."""

    names: tuple[str, ...]
    probs: tuple[np.ndarray, ...]
    hard: tuple[bool, ...]
    notes: tuple[Note, ...]
    calibrations: tuple[str, ...] = ()
    uncalibrated: tuple[bool, ...] = ()


def canonical_order(ratings: Ratings) -> np.ndarray:
    """Each item's position among the items sorted by id (as text where ids mix types): the order
    calibration fits in and cross-fitted calibration deals its folds in, whatever the order of the
    input rows."""
    ids = np.asarray(ratings.items)
    try:
        order = np.argsort(ids, kind="stable")
    except TypeError:
        order = np.argsort(ids.astype(str), kind="stable")
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank


def _model_outputs(
    ratings: Ratings, predictions: Predictions | None, opts: Options, positive: int
) -> _Outputs:
    names: list[str] = []
    probs: list[np.ndarray] = []
    hard: list[bool] = []
    notes: list[Note] = []
    cals: list[str] = []
    raw: list[bool] = []
    n_cls = ratings.n_classes
    proper = opts.scorer.proper
    models = predictions.models if predictions is not None else ()
    order = canonical_order(ratings) if models else None
    for m in models:
        names.append(m.name)
        method = resolve_calibration(opts.calibrate, proper=proper, kind=m.kind, n_classes=n_cls)
        cals.append(opts.describe(method))
        raw.append(proper and method == "none")
        if method != "none":
            p = calibrate_outputs(
                m.kind,
                m.values,
                ratings.counts,
                method,
                positive=positive,
                folds=opts.calibration_folds,
                seed=opts.seed,
                name=m.name,
                order=order,
            )
            probs.append(p)
            hard.append(False)
        elif m.kind == "label":
            probs.append(np.eye(n_cls)[m.values])
            hard.append(True)
            if opts.scorer.name == "cross_entropy":
                notes.append(Note("hard_labels_one_hot", {"model": m.name}))
        elif m.kind == "proba":
            probs.append(np.asarray(m.values, dtype=float))
            hard.append(False)
        elif n_cls == 2 and opts.scorer.name in ("auc", "pearson", "spearman"):
            p = np.zeros((len(m.values), 2))
            p[:, positive] = m.values
            p[:, 1 - positive] = -np.asarray(m.values)
            probs.append(p)
            hard.append(False)
        else:
            raise InputError(
                f"model {m.name!r} outputs scores, not probabilities; pass "
                f"{setting('calibrate', 'isotonic')} "
                f"or {setting('calibrate', 'per-value')} (or score it with auc, pearson or spearman)"
            )
    return _Outputs(tuple(names), tuple(probs), tuple(hard), tuple(notes), tuple(cals), tuple(raw))


@dataclasses.dataclass(frozen=True)
class Prepared:
    """Everything :func:`humanly.survey.equivalence` needs after checking and joining its inputs:
    the ratings (restricted to the predicted items), the options, the model names, the notes so far,
    the positive class (a class label) and the engine."""

    ratings: Ratings
    options: Options
    model_names: tuple[str, ...]
    notes: tuple[Note, ...]
    positive: Any
    engine: Engine
    calibrations: tuple[str, ...] = ()
    uncalibrated: tuple[bool, ...] = ()

    @property
    def calibration(self) -> str:
        """How the models were calibrated, in one string: the one way all were, or each model's
        (``"name: how"``, joined by ``"; "``); ``"none"`` without models."""
        distinct = tuple(dict.fromkeys(self.calibrations))
        if len(distinct) <= 1:
            return distinct[0] if distinct else "none"
        pairs = zip(self.model_names, self.calibrations, strict=True)
        return "; ".join(f"{n}: {c}" for n, c in pairs)


def _sampled_labels(ratings: Ratings, n_lab: np.ndarray) -> tuple[np.ndarray, bool]:
    """The items × labels code matrix for the sampled method, and whether it is complete (every rater
    labelled every item, so rater columns are the paper's rater subsets)."""
    if ratings.has_raters and (n_lab == ratings.n_raters).all():
        return ratings.matrix().astype(np.int64), True
    return label_matrix(ratings.counts), False


def prepare(ratings: Ratings, predictions: Predictions | None, opts: Options) -> Prepared:
    """Check the data against the options and build the engine (see :class:`Prepared`)."""
    _check_data(ratings, opts)
    pos = positive_index(ratings.classes, opts.positive)
    counts = ratings.counts
    n_lab = counts.sum(axis=1)
    comb, sc, r = opts.combiner, opts.scorer, opts.reference_size
    is_abc = isinstance(comb, ABC)
    # the engine's path, fitted to the data before anything is allocated (humanly.survey._fit)
    plan, method, fit_note = build_plan(
        counts, _max_k(n_lab, r, opts.max_k), r, comb, sc, opts.method, opts.clip, opts.draws
    )
    if method != opts.method:
        opts = dataclasses.replace(opts, method=method)
    out = _model_outputs(ratings, predictions, opts, pos)
    n = ratings.n_items
    ref_elig = plan.ref_elig[plan.inv]
    if sc.decomposable and out.probs:
        qref = plan.qref[plan.inv]  # (n, C)
        terms = np.stack(
            [
                np.where(ref_elig, (eng.output_terms(sc, p, h, opts.clip) * qref).sum(axis=1), 0.0)
                for p, h in zip(out.probs, out.hard, strict=True)
            ]
        )
    else:
        terms = np.zeros((len(out.probs), n))
    labels, complete = None, False
    if opts.method == "sampled" or (not sc.decomposable and out.probs):
        labels, complete = _sampled_labels(ratings, n_lab)
    myopic = (
        fixed_terms(plan, comb, sc, opts.clip)  # either path's plan (humanly.survey._scale)
        if opts.method == "exact" and not is_abc
        else None
    )
    engine = Engine(
        plan=plan,
        combiner=comb,
        scorer=sc,
        clip=opts.clip,
        method=opts.method,
        positive=pos,
        draws=opts.draws,
        labels=labels,
        complete=complete,
        model_terms=terms,
        model_probs=(np.stack(out.probs) if out.probs else np.zeros((0, n, ratings.n_classes))),
        ref_elig=ref_elig,
        myopic_terms=myopic,
    )
    notes = list(out.notes) + ([fit_note] if fit_note else [])
    if opts.method == "sampled" and not complete and ratings.has_raters:
        notes.append(Note("incomplete_design_subsets"))
    if plan.abc and plan.abc_floor > 0:
        notes.append(Note("abc_floor", {"floor": plan.abc_floor}))
    return Prepared(
        ratings,
        opts,
        out.names,
        tuple(notes),
        ratings.classes[pos],
        engine,
        out.calibrations,
        out.uncalibrated,
    )
