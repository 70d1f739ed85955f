"""The K-class pilot (beyond the paper): class-conditional confusion matrices of the crowd and of two
models, estimated from a pilot with several labels per item, with their bootstrap and Wald ranges and
the estimates the pilot identifies weakly.

The model (:mod:`humanly.crowd.latent_class`): an item's true class g has prior π; each crowd label is
drawn from one confusion matrix θ shared by the crowd (Dawid–Skene with exchangeable raters — pilots
hold anonymous counts as often as named raters); c_b's and c_w's predictions from their own
confusion matrices B and W; all independent given g. EM over g from the crowd plurality (which fixes
the labelling of the classes); the bootstrap refits every replicate (replicate i resamples items with
``stream(seed, i)``, in chunks of 50 on dask or in-process, the same numbers).

Identification: a K-component mixture needs ≥ 3 crowd labels per item (the models' predictions add
two more conditionally independent views); items with fewer still enter the likelihood. What is
checked (as for the two-class pilot, :mod:`humanly.budget.identification`): each class's prior and
every per-class accuracy (a diagonal entry of θ, B, W) and the three overall accuracies —
``boundary`` (within ``EDGE`` of 0 or 1; a prior near 0), ``loose`` (bootstrap range wider than
``WIDE``) and, without a bootstrap, ``flat`` (Wald range from the observed information,
:mod:`humanly.budget.information`, wider than ``WIDE`` or unbounded).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._core.bootstrap import percentile_interval
from .._core.parallel import run_tasks
from .._core.result import Interval, Result
from .._core.rng import stream
from ..crowd.latent_class import (
    LatentPatterns,
    fit_latent_classes,
    latent_patterns,
    pack,
    pattern_loglik,
)
from ..data import InputError, Predictions, Ratings
from .confusion import ConfusionErrors
from .identification import EDGE, WIDE, WeakEstimate
from .information import wald_ranges
from .pilot import _check_models, _pick

__all__ = ["ConfusionEstimate", "MulticlassFit", "fit_multiclass_pilot"]

#: Fewest pilot items with ≥ 3 labels.
MIN_ITEMS = 10
_PER_TASK = 50
_CLIP = 1e-7
#: The matrices of the fit, in the packed order.
MATRICES = ("labels", "better", "worse")
#: The summary accuracies.
SUMMARIES = ("label_accuracy", "better_accuracy", "worse_accuracy")


@dataclass(frozen=True, repr=False)
class ConfusionEstimate(Result):
    """One estimated probability of a K-class pilot, with its ranges.

    Parameters
    ----------
    parameter : str
        ``prior``, ``labels``, ``better`` or ``worse`` (an entry of the prior or of a confusion
        matrix: a crowd label's, c_b's, c_w's), or a summary: ``label_accuracy`` (one crowd label),
        ``better_accuracy``, ``worse_accuracy`` (Σ_c π_c M[c, c]).
    true_class : int or None
        The row (the true class's position in ``classes``); ``None`` for a summary.
    label : int or None
        The column (the label or prediction); ``None`` for the prior and the summaries.
    estimate : float
        The point estimate.
    interval : Interval
        The percentile bootstrap range (both ends ``None`` without a bootstrap).
    information_interval : Interval
        The Wald range from the observed information (both ends ``None`` where the information is
        singular); reported for the prior, the per-class accuracies and the summaries.

    Examples
    --------
    >>> ConfusionEstimate("better", 1, 1, 0.82, Interval(0.78, 0.86), Interval(0.79, 0.85)).label
    1
    """

    parameter: str
    true_class: int | None
    label: int | None
    estimate: float
    interval: Interval
    information_interval: Interval

    @property
    def name(self) -> str:
        """``parameter`` with its indices, e.g. ``better[1,1]``, ``prior[0]``, ``label_accuracy``.

        Examples
        --------
        >>> none = Interval(None, None)
        >>> ConfusionEstimate("prior", 2, None, 0.3, none, none).name
        'prior[2]'
        """
        if self.true_class is None:
            return self.parameter
        if self.label is None:
            return f"{self.parameter}[{self.true_class}]"
        return f"{self.parameter}[{self.true_class},{self.label}]"


class MulticlassFit(NamedTuple):
    """What :func:`fit_multiclass_pilot` estimates: the models compared, the error model, every
    estimate with its ranges, the weak ones, the fit's log-likelihood, steps and convergence, the
    share of converged bootstrap fits, the items used and those with fewer than 3 labels."""

    better: str
    worse: str
    estimates: ConfusionErrors
    parameters: tuple[ConfusionEstimate, ...]
    warnings: tuple[WeakEstimate, ...]
    log_likelihood: float
    iterations: int
    converged: bool
    bootstrap_converged: float | None
    n_used: int
    n_few_labels: int


# ----------------------------------------------------------------------------- parameters
def _summaries(x: np.ndarray, k: int) -> np.ndarray:
    """Per packed row: the prior, every per-class accuracy (diagonals of θ, B, W) and the three
    overall accuracies (B, K + 3K + 3)."""
    prior = x[:, :k]
    diags = [
        np.diagonal(x[:, k + j * k * k : k + (j + 1) * k * k].reshape(-1, k, k), axis1=1, axis2=2)
        for j in range(3)
    ]
    overall = [np.sum(prior * d, axis=1) for d in diags]
    return np.column_stack([prior, *diags, *overall])


def _checked_names(k: int) -> list[tuple[str, int | None, int | None]]:
    out: list[tuple[str, int | None, int | None]] = [("prior", c, None) for c in range(k)]
    out += [(mat, c, c) for mat in MATRICES for c in range(k)]
    return out + [(s, None, None) for s in SUMMARIES]


def _free_to_packed(k: int) -> Callable[[np.ndarray], np.ndarray]:
    """Softmax of K − 1 free logits per probability vector (prior, then 3K rows) → packed rows."""

    def packed(u: np.ndarray) -> np.ndarray:
        b = len(u)
        z = np.concatenate([u.reshape(b, -1, k - 1), np.zeros((b, 1 + 3 * k, 1))], axis=2)
        z = np.exp(z - z.max(axis=2, keepdims=True))
        return (z / z.sum(axis=2, keepdims=True)).reshape(b, -1)

    return packed


def _information(pat: LatentPatterns, x: np.ndarray, k: int, level: float) -> tuple[Interval, ...]:
    """Wald ranges of the checked parameters (see :func:`_checked_names`) at the fit ``x``."""
    rows = np.clip(x.reshape(1 + 3 * k, k), _CLIP, None)
    u0 = np.log(rows[:, :-1] / rows[:, -1:]).ravel()
    to_packed = _free_to_packed(k)
    return wald_ranges(
        lambda u: pattern_loglik(pat, to_packed(u))[0],
        u0,
        pat.freq,
        lambda u: _summaries(to_packed(u), k),
        level,
    )


# ----------------------------------------------------------------------------- bootstrap
def _chunk(pat: LatentPatterns, n: int, seed: int, start: int, stop: int) -> np.ndarray:
    """Replicates start..stop − 1 as one batch: packed parameters and convergence (B, D + 1)."""
    weights = np.stack(
        [
            np.bincount(pat.inverse[stream(seed, i).integers(0, n, n)], minlength=len(pat.freq))
            for i in range(start, stop)
        ]
    ).astype(float)
    em = fit_latent_classes(pat, weights)
    x = pack(em.prior, em.crowd, em.sources)
    return np.column_stack([x, em.converged.astype(float)])


def _replicates(
    pat: LatentPatterns,
    n: int,
    bootstrap: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
) -> np.ndarray:
    args = [
        (pat, n, seed, a, min(a + _PER_TASK, bootstrap)) for a in range(0, bootstrap, _PER_TASK)
    ]
    parts = run_tasks(
        _chunk,
        args,
        workers=workers,
        scheduler=scheduler,
        description="bootstrap",
        show_progress=len(args) > 4,
    )
    return np.vstack(parts) if parts else np.zeros((0, 0))


# ----------------------------------------------------------------------------- estimates
def _weak(
    names: list[tuple[str, int | None, int | None]],
    values: np.ndarray,
    boot: tuple[Interval, ...],
    info: tuple[Interval, ...],
    bootstrap: int,
) -> tuple[WeakEstimate, ...]:
    out = []
    for (par, row, col), v, rb, ri in zip(names, values, boot, info, strict=True):
        label = ConfusionEstimate(par, row, col, float(v), rb, ri).name
        edge = v <= EDGE if par == "prior" else (v <= EDGE or v >= 1.0 - EDGE)
        if edge and par not in SUMMARIES:
            out.append(WeakEstimate(label, float(v), "boundary", rb))
        elif bootstrap and rb.width is not None and rb.width > WIDE:
            out.append(WeakEstimate(label, float(v), "loose", rb))
        elif not bootstrap and (ri.width is None or ri.width > WIDE):
            out.append(WeakEstimate(label, float(v), "flat", ri))
    return tuple(out)


def _parameters(
    x: np.ndarray, reps: np.ndarray, k: int, info: tuple[Interval, ...], level: float
) -> tuple[ConfusionEstimate, ...]:
    """Every estimate (prior, the three matrices entry by entry, the summaries) with its ranges."""
    none = Interval(None, None)
    boot = (
        [none] * len(x)
        if not len(reps)
        else [percentile_interval(reps[:, j], level) for j in range(len(x))]
    )
    checked = {(p, r, c): i for (p, r, c), i in zip(_checked_names(k), info, strict=True)}
    out = [
        ConfusionEstimate("prior", c, None, float(x[c]), boot[c], checked[("prior", c, None)])
        for c in range(k)
    ]
    for j, mat in enumerate(MATRICES):
        for r in range(k):
            for c in range(k):
                at = k + j * k * k + r * k + c
                out.append(
                    ConfusionEstimate(
                        mat, r, c, float(x[at]), boot[at], checked.get((mat, r, c), none)
                    )
                )
    sums = _summaries(x[None], k)[0][-3:]
    rep_sums = _summaries(reps, k)[:, -3:] if len(reps) else None
    for j, name in enumerate(SUMMARIES):
        rng = none if rep_sums is None else percentile_interval(rep_sums[:, j], level)
        out.append(ConfusionEstimate(name, None, None, float(sums[j]), rng, info[-3 + j]))
    return tuple(out)


def _models(
    predictions: Predictions, counts: np.ndarray, better: str | None, worse: str | None
) -> tuple[str, str]:
    """The two models compared: as given, else the two that agree most with the crowd's labels
    (the two-class pilot's rule, :mod:`humanly.budget.pilot`)."""
    names = list(predictions.names)
    _check_models(names, better, worse)
    total = max(int(counts.sum()), 1)
    agree = {
        n: float(np.take_along_axis(counts, predictions.hard(n)[:, None], 1).sum() / total)
        for n in names
    }
    return _pick(sorted(names, key=lambda n: -agree[n]), better, worse)


def fit_multiclass_pilot(
    ratings: Ratings,
    predictions: Predictions,
    *,
    better: str | None = None,
    worse: str | None = None,
    bootstrap: int = 0,
    seed: int = 0,
    level: float = 0.95,
    workers: int | None = None,
    scheduler: str | None = None,
) -> MulticlassFit:
    """Fit the K-class pilot (see the module docstring): the point estimates, their bootstrap and
    Wald ranges and the weakly identified ones.

    Raises
    ------
    InputError
        For fewer than two models, or fewer than :data:`MIN_ITEMS` items with ≥ 3 labels.

    Examples
    --------
    >>> from humanly.simulate import oracle
    >>> d = oracle(1500, [0.8] * 5, n_classes=3, models={"a": 0.85, "b": 0.7}, seed=1)
    >>> fit = fit_multiclass_pilot(d.ratings, d.predictions)
    >>> fit.better, fit.converged, [round(v, 2) for v in fit.estimates.accuracies()]
    ('a', True, [0.86, 0.68])
    """
    counts = np.asarray(ratings.counts, dtype=np.int64)
    total = counts.sum(axis=1)
    enough = int((total >= 3).sum())
    if enough < MIN_ITEMS:
        raise InputError(
            f"the K-class pilot needs ≥ 3 labels per item to identify the confusion matrices; only "
            f"{enough} pilot items have ≥ 3 labels; need at least {MIN_ITEMS} — label more"
        )
    b, w = _models(predictions, counts, better, worse)
    k = counts.shape[1]
    keep = total > 0
    pat = latent_patterns(
        counts[keep], [predictions.hard(b)[keep], predictions.hard(w)[keep]], levels=(k, k)
    )
    em = fit_latent_classes(pat)
    x = pack(em.prior, em.crowd, em.sources)[0]
    n = int(keep.sum())
    reps = (
        _replicates(pat, n, bootstrap, seed, workers, scheduler) if bootstrap else np.zeros((0, 0))
    )
    info = _information(pat, x, k, level)
    params = _parameters(x, reps[:, :-1] if len(reps) else reps, k, info, level)
    names = _checked_names(k)
    values = _summaries(x[None], k)[0]
    boot = {p.name: p.interval for p in params}
    boot_checked = tuple(
        boot[ConfusionEstimate(p, r, c, 0.0, Interval(None, None), Interval(None, None)).name]
        for p, r, c in names
    )
    est = ConfusionErrors(
        tuple(x[:k].tolist()),
        *(
            tuple(map(tuple, x[k + j * k * k : k + (j + 1) * k * k].reshape(k, k).tolist()))
            for j in range(3)
        ),
    )
    return MulticlassFit(
        better=b,
        worse=w,
        estimates=est,
        parameters=params,
        warnings=_weak(names, values, boot_checked, info, bootstrap),
        log_likelihood=float(em.loglik[0]),
        iterations=int(em.iterations[0]),
        converged=bool(em.converged[0]),
        bootstrap_converged=float(reps[:, -1].mean()) if len(reps) else None,
        n_used=n,
        n_few_labels=int(((total < 3) & keep).sum()),
    )
