"""Target panels (the revision of Survey Equivalence, arXiv:2106.01254 v2): scores against the majority
of t raters, t = 1 (the paper's setting), any finite t, or t = ∞ (the true state).

This module holds what every target-panel result shares, and nothing that computes a survey curve:

* :func:`check_targets` — the checked tuple of targets (``1``, ``3``, …, ``"inf"``);
* :class:`PanelOrder` and :class:`TargetFlips` — a model's place against k raters under each target,
  and the panel sizes where that order flips between targets ("bigger panels are not always better");
* :class:`LatentTarget` — how the t = ∞ target was estimated on data (a fitted latent-class model);
* the status codes the results carry (plain strings; the sentences are written by the presentation
  floor).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.result import Result
from ..errors import InputError, setting

__all__ = [
    "FLIPS",
    "HELD_OUT_RATERS",
    "INF",
    "ITEMS_WITHOUT_TARGET",
    "LATENT_CLASS_MODEL",
    "LATENT_NOT_CONVERGED",
    "POOLED_RATERS",
    "STABLE",
    "LatentTarget",
    "PanelOrder",
    "TargetFlips",
    "check_targets",
    "target_flips",
]

#: The target t = ∞: the item's true state (on data, estimated by a latent-class model).
INF = "inf"
#: A finite target: the plurality of t held-out raters of the item.
HELD_OUT_RATERS = "held_out_raters"
#: Some items have fewer than t labels and are not scored against this target (``n_items`` says how
#: many are).
ITEMS_WITHOUT_TARGET = "items_without_target"
#: t = ∞ on data: the target is each item's posterior under a fitted latent-class model, so every
#: number of this target rests on that model.
LATENT_CLASS_MODEL = "rests_on_latent_class_model"
#: The latent-class fit stopped before converging.
LATENT_NOT_CONVERGED = "latent_fit_not_converged"
#: Anonymous counts: one confusion matrix shared by every label (raters are not told apart).
POOLED_RATERS = "pooled_raters"
#: A model's order against some k raters differs between targets / is the same under every target.
FLIPS = "flips"
STABLE = "stable"
#: Scores this close (relative) count as equal.
_SAME = 1e-12
#: The largest finite target accepted.
MAX_TARGET = 1000


def check_targets(targets: Any, name: str = "targets") -> tuple[int | str, ...]:
    """The targets as a tuple of whole numbers ≥ 1 and ``"inf"`` (``math.inf`` is read as ``"inf"``),
    in the order given, each once.

    >>> check_targets((1, 3, "inf"))
    (1, 3, 'inf')
    >>> check_targets([5, float("inf")])
    (5, 'inf')
    """
    if isinstance(targets, (str, numbers.Real)):
        targets = (targets,)
    if not isinstance(targets, Sequence) or not len(targets):
        raise TypeError(f"{name}={targets!r}: give target panel sizes, e.g. (1, 3, 'inf')")
    out: list[int | str] = []
    for t in targets:
        if isinstance(t, str) and t.strip().lower() in ("inf", "∞"):
            value: int | str = INF
        elif isinstance(t, numbers.Real) and not isinstance(t, bool) and math.isinf(float(t)):
            value = INF
        elif isinstance(t, numbers.Real) and not isinstance(t, bool) and float(t).is_integer():
            size = int(float(t))
            if not 1 <= size <= MAX_TARGET:
                raise InputError(
                    f"{setting(name, repr(tuple(targets)), raw=True)}: a target panel has 1 to "
                    f"{MAX_TARGET} raters "
                    f"(got {size}); use 'inf' for the true state"
                )
            value = size
        else:
            raise InputError(
                f"{setting(name, repr(tuple(targets)), raw=True)}: give whole numbers ≥ 1 or 'inf' (got "
                f"{t!r})"
            )
        if value in out:
            raise InputError(
                f"{setting(name, repr(tuple(targets)), raw=True)}: {value!r} is given twice"
            )
        out.append(value)
    return tuple(out)


@dataclasses.dataclass(frozen=True, repr=False)
class PanelOrder(Result):
    """A model's score against the score of k raters, under each target.

    Parameters
    ----------
    k : int
        The panel size compared (k raters combined).
    sign : tuple of (int or None)
        One entry per target, in the result's order: ``1`` the model scores above c_k, ``-1``
        below, ``0`` equal (within 1e-12 relative); ``None`` when k is not on that target's curve.
    flips : bool
        Whether the model is above k raters under one target and below under another.

    Examples
    --------
    >>> PanelOrder(k=1, sign=(-1, 1, -1), flips=True).flips
    True
    """

    k: int
    sign: tuple[int | None, ...]
    flips: bool


@dataclasses.dataclass(frozen=True, repr=False)
class TargetFlips(Result):
    """Where a model's verdict against k raters changes with the target panel.

    Parameters
    ----------
    model : str
        The model's name.
    targets : tuple of (int or str)
        The targets compared, in order (``"inf"``: the true state).
    orders : tuple of PanelOrder
        For each k ≥ 1 on at least one target's curve, the model's place against k raters under
        each target.
    flips_at : tuple of int
        The panel sizes k whose order flips between targets.
    status : {"flips", "stable"}
        ``"flips"`` when ``flips_at`` is not empty.

    Examples
    --------
    >>> f = target_flips("m", (1, 3, "inf"), [-0.706, -0.575, -0.501],
    ...                  [[-1.0, -0.7058], [-1.0, -0.5769], [-1.0, -0.4925]])
    >>> f.status, f.flips_at, f.orders[0].sign
    ('flips', (1,), (-1, 1, -1))
    """

    model: str
    targets: tuple[int | str, ...]
    orders: tuple[PanelOrder, ...]
    flips_at: tuple[int, ...]
    status: str


def _sign(score: float, point: float) -> int:
    if abs(score - point) <= _SAME * max(1.0, abs(point)):
        return 0
    return 1 if score > point else -1


def target_flips(
    model: str,
    targets: Sequence[int | str],
    scores: Sequence[float],
    curves: Sequence[Any],
    ks: Sequence[Any] | None = None,
) -> TargetFlips:
    """The model's order against k raters under each target (``scores[j]`` read against
    ``curves[j]``, whose points are at ``ks[j]``, default 0, 1, 2, …) and where it flips.

    Parameters
    ----------
    model : str
        The model's name.
    targets : sequence
        The targets, in order.
    scores : sequence of float
        The model's score under each target.
    curves : sequence of sequences of float
        Each target's curve c_0, c_1, … (NaN points are not compared).
    ks : sequence of sequences of int, optional
        The panel sizes of each curve's points.

    Returns
    -------
    TargetFlips

    Examples
    --------
    >>> target_flips("m", (1, 2), [0.8, 0.8], [[0.5, 0.7, 0.9], [0.5, 0.85]]).flips_at
    (1,)
    """
    where: list[dict[int, float]] = []
    for j, curve in enumerate(curves):
        kk = list(range(len(curve))) if ks is None else [int(k) for k in ks[j]]
        where.append({k: float(c) for k, c in zip(kk, curve, strict=True) if np.isfinite(c)})
    all_k = sorted({k for w in where for k in w if k >= 1})
    orders = []
    for k in all_k:
        sign = tuple(
            None if k not in w or not np.isfinite(s) else _sign(float(s), w[k])
            for w, s in zip(where, scores, strict=True)
        )
        seen = {v for v in sign if v is not None}
        orders.append(PanelOrder(k, sign, 1 in seen and -1 in seen))
    flips_at = tuple(o.k for o in orders if o.flips)
    return TargetFlips(
        model, tuple(targets), tuple(orders), flips_at, FLIPS if flips_at else STABLE
    )


@dataclasses.dataclass(frozen=True, repr=False)
class LatentTarget(Result):
    """How the t = ∞ target was estimated on data: a latent-class model fitted to the ratings.

    Each item's target is its posterior over the true classes. The power curve scores k raters
    against the posterior given the item's labels; a model is scored against the posterior given
    the labels *and* the model's output (the model joins the latent-class model as one more rater:
    an output of at most 20 distinct values as a categorical rater, a continuous one through its
    log-probabilities with a fitted temperature and shift per class), so that its score is not
    pulled towards the crowd's view of the item.

    Parameters
    ----------
    fit : {"dawid_skene", "pooled"}
        Dawid–Skene with one confusion matrix per named rater (:func:`humanly.crowd.dawid_skene`),
        or, for anonymous counts, one confusion matrix shared by every label.
    prior : tuple of float
        The fitted class prior.
    log_likelihood : float
        The fit's log-likelihood (nats).
    iterations : int
        The EM steps of the fit.
    converged : bool
        Whether the fit converged.
    n_raters : int or None
        The raters told apart (``None`` for pooled counts).
    model_bins : tuple of int
        For each model, the number of output values it joined the latent-class model with as a
        categorical rater; 0 for a continuous output (more than 20 distinct values), joined through
        its log-probabilities.
    certainty : float
        The mean over items of the largest posterior class probability given the labels (1: every
        item's class is certain; 1/K: the labels say nothing).

    Examples
    --------
    >>> LatentTarget("pooled", (0.5, 0.5), -120.0, 14, True, None, (2,), 0.93).fit
    'pooled'
    """

    fit: str
    prior: tuple[float, ...]
    log_likelihood: float
    iterations: int
    converged: bool
    n_raters: int | None
    model_bins: tuple[int, ...]
    certainty: float
