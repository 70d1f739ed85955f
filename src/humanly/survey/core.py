"""Survey power curve, classifier score and survey equivalence with bootstrap ranges
(Survey Equivalence, Algorithms 1, 3 and 4, section 3.3)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._bootstrap import percentile
from .._parallel import check_workers, run_tasks
from .._random import stream
from .._result import Result
from ..data.errors import InputError
from ..data.predictions import Predictions, align
from ..data.ratings import Ratings
from . import _engine as eng
from ._sampled import label_matrix, sampled_classifier, sampled_curve
from .calibration import CALIBRATIONS, calibrate_outputs
from .combiners import ABC, get_combiner
from .scorers import Scorer, get_scorer

__all__ = [
    "CurvePoint",
    "EquivalenceResult",
    "ModelEquivalence",
    "PowerCurve",
    "equivalence",
    "equivalence_point",
    "power_curve",
]

METHODS = ("exact", "sampled")


@dataclasses.dataclass(frozen=True, repr=False)
class CurvePoint(Result):
    """One point of the power curve: the expected score c_k of k raters, its 95% bootstrap range and
    the number of items with at least k + r labels (the items used at this k)."""

    k: int
    score: float
    low: float | None
    high: float | None
    n_items: int


@dataclasses.dataclass(frozen=True, repr=False)
class ModelEquivalence(Result):
    """A classifier's score (Algorithm 1) and survey equivalence (Algorithm 4) with 95% ranges.

    ``equivalence`` is ``None`` with ``equivalence_note`` ``"below_0"`` (score ≤ c_0) or ``"above_max"``
    (no curve point reaches the score). In the ranges, replicates below 0 count as 0 and replicates
    above the curve as +∞ (a ``None`` high end)."""

    model: str
    score: float
    low: float | None
    high: float | None
    equivalence: float | None
    equivalence_note: str | None
    equivalence_low: float | None
    equivalence_high: float | None
    n_items: int
    information: float | None = None
    performance_ratio: float | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class PowerCurve(Result):
    """A survey power curve (Algorithm 3) with bootstrap ranges."""

    combiner: str
    scorer: str
    method: str
    n_items: int
    bootstrap: int
    reference_size: int
    power_curve: list[CurvePoint]
    samples: np.ndarray | None = dataclasses.field(default=None, repr=False)

    @property
    def ks(self) -> np.ndarray:
        return np.array([p.k for p in self.power_curve])

    @property
    def scores(self) -> np.ndarray:
        return np.array([p.score for p in self.power_curve])


@dataclasses.dataclass(frozen=True, repr=False)
class EquivalenceResult(Result):
    """Power curve, classifier scores and survey equivalences (``humanly equivalence --json``).

    ``information`` (ABC + cross-entropy only) lists c_k − c_0 in bits, the mutual information between k
    raters and a held-out one (Theorem 1); ``headroom`` the estimated asymptote (see
    :func:`humanly.survey.headroom`) when requested."""

    combiner: str
    scorer: str
    method: str
    n_items: int
    bootstrap: int
    seed: int | None
    reference_size: int
    calibration: str
    classes: list[Any]
    positive: Any
    power_curve: list[CurvePoint]
    models: list[ModelEquivalence]
    information: list[float] | None
    headroom: Any
    notes: list[str]
    curve_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)
    model_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)

    @property
    def ks(self) -> np.ndarray:
        return np.array([p.k for p in self.power_curve])

    @property
    def scores(self) -> np.ndarray:
        return np.array([p.score for p in self.power_curve])

    def model(self, name: str) -> ModelEquivalence:
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(name)


def equivalence_point(
    ks: np.ndarray, curve: np.ndarray, h: float
) -> tuple[float | None, str | None]:
    """Algorithm 4: the fractional survey equivalence of score ``h`` on curve ``c_k`` (leftmost
    crossing, linear interpolation between k − 1 and k); ``(None, "below_0")`` when h ≤ c_0 and
    ``(None, "above_max")`` when no point of the curve exceeds h."""
    if not np.isfinite(h) or not len(curve) or not np.isfinite(curve[0]):
        return None, None
    if h <= curve[0]:
        return None, "below_0"
    for j in range(1, len(curve)):
        if not np.isfinite(curve[j]):
            break
        if curve[j] > h:
            return float(
                ks[j - 1] + (h - curve[j - 1]) / (curve[j] - curve[j - 1]) * (ks[j] - ks[j - 1])
            ), None
    return None, "above_max"


# --------------------------------------------------------------------------------------- context
@dataclasses.dataclass
class _Context:
    plan: eng.Plan
    combiner: Any
    scorer: Scorer
    clip: tuple[float, float]
    method: str
    positive: int
    n_draws: int
    labels: np.ndarray | None
    complete: bool
    model_terms: np.ndarray  # (M, n) exact per-item classifier terms (decomposable) else empty
    model_probs: np.ndarray  # (M, n, C) for whole-sample scorers
    ref_elig: np.ndarray  # (n,) items with at least r labels
    myopic_terms: np.ndarray | None  # (D, L) cached myopic expectations

    @property
    def n(self) -> int:
        return len(self.plan.inv)


def _curve(
    ctx: _Context, idx: np.ndarray | None, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    plan = ctx.plan
    if ctx.method == "exact":
        # multiplicity of each distinct count vector in the replicate: one pass over items
        mult = (
            plan.mult.astype(float)
            if idx is None
            else np.bincount(plan.inv, weights=_item_counts(ctx, idx), minlength=len(plan.v))
        )
        e = (
            ctx.myopic_terms
            if ctx.myopic_terms is not None
            else eng.curve_terms(plan, ctx.combiner, ctx.scorer, ctx.clip, mult)
        )
        return eng.curve_from_terms(plan, e, mult)
    inv = plan.inv if idx is None else plan.inv[idx]
    mult = np.bincount(inv, minlength=len(plan.v)).astype(float)
    assert ctx.labels is not None
    labels = ctx.labels if idx is None else ctx.labels[idx]
    return sampled_curve(
        plan,
        labels,
        ctx.complete,
        inv,
        mult,
        ctx.combiner,
        ctx.scorer,
        ctx.clip,
        ctx.positive,
        ctx.n_draws,
        rng,
    )


def _models(ctx: _Context, idx: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
    m = len(ctx.model_probs)
    if not m:
        return np.zeros(0)
    if ctx.scorer.decomposable:
        t0 = ctx.model_terms  # already 0 on items with fewer than r labels
        if idx is None:
            return t0.sum(axis=1) / max(1, int(ctx.ref_elig.sum()))
        cnt = _item_counts(ctx, idx)
        return (t0 @ cnt) / max(1.0, float(ctx.ref_elig @ cnt))
    assert ctx.labels is not None
    labels = ctx.labels if idx is None else ctx.labels[idx]
    out = np.empty(m)
    for j in range(m):
        p = ctx.model_probs[j] if idx is None else ctx.model_probs[j][idx]
        out[j] = sampled_classifier(
            p, labels, ctx.complete, ctx.plan.r, ctx.scorer, ctx.positive, ctx.n_draws, rng
        )
    return out


def _item_counts(ctx: _Context, idx: np.ndarray) -> np.ndarray:
    """How many times each item is drawn in a replicate (cached for the replicate's idx)."""
    cache = ctx.__dict__.setdefault("_cnt_cache", [None, None])
    if cache[0] is not idx:
        cache[0], cache[1] = idx, np.bincount(idx, minlength=ctx.n).astype(float)
    return cache[1]


def _point_rng(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0, 1)))


