"""Survey equivalence against several target panels at once (``EquivalenceOptions(targets=...)``): the
revision of Survey Equivalence (arXiv:2106.01254 v2) scores the classifier and the panels of k raters
against the majority of t other raters — t = 1 is the paper's setting, t = ∞ the true class — and
shows that the verdict can flip with t.

On data:

* a **finite t** is the plurality of t held-out raters of each item (the ``reference_size`` analysis
  with r = t: items with fewer than t labels are not scored; ``n_items`` says how many are, and the code
  ``items_without_target`` says that some are not); t equal to ``reference_size`` (1 by default) *is*
  the top-level analysis, number for number;
* **t = ∞** is each item's true class, estimated by a latent-class model fitted to the ratings
  (:mod:`humanly.survey._latent_target`), with the bootstrap over items; every number of it rests on
  that model (the code ``rests_on_latent_class_model``);
* per model, :class:`~humanly.survey.target_results.TargetFlips` says for which k the model's order
  against k raters differs between targets (status ``flips``).

Every model is calibrated once, against the raters' labels (as the paper's Algorithm 1 and
``reference_size`` do); the scenario mode (:func:`~humanly.survey.scenario_equivalence`) calibrates
every source against each target, the definition of the authors' notebook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from ..data import InputError, Ratings, Study
from ._latent_target import latent_curves
from ._prepare import Options, _max_k, _model_outputs, positive_index
from .combiners import is_matrix_combiner
from .crossing import curve_points, model_equivalence
from .results import EquivalenceResult, TargetEquivalence
from .target_results import (
    HELD_OUT_RATERS,
    INF,
    ITEMS_WITHOUT_TARGET,
    LATENT_CLASS_MODEL,
    LATENT_NOT_CONVERGED,
    POOLED_RATERS,
    target_flips,
)

__all__ = ["check_target_options", "with_targets"]


def check_target_options(opts: Options, targets: tuple[int | str, ...] | None) -> None:
    """Refuse, before any work, a target the scorer or combiner cannot be scored against."""
    if targets is None or INF not in targets:
        return
    if not opts.scorer.decomposable:
        raise InputError(
            f"options.targets={targets!r}: the target 'inf' scores against each item's latent "
            f"class, which needs a scorer that is a mean of per-item terms (agreement or "
            f"cross_entropy), not {opts.scorer.name!r}; drop 'inf' or change scorer"
        )
    if is_matrix_combiner(opts.combiner):
        raise InputError(
            f"options.targets={targets!r}: the target 'inf' is computed exactly, which a combiner "
            f"that sees the whole rating matrix ({opts.combiner.name!r}) does not allow; drop 'inf'"
        )


def _finite(res: EquivalenceResult, t: int, ratings: Ratings) -> TargetEquivalence:
    n_lab = ratings.counts.sum(axis=1)
    n = int((n_lab >= t).sum())
    codes = (HELD_OUT_RATERS,) + ((ITEMS_WITHOUT_TARGET,) if n < int((n_lab > 0).sum()) else ())
    return TargetEquivalence(
        target=t,
        n_items=n,
        power_curve=res.power_curve,
        models=res.models,
        codes=codes,
        curve_samples=res.curve_samples,
        model_samples=res.model_samples,
    )


def _infinite(
    study: Study, opts: Options, bootstrap: int, level: float, calibrations: tuple[str, ...]
) -> TargetEquivalence:
    """t = ∞: the curve and the models against each item's latent class."""
    ratings = study.ratings
    out = _model_outputs(
        ratings, study.predictions, opts, positive_index(ratings.classes, opts.positive)
    )
    n_lab = ratings.counts.sum(axis=1)
    lc = latent_curves(
        ratings,
        out,
        opts.combiner,
        opts.scorer,
        opts.clip,
        _max_k(n_lab, 1, opts.max_k),
        bootstrap,
        opts.seed,
    )
    ks = np.arange(len(lc.curve))
    n_items = int((n_lab > 0).sum())
    models = tuple(
        model_equivalence(
            name,
            float(lc.scores[j]),
            None if lc.models is None else lc.models[:, j],
            ks,
            lc.curve,
            lc.curves,
            level,
            n_items,
            calibrations[j] if j < len(calibrations) else "none",
            out.uncalibrated[j],
        )
        for j, name in enumerate(out.names)
    )
    codes = [LATENT_CLASS_MODEL]
    if lc.latent.fit == "pooled":
        codes.append(POOLED_RATERS)
    if not lc.latent.converged:
        codes.append(LATENT_NOT_CONVERGED)
    return TargetEquivalence(
        target=INF,
        n_items=n_items,
        power_curve=curve_points(ks, lc.curve, lc.n_items, lc.curves, level),
        models=models,
        codes=tuple(codes),
        latent=lc.latent,
        curve_samples=lc.curves,
        model_samples=lc.models,
    )


def with_targets(
    main: EquivalenceResult,
    study: Study,
    opts: Options,
    targets: tuple[int | str, ...],
    bootstrap: int,
    level: float,
    at_size: Callable[[int], EquivalenceResult],
) -> EquivalenceResult:
    """``main`` with one :class:`TargetEquivalence` per target and the flips of each model.

    ``at_size(t)`` runs the analysis with t held-out raters (the top-level analysis of another
    ``reference_size``); ``main`` is the one of ``opts.reference_size`` and is reused for that t.
    """
    entries = []
    ratings = study.ratings
    calibrations = tuple(m.calibration for m in main.models)
    for t in targets:
        if t == INF:
            try:
                entries.append(_infinite(study, opts, bootstrap, level, calibrations))
            except InputError as exc:
                raise InputError(f"options.targets={targets!r}: {exc}") from exc
            continue
        size = int(t)
        if size == main.reference_size:
            entries.append(_finite(main, size, ratings))
            continue
        try:
            res = at_size(size)
        except InputError as exc:
            raise InputError(f"options.targets={targets!r}: the target {size}: {exc}") from exc
        entries.append(_finite(res, size, ratings))
    flips = tuple(
        target_flips(
            m.model,
            targets,
            [e.model(m.model).score for e in entries],
            [e.scores for e in entries],
            [e.ks for e in entries],
        )
        for m in main.models
    )
    return dataclasses.replace(main, targets=tuple(entries), target_flips=flips)
