"""Coverage of the finite-sample bounds on simulated data with a known oracle.

Each replicate draws a dataset from :func:`humanly.simulate.oracle` (independent raters with known
accuracies, errors uniform over the wrong classes, one model) from the random stream ``(seed, i)``, and
checks whether each bound at failure probability δ covers

* its *estimand* — the population agreement U⁽ᵉ⁾² (upper bound, Theorem 5) and the population agreement
  L of the model with the K-rater plurality (lower bound, Theorem 6), computed exactly by
  enumeration — the nominal guarantee ``P(covered) ≥ 1 − δ``; and
* the *oracle accuracies* — the average rater's and the model's true accuracy (what the certificate is
  about; holds at least as often when the assumptions of Theorems 1 and 3 hold).

Widths show how much tighter the empirical-Bernstein and exact bounds are than Hoeffding's.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.checks import check_int, check_probability
from .._core.counts import pairwise_agreement, plurality_credit
from .._core.parallel import check_workers, run_tasks
from .._core.result import Result
from .._core.rng import stream
from ..errors import InputError
from ._bounds import BOUNDS, Sample
from .lower import tie_broken_successes

__all__ = ["CoverageResult", "coverage", "population_values"]


@dataclasses.dataclass(frozen=True, repr=False)
class CoverageResult(Result):
    """How often each finite-sample bound covered what it bounds, on simulated data.

    Parameters
    ----------
    n_datasets : int
        The simulated datasets.
    n_items : int
        Items per dataset.
    delta : float
        The failure probability per side of every bound.
    coverage : dict of str to dict of str to float
        Per bound (``hoeffding``, ``bernstein``, ``exact``): the share of datasets where the upper
        bound covered U⁽ᵉ⁾² (``upper``) and the lower bound L (``lower``), the estimands, and where
        they covered the true accuracies (``upper_oracle``, ``lower_oracle``).
    mean_t : dict of str to dict of str to float
        Per bound: the mean deviations ``t_u`` and ``t_l``.
    population : dict of str to float
        The population values (:func:`population_values`) and ``empirical`` = U⁽ᵉ⁾.
    standard_error : float
        The Monte Carlo standard error of a coverage rate at 1 − δ.

    Examples
    --------
    >>> coverage(10, 50, seed=2).n_datasets
    10
    """

    n_datasets: int
    n_items: int
    delta: float
    coverage: dict[str, dict[str, float]]
    mean_t: dict[str, dict[str, float]]
    population: dict[str, float]
    standard_error: float


def population_values(
    accuracies: Sequence[float], model_accuracy: float, n_classes: int
) -> dict[str, float]:
    """Exact population values of the bounds for independent raters with uniform errors.

    Parameters
    ----------
    accuracies : sequence of float
        Each rater's accuracy.
    model_accuracy : float
        The model's accuracy (its errors uniform over the wrong classes, independent of the raters).
    n_classes : int
        The number of classes.

    Returns
    -------
    dict of str to float
        ``empirical2`` U⁽ᵉ⁾², ``theoretical2`` U⁽ᵗ⁾², ``lower`` L (the model against the K-rater
        plurality, fractional ties), ``average_rater`` and ``model`` (the true accuracies).

    Examples
    --------
    >>> round(population_values([0.8, 0.7, 0.6], 0.9, 3)["empirical2"], 4)
    0.53
    """
    a = np.asarray(accuracies, dtype=float)
    k, c = len(a), n_classes
    agree = np.outer(a, a) + np.outer(1 - a, 1 - a) / (c - 1)
    off = ~np.eye(k, dtype=bool)
    emp2 = float(agree[off].mean())
    theo2 = 1.0 / k + (k - 1.0) / k * emp2
    # enumerate every label vector given true class 0 (errors uniform, so the class does not matter)
    lower = 0.0
    p_label = np.where(np.arange(c)[None, :] == 0, a[:, None], ((1 - a) / (c - 1))[:, None])
    p_model = np.array([model_accuracy] + [(1 - model_accuracy) / (c - 1)] * (c - 1))
    for combo in itertools.product(range(c), repeat=k):
        w = float(np.prod(p_label[np.arange(k), combo]))
        counts = np.bincount(combo, minlength=c)
        tied = counts == counts.max()
        lower += w * float((p_model * tied).sum() / tied.sum())
    return {
        "empirical2": emp2,
        "theoretical2": theo2,
        "lower": lower,
        "average_rater": float(a.mean()),
        "model": float(model_accuracy),
    }


def _replicate(
    i: int,
    seed: int | None,
    n_items: int,
    accuracies: tuple[float, ...],
    model_accuracy: float,
    n_classes: int,
    delta: float,
) -> dict[str, Any]:
    from ..simulate import oracle

    d = oracle(
        n_items,
        list(accuracies),
        n_classes=n_classes,
        models={"m": model_accuracy},
        seed=stream(seed, i),
    )
    counts = d.ratings.counts
    x = pairwise_agreement(counts)
    u2 = float(x.mean())
    assert d.predictions is not None
    cr = plurality_credit(counts, d.predictions.hard("m").astype(np.int64))
    low = float(cr.mean())
    n = len(x)
    sample_u = Sample(n, u2, float(np.var(x, ddof=1)))
    sample_l = Sample(
        n, low, float(np.var(cr, ddof=1)), tie_broken_successes(cr, seed, 1_000_000 + i)
    )
    out: dict[str, Any] = {}
    for b, bound in BOUNDS.items():
        tu, tl = bound.upper(sample_u).t(delta), bound.lower(sample_l).t(delta)
        out[b] = {"u2": u2 + tu, "lower": low - tl, "t_u": tu, "t_l": tl}
    out["true"] = {
        "average_rater": d.truth["average_annotator_accuracy"],
        "model": d.truth["model_accuracy"]["m"],
    }
    return out


def coverage(
    n_datasets: int = 1000,
    n_items: int = 200,
    accuracies: Sequence[float] = (0.7, 0.75, 0.8, 0.65, 0.7),
    model_accuracy: float = 0.85,
    *,
    n_classes: int = 3,
    delta: float = 0.05,
    seed: int | None = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    chunk: int = 50,
) -> CoverageResult:
    """Empirical coverage of the Hoeffding, empirical-Bernstein and exact bounds on simulated data.

    Replicate i draws a dataset from :func:`humanly.simulate.oracle` with the stream (seed, i); chunks
    of replicates run in-process or on dask with identical results.

    Parameters
    ----------
    n_datasets : int
        The simulated datasets (default 1,000).
    n_items : int
        Items per dataset.
    accuracies : sequence of float
        The raters' accuracies (one rater each; K = their number).
    model_accuracy : float
        The model's accuracy.
    n_classes : int
        The number of classes (errors uniform over the wrong ones).
    delta : float
        The failure probability per side of every bound.
    seed : int or None
        The seed of the simulation.
    workers, scheduler, client : optional
        Run the chunks on dask.distributed (the ``humanly[dask]`` extra): a local cluster of
        ``workers``, a running ``scheduler``, or a ``client``.
    chunk : int
        Replicates per task.

    Returns
    -------
    CoverageResult
        Coverage rates, mean deviations and the population values.

    Raises
    ------
    InputError
        For a count below 1 (``n_items`` below 2), a probability outside [0, 1] or ``delta`` outside
        (0, 1).

    Examples
    --------
    >>> res = coverage(20, 100, delta=0.1, seed=1)
    >>> sorted(res.coverage), res.coverage["hoeffding"]["upper"] >= 0.9
    (['bernstein', 'exact', 'hoeffding'], True)
    """
    n_datasets = check_int("n_datasets", n_datasets, minimum=1)
    n_items = check_int("n_items", n_items, minimum=2)
    n_classes = check_int("n_classes", n_classes, minimum=2)
    chunk = check_int("chunk", chunk, minimum=1)
    check_probability("delta", delta, open_low=True, open_high=True)
    check_probability("model_accuracy", model_accuracy)
    for a in accuracies:
        check_probability("accuracies", a)
    if len(accuracies) < 2:
        raise InputError(
            f"accuracies={list(accuracies)}: give at least two raters' accuracies (the upper bound "
            "needs pairs of raters)"
        )
    check_int("seed", seed, minimum=0, allow_none=True)
    check_workers(workers, scheduler)
    pop = population_values(accuracies, model_accuracy, n_classes)
    acc = tuple(float(a) for a in accuracies)
    starts = list(range(0, n_datasets, chunk))
    args = [
        (s, min(s + chunk, n_datasets), seed, n_items, acc, model_accuracy, n_classes, delta)
        for s in starts
    ]
    parts = run_tasks(
        _chunk, args, workers=workers, scheduler=scheduler, client=client, description="coverage"
    )
    reps = [r for part in parts for r in part]
    cov: dict[str, dict[str, float]] = {}
    width: dict[str, dict[str, float]] = {}
    u_true = math.sqrt(pop["empirical2"])
    for b in BOUNDS:
        cov[b] = {
            "upper": float(np.mean([r[b]["u2"] >= pop["empirical2"] for r in reps])),
            "lower": float(np.mean([r[b]["lower"] <= pop["lower"] for r in reps])),
            "upper_oracle": float(
                np.mean([math.sqrt(r[b]["u2"]) >= r["true"]["average_rater"] for r in reps])
            ),
            "lower_oracle": float(np.mean([r[b]["lower"] <= r["true"]["model"] for r in reps])),
        }
        width[b] = {
            "t_u": float(np.mean([r[b]["t_u"] for r in reps])),
            "t_l": float(np.mean([r[b]["t_l"] for r in reps])),
        }
    pop = {**pop, "empirical": u_true}
    se = math.sqrt(delta * (1 - delta) / max(n_datasets, 1))
    return CoverageResult(n_datasets, n_items, delta, cov, width, pop, se)


def _chunk(
    start: int,
    stop: int,
    seed: int | None,
    n_items: int,
    accuracies: tuple[float, ...],
    model_accuracy: float,
    n_classes: int,
    delta: float,
) -> list[dict[str, Any]]:
    return [
        _replicate(i, seed, n_items, accuracies, model_accuracy, n_classes, delta)
        for i in range(start, stop)
    ]
