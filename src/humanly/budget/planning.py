"""Plan a test set from a pilot (beyond the paper): estimate the correlated model of section 3.2 from a
pilot with several labels per item and two models' predictions, bootstrap the estimates, test
assumptions 1 and 2, and recommend m and the label budget for an error δ.

Two estimators (``method``):

* ``"latent"`` (default) — the true label is a latent variable; EM fits the paper's correlated model with
  each item's labels independent given its true label and which classifiers are right
  (:mod:`humanly.budget.latent`). Needs ≥ 3 labels per pilot item. No proxy bias.
* ``"majority"`` — the crowd majority of the pilot labels as the truth (:mod:`humanly.budget.proxy`):
  simple, but biased towards agreement with the crowd (q̂ and the classifier accuracies shrink towards
  the crowd's own agreement).

Assumption tests: each assumption is decided by the sign of one quantity — q_b − q_w for assumption 1,
the difference of the two sides of eq. (3) for assumption 2 at each m — reported with its point
estimate, a 95% percentile bootstrap interval (the same estimator on every replicate) and a verdict:
"evidence against at 95%" when the whole interval is below 0, else "consistent"; "untested" without
an interval. The old booleans (``assumption1``, ``assumption2_m<m>``: the point estimate's answer) stay
for compatibility.

Ranges: percentile bootstrap over items (seeded: replicate i draws from ``stream(seed, i)``); they cover
sampling error, not model error. The recommendation uses the point estimates. Predictions are joined to
the ratings by item id (:func:`humanly.data.join`), never by position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.bootstrap import percentile_interval
from .._core.checks import check_choice, check_int
from .._core.result import Interval, Result
from ..data import InputError, join
from ._args import (
    Ties,
    VoteTies,
    check_budget,
    check_delta,
    check_ms,
    check_ties,
    check_vote_ties,
)
from .comparison import Comparison, compare
from .latent import LATENT_CHOICES, LATENT_MODELS, LatentClassFit
from .models import CorrelatedModel
from .pilot import Pilot, latent_pilot, majority_pilot
from .proxy import estimate_parameters
from .size import SizeResult, SizeRow, sample_size

__all__ = [
    "AGAINST",
    "CONSISTENT",
    "METHODS",
    "UNTESTED",
    "Assumption2",
    "AssumptionTest",
    "Assumptions",
    "Method",
    "ModelShare",
    "ParameterRanges",
    "PlanResult",
    "estimate_parameters",
    "plan",
]

_PARAMS = ("q_b", "q_w", "p_w", "p_b0", "p_b1")
#: The pilot estimators: latent class (default) or the crowd majority as proxy truth.
Method = Literal["latent", "majority"]
METHODS: tuple[Method, ...] = ("latent", "majority")
#: Verdicts of an :class:`AssumptionTest`.
CONSISTENT = "consistent"
AGAINST = "evidence against at 95%"
UNTESTED = "untested"


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
class ModelShare(Result):
    """The share of bootstrap replicates whose fit selected one latent model.

    >>> ModelShare("simple", 0.97).to_dict()
    {'model': 'simple', 'share': 0.97}
    """

    model: str
    share: float


@dataclass(frozen=True, repr=False)
class Assumption2(Result):
    """Assumption 2 (eq. 3) for one m > 1: whether the point estimates satisfy it (also when it cannot
    be computed). See :class:`AssumptionTest` for the test with its uncertainty."""

    m: int
    holds: bool


@dataclass(frozen=True, repr=False)
class AssumptionTest(Result):
    """One of the paper's assumptions tested on the pilot. ``quantity`` is what decides it (the
    assumption holds when it is ≥ 0), ``estimate`` its value at the point estimates, ``interval`` its 95%
    percentile bootstrap interval, ``verdict`` "evidence against at 95%" (the whole interval below 0),
    "consistent" (otherwise) or "untested" (no interval: ``reason`` says why).

    >>> t = AssumptionTest("assumption1", None, "q_b − q_w", 0.02, Interval(-0.01, 0.05), "consistent")
    >>> t.sentence()
    'assumption 1 (q_b ≥ q_w): q_b − q_w = 0.02, 95% interval [-0.01, 0.05] → consistent'
    """

    name: str
    m: int | None
    quantity: str
    estimate: float | None
    interval: Interval
    verdict: str
    reason: str | None = None

    def sentence(self) -> str:
        """One line for people: the assumption, the estimate with its interval and the verdict."""
        head = (
            "assumption 1 (q_b ≥ q_w)" if self.m is None else f"assumption 2 (eq. 3, m = {self.m})"
        )
        value = "undefined" if self.estimate is None else f"{self.estimate:.3g}"
        lo, hi = self.interval
        span = "" if lo is None or hi is None else f", 95% interval [{lo:.3g}, {hi:.3g}]"
        why = f" ({self.reason})" if self.reason else ""
        return f"{head}: {self.quantity} = {value}{span} → {self.verdict}{why}"


@dataclass(frozen=True, repr=False)
class Assumptions(Result):
    """The paper's assumptions on the pilot: 1 (q_b ≥ q_w) and 2 (eq. 3) for every m > 1, as the point
    estimates' answers (``assumption1``, ``assumption2``) and as tests with their uncertainty
    (``tests``, one :class:`AssumptionTest` per assumption and m).

    JSON also keeps the flat keys ``assumption2_m3``, ``assumption2_m5``, … (one per m)."""

    assumption1: bool
    assumption2: tuple[Assumption2, ...] = ()
    tests: tuple[AssumptionTest, ...] = ()

    def checks(self) -> tuple[tuple[str, bool], ...]:
        """(name, holds at the point estimates) for each check: ``assumption1``, ``assumption2_m3``, …"""
        second = ((f"assumption2_m{a.m}", a.holds) for a in self.assumption2)
        return (("assumption1", self.assumption1), *second)

    def verdicts(self) -> tuple[tuple[str, str], ...]:
        """(name, verdict) for each test: ``("assumption1", "consistent")``, …"""
        return tuple((t.name, t.verdict) for t in self.tests)

    def to_dict(self) -> dict[str, Any]:
        """The fields, plus one flat key ``assumption2_m<m>`` per m (the JSON contract)."""
        out = super().to_dict()
        out.update({f"assumption2_m{a.m}": bool(a.holds) for a in self.assumption2})
        return out


@dataclass(frozen=True, repr=False)
class PlanResult(Result):
    """Estimated correlated-model parameters (``estimates``, a :class:`CorrelatedModel` left unchecked:
    estimates may leave the paper's ranges), their bootstrap ranges, the assumption tests and the
    recommended m and label budget. ``method`` names the estimator; ``fit`` is the latent-class fit
    (EM's iterations and convergence, the candidate models with their BIC; ``None`` for
    ``method="majority"``); ``latent_model`` the latent model the estimates come from;
    ``bootstrap_converged`` the share of bootstrap fits that converged and ``bootstrap_models`` the
    share of replicates selecting each model (empty for ``method="majority"`` or ``bootstrap=0``);
    ``vote_ties`` how a tied vote of an even m is settled."""

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
    method: str = "latent"
    fit: LatentClassFit | None = None
    bootstrap_converged: float | None = None
    latent_model: str | None = None
    bootstrap_models: tuple[ModelShare, ...] = ()

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

    def assumptions_frame(self) -> pd.DataFrame:
        """One row per assumption test: ``name``, ``m``, ``estimate``, ``low``, ``high``, ``verdict``."""
        return pd.DataFrame(
            [
                {
                    "name": t.name,
                    "m": t.m,
                    "estimate": t.estimate,
                    "low": t.interval.low,
                    "high": t.interval.high,
                    "verdict": t.verdict,
                }
                for t in self.assumptions.tests
            ]
        )


def _model_shares(reps: list[dict[str, float]]) -> tuple[ModelShare, ...]:
    """Share of replicates per selected latent model (models never selected left out)."""
    picked = [int(r["model"]) for r in reps if "model" in r]
    names = tuple(LATENT_MODELS)
    return tuple(ModelShare(names[i], picked.count(i) / len(picked)) for i in sorted(set(picked)))


def _interval(values: list[float]) -> Interval:
    return percentile_interval(np.array(values, dtype=float), 0.95, method="linear")


def _ranges(est: CorrelatedModel, reps: list[dict[str, float]]) -> ParameterRanges:
    out = {}
    for k in _PARAMS:
        low, high = _interval([r[k] for r in reps])
        value = getattr(est, k)
        out[k] = Interval(value, value) if low is None or high is None else Interval(low, high)
    return ParameterRanges(**out)


def _assumption1_share(est: CorrelatedModel, reps: list[dict[str, float]]) -> float:
    """Share of bootstrap replicates with q_b ≥ q_w (among those defining both); the point estimate's
    answer without replicates."""
    if not reps:
        return float(est.q_b >= est.q_w)
    return float(np.mean([x["q_b"] >= x["q_w"] for x in reps if np.isfinite(x["q_b"] + x["q_w"])]))


def _test(
    name: str,
    m: int | None,
    quantity: str,
    estimate: float,
    values: list[float],
    bootstrap: int,
    undefined: str = "cannot be computed on this pilot",
) -> AssumptionTest:
    """An :class:`AssumptionTest` from the point value and the replicates' values (``undefined``: why,
    when the point value is NaN)."""
    point = float(estimate) if np.isfinite(estimate) else None
    interval = _interval(values) if bootstrap else Interval(None, None)
    if point is None:
        return AssumptionTest(name, m, quantity, None, Interval(None, None), UNTESTED, undefined)
    if interval.low is None or interval.high is None:
        reason = (
            "bootstrap=0: no interval" if not bootstrap else "no bootstrap replicate defines it"
        )
        return AssumptionTest(name, m, quantity, point, interval, UNTESTED, reason)
    verdict = AGAINST if interval.high < 0 else CONSISTENT
    return AssumptionTest(name, m, quantity, point, interval, verdict)


def _assumptions(
    pilot: Pilot, ms: tuple[int, ...], bootstrap: int, most_labels: int
) -> Assumptions:
    est, reps = pilot.estimates, pilot.replicates
    tests = [
        _test(
            "assumption1",
            None,
            "q_b − q_w",
            est.q_b - est.q_w,
            [r["q_b"] - r["q_w"] for r in reps],
            bootstrap,
        )
    ]
    second = []
    for m in ms:
        value = pilot.assumption2[m]
        second.append(Assumption2(m, not bool(value < -1e-12)))
        quantity = f"(1 − p_w)p_b⁰/(p_w(1 − p_b¹))·(M_{m}(q_b) − E_b) − (M_{m}(q_w) − E_w)"
        values = [r[f"a2_m{m}"] for r in reps]
        why = (
            f"no pilot item has ≥ {m} labels; the most is {most_labels}"
            if most_labels < m
            else "E_b or E_w has no pilot item, or p_w(1 − p_b¹) = 0"
        )
        tests.append(_test(f"assumption2_m{m}", m, quantity, value, values, bootstrap, why))
    return Assumptions(bool(est.q_b >= est.q_w), tuple(second), tuple(tests))


def _recommend(
    est: CorrelatedModel,
    delta: float,
    ms: tuple[int, ...],
    ties: Ties,
    vote_ties: VoteTies,
    notes: list[str],
) -> tuple[SizeResult, SizeRow | None]:
    """The exact sample sizes at the point estimates and the cheapest m's row (None, with a note, when
    no m reaches δ)."""
    size = sample_size(est, delta, ms, ties=ties, vote_ties=vote_ties)
    rec = next((row for row in size.rows if row.m == size.best_m), None)
    if rec is None:
        notes.append(
            "E[G] ≤ 0 for every m: no budget identifies the better model under these estimates"
        )
    return size, rec


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
    method: Method = "latent",
    workers: int | None = None,
    scheduler: str | None = None,
    latent_model: str = "select",
) -> PlanResult:
    """Estimate the correlated model from a pilot, bootstrap it, test assumptions 1–2 and recommend
    the m and label budget reaching error ≤ δ (exact sample size, :func:`sample_size`).

    ``method="latent"`` (default) fits the model with the true label latent (needs ≥ 3 labels per item);
    ``method="majority"`` takes the crowd majority as the truth (biased towards agreement; see the module
    docstring); ``latent_model`` is "select" (default: the lowest BIC among the nested latent models of
    :data:`~humanly.budget.latent.LATENT_MODELS`, on the pilot and on every bootstrap replicate) or one
    of them. ``ratings`` and ``predictions`` take every form :func:`humanly.data.join` accepts (a
    :class:`~humanly.data.Predictions`, a dict model → Series indexed by item id, …) and are joined by
    item id; ``missing="drop"`` keeps the items both have. ``budget`` also gives the win probabilities
    for that many labels. The bootstrap runs in-process, or on dask with ``workers`` / ``scheduler``
    (identical numbers).

    >>> from humanly.simulate import pair
    >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    >>> res = plan(d.ratings, d.predictions, bootstrap=0)
    >>> res.better, res.recommended_m, res.assumptions.assumption1, res.fit.converged
    ('better', 1, True, True)
    """
    delta, ms, budget = check_delta(delta), check_ms(m), check_budget(budget, allow_none=True)
    bootstrap = check_int("bootstrap", bootstrap, minimum=0)
    seed = check_int("seed", seed, minimum=0)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    method = check_choice("method", method, METHODS)
    latent_model = check_choice("latent_model", latent_model, LATENT_CHOICES)
    if method == "majority" and latent_model != "select":
        raise InputError(
            f'latent_model={latent_model!r} applies to method="latent"; pass method="latent" '
            'or leave latent_model="select"'
        )
    if predictions is None:
        raise InputError("plan needs predictions of two models on the pilot items")
    study = join(ratings, predictions, missing=missing)
    r, preds = study.ratings, study.predictions
    assert preds is not None
    if r.n_classes != 2:
        raise InputError(
            f"plan needs two classes (the paper's binary setting); the ratings have {r.n_classes}"
        )
    checked = tuple(mm for mm in ms if mm > 1)
    args = (r, preds, better, worse, checked, vote_ties, bootstrap, seed, workers, scheduler)
    if method == "latent":
        pilot = latent_pilot(*args, latent_model=latent_model)
    else:
        pilot = majority_pilot(*args)
    est, b, w = pilot.estimates, pilot.better, pilot.worse
    notes = list(pilot.notes)
    if (1 - est.p_w) * est.p_b0 + est.p_w * est.p_b1 <= est.p_w:
        truth = "the latent true label" if method == "latent" else "the crowd majority"
        notes.append(
            f"on the pilot, {b!r} is not more accurate than {w!r} against {truth}; "
            "the budget is for telling them apart in this direction"
        )
    size, rec = _recommend(est, delta, ms, ties, vote_ties, notes)
    assumptions = _assumptions(pilot, checked, bootstrap, int(r.labels_per_item.max()))
    first = assumptions.tests[0]
    if (rec is None or rec.m != 1) and est.q_b < est.q_w and first.verdict != AGAINST:
        notes.append(
            "the recommendation rests on q_b < q_w at the point estimates, but assumption 1 is not "
            f"contradicted ({first.sentence()}); under it Theorem 2 favours m = 1 — label a larger "
            "pilot before spending the budget on several labels per item"
        )
    comp = None if budget is None else compare(est, budget, ms, ties=ties, vote_ties=vote_ties)
    converged = [x["converged"] for x in pilot.replicates if "converged" in x]
    return PlanResult(
        better=b,
        worse=w,
        n_items=r.n_items,
        n_used=pilot.n_used,
        estimates=est,
        ranges=_ranges(est, pilot.replicates),
        assumptions=assumptions,
        assumption1_share=_assumption1_share(est, pilot.replicates),
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
        method=method,
        fit=pilot.fit,
        bootstrap_converged=float(np.mean(converged)) if converged else None,
        latent_model=None if pilot.fit is None else pilot.fit.latent_model,
        bootstrap_models=_model_shares(pilot.replicates),
    )
