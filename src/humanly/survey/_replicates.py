"""The run and bootstrap driver: the point estimate of the curve and the classifier scores, then the
bootstrap replicates (items drawn with replacement; replicate b from ``stream(seed, b)``), in-process or
on dask with identical numbers (Survey Equivalence, section 3.3)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._core.parallel import run_tasks
from .._core.rng import stream
from . import _scale
from ._adaptive import abc_grid
from ._fit import settle
from ._sampled import sampled_classifier, sampled_curve
from .scorers import Scorer

__all__ = ["Engine", "Replicates", "run"]


@dataclasses.dataclass
class _DrawCounts:
    """The last replicate's per-item draw counts, kept because the curve and the classifier scores of
    one replicate both need them (keyed by the identity of the replicate's index array)."""

    idx: np.ndarray | None = None
    counts: np.ndarray | None = None


@dataclasses.dataclass(frozen=True)
class Engine:
    """Everything a replicate needs, fixed once the inputs are prepared.

    ``model_terms`` (M, n): exact per-item classifier terms for a decomposable scorer (0 on items with
    fewer than r labels); ``model_probs`` (M, n, C): the classifiers' probability vectors (whole-sample
    scorers); ``labels``: the items × labels code matrix for the sampled method (``complete`` when every
    rater labelled every item); ``myopic_terms`` (D, L): the exact curve terms of a combiner that does
    not learn from the data, computed once."""

    plan: Any  # a _levels.Plan, or a _scale.ScalePlan for the composition path
    combiner: Any
    scorer: Scorer
    clip: tuple[float, float]
    method: str
    positive: int
    draws: int
    labels: np.ndarray | None
    complete: bool
    model_terms: np.ndarray
    model_probs: np.ndarray
    ref_elig: np.ndarray
    myopic_terms: np.ndarray | None
    draw_counts: _DrawCounts = dataclasses.field(default_factory=_DrawCounts, compare=False)

    @property
    def n(self) -> int:
        """Number of items."""
        return len(self.plan.inv)

    @property
    def n_models(self) -> int:
        return len(self.model_probs)

    def item_counts(self, idx: np.ndarray) -> np.ndarray:
        """How many times each item is drawn in the replicate with item indices ``idx``."""
        cache = self.draw_counts
        if cache.idx is not idx or cache.counts is None:
            cache.idx, cache.counts = idx, np.bincount(idx, minlength=self.n).astype(float)
        return cache.counts


@dataclasses.dataclass(frozen=True)
class Replicates:
    """Point estimates (``curve``, ``n_items`` per level, classifier ``scores``) and, with a bootstrap,
    the replicates of the curve (B, L) and of the scores (B, M). On the ABC's composition path:
    what each survey size holds (``computed``, :mod:`._adaptive`; NaN in ``curve`` and ``curves``
    where nothing was computed) and the data's share of fallback draws per size (``fallback``)."""

    curve: np.ndarray
    n_items: np.ndarray
    scores: np.ndarray
    curves: np.ndarray | None
    models: np.ndarray | None
    computed: tuple[str, ...] | None = None
    fallback: np.ndarray | None = None


def _curve(
    e: Engine, idx: np.ndarray | None, rng: np.random.Generator, show: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The curve of the data (``idx=None``) or of one replicate (item indices ``idx``)."""
    plan = e.plan
    if e.method == "exact":
        mult = (
            plan.mult.astype(float)
            if idx is None
            else np.bincount(plan.inv, weights=e.item_counts(idx), minlength=len(plan.v))
        )
        c, n = _scale.curves(plan, mult[None], e.myopic_terms, e.scorer, e.clip, show)
        return c[0], n[0]
    inv = plan.inv if idx is None else plan.inv[idx]
    mult = np.bincount(inv, minlength=len(plan.v)).astype(float)
    assert e.labels is not None
    labels = e.labels if idx is None else e.labels[idx]
    return sampled_curve(
        plan,
        labels,
        e.complete,
        inv,
        mult,
        e.combiner,
        e.scorer,
        e.clip,
        e.positive,
        e.draws,
        rng,
    )


def _models(e: Engine, idx: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
    if not e.n_models:
        return np.zeros(0)
    if e.scorer.decomposable:
        t0 = e.model_terms  # already 0 on items with fewer than r labels
        if idx is None:
            return t0.sum(axis=1) / max(1, int(e.ref_elig.sum()))
        cnt = e.item_counts(idx)
        return (t0 @ cnt) / max(1.0, float(e.ref_elig @ cnt))
    assert e.labels is not None
    labels = e.labels if idx is None else e.labels[idx]
    out = np.empty(e.n_models)
    for j in range(e.n_models):
        p = e.model_probs[j] if idx is None else e.model_probs[j][idx]
        out[j] = sampled_classifier(
            p, labels, e.complete, e.plan.r, e.scorer, e.positive, e.draws, rng
        )
    return out


def _point_rng(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0, 1)))


def _boot_chunk(
    e: Engine, b0: int, b1: int, seed: int | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bootstrap replicates b0..b1-1: replicate b resamples items with ``stream(seed, b)``. With the
    exact method the curves of the whole chunk are one batch (the same numbers as one by one)."""
    n_lv = len(e.plan.ks)
    curves = np.empty((b1 - b0, n_lv))
    counts = np.empty((b1 - b0, n_lv))
    models = np.empty((b1 - b0, e.n_models))
    if e.method == "exact":
        mult = np.empty((b1 - b0, len(e.plan.v)))
        unused = np.random.default_rng(0)  # decomposable scorers draw nothing
        for i, b in enumerate(range(b0, b1)):
            idx = stream(seed, b).integers(0, e.n, size=e.n)
            mult[i] = np.bincount(e.plan.inv, weights=e.item_counts(idx), minlength=len(mult[i]))
            models[i] = _models(e, idx, unused)
        curves[:], counts[:] = _scale.curves(e.plan, mult, e.myopic_terms, e.scorer, e.clip)
        return curves, counts, models
    for i, b in enumerate(range(b0, b1)):
        g = stream(seed, b)
        idx = g.integers(0, e.n, size=e.n)
        curves[i], counts[i] = _curve(e, idx, g)
        models[i] = _models(e, idx, g)
    return curves, counts, models


def run(
    e: Engine,
    bootstrap: int,
    seed: int | None,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: bool = False,
    every_k: bool = True,
) -> Replicates:
    """The point estimate, then ``bootstrap`` replicates in chunks (same numbers however the chunks are
    spread over processes). The exact engine's path is fitted to the number of replicates first
    (:func:`~humanly.survey._fit.settle`, before anything is allocated); on the composition path
    the data and every replicate go through the levels once, in-process (the ABC's survey sizes
    chosen by :mod:`._adaptive` unless ``every_k``)."""
    if e.method == "exact":
        e = dataclasses.replace(e, plan=settle(e.plan, bootstrap + 1, e.scorer))
        if (
            isinstance(e.plan, _scale.ScalePlan)
            and workers is None
            and scheduler is None
            and client is None
        ):
            return _one_sweep(e, bootstrap, seed, progress, every_k)
    g = _point_rng(seed)
    curve, nit = _curve(e, None, g, progress)
    scores = _models(e, None, g)
    if bootstrap <= 0:
        return Replicates(curve, nit, scores, None, None)
    chunk = max(1, min(50, math.ceil(bootstrap / (4 * (workers or 1)))))
    args = [(e, b0, min(bootstrap, b0 + chunk), seed) for b0 in range(0, bootstrap, chunk)]
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
    return Replicates(curve, nit, scores, curves, models)


def _one_sweep(
    e: Engine, bootstrap: int, seed: int | None, progress: bool, every_k: bool = True
) -> Replicates:
    """The composition path in-process: the data's multiplicities and every replicate's (replicate b
    from ``stream(seed, b)``, as :func:`_boot_chunk` draws them) in one batch, so that each level is
    built once; the numbers are those of any other split of the replicates. The ABC's survey sizes
    are chosen from the models' scores (:func:`~._adaptive.abc_grid`) unless ``every_k``."""
    plan = e.plan
    mult = np.empty((bootstrap + 1, len(plan.v)))
    mult[0] = plan.mult
    models = np.empty((bootstrap, e.n_models))
    unused = np.random.default_rng(0)  # decomposable scorers draw nothing
    for b in range(bootstrap):
        idx = stream(seed, b).integers(0, e.n, size=e.n)
        mult[b + 1] = np.bincount(plan.inv, weights=e.item_counts(idx), minlength=len(plan.v))
        models[b] = _models(e, idx, unused)
    scores = _models(e, None, _point_rng(seed))
    computed = fallback = None
    if e.myopic_terms is None:
        targets = np.vstack([scores[None], models]) if len(scores) else np.zeros((len(mult), 0))
        grid = abc_grid(plan, mult, e.scorer, targets, not every_k, progress)
        out, n_items, computed, fallback = grid.curves, grid.n_items, grid.computed, grid.fallback
    else:
        out, n_items = _scale.curves(plan, mult, e.myopic_terms, e.scorer, e.clip, show=progress)
    if bootstrap <= 0:
        return Replicates(out[0], n_items[0], scores, None, None, computed, fallback)
    return Replicates(out[0], n_items[0], scores, out[1:], models, computed, fallback)
