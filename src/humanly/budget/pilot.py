"""What :func:`~humanly.budget.pilot_plan` estimates from a pilot, by either estimator: the two models
compared, the point estimates of the correlated error model, the quantity deciding assumption 2 for each
m, and the same for every bootstrap replicate (replicate i resamples items with ``stream(seed, i)``).

* :func:`latent_pilot` — the latent-class estimate (:mod:`humanly.budget.latent`, the default);
* :func:`majority_pilot` — the crowd majority as proxy truth (:mod:`humanly.budget.proxy`).

Both return a :class:`Pilot`; the bootstrap runs in chunks of 50 replicates, in-process or on dask, with
identical numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .._core.parallel import run_tasks
from .._core.result import Interval, Note, NoteValue
from .._core.rng import stream
from ..data import InputError, Predictions, Ratings
from ..errors import setting
from ._args import VoteTies
from ._em import Patterns, paper_params, patterns
from .information import correlated_wald
from .latent import (
    LATENT_VARIANTS,
    LatentClassFit,
    Selection,
    assumption2_statistics,
    fit_result,
    fit_variants,
)
from .models import CorrelatedErrors
from .proxy import assumption2_statistic, estimate_parameters

__all__ = ["MIN_ITEMS", "Pilot", "latent_pilot", "majority_pilot"]

#: Fewest usable pilot items.
MIN_ITEMS = 10
_PER_TASK = 50  # bootstrap replicates per task
_VARIANT_INDEX = {name: i for i, name in enumerate(LATENT_VARIANTS)}  # replicates store the index
_PARAMS = ("q_b", "q_w", "p_w", "p_b0", "p_b1")


class Pilot(NamedTuple):
    """The estimates of one estimator on a pilot. ``assumption2[m]``: the quantity deciding assumption 2
    (≥ 0 when it holds; NaN when it cannot be computed); ``replicates``: per bootstrap replicate, the
    five parameters, ``"a2_m<m>"`` and (latent) ``"converged"`` and ``"variant"`` (the index of the
    replicate's selected variant in :data:`~humanly.budget.latent.LATENT_VARIANTS`);
    ``information``: (latent) the five parameters' Wald ranges from the observed information."""

    better: str
    worse: str
    n_used: int
    estimates: CorrelatedErrors
    assumption2: dict[int, float]
    replicates: list[dict[str, float]]
    fit: LatentClassFit | None
    notes: list[Note]
    information: dict[str, Interval] | None = None


def _bootstrap(
    task: Callable[..., list[dict[str, float]]],
    args: list[tuple[Any, ...]],
    workers: int | None,
    scheduler: str | None,
) -> list[dict[str, float]]:
    parts = run_tasks(
        task,
        args,
        workers=workers,
        scheduler=scheduler,
        description="bootstrap",
        show_progress=len(args) > 4,
    )
    return [r for part in parts for r in part]


def _starts(bootstrap: int) -> list[tuple[int, int]]:
    return [(a, min(a + _PER_TASK, bootstrap)) for a in range(0, bootstrap, _PER_TASK)]


def _check_models(names: list[str], better: str | None, worse: str | None) -> None:
    if len(names) < 2:
        raise InputError(
            f"the pilot plan needs the predictions of two models (found {len(names)}); add the "
            "second model"
        )
    for name in (better, worse):
        if name is not None and name not in names:
            raise InputError(f"model {name!r} not in the predictions; models: {', '.join(names)}")


def _pick(ranked: list[str], better: str | None, worse: str | None) -> tuple[str, str]:
    b = better or next(n for n in ranked if n != worse)
    w = worse or next(n for n in ranked if n != b)
    if b == w:
        raise InputError(f"{setting('better', b)} and {setting('worse', w)} name the same model")
    return b, w


# --------------------------------------------------------------------------- crowd majority
def _majority_chunk(
    counts: np.ndarray,
    truth: np.ndarray,
    rb: np.ndarray,
    rw: np.ndarray,
    ms: tuple[int, ...],
    vote_ties: VoteTies,
    seed: int,
    start: int,
    stop: int,
) -> list[dict[str, float]]:
    out = []
    for i in range(start, stop):
        idx = stream(seed, i).integers(0, len(rb), len(rb))
        est = estimate_parameters(counts[idx], truth[idx], rb[idx], rw[idx])
        for m in ms:
            est[f"a2_m{m}"] = assumption2_statistic(
                est, counts[idx], rb[idx], rw[idx], m, vote_ties
            )
        out.append(est)
    return out


def majority_pilot(
    ratings: Ratings,
    predictions: Predictions,
    better: str | None,
    worse: str | None,
    ms: tuple[int, ...],
    vote_ties: VoteTies,
    bootstrap: int,
    seed: int,
    workers: int | None = None,
    scheduler: str | None = None,
) -> Pilot:
    """The crowd-majority estimate (items with ≥ 2 labels and a clear majority).

    >>> from humanly.simulate import pair
    >>> d = pair(300, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> majority_pilot(d.ratings, d.predictions, None, None, (3,), "coin", 0, 0).better
    'better'
    """
    names = list(predictions.names)
    _check_models(names, better, worse)
    counts = np.asarray(ratings.counts, dtype=np.int64)
    total = counts.sum(axis=1)
    truth = np.argmax(counts, axis=1)
    usable = (total >= 2) & (counts[:, 0] != counts[:, 1])
    if usable.sum() < MIN_ITEMS:
        raise InputError(
            f"only {int(usable.sum())} pilot items have ≥ 2 labels and a clear majority; "
            f"need at least {MIN_ITEMS}"
        )
    acc = {n: float(np.mean(predictions.hard(n)[usable] == truth[usable])) for n in names}
    b, w = _pick(sorted(names, key=lambda n: -acc[n]), better, worse)
    rb = predictions.hard(b)[usable] == truth[usable]
    rw = predictions.hard(w)[usable] == truth[usable]
    counts, truth = counts[usable], truth[usable]
    values = estimate_parameters(counts, truth, rb, rw)
    if any(not np.isfinite(v) for v in values.values()):
        raise InputError(
            "the pilot has no items where exactly one model agrees with the crowd majority; "
            "the models cannot be told apart on it — label more pilot items"
        )
    notes: list[Note] = []
    a2 = {m: assumption2_statistic(values, counts, rb, rw, m, vote_ties, notes) for m in ms}
    args = [(counts, truth, rb, rw, ms, vote_ties, seed, a, z) for a, z in _starts(bootstrap)]
    reps = _bootstrap(_majority_chunk, args, workers, scheduler)
    est = CorrelatedErrors(**values, check=False)
    return Pilot(b, w, int(usable.sum()), est, a2, reps, None, notes)


# --------------------------------------------------------------------------- latent class
def _latent_chunk(
    pat: Patterns,
    n: int,
    ms: tuple[int, ...],
    vote_ties: VoteTies,
    tol: float,
    max_iter: int,
    latent_variant: str,
    seed: int,
    start: int,
    stop: int,
) -> list[dict[str, float]]:
    """Replicates start..stop−1 fitted as one batch; replicate i resamples the n items with
    ``stream(seed, i)`` and is fitted with the same rule as the pilot (``latent_variant="select"``:
    every candidate variant, the lowest BIC kept — so the ranges include the selection's own
    variability)."""
    weights = np.stack(
        [
            np.bincount(pat.inverse[stream(seed, i).integers(0, n, n)], minlength=len(pat.freq))
            for i in range(start, stop)
        ]
    ).astype(float)
    sel = fit_variants(pat, weights, tol, max_iter, latent_variant)
    em = sel.em
    par = paper_params(em.rho, em.pi, em.q)
    stats = {m: assumption2_statistics(pat, weights, em, m, vote_ties) for m in ms}
    out = []
    for r in range(len(weights)):
        row = {k: float(par[k][r]) for k in _PARAMS}
        row.update({f"a2_m{m}": float(stats[m][r]) for m in ms})
        row["converged"] = float(em.converged[r])
        row["variant"] = float(_VARIANT_INDEX[sel.variants[sel.chosen[r]]])
        out.append(row)
    return out


def _labels_note(total: np.ndarray) -> str:
    values, freq = np.unique(total, return_counts=True)
    return ", ".join(
        f"{v} label{'s' if v != 1 else ''}: {f:,} item{'s' if f != 1 else ''}"
        for v, f in zip(values, freq, strict=True)
    )


def _label_counts(total: np.ndarray) -> dict[str, NoteValue]:
    """How many items have each number of labels, as a note's values (``with_2``: items with 2)."""
    values, freq = np.unique(total, return_counts=True)
    return {f"with_{int(v)}": int(f) for v, f in zip(values, freq, strict=True)}


def _fit(
    pat: Patterns, tol: float, max_iter: int, latent_variant: str
) -> tuple[LatentClassFit, Selection]:
    sel = fit_variants(pat, pat.freq[None, :], tol, max_iter, latent_variant)
    return fit_result(pat, sel, tol, max_iter), sel


def _latent_notes(fit: LatentClassFit, b: str, w: str) -> list[Note]:
    notes = []
    if not fit.converged:
        values = {"max_iter": fit.max_iter, "tolerance": fit.tolerance}
        notes.append(Note("em_not_converged", values))
    low = [
        k
        for k in ("q_b", "q_w", "q_both_right", "q_both_wrong")
        if np.isfinite(getattr(fit, k)) and getattr(fit, k) < 0.5
    ]
    if low:
        notes.append(Note("accuracy_below_half", {k: float(getattr(fit, k)) for k in low}))
    notes.extend(_selection_notes(fit))
    return notes


def _selection_notes(fit: LatentClassFit) -> list[Note]:
    """A note when BIC barely separates the selected latent variant from another (a difference < 2,
    "not worth more than a bare mention" on Kass & Raftery's scale)."""
    close = [
        c for c in fit.candidates if not c.selected and np.isfinite(c.bic) and c.bic - fit.bic < 2
    ]
    if not close:
        return []
    values: dict[str, NoteValue] = {"variant": fit.latent_variant, "bic": float(fit.bic)}
    values.update({f"bic_{c.variant}": float(c.bic) for c in close})
    return [Note("bic_close", values)]


def latent_pilot(
    ratings: Ratings,
    predictions: Predictions,
    better: str | None,
    worse: str | None,
    ms: tuple[int, ...],
    vote_ties: VoteTies,
    bootstrap: int,
    seed: int,
    workers: int | None = None,
    scheduler: str | None = None,
    tol: float = 1e-8,
    max_iter: int = 10_000,
    latent_variant: str = "select",
) -> Pilot:
    """The latent-class estimate (``latent_variant``: "select" — the lowest BIC among the nested
    variants, on the pilot and on every bootstrap replicate — or one variant). Without ``better`` / ``worse``,
    models are ranked by their agreement with the crowd's labels, which orders their accuracies when
    labels are better than chance (a small pilot's fitted accuracies are too noisy to decide the order;
    :func:`~humanly.budget.pilot_plan` notes when they disagree with it).

    >>> from humanly.simulate import pair
    >>> d = pair(300, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> latent_pilot(d.ratings, d.predictions, None, None, (3,), "coin", 0, 0).fit.converged
    True
    """
    names = list(predictions.names)
    _check_models(names, better, worse)
    counts = np.asarray(ratings.counts, dtype=np.int64)
    total = counts.sum(axis=1)
    enough = int((total >= 3).sum())
    if enough < MIN_ITEMS:
        raise InputError(
            f"{setting('estimator', 'latent')} needs ≥ 3 labels per pilot item to identify the label "
            "accuracies; "
            f"only {enough} pilot items have ≥ 3 labels ({_labels_note(total)}); need at least "
            f"{MIN_ITEMS} — label more, or pass {setting('estimator', 'majority')} (the crowd majority as "
            "proxy truth, "
            "biased towards agreement)"
        )
    keep = total > 0
    agree = {
        n: float(np.take_along_axis(counts, predictions.hard(n)[:, None], 1).sum() / total.sum())
        for n in names
    }
    b, w = _pick(sorted(names, key=lambda n: -agree[n]), better, worse)
    pat = patterns(counts[keep], predictions.hard(b)[keep], predictions.hard(w)[keep])
    fit, sel = _fit(pat, tol, max_iter, latent_variant)
    em = sel.em
    if any(not np.isfinite(v) for v in fit.params().values()):
        raise InputError(
            "the pilot has no items where the two models disagree; they cannot be told apart on it "
            "— label more pilot items"
        )
    notes = _latent_notes(fit, b, w)
    if enough < int(keep.sum()):
        values = {"count": int(keep.sum()) - enough, "items": int(keep.sum())}
        notes.append(Note("few_labels_pilot_items", {**values, **_label_counts(total[keep])}))
    a2 = {}
    for m in ms:
        a2[m] = float(assumption2_statistics(pat, pat.freq[None, :], em, m, vote_ties)[0])
        short = int(((total < m) & keep).sum())
        if short == int(keep.sum()):
            notes.append(Note("assumption2_unchecked", {"m": m}))
        elif short:
            values = {"m": m, "items": int(keep.sum()) - short, "short": short}
            notes.append(Note("assumption2_partial", values))
    n = int(keep.sum())
    args = [
        (pat, n, ms, vote_ties, tol, max_iter, latent_variant, seed, a, z)
        for a, z in _starts(bootstrap)
    ]
    reps = _bootstrap(_latent_chunk, args, workers, scheduler)
    info = correlated_wald(
        pat, em.rho[0], em.pi[0], em.q[0], LATENT_VARIANTS[fit.latent_variant], 0.95
    )
    return Pilot(b, w, n, fit.error_model(), a2, reps, fit, notes, info)