def _boot_chunk(
    ctx: _Context, b0: int, b1: int, seed: int | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bootstrap replicates b0..b1-1: replicate b resamples items with ``stream(seed, b)``."""
    n_lv = len(ctx.plan.levels)
    curves = np.empty((b1 - b0, n_lv))
    counts = np.empty((b1 - b0, n_lv))
    models = np.empty((b1 - b0, len(ctx.model_probs)))
    for i, b in enumerate(range(b0, b1)):
        g = stream(seed, b)
        idx = g.integers(0, ctx.n, size=ctx.n)
        curves[i], counts[i] = _curve(ctx, idx, g)
        models[i] = _models(ctx, idx, g)
    return curves, counts, models


# --------------------------------------------------------------------------------------- inputs
def _positive_index(classes: tuple[Any, ...], positive: Any) -> int:
    if positive is None:
        return len(classes) - 1 if len(classes) == 2 else 0
    for j, c in enumerate(classes):
        if c == positive or str(c) == str(positive):
            return j
    raise InputError(f"positive class {positive!r} is not one of the classes {list(classes)}")


def _model_outputs(
    ratings: Ratings,
    predictions: Predictions | None,
    scorer: Scorer,
    calibrate: str,
    calibration_folds: int | None,
    positive: int,
    seed: int | None,
) -> tuple[list[str], list[np.ndarray], list[bool], list[str]]:
    names: list[str] = []
    probs: list[np.ndarray] = []
    hard: list[bool] = []
    notes: list[str] = []
    if predictions is None:
        return names, probs, hard, notes
    n_cls = ratings.n_classes
    for m in predictions.models:
        names.append(m.name)
        if calibrate != "none":
            probs.append(
                calibrate_outputs(
                    m.kind,
                    m.values,
                    ratings.counts,
                    calibrate,
                    positive=positive,
                    folds=calibration_folds,
                    seed=seed,
                    name=m.name,
                )
            )
            hard.append(False)
            continue
        if m.kind == "label":
            probs.append(np.eye(n_cls)[m.values])
            hard.append(True)
            if scorer.name == "cross_entropy":
                notes.append(
                    f"model {m.name!r} gives hard labels; for cross-entropy they are scored as "
                    "one-hot vectors clipped like the frequency combiner (use --calibrate per-value)"
                )
        elif m.kind == "proba":
            probs.append(np.asarray(m.values, dtype=float))
            hard.append(False)
        else:
            if n_cls == 2 and scorer.name in ("auc", "pearson", "spearman"):
                p = np.zeros((len(m.values), 2))
                p[:, positive] = m.values
                p[:, 1 - positive] = -np.asarray(m.values)
                probs.append(p)
                hard.append(False)
            else:
                raise InputError(
                    f"model {m.name!r} outputs scores, not probabilities; pass --calibrate "
                    "isotonic or per-value (or score it with auc, pearson or spearman)"
                )
    return names, probs, hard, notes


def _default_max_k(n_lab: np.ndarray, r: int) -> int:
    lab = n_lab[n_lab > 0]
    if not len(lab):
        raise InputError("no item has any label")
    return int(max(0, min(int(np.median(lab)), int(lab.max())) - r))


def _prepare(
    ratings: Ratings,
    predictions: Predictions | None,
    combiner: Any,
    scorer: Any,
    method: str | None,
    calibrate: str,
    calibration_folds: int | None,
    reference_size: int,
    max_k: int | None,
    positive: Any,
    clip: tuple[float, float],
    n_draws: int,
    seed: int | None,
    abc_floor: float,
) -> tuple[_Context, dict[str, Any]]:
    if not isinstance(ratings, Ratings):
        raise InputError("ratings must be a humanly Ratings object")
    if predictions is not None and not predictions.items.equals(ratings.items):
        ratings, predictions = align(ratings, predictions)  # by item id; mismatches are an error
    comb = get_combiner(combiner, clip=clip)
    sc = get_scorer(scorer)
    if method is None:
        method = "exact" if sc.decomposable else "sampled"
    if method not in METHODS:
        raise InputError(f"method {method!r}: use exact or sampled")
    if method == "exact" and not sc.decomposable:
        raise InputError(
            f"scorer {sc.name!r} is not an average of per-item terms, so its expectation over rater "
            "subsets has no closed form; use --method sampled (Algorithm 2)"
        )
    if calibrate not in CALIBRATIONS:
        raise InputError(f"calibrate {calibrate!r}: use none, isotonic or per-value")
    if reference_size < 1:
        raise InputError(f"reference size {reference_size}: need at least one reference rater")
    if n_draws < 1:
        raise InputError(f"n_draws {n_draws}: need at least one draw")
    n_cls = ratings.n_classes
    if sc.binary_only and n_cls != 2:
        raise InputError(f"scorer {sc.name!r} needs two classes; these ratings have {n_cls}")
    if comb.name == "majority" and n_cls != 2:
        raise InputError(
            f"the majority combiner needs two classes, these ratings have {n_cls}; use plurality"
        )
    pos = _positive_index(ratings.classes, positive)
    counts = ratings.counts
    n_lab = counts.sum(axis=1)
    if (n_lab < reference_size).all():
        raise InputError(
            f"no item has {reference_size} labels; a reference of {reference_size} rater(s) needs them"
        )
    top = int(n_lab.max()) - reference_size
    if max_k is None:
        max_k = _default_max_k(n_lab, reference_size)
    elif max_k < 0:
        raise InputError(f"max_k {max_k}: give k ≥ 0")
    max_k = min(max_k, top)
    is_abc = isinstance(comb, ABC)
    plan = eng.make_plan(
        counts, max_k, reference_size, abc=is_abc, abc_floor=getattr(comb, "floor", 1e-3)
    )
    names, probs, hard, notes = _model_outputs(
        ratings, predictions, sc, calibrate, calibration_folds, pos, seed
    )
    n = ratings.n_items
    ref_elig = plan.ref_elig[plan.inv]
    if sc.decomposable and probs:
        qref = plan.qref[plan.inv]  # (n, C)
        terms = np.stack(
            [
                np.where(ref_elig, (eng.output_terms(sc, p, h, clip) * qref).sum(axis=1), 0.0)
                for p, h in zip(probs, hard, strict=True)
            ]
        )
    else:
        terms = np.zeros((len(probs), n))
    labels = None
    complete = False
    if method == "sampled" or (not sc.decomposable and probs):
        if ratings.has_raters and (n_lab == ratings.n_raters).all():
            labels = ratings.matrix().astype(np.int64)
            complete = True
        else:
            labels = label_matrix(counts)
    myopic = None
    ctx = _Context(
        plan,
        comb,
        sc,
        clip,
        method,
        pos,
        n_draws,
        labels,
        complete,
        terms,
        np.stack(probs) if probs else np.zeros((0, n, n_cls)),
        ref_elig,
        myopic,
    )
    if method == "exact" and not is_abc:
        ctx.myopic_terms = eng.curve_terms(plan, comb, sc, clip)
    if method == "sampled" and not complete and ratings.has_raters:
        notes.append(
            "raters did not all label every item: rater subsets are drawn from each item's own labels"
        )
    if calibrate != "none":
        how = (
            "in-sample"
            if not calibration_folds or calibration_folds <= 1
            else f"{calibration_folds}-fold cross-fitted"
        )
        calib = f"{calibrate} ({how})"
    else:
        calib = "none"
    meta = {
        "combiner": comb.name,
        "scorer": sc.name,
        "method": method,
        "names": names,
        "notes": notes,
        "calibration": calib,
        "positive": ratings.classes[pos],
        "ratings": ratings,
    }
    return ctx, meta


def _run(
    ctx: _Context,
    bootstrap: int,
    seed: int | None,
    workers: int | None,
    scheduler: str | None,
    client: Any,
    progress: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    g = _point_rng(seed)
    curve, nit = _curve(ctx, None, g)
    scores = _models(ctx, None, g)
    if bootstrap <= 0:
        return curve, nit, scores, None, None
    chunk = max(1, min(50, math.ceil(bootstrap / (4 * (workers or 1)))))
    args = [(ctx, b0, min(bootstrap, b0 + chunk), seed) for b0 in range(0, bootstrap, chunk)]
    parts = run_tasks(
        _boot_chunk,
        args,
        workers=workers,
        scheduler=scheduler,
        client=client,
        description="bootstrap",
        show_progress=progress,
    )
    curves = np.vstack([p[0] for p in parts])
    models = np.vstack([p[2] for p in parts])
    return curve, nit, scores, curves, models


def power_curve(
    ratings: Ratings,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    method: str | None = None,
    bootstrap: int = 500,
    seed: int | None = 0,
    reference_size: int = 1,
    max_k: int | None = None,
    positive: Any = None,
    clip: tuple[float, float] = (0.02, 0.98),
    n_draws: int = 200,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: bool = True,
) -> PowerCurve:
    """The survey power curve c_0..c_K' (Algorithm 3) with 95% bootstrap ranges (section 3.3).

    See :func:`equivalence` for the parameters."""
    res = equivalence(
        ratings,
        None,
        combiner=combiner,
        scorer=scorer,
        method=method,
        bootstrap=bootstrap,
        seed=seed,
        reference_size=reference_size,
        max_k=max_k,
        positive=positive,
        clip=clip,
        n_draws=n_draws,
        workers=workers,
        scheduler=scheduler,
        client=client,
        progress=progress,
    )
    return PowerCurve(
        res.combiner,
        res.scorer,
        res.method,
        res.n_items,
        res.bootstrap,
        res.reference_size,
        res.power_curve,
        res.curve_samples,
    )


def equivalence(
    ratings: Ratings,
    predictions: Predictions | None = None,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    method: str | None = None,
    bootstrap: int = 500,
    seed: int | None = 0,
    calibrate: str = "none",
    calibration_folds: int | None = None,
    reference_size: int = 1,
    max_k: int | None = None,
    positive: Any = None,
    clip: tuple[float, float] = (0.02, 0.98),
    n_draws: int = 200,
    headroom: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: bool = True,
) -> EquivalenceResult:
    """Survey equivalence of each model (Algorithm 4) against the survey power curve (Algorithm 3).

    Parameters
    ----------
    ratings, predictions
        Ratings and (aligned) model predictions; ``predictions=None`` gives the power curve only.
    combiner
        ``"majority"``, ``"plurality"``, ``"frequency"``, ``"abc"`` (Anonymous Bayesian Combiner) or a
        user combiner (:mod:`humanly.survey.combiners`).
    scorer
        ``"agreement"``, ``"cross_entropy"`` (bits), ``"precision"``, ``"recall"``, ``"f1"``, ``"auc"``,
        ``"dmi"``, ``"pearson"``, ``"spearman"``, or a sklearn-like callable.
    method
        ``"exact"`` (hypergeometric expectation over rater subsets and reference raters; default for
        agreement and cross-entropy) or ``"sampled"`` (Algorithm 2; default for the others).
    bootstrap, seed
        Bootstrap replicates over items (replicate b uses ``stream(seed, b)``; the ABC is re-learned on
        each); 95% percentile ranges.
    calibrate, calibration_folds
        ``"none"``, ``"isotonic"`` or ``"per-value"``; in-sample (default, as the paper) or K-fold
        cross-fitted.
    reference_size
        r: score against the plurality of r held-out raters (section 6); levels go up to K − r.
    max_k
        Largest survey size (default: median labels per item − r, capped at the most labels − r).
    positive
        Positive class for precision/recall/F1/AUC/correlations (default: the second of two classes).
    clip
        Frequency-combiner clipping (also used for hard outputs under cross-entropy).
    n_draws
        Subsets per level for the sampled method (Algorithm 2: 200).
    headroom
        With ABC + cross-entropy, estimate the curve's asymptote by a nonparametric mixture
        (:func:`humanly.survey.headroom`) and each model's performance ratio.
    workers, scheduler, client
        Run bootstrap replicates on dask.distributed; the numbers are identical.
    """
    check_workers(workers, scheduler)
    if bootstrap < 0:
        raise InputError(f"bootstrap {bootstrap}: give 0 or more replicates")
    ctx, meta = _prepare(
        ratings,
        predictions,
        combiner,
        scorer,
        method,
        calibrate,
        calibration_folds,
        reference_size,
        max_k,
        positive,
        clip,
        n_draws,
        seed,
        getattr(combiner, "floor", 1e-3),
    )
    ratings = meta["ratings"]  # aligned to the predictions' items
    curve, nit, scores, curves, models = _run(
        ctx, bootstrap, seed, workers, scheduler, client, progress
    )
    ks = ctx.plan.ks
    points = []
    for j, k in enumerate(ks):
        lo = hi = None
        if curves is not None:
            lo, hi = percentile(curves[:, j], 2.5), percentile(curves[:, j], 97.5)
        points.append(CurvePoint(int(k), float(curve[j]), lo, hi, int(nit[j])))
    info_mode = meta["combiner"] == "abc" and meta["scorer"] == "cross_entropy"
    information = [float(c - curve[0]) for c in curve] if info_mode else None
    head = None
    ideal_gain = None
    if headroom:
        if not info_mode:
            raise InputError("headroom needs --combiner abc --scorer cross_entropy")
        from .headroom import headroom as _headroom

        head = _headroom(ratings, seed=seed)
        ideal_gain = head.information
    out_models = []
    n_ref = int(ctx.ref_elig.sum())
    for j, name in enumerate(meta["names"]):
        h = float(scores[j])
        eq, note = equivalence_point(ks, curve, h)
        lo = hi = elo = ehi = None
        if models is not None and curves is not None:
            lo, hi = percentile(models[:, j], 2.5), percentile(models[:, j], 97.5)
            vals = []
            for b in range(len(models)):
                e, nb = equivalence_point(ks, curves[b], float(models[b, j]))
                vals.append(
                    0.0
                    if nb == "below_0"
                    else math.inf
                    if nb == "above_max"
                    else (np.nan if e is None else e)
                )
            elo, ehi = percentile(np.array(vals), 2.5), percentile(np.array(vals), 97.5)
        gain = float(h - curve[0]) if info_mode else None
        ratio = None
        if ideal_gain is not None and gain is not None and ideal_gain > 0:
            ratio = gain / ideal_gain
        out_models.append(ModelEquivalence(name, h, lo, hi, eq, note, elo, ehi, n_ref, gain, ratio))
    notes = list(meta["notes"])
    if ctx.plan.abc and ctx.plan.abc_floor > 0:
        notes.append(f"ABC predictions are kept at or above {ctx.plan.abc_floor:g} per class")
    return EquivalenceResult(
        combiner=meta["combiner"],
        scorer=meta["scorer"],
        method=meta["method"],
        n_items=int(ratings.n_items),
        bootstrap=int(bootstrap),
        seed=seed,
        reference_size=int(reference_size),
        calibration=meta["calibration"],
        classes=list(ratings.classes),
        positive=meta["positive"],
        power_curve=points,
        models=out_models,
        information=information,
        headroom=head,
        notes=notes,
        curve_samples=curves,
        model_samples=models,
    )
