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

Limits: the proxy truth is itself noisy (more so with few pilot labels), which biases q̂ upward and the
classifier accuracies toward agreement with the crowd; the bootstrap covers sampling error only, not this
bias; the recommendation uses the point estimates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .._bootstrap import percentile_interval
from .._parallel import run_tasks
from .._random import stream
from .._result import Result
from ..data import Predictions, Ratings
from ..data.errors import InputError
from .analysis import Comparison, SizeRow, compare, sample_size
from .core import CorrelatedModel, majority_accuracy

__all__ = ["PlanResult", "estimate_parameters", "plan"]

_PARAMS = ("q_b", "q_w", "p_w", "p_b0", "p_b1")


@dataclass(frozen=True, repr=False)
class PlanResult(Result):
    """Estimated correlated-model parameters, their bootstrap ranges, assumption checks and the
    recommended m and label budget."""

    better: str
    worse: str
    n_items: int
    n_used: int
    estimates: dict[str, float]
    ranges: dict[str, tuple[float, float]]
    assumptions: dict[str, bool]
    assumption1_share: float
    sizes: list[SizeRow]
    recommended_m: int | None
    recommended_budget: int | None
    delta: float
    bootstrap: int
    seed: int
    comparison: Comparison | None = None
    notes: list[str] = field(default_factory=list)

    def model(self) -> CorrelatedModel:
        """The estimated correlated model (unchecked: estimates may leave the paper's ranges)."""
        return CorrelatedModel(**{k: self.estimates[k] for k in _PARAMS}, check=False)


def _majority_m_hypergeom(correct: np.ndarray, total: np.ndarray, m: int) -> np.ndarray:
    """P(majority of m labels drawn without replacement is correct), ties by a fair coin."""
    ks = np.arange(m + 1)
    pmf = stats.hypergeom.pmf(ks[None, :], total[:, None], correct[:, None], m)
    weight = np.where(2 * ks > m, 1.0, np.where(2 * ks == m, 0.5, 0.0))
    return (pmf * weight[None, :]).sum(axis=1)


