"""Plan a test set from a pilot (beyond the paper): estimate the correlated model of section 3.2 from a
pilot with several labels per item and two models' predictions, bootstrap the estimates, check
assumptions 1 and 2, and recommend m and the label budget for an error δ.

Method (plug-in, the crowd majority as proxy truth — the paper's target is the crowd majority):

* proxy truth: the majority of the item's pilot labels; items with a tied majority or fewer than 2 labels
  are left out;
* p_w = P(c_w = truth), p_b⁰ = P(c_b = truth | c_w ≠ truth), p_b¹ = P(c_b = truth | c_w = truth);
* q(x): the accuracy of one crowd label on item x, estimated leave-one-out — a label is right when it
  agrees with the majority of the item's *other* labels (a tie among them counts ½) — so a label is not
  judged by a majority it belongs to; q_b / q_w average q(x) over the items where only c_b / only c_w
  agrees with the proxy truth;
* assumption 1: q_b ≥ q_w; assumption 2 (eq. 3) with E[M_m(q(x)) | E] estimated per item by the exact
  probability that the majority of m of the item's labels drawn without replacement agrees with the
  proxy truth (hypergeometric; needs m ≤ labels per item, else M_m(q̂(x)) is used and noted);
* ranges: percentile bootstrap over items (seeded: replicate i draws from ``stream(seed, i)``).

Predictions are joined to the ratings by item id (:func:`humanly.data.join`), never by position.

Limits: the proxy truth is itself noisy (more so with few pilot labels), which biases q̂ upward and the
classifier accuracies toward agreement with the crowd; the bootstrap covers sampling error only, not this
bias; the recommendation uses the point estimates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats

from .._bootstrap import percentile_interval
from .._checks import check_int
from .._parallel import run_tasks
from .._random import stream
from .._result import Interval, Result
from ..data import InputError, Predictions, Ratings, join
from ._args import (
    Ties,
    VoteTies,
    check_budget,
    check_delta,
    check_ms,
    check_ties,
    check_vote_ties,
)
from .compare import Comparison, compare
from .models import CorrelatedModel, majority_accuracy
from .size import SizeRow, sample_size

__all__ = [
    "Assumption2",
    "Assumptions",
    "ParameterRanges",
    "PlanResult",
    "estimate_parameters",
    "plan",
]

_PARAMS = ("q_b", "q_w", "p_w", "p_b0", "p_b1")


@dataclass(frozen=True, repr=False)
class ParameterRanges(Result):
    """95% percentile bootstrap ranges of the correlated model's parameters (an estimate's own value
    at both ends when no replicate defines it)."""

    q_b: Interval
    q_w: Interval
    p_w: Interval
    p_b0: Interval
    p_b1: Interval

    def items(self) -> tuple[tuple[str, Interval], ...]:
        """(parameter, range) pairs in the order q_b, q_w, p_w, p_b0, p_b1."""
        return tuple((k, getattr(self, k)) for k in _PARAMS)


@dataclass(frozen=True, repr=False)
class Assumption2(Result):
    """Assumption 2 (eq. 3) for one m > 1: whether it holds on the pilot."""

    m: int
    holds: bool


@dataclass(frozen=True, repr=False)
class Assumptions(Result):
    """The paper's assumptions on the pilot: 1 (q_b ≥ q_w) and 2 (eq. 3) for every m > 1.

    JSON also keeps the flat keys ``assumption2_m3``, ``assumption2_m5``, … (one per m)."""

    assumption1: bool
    assumption2: tuple[Assumption2, ...] = ()

    def checks(self) -> tuple[tuple[str, bool], ...]:
        """(name, holds) for each check: ``assumption1``, ``assumption2_m3``, …"""
        second = ((f"assumption2_m{a.m}", a.holds) for a in self.assumption2)
        return (("assumption1", self.assumption1), *second)

    def to_dict(self) -> dict[str, Any]:
        """The fields, plus one flat key ``assumption2_m<m>`` per m (the JSON contract)."""
        out = super().to_dict()
        out.update({f"assumption2_m{a.m}": bool(a.holds) for a in self.assumption2})
        return out


@dataclass(frozen=True, repr=False)
class PlanResult(Result):
    """Estimated correlated-model parameters (``estimates``, a :class:`CorrelatedModel` left unchecked:
    estimates may leave the paper's ranges), their bootstrap ranges, assumption checks and the
    recommended m and label budget."""

    better: str
    worse: str
    n_items: int
    n_used: int
    estimates: CorrelatedModel
    ranges: ParameterRanges
    assumptions: Assumptions
    assumption1_share: float
    sizes: tuple[SizeRow, ...]
    recommended_m: int | None
    recommended_budget: int | None
    delta: float
    bootstrap: int
    seed: int
    comparison: Comparison | None = None
    notes: tuple[str, ...] = ()
    ties: str = "failure"
    vote_ties: str = "coin"

    def model(self) -> CorrelatedModel:
        """The estimated correlated model (unchecked: estimates may leave the paper's ranges)."""
        return self.estimates

    def to_frame(self) -> pd.DataFrame:
        """The label budgets for error ≤ δ, one row per m (the columns of :class:`SizeRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.sizes])

    def estimates_frame(self) -> pd.DataFrame:
        """One row per parameter: ``parameter``, ``estimate``, ``low``, ``high``."""
        return pd.DataFrame(
            [
                {
                    "parameter": k,
                    "estimate": getattr(self.estimates, k),
                    "low": r.low,
                    "high": r.high,
                }
                for k, r in self.ranges.items()
            ]
        )


def _majority_m_hypergeom(correct: np.ndarray, total: np.ndarray, m: int, coin: bool) -> np.ndarray:
    """P(majority of m labels drawn without replacement is correct); a tied vote counts ½ (``coin``)
    or 0."""
    ks = np.arange(m + 1)
    pmf = stats.hypergeom.pmf(ks[None, :], total[:, None], correct[:, None], m)
    weight = np.where(2 * ks > m, 1.0, np.where(2 * ks == m, 0.5 if coin else 0.0, 0.0))
    return (pmf * weight[None, :]).sum(axis=1)


def _prepare(
    ratings: Ratings, predictions: Predictions, better: str | None, worse: str | None
) -> tuple[str, str, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The two models and, on the usable items (≥ 2 labels, a clear majority), the label counts, the
    proxy truth and whether each model agrees with it. ``predictions`` is aligned to ``ratings``."""
    if ratings.n_classes != 2:
        raise InputError(
            f"plan needs two classes (the paper's binary setting); the ratings have {ratings.n_classes}"
        )
    names = list(predictions.names)
    if len(names) < 2:
        raise InputError("plan needs predictions of two models (found one); add the second model")
    counts = np.asarray(ratings.counts, dtype=np.int64)
    total = counts.sum(axis=1)
    truth = np.argmax(counts, axis=1)
    usable = (total >= 2) & (counts[:, 0] != counts[:, 1])
    if usable.sum() < 10:
        raise InputError(
            f"only {int(usable.sum())} pilot items have ≥ 2 labels and a clear majority; need at least 10"
        )
    for name in (better, worse):
        if name is not None and name not in names:
            raise InputError(f"model {name!r} not in the predictions; models: {', '.join(names)}")
    acc = {n: float(np.mean(predictions.hard(n)[usable] == truth[usable])) for n in names}
    ranked = sorted(names, key=lambda n: -acc[n])
    b = better or next(n for n in ranked if n != worse)
    w = worse or next(n for n in ranked if n != b)
    if b == w:
        raise InputError(f"better={b!r} and worse={w!r} name the same model")
    right_b = predictions.hard(b)[usable] == truth[usable]
    right_w = predictions.hard(w)[usable] == truth[usable]
    return b, w, counts[usable], truth[usable], right_b, right_w


def _loo_accuracy(counts: np.ndarray) -> np.ndarray:
    """Per item: share of its labels that agree with the majority of the item's other labels."""
    total = counts.sum(axis=1).astype(float)
    score = np.zeros(len(counts))
    for k in (0, 1):
        mine, other = counts[:, k] - 1, counts[:, 1 - k]
        agree = np.where(mine > other, 1.0, np.where(mine == other, 0.5, 0.0))
        score += counts[:, k] * agree
    return score / total


def estimate_parameters(
    counts: np.ndarray, truth: np.ndarray, right_b: np.ndarray, right_w: np.ndarray
) -> dict[str, float]:
    """Plug-in estimates of (q_b, q_w, p_w, p_b0, p_b1) (see the module docstring); NaN for a parameter
    no item informs (e.g. in a bootstrap replicate).

    >>> counts = np.array([[3, 0], [0, 3], [2, 1], [1, 2]])
    >>> truth = np.array([0, 1, 0, 1])
    >>> est = estimate_parameters(counts, truth, np.array([1, 1, 1, 0], bool), np.array([1, 0, 0, 1], bool))
    >>> {k: round(v, 3) for k, v in est.items()}
    {'q_b': 0.667, 'q_w': 0.333, 'p_w': 0.5, 'p_b0': 1.0, 'p_b1': 0.5}
    """
    del truth  # the proxy truth enters through right_b / right_w; q(x) is leave-one-out
    q_item = _loo_accuracy(counts)
    only_b, only_w = right_b & ~right_w, right_w & ~right_b
    p_w = float(right_w.mean())
    p_b0 = float(right_b[~right_w].mean()) if (~right_w).any() else float("nan")
    p_b1 = float(right_b[right_w].mean()) if right_w.any() else float("nan")
    q_b = float(q_item[only_b].mean()) if only_b.any() else float("nan")
    q_w = float(q_item[only_w].mean()) if only_w.any() else float("nan")
    return {"q_b": q_b, "q_w": q_w, "p_w": p_w, "p_b0": p_b0, "p_b1": p_b1}


def _assumption2(
    est: CorrelatedModel,
    counts: np.ndarray,
    right_b: np.ndarray,
    right_w: np.ndarray,
    m: int,
    vote_ties: VoteTies,
    notes: list[str],
) -> bool:
    """Assumption 2, eq. (3): (1 − p_w)p_b⁰ / (p_w(1 − p_b¹)) · (M_m(q_b) − E[M_m(q(x)) | E_b])
    ≥ M_m(q_w) − E[M_m(q(x)) | E_w]."""
    only_b, only_w = right_b & ~right_w, right_w & ~right_b
    if not only_b.any() or not only_w.any():
        return True
    total = counts.sum(axis=1)
    correct = counts.max(axis=1)
    if np.all(total >= m):
        mm = _majority_m_hypergeom(correct, total, m, vote_ties == "coin")
    else:
        notes.append(
            f"assumption 2 for m = {m}: some items have fewer than {m} labels; used M_m(q̂(x))"
        )
        mm = np.asarray(majority_accuracy(np.clip(_loo_accuracy(counts), 0, 1), m, vote_ties))
    a = (1 - est.p_w) * est.p_b0
    b = est.p_w * (1 - est.p_b1)
    lhs_gap = float(majority_accuracy(est.q_b, m, vote_ties)) - float(np.mean(mm[only_b]))
    rhs = float(majority_accuracy(est.q_w, m, vote_ties)) - float(np.mean(mm[only_w]))
    if b <= 0:
        return True
    return bool((a / b) * lhs_gap >= rhs - 1e-12)


_PER_TASK = 50  # bootstrap replicates per task


def _bootstrap_chunk(
    counts: np.ndarray,
    truth: np.ndarray,
    rb: np.ndarray,
    rw: np.ndarray,
    seed: int,
    start: int,
    stop: int,
) -> list[dict[str, float]]:
    """Bootstrap replicates start..stop−1; replicate i resamples items with ``stream(seed, i)``."""
    out = []
    for i in range(start, stop):
        idx = stream(seed, i).integers(0, len(truth), len(truth))
        out.append(estimate_parameters(counts[idx], truth[idx], rb[idx], rw[idx]))
    return out


def _assumption1_share(est: CorrelatedModel, reps: list[dict[str, float]]) -> float:
    """Share of bootstrap replicates with q_b ≥ q_w (among those defining both); the point estimate's
    answer without replicates."""
    if not reps:
        return float(est.q_b >= est.q_w)
    return float(np.mean([x["q_b"] >= x["q_w"] for x in reps if np.isfinite(x["q_b"] + x["q_w"])]))


def _ranges(est: CorrelatedModel, reps: list[dict[str, float]]) -> ParameterRanges:
    out = {}
    for k in _PARAMS:
        low, high = percentile_interval(
            np.array([r[k] for r in reps], dtype=float), 0.95, method="linear"
        )
        value = getattr(est, k)
        out[k] = Interval(value, value) if low is None or high is None else Interval(low, high)
    return ParameterRanges(**out)


def _bootstrap(
    counts: np.ndarray,
    truth: np.ndarray,
    rb: np.ndarray,
    rw: np.ndarray,
    bootstrap: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
) -> list[dict[str, float]]:
    """``bootstrap`` replicates of the estimates, in chunks of _PER_TASK (in-process or on dask)."""
    starts = list(range(0, bootstrap, _PER_TASK))
    args = [(counts, truth, rb, rw, seed, a, min(a + _PER_TASK, bootstrap)) for a in starts]
    parts = run_tasks(
        _bootstrap_chunk,
        args,
        workers=workers,
        scheduler=scheduler,
        description="bootstrap",
        show_progress=len(args) > 4,
    )
    return [r for part in parts for r in part]


def _pilot(
    ratings: Any,
    predictions: Any,
    missing: Literal["error", "drop"],
    better: str | None,
    worse: str | None,
) -> tuple[
    Ratings, tuple[str, str, np.ndarray, np.ndarray, np.ndarray, np.ndarray], CorrelatedModel
]:
    """The pilot joined by item id, what :func:`_prepare` finds on it and the point estimates."""
    if predictions is None:
        raise InputError("plan needs predictions of two models on the pilot items")
    study = join(ratings, predictions, missing=missing)
    assert study.predictions is not None
    prepared = _prepare(study.ratings, study.predictions, better, worse)
    values = estimate_parameters(*prepared[2:])
    if any(not np.isfinite(v) for v in values.values()):
        raise InputError(
            "the pilot has no items where exactly one model agrees with the crowd majority; "
            "the models cannot be told apart on it — label more pilot items"
        )
    return study.ratings, prepared, CorrelatedModel(**values, check=False)


def plan(
    ratings: Any,
    predictions: Any,
    *,
    missing: Literal["error", "drop"] = "error",
    delta: float = 0.05,
    m: Sequence[int] | int = (1, 3, 5),
    better: str | None = None,
    worse: str | None = None,
    bootstrap: int = 200,
    seed: int = 0,
    budget: int | None = None,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
    workers: int | None = None,
    scheduler: str | None = None,
) -> PlanResult:
    """Estimate the correlated model from a pilot, bootstrap it, check assumptions 1–2 and recommend
    the m and label budget reaching error ≤ δ (exact sample size, :func:`sample_size`).

    ``ratings`` and ``predictions`` take every form :func:`humanly.data.join` accepts (a
    :class:`~humanly.data.Predictions`, a dict model → Series indexed by item id, …) and are joined by
    item id; ``missing="drop"`` keeps the items both have. ``budget`` also gives the win probabilities
    for that many labels. The bootstrap runs in-process, or on dask with ``workers`` / ``scheduler``
    (identical numbers).

    >>> from humanly.simulate import pair
    >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    >>> res = plan(d.ratings, d.predictions, bootstrap=0)
    >>> res.better, res.recommended_m, res.assumptions.assumption1
    ('better', 1, True)
    """
    delta, ms, budget = check_delta(delta), check_ms(m), check_budget(budget, allow_none=True)
    bootstrap = check_int("bootstrap", bootstrap, minimum=0)
    seed = check_int("seed", seed, minimum=0)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    r, (b, w, counts, truth, rb, rw), est = _pilot(ratings, predictions, missing, better, worse)
    notes: list[str] = []
    reps = _bootstrap(counts, truth, rb, rw, bootstrap, seed, workers, scheduler)
    checks = tuple(
        Assumption2(mm, _assumption2(est, counts, rb, rw, mm, vote_ties, notes))
        for mm in ms
        if mm > 1
    )
    if (1 - est.p_w) * est.p_b0 + est.p_w * est.p_b1 <= est.p_w:
        notes.append(
            f"on the pilot, {b!r} is not more accurate than {w!r} against the crowd majority; "
            "the budget is for telling them apart in this direction"
        )
    size = sample_size(est, delta, ms, ties=ties, vote_ties=vote_ties)
    rec = next((row for row in size.rows if row.m == size.best_m), None)
    if rec is None:
        notes.append(
            "E[G] ≤ 0 for every m: no budget identifies the better model under these estimates"
        )
    comp = None if budget is None else compare(est, budget, ms, ties=ties, vote_ties=vote_ties)
    return PlanResult(
        better=b,
        worse=w,
        n_items=r.n_items,
        n_used=len(truth),
        estimates=est,
        ranges=_ranges(est, reps),
        assumptions=Assumptions(bool(est.q_b >= est.q_w), checks),
        assumption1_share=_assumption1_share(est, reps),
        sizes=size.rows,
        recommended_m=None if rec is None else rec.m,
        recommended_budget=None if rec is None else rec.budget_exact,
        delta=delta,
        bootstrap=bootstrap,
        seed=seed,
        comparison=comp,
        notes=tuple(notes),
        ties=ties,
        vote_ties=vote_ties,
    )