def _prepare(
    ratings: Ratings, predictions: Predictions, better: str | None, worse: str | None
) -> tuple[str, str, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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
        raise InputError("--better and --worse name the same model")
    right_b = predictions.hard(b)[usable] == truth[usable]
    right_w = predictions.hard(w)[usable] == truth[usable]
    return b, w, counts[usable], truth[usable], right_b, right_w


def _loo_accuracy(counts: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Per item: share of its labels that agree with the majority of the item's other labels."""
    total = counts.sum(axis=1).astype(float)
    score = np.zeros(len(counts))
    for k in (0, 1):
        mine, other = counts[:, k] - 1, counts[:, 1 - k]
        agree = np.where(mine > other, 1.0, np.where(mine == other, 0.5, 0.0))
        score += counts[:, k] * agree
    del truth
    return score / total


def estimate_parameters(
    counts: np.ndarray, truth: np.ndarray, right_b: np.ndarray, right_w: np.ndarray
) -> dict[str, float]:
    """Plug-in estimates of (q_b, q_w, p_w, p_b0, p_b1) (see the module docstring)."""
    q_item = _loo_accuracy(counts, truth)
    only_b, only_w = right_b & ~right_w, right_w & ~right_b
    p_w = float(right_w.mean())
    p_b0 = float(right_b[~right_w].mean()) if (~right_w).any() else float("nan")
    p_b1 = float(right_b[right_w].mean()) if right_w.any() else float("nan")
    q_b = float(q_item[only_b].mean()) if only_b.any() else float("nan")
    q_w = float(q_item[only_w].mean()) if only_w.any() else float("nan")
    return {"q_b": q_b, "q_w": q_w, "p_w": p_w, "p_b0": p_b0, "p_b1": p_b1}


def _assumption2(
    est: dict[str, float],
    counts: np.ndarray,
    right_b: np.ndarray,
    right_w: np.ndarray,
    m: int,
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
        mm = _majority_m_hypergeom(correct, total, m)
    else:
        notes.append(
            f"assumption 2 for m = {m}: some items have fewer than {m} labels; used M_m(q̂(x))"
        )
        mm = majority_accuracy(np.clip(_loo_accuracy(counts, None), 0, 1), m)  # type: ignore[arg-type]
    a = (1 - est["p_w"]) * est["p_b0"]
    b = est["p_w"] * (1 - est["p_b1"])
    lhs_gap = float(majority_accuracy(est["q_b"], m)) - float(np.mean(mm[only_b]))
    rhs = float(majority_accuracy(est["q_w"], m)) - float(np.mean(mm[only_w]))
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


def plan(
    ratings: Ratings,
    predictions: Predictions,
    *,
    delta: float = 0.05,
    m: Sequence[int] = (1, 3, 5),
    better: str | None = None,
    worse: str | None = None,
    bootstrap: int = 200,
    seed: int = 0,
    budget: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> PlanResult:
    """Estimate the correlated model from a pilot, bootstrap it, check assumptions 1–2 and recommend
    the m and label budget reaching error ≤ δ (exact sample size, :func:`sample_size`).

    The bootstrap runs in-process, or on dask with ``workers`` / ``scheduler`` (identical numbers)."""
    if bootstrap < 0:
        raise InputError(f"--bootstrap {bootstrap}: give a non-negative number of replicates")
    b, w, counts, truth, rb, rw = _prepare(ratings, predictions, better, worse)
    notes: list[str] = []
    est = estimate_parameters(counts, truth, rb, rw)
    if any(not np.isfinite(v) for v in est.values()):
        raise InputError(
            "the pilot has no items where exactly one model agrees with the crowd majority; "
            "the models cannot be told apart on it — label more pilot items"
        )
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
    reps = [r for part in parts for r in part]
    ranges: dict[str, tuple[float, float]] = {}
    for k in _PARAMS:
        low, high = percentile_interval(
            np.array([r[k] for r in reps], dtype=float), 0.95, method="linear"
        )
        ranges[k] = (est[k], est[k]) if low is None or high is None else (low, high)
    share1 = (
        float(np.mean([r["q_b"] >= r["q_w"] for r in reps if np.isfinite(r["q_b"] + r["q_w"])]))
        if reps
        else float(est["q_b"] >= est["q_w"])
    )
    assumptions = {"assumption1": bool(est["q_b"] >= est["q_w"])}
    for mm in m:
        if mm > 1:
            ok = _assumption2(est, counts, rb, rw, int(mm), notes)
            assumptions[f"assumption2_m{mm}"] = ok
    acc_b = (1 - est["p_w"]) * est["p_b0"] + est["p_w"] * est["p_b1"]
    if acc_b <= est["p_w"]:
        notes.append(
            f"on the pilot, {b!r} is not more accurate than {w!r} against the crowd majority; "
            "the budget is for telling them apart in this direction"
        )
    model = CorrelatedModel(**est, check=False)
    size = sample_size(model, delta, tuple(int(x) for x in m))
    feasible = [r for r in size.rows if r.budget_exact is not None]
    rec = min(feasible, key=lambda r: (r.budget_exact, r.m)) if feasible else None
    if rec is None:
        notes.append(
            "E[G] ≤ 0 for every m: no budget identifies the better model under these estimates"
        )
    comp = compare(model, budget, tuple(int(x) for x in m)) if budget else None
    return PlanResult(
        better=b,
        worse=w,
        n_items=ratings.n_items,
        n_used=len(truth),
        estimates=est,
        ranges=ranges,
        assumptions=assumptions,
        assumption1_share=share1,
        sizes=list(size.rows),
        recommended_m=None if rec is None else rec.m,
        recommended_budget=None if rec is None else rec.budget_exact,
        delta=delta,
        bootstrap=bootstrap,
        seed=seed,
        comparison=comp,
        notes=notes,
    )
