"""Oracle-accuracy bounds and the superhuman certificate (Xu, Walder & Xu, *Humanly Certifying
Superhuman Classifiers*), on :class:`~humanly.data.ratings.Ratings` and
:class:`~humanly.data.predictions.Predictions`.

* Upper bound for the average annotator: U⁽ᵗ⁾ (Theorem 1, eq. 2) and U⁽ᵉ⁾ (Definition 1, eq. 8), with the
  finite-sample U_N (Theorem 5, eqs. 16 and 18).
* Lower bound for a model: L_N = agreement with the aggregated human label (Theorem 3, eq. 11; Theorem 6,
  eq. 25).
* Confidence that the model beats the average annotator: S = 1 − δ_u − δ_l (Theorem 7, eq. 33) with
  HMS (Algorithm 1, eqs. 36–37) and OMS (Algorithm 2, eq. 38).
* Curves over the number of annotators (Fig. 3) and, with gold labels, the true accuracies and the
  assumption checks of Table 2.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from .._counts import (
    expected_plurality_credit,
    pairwise_agreement,
    plurality_credit,
    unique_rows_with_target,
)
from .._parallel import check_workers, run_tasks
from .._random import stream
from .._result import Result
from ..data import Gold, InputError, Predictions, Ratings, align
from ._bounds import (
    ConfidenceScore,
    Tail,
    bernstein_tail,
    clopper_pearson_tail,
    confidence,
    hoeffding_tail,
    joint_confidence,
)

__all__ = [
    "AssumptionCheck",
    "BoundSummary",
    "CertifyResult",
    "Confidence",
    "CurvePoint",
    "ModelCertificate",
    "OracleCheck",
    "UpperBound",
    "certify",
    "certify_summary",
    "theoretical_from_empirical",
]

BoundKind = Literal["hoeffding", "bernstein", "exact"]
BOUNDS: tuple[str, ...] = ("hoeffding", "bernstein", "exact")


# ------------------------------------------------------------------------------------------ results
@dataclasses.dataclass(frozen=True, repr=False)
class Confidence(Result):
    """Confidence score S (Theorem 7) under one bound: HMS and OMS, and the (t_u, t_l) of the OMS
    maximum. All ``None`` when no t_u is admissible (L_N ≤ U_N)."""

    hms: float | None
    oms: float | None
    t_u: float | None
    t_l: float | None
    hms_t_u: float | None
    hms_t_l: float | None
    t_u_max: float | None
    admissible: bool
    method: str

    @classmethod
    def of(cls, c: ConfidenceScore) -> Confidence:
        return cls(
            c.hms, c.oms, c.t_u, c.t_l, c.hms_t_u, c.hms_t_l, c.t_u_max, c.admissible, c.method
        )


@dataclasses.dataclass(frozen=True, repr=False)
class BoundSummary(Result):
    """One model under one concentration bound at failure probability ``delta`` per side:
    ``upper`` = sqrt(U_N² + t_u), ``lower`` = L_N − t_l, the certified margin ``lower − upper``
    (positive: superhuman with probability ≥ 1 − δ_upper − δ_lower), and the confidence score. With a
    fixed deviation t (``t_u``/``t_l``) instead of δ, ``delta_upper``/``delta_lower`` are the δ it gives."""

    bound: str
    delta: float
    upper: float | None
    lower: float | None
    certified_margin: float | None
    confidence: Confidence
    superhuman: bool
    delta_upper: float | None = None
    delta_lower: float | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class UpperBound(Result):
    """Upper bounds for the average annotator's oracle accuracy.

    ``theoretical`` U⁽ᵗ⁾ (eq. 2 / eq. 18) and ``empirical`` U⁽ᵉ⁾ (eq. 8); ``value`` is the one used as U_N
    (``used``); ``n`` items enter the finite-sample bound; ``finite`` maps each bound to
    ``{delta, t, value}`` with value = sqrt(U_N² + t) (eq. 16).
    """

    theoretical: float | None
    empirical: float | None
    n: int
    used: str
    value: float
    finite: dict[str, dict[str, float | None]]
    variance: float | None = None
    agreement_matrix: np.ndarray | None = None
    raters: list[str] | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class ModelCertificate(Result):
    """One model's lower bound L_N (eq. 25), margin L_N − U_N, confidence and verdict.

    ``superhuman`` is ``S_OMS ≥ 1 − α`` under the chosen bound; ``superhuman_simultaneous`` the same at
    level α/M for M models (union bound), valid for all models at once. ``by_bound`` reports the certified
    margin and confidence under every bound available.
    """

    model: str
    lower_bound: float
    n: int
    margin: float
    confidence: Confidence
    superhuman: bool
    superhuman_simultaneous: bool
    lower_finite: dict[str, float | None]
    by_bound: dict[str, BoundSummary]
    full_credit: int | None = None
    lower_variance: float | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class AssumptionCheck(Result):
    """One assumption of Table 2 checked against gold labels: its two sides and whether it holds."""

    name: str
    left: float | None
    right: float | None
    passed: bool
    n: int
    detail: dict[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, repr=False)
class OracleCheck(Result):
    """Validation against gold labels (any subset of items).

    ``average_annotator`` is the true P(ℓ_K = ℓ*) (eq. 1); ``models`` each model's true accuracy and the
    accuracy of the aggregate; ``held`` says which bounds held (point bounds and finite-sample bounds);
    ``assumptions`` are Table 2's (a) for Theorem 1 and (b) for Theorem 3 per model.
    """

    n_items: int
    average_annotator: float
    aggregate_accuracy: float
    models: dict[str, float]
    held: dict[str, bool]
    assumptions: list[AssumptionCheck]


@dataclasses.dataclass(frozen=True, repr=False)
class CurvePoint(Result):
    """Bounds with k annotators (Fig. 3): U⁽ᵗ⁾_N, U⁽ᵉ⁾_N, each model's L_N against the aggregate of k
    annotators, and with gold the aggregate's accuracy. ``exact`` is False when subsets were sampled."""

    k: int
    theoretical: float | None
    empirical: float | None
    lower: dict[str, float | None]
    n_items: int
    exact: bool
    aggregate_accuracy: float | None = None
    subsets: int | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class CertifyResult(Result):
    """Everything ``humanly certify`` reports. ``to_dict()`` is the ``--json`` object: ``n_items``,
    ``annotators`` {mode, k}, ``upper_bound``, ``models``, ``oracle`` (null without gold), ``curve``."""

    n_items: int | None
    annotators: dict[str, Any]
    upper_bound: UpperBound
    models: list[ModelCertificate]
    oracle: OracleCheck | None
    curve: list[CurvePoint] | None
    bound: str
    alpha: float
    delta: float
    aggregate: str | None
    simultaneous: dict[str, Any]
    notes: list[str]

    def model(self, name: str) -> ModelCertificate:
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(f"no model {name!r}; models are {[m.model for m in self.models]}")


# ------------------------------------------------------------------------------------------ helpers
def theoretical_from_empirical(empirical: float, k: float) -> float:
    """U⁽ᵗ⁾ from U⁽ᵉ⁾ and K annotators: U⁽ᵗ⁾² = 1/K + (K − 1)/K · U⁽ᵉ⁾² (eqs. 2 and 8: the K diagonal
    terms of eq. 2 are 1, the K(K − 1) others average U⁽ᵉ⁾²)."""
    if k < 1:
        raise InputError(f"annotators K = {k}: give at least one annotator")
    return math.sqrt(1.0 / k + (k - 1.0) / k * empirical * empirical)


def _check_alpha(alpha: float, delta: float | None) -> float:
    if not 0 < alpha < 1:
        raise InputError(f"alpha {alpha}: give a level in (0, 1), e.g. 0.05")
    d = alpha / 2 if delta is None else delta
    if not 0 < d < 1:
        raise InputError(f"delta {delta}: give a failure probability in (0, 1)")
    return float(d)


def _check_bound(bound: str) -> None:
    if bound not in BOUNDS:
        raise InputError(f"bound {bound!r}: use one of {', '.join(BOUNDS)}")


def _tail_finite(tail: Tail, delta: float) -> float:
    return float(tail.t(delta))


def _upper_finite(
    u2: float, tail: Tail, delta: float, t: float | None = None
) -> dict[str, float | None]:
    """Theorem 5 (eq. 16): sqrt(U_N² + t) with t from δ, or δ from a given t."""
    if t is None:
        t = _tail_finite(tail, delta)
    else:
        delta = tail.delta(t)
    return {"delta": delta, "t": t, "value": math.sqrt(u2 + t) if math.isfinite(t) else None}


def _lower_finite(
    lower: float, tail: Tail, delta: float, t: float | None = None
) -> dict[str, float | None]:
    """Theorem 6 (eq. 23): L_N − t with t from δ, or δ from a given t."""
    if t is None:
        t = _tail_finite(tail, delta)
    else:
        delta = tail.delta(t)
    return {"delta": delta, "t": t, "value": lower - t if math.isfinite(t) else None}


def _check_t(t: float | None, what: str) -> None:
    if t is not None and not (0 < t < 1):
        raise InputError(f"{what} {t}: give a deviation in (0, 1), or omit it to derive t from δ")


def _model_certificate(
    name: str,
    lower: float,
    n_lower: int,
    upper: float,
    tails_u: dict[str, Tail],
    tails_l: dict[str, Tail],
    *,
    bound: str,
    alpha: float,
    delta: float,
    n_models: int,
    oms_steps: int | None,
    oms_lr: float | None,
    full_credit: int | None = None,
    lower_variance: float | None = None,
    t_u: float | None = None,
    t_l: float | None = None,
) -> ModelCertificate:
    by_bound: dict[str, BoundSummary] = {}
    for b in tails_u:
        if b not in tails_l:
            continue
        conf = Confidence.of(
            confidence(lower, upper, tails_u[b], tails_l[b], oms_steps=oms_steps, oms_lr=oms_lr)
        )
        fu = _upper_finite(upper * upper, tails_u[b], delta, t_u)
        fl = _lower_finite(lower, tails_l[b], delta, t_l)
        up, lo = fu["value"], fl["value"]
        margin = None if up is None or lo is None else lo - up
        by_bound[b] = BoundSummary(
            b,
            delta,
            up,
            lo,
            margin,
            conf,
            bool(conf.oms is not None and conf.oms >= 1 - alpha),
            fu["delta"],
            fl["delta"],
        )
    chosen = by_bound[bound]
    s = chosen.confidence.oms
    return ModelCertificate(
        model=name,
        lower_bound=lower,
        n=n_lower,
        margin=lower - upper,
        confidence=chosen.confidence,
        superhuman=chosen.superhuman,
        superhuman_simultaneous=bool(s is not None and s >= 1 - alpha / max(n_models, 1)),
        lower_finite=_lower_finite(lower, tails_l[bound], delta, t_l),
        by_bound=by_bound,
        full_credit=full_credit,
        lower_variance=lower_variance,
    )


def _simultaneous(
    models: list[ModelCertificate],
    alpha: float,
    upper: float,
    tail_u: Tail | None = None,
    tails_l: dict[str, Tail] | None = None,
) -> dict[str, Any]:
    """Verdicts valid for all models at once. ``superhuman``: Bonferroni on the per-model scores
    (1 − S_m ≤ α/M). ``joint``: one confidence for the claim "every model with L_N > U_N beats the
    average annotator", paying δ_u once (:func:`joint_confidence`)."""
    m = len(models)
    out: dict[str, Any] = {
        "alpha": alpha,
        "level_per_model": alpha / m if m else None,
        "superhuman": [x.model for x in models if x.superhuman_simultaneous],
        "method": "union bound (Bonferroni) over models: 1 − S_m ≤ α/M for each certified model",
        "joint": None,
    }
    cands = [x for x in models if x.lower_bound > upper]
    if m > 1 and cands and tail_u is not None and tails_l is not None:
        s, t = joint_confidence(
            [x.lower_bound for x in cands], upper, tail_u, [tails_l[x.model] for x in cands]
        )
        out["joint"] = {
            "models": [x.model for x in cands],
            "confidence": s,
            "t_u": t,
            "superhuman": bool(s is not None and s >= 1 - alpha),
            "method": "S = 1 − δ_u − Σ_m δ_l,m with one shared t_u, maximised over the admissible range",
        }
    return out


# ------------------------------------------------------------------------------------------ summary
def certify_summary(
    lower: Sequence[float] | float,
    upper: float,
    n: Sequence[int] | int,
    *,
    annotators: float | None = None,
    models: Sequence[str] | None = None,
    upper_kind: Literal["empirical", "theoretical"] = "empirical",
    n_upper: int | None = None,
    bound: BoundKind = "hoeffding",
    alpha: float = 0.05,
    delta: float | None = None,
    oms_steps: int | None = None,
    oms_lr: float | None = None,
    t_u: float | None = None,
    t_l: float | None = None,
) -> CertifyResult:
    """Certify from published numbers only (meta-analysis, as the paper's Tables 3 and 4).

    ``upper`` is the empirical U⁽ᵉ⁾ (eq. 8) of the annotators; with ``annotators`` = K the theoretical
    U⁽ᵗ⁾ follows from :func:`theoretical_from_empirical`. ``lower`` holds each model's L_N (eq. 25);
    ``n`` the test-set size, one value or one per model. The upper bound uses ``n_upper`` items (default:
    the smallest ``n``, the conservative choice). ``t_u``/``t_l`` fix the deviations of the reported
    finite-sample bounds (δ then follows) instead of deriving them from ``delta``. Only the Hoeffding
    bound is available: the others need the per-item data (variances, counts).
    """
    _check_bound(bound)
    if bound != "hoeffding":
        raise InputError(
            f"--bound {bound} needs the data (per-item variances or counts); summary mode supports "
            "only --bound hoeffding"
        )
    d = _check_alpha(alpha, delta)
    _check_t(t_u, "t_u")
    _check_t(t_l, "t_l")
    lowers = [float(x) for x in np.atleast_1d(np.asarray(lower, dtype=float))]
    if not lowers:
        raise InputError("give at least one model lower bound with --lower")
    ns = [int(x) for x in np.atleast_1d(np.asarray(n))]
    if len(ns) == 1:
        ns = ns * len(lowers)
    if len(ns) != len(lowers):
        raise InputError(f"--n: give one value or one per model ({len(lowers)}), got {len(ns)}")
    for v, what in [(upper, "--upper"), *[(x, "--lower") for x in lowers]]:
        if not 0 <= v <= 1:
            raise InputError(f"{what} {v}: agreement rates are in [0, 1]")
    if any(x < 1 for x in ns):
        raise InputError(f"--n {ns}: the number of test items must be positive")
    names = list(models) if models is not None else [f"model{i + 1}" for i in range(len(lowers))]
    if len(names) != len(lowers):
        raise InputError(f"{len(names)} model names for {len(lowers)} lower bounds")
    theo = None if annotators is None else theoretical_from_empirical(upper, annotators)
    if upper_kind == "theoretical":
        if theo is None:
            raise InputError("--upper theoretical needs --annotators K to compute U⁽ᵗ⁾ from U⁽ᵉ⁾")
        used = theo
    elif upper_kind == "empirical":
        used = upper
    else:
        raise InputError(f"upper {upper_kind!r}: use empirical or theoretical")
    nu = int(n_upper) if n_upper is not None else min(ns)
    tail_u = {"hoeffding": hoeffding_tail(nu)}
    certs = [
        _model_certificate(
            name,
            lo,
            nn,
            used,
            tail_u,
            {"hoeffding": hoeffding_tail(nn)},
            bound="hoeffding",
            alpha=alpha,
            delta=d,
            n_models=len(lowers),
            oms_steps=oms_steps,
            oms_lr=oms_lr,
            t_u=t_u,
            t_l=t_l,
        )
        for name, lo, nn in zip(names, lowers, ns, strict=True)
    ]
    ub = UpperBound(
        theoretical=theo,
        empirical=upper,
        n=nu,
        used=upper_kind,
        value=used,
        finite={"hoeffding": _upper_finite(used * used, tail_u["hoeffding"], d, t_u)},
    )
    return CertifyResult(
        n_items=None,
        annotators={
            "mode": "summary",
            "k": int(annotators)
            if annotators is not None and float(annotators).is_integer()
            else annotators,
        },
        upper_bound=ub,
        models=certs,
        oracle=None,
        curve=None,
        bound="hoeffding",
        alpha=alpha,
        delta=d,
        aggregate=None,
        simultaneous=_simultaneous(
            certs,
            alpha,
            used,
            tail_u["hoeffding"],
            {c.model: hoeffding_tail(c.n) for c in certs},
        ),
        notes=[],
    )


# ------------------------------------------------------------------------------------------ data
def _named_agreement(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """K × K agreement P(ℓᵢ = ℓⱼ) over items both labelled, the number of such items, and the
    items × raters code matrix."""
    mat = ratings.matrix()
    labelled = (mat >= 0).astype(np.float64)
    common = labelled.T @ labelled
    agree = np.zeros_like(common)
    for c in range(ratings.n_classes):
        y = (mat == c).astype(np.float64)
        agree += y.T @ y
    with np.errstate(invalid="ignore", divide="ignore"):
        a = agree / common
    a[common == 0] = np.nan
    return a, common, mat


def _offdiag_mean(a: np.ndarray) -> float:
    k = a.shape[0]
    off = a[~np.eye(k, dtype=bool)]
    off = off[~np.isnan(off)]
    return float(off.mean()) if off.size else float("nan")


def _tie_broken_successes(credit: np.ndarray, seed: int | None, index: int) -> int:
    """Number of successes when each item succeeds with probability equal to its credit (1 and 0
    stay deterministic; fractional tie credit is resolved with the stream ``(seed, index)``)."""
    frac = (credit > 0) & (credit < 1)
    full = int((credit == 1.0).sum())
    if frac.any():
        u = stream(seed, index).random(int(frac.sum()))
        full += int((u < credit[frac]).sum())
    return full


def _hard_predictions(preds: Predictions) -> dict[str, np.ndarray]:
    return {m.name: preds.hard(m.name).astype(np.int64) for m in preds.models}


def _aggregate_counts(ratings: Ratings, aggregate: str) -> np.ndarray:
    """Items × classes weights of the aggregate label: the counts for majority (plurality credit), or
    a one-hot Dawid–Skene label (crowd-kit)."""
    if aggregate in ("majority", "plurality"):
        return ratings.counts
    if aggregate in ("dawid-skene", "dawid_skene", "ds"):
        if not ratings.has_raters:
            raise InputError("--aggregate dawid-skene needs named raters (long format)")
        try:
            from crowdkit.aggregation import DawidSkene
        except ImportError:
            raise InputError(
                "--aggregate dawid-skene needs crowd-kit: pip install 'humanly[crowdkit]'"
            ) from None
        import pandas as pd

        df = pd.DataFrame(
            {
                "task": ratings.item_codes,
                "worker": ratings.rater_codes,
                "label": ratings.label_codes,
            }
        )
        labels = DawidSkene(n_iter=100).fit_predict(df)
        out = np.zeros_like(ratings.counts)
        out[labels.index.to_numpy(dtype=np.int64), labels.to_numpy(dtype=np.int64)] = 1
        return out
    raise InputError(f"aggregate {aggregate!r}: use majority (or dawid-skene with crowd-kit)")


def certify(
    ratings: Ratings,
    predictions: Predictions | None = None,
    *,
    gold: Gold | None = None,
    annotators: Literal["slots", "named"] = "slots",
    aggregate: str = "majority",
    bound: BoundKind = "hoeffding",
    alpha: float = 0.05,
    delta: float | None = None,
    upper: Literal["empirical", "theoretical"] = "empirical",
    curve: bool = False,
    curve_subsets: int = 50,
    curve_max_k: int | None = None,
    oms_steps: int | None = None,
    oms_lr: float | None = None,
    t_u: float | None = None,
    t_l: float | None = None,
    seed: int | None = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
) -> CertifyResult:
    """Certify models against a crowd (Theorems 1, 3, 5, 6, 7 of Xu, Walder & Xu).

    Parameters
    ----------
    ratings, predictions
        The crowd's labels and the models' outputs (hard labels, or probabilities → argmax). Predictions
        are aligned to the ratings by item id (an error if the items differ; align with
        ``humanly.align(..., missing="drop")`` first to keep the common items).
    gold
        Oracle labels for any subset of items: only for validation (true accuracies, whether the bounds
        held, the assumption checks of Table 2). The certificate itself never uses gold.
    annotators
        ``"slots"``: the average annotator is a random one of an item's raters; per item the agreement of
        two distinct raters is Σ_c n_c(n_c − 1)/(n(n − 1)) and U⁽ᵗ⁾'s X_n (eq. 17) is Σ_c n_c²/n² with
        K = n the item's own number of labels, so ragged K is handled item by item (U⁽ᵗ⁾² = 1/K +
        (K − 1)/K · U⁽ᵉ⁾² per item) and items with fewer than two labels are left out of the upper
        bound. ``"named"``: K identified raters; P(ℓᵢ = ℓⱼ) per pair over the items both labelled
        (pairs with no common item are left out), U⁽ᵗ⁾ by eq. 2 and U⁽ᵉ⁾ by eq. 8.
    aggregate
        ``"majority"`` (plurality; a tie among classes T gives the model credit 1/|T| if it predicts one
        of them — the expected credit of a fair random tie-break, deterministic), or ``"dawid-skene"``
        (needs the optional crowd-kit).
    bound
        Concentration bound used for the verdict: ``"hoeffding"`` (the paper's), ``"bernstein"``
        (empirical Bernstein for U_N² and L_N), ``"exact"`` (empirical Bernstein for U_N², Clopper–Pearson
        for L_N; tied items count as a success with probability equal to their credit, drawn with
        ``seed``, which keeps the bound exact). ``by_bound`` always reports all three.
    alpha, delta, t_u, t_l
        A model is ``superhuman`` when its OMS confidence ≥ 1 − α. ``delta`` (default α/2) is the
        failure probability per side of the reported finite-sample bounds (t follows from δ); or give
        the deviations ``t_u``/``t_l`` and δ follows (Theorems 5 and 6).
    upper
        Which upper bound is U_N: ``"empirical"`` U⁽ᵉ⁾ (the paper's Table 4) or ``"theoretical"`` U⁽ᵗ⁾.
    curve, curve_subsets, seed
        Bounds for k = 1 … K annotators (Fig. 3). Slots mode is exact (hypergeometric weights over the
        k-subsets of an item's labels); named mode enumerates the k-subsets of raters when there are at
        most ``curve_subsets`` of them and otherwise samples ``curve_subsets`` subsets with ``seed``.
        k runs to ``curve_max_k``; by default K in a complete design, else (ragged slots) the median
        number of labels per item — and the curve then uses only the items with at least that many
        labels, so every k describes the same items — or (named) the largest number of labels of an
        item.
    oms_steps, oms_lr
        Run the paper's gradient ascent for OMS instead of the bounded maximisation.
    workers, scheduler, client
        Compute the named-mode curve on dask.distributed (same numbers as in-process).
    """
    _check_bound(bound)
    d = _check_alpha(alpha, delta)
    _check_t(t_u, "t_u")
    _check_t(t_l, "t_l")
    check_workers(workers, scheduler)
    if annotators not in ("slots", "named"):
        raise InputError(f"annotators {annotators!r}: use slots or named")
    if upper not in ("empirical", "theoretical"):
        raise InputError(f"upper {upper!r}: use empirical or theoretical")
    if predictions is not None:
        unknown = [c for c in map(str, predictions.classes) if c not in map(str, ratings.classes)]
        if unknown:
            raise InputError(
                f"{predictions.source or 'predictions'}: class(es) {unknown} are not among the "
                f"ratings' classes {list(ratings.classes)}; models must predict the raters' classes"
            )
        ratings, predictions = align(ratings, predictions)
    notes: list[str] = []
    counts = ratings.counts
    n_lab = counts.sum(axis=1)
    multi = n_lab >= 2
    if not multi.any():
        raise InputError(
            f"{ratings.source or 'ratings'}: every item has at most one label; the upper bound needs "
            "at least two annotators per item (agreement between annotators)"
        )
    ann: dict[str, Any]
    agreement_matrix = None
    rater_names = None
    if annotators == "named":
        if not ratings.has_raters:
            raise InputError(
                f"--annotators named needs rater ids, but {ratings.source or 'the ratings'} holds "
                "anonymous counts; use --annotators slots"
            )
        a, common, _ = _named_agreement(ratings)
        k = a.shape[0]
        emp2 = _offdiag_mean(a)
        if not math.isfinite(emp2):
            raise InputError(
                f"{ratings.source or 'ratings'}: no two named raters labelled a common item, so "
                "their agreement is undefined; use --annotators slots"
            )
        n_pairs = int((common[~np.eye(k, dtype=bool)] > 0).sum()) // 2
        if n_pairs < k * (k - 1) // 2:
            notes.append(
                f"{k * (k - 1) // 2 - n_pairs} of {k * (k - 1) // 2} rater pairs share no item and "
                "are left out of U⁽ᵉ⁾"
            )
        theo2 = 1.0 / k + (k - 1.0) / k * emp2
        agreement_matrix, rater_names = a, [str(r) for r in ratings.raters]
        ann = {"mode": "named", "k": k}
        # X_n for the finite-sample bound: per item, agreement among its raters (eq. 17).
        x_e = pairwise_agreement(counts[multi])
        n_u = int(multi.sum())
        if not bool((n_lab == k).all()):
            notes.append(
                "named raters did not all label every item: the Hoeffding bound on U_N (Theorem 5) "
                f"uses the {n_u} items with ≥ 2 labels as N; it is exact for complete designs only"
            )
    else:
        x_e = pairwise_agreement(counts[multi])
        kk = n_lab[multi].astype(np.float64)
        x_t = 1.0 / kk + (kk - 1.0) / kk * x_e
        emp2, theo2 = float(x_e.mean()), float(x_t.mean())
        n_u = int(multi.sum())
        kmin, kmax = int(n_lab[multi].min()), int(n_lab[multi].max())
        ann = {"mode": "slots", "k": kmin if kmin == kmax else float(kk.mean())}
        if kmin != kmax:
            ann.update({"k_min": kmin, "k_max": kmax, "ragged": True})
            notes.append(
                f"labels per item vary ({kmin}–{kmax}): U⁽ᵗ⁾ adds each item's own 1/K diagonal "
                "(U⁽ᵗ⁾² = mean over items of 1/K + (K − 1)/K · agreement)"
            )
        if int((~multi).sum()):
            notes.append(
                f"{int((~multi).sum())} item(s) with < 2 labels left out of the upper bound"
            )
    if annotators == "named":
        x_used = (
            x_e if upper == "empirical" else 1.0 / n_lab[multi] + (1.0 - 1.0 / n_lab[multi]) * x_e
        )
    else:
        x_used = x_e if upper == "empirical" else x_t
    u_emp, u_theo = math.sqrt(emp2), math.sqrt(theo2)
    u_used = u_emp if upper == "empirical" else u_theo
    var_u = float(np.var(x_used, ddof=1)) if n_u >= 2 else 0.0
    tails_u = {
        "hoeffding": hoeffding_tail(n_u),
        "bernstein": bernstein_tail(n_u, var_u),
        "exact": bernstein_tail(n_u, var_u),
    }
    ub = UpperBound(
        theoretical=u_theo,
        empirical=u_emp,
        n=n_u,
        used=upper,
        value=u_used,
        finite={b: _upper_finite(u_used * u_used, tails_u[b], d, t_u) for b in BOUNDS},
        variance=var_u,
        agreement_matrix=agreement_matrix,
        raters=rater_names,
    )

    agg = _aggregate_counts(ratings, aggregate)
    has_agg = agg.sum(axis=1) > 0
    hard = _hard_predictions(predictions) if predictions is not None else {}
    certs: list[ModelCertificate] = []
    joint_tails: dict[str, Tail] = {}
    for name, pred in hard.items():
        cr = plurality_credit(agg[has_agg], pred[has_agg])
        n_l = len(cr)
        lower = float(cr.mean())
        var_l = float(np.var(cr, ddof=1)) if n_l >= 2 else 0.0
        # exact bound: ties broken at random (stream (seed, model index)) so that each item is a
        # Bernoulli success with probability equal to its fractional credit — a valid randomised
        # Clopper–Pearson bound; the reported L_N keeps the deterministic fractional credit.
        full = _tie_broken_successes(cr, seed, len(certs))
        tails_l = {
            "hoeffding": hoeffding_tail(n_l),
            "bernstein": bernstein_tail(n_l, var_l),
            "exact": clopper_pearson_tail(n_l, full, lower),
        }
        joint_tails[name] = tails_l[bound]
        certs.append(
            _model_certificate(
                name,
                lower,
                n_l,
                u_used,
                tails_u,
                tails_l,
                bound=bound,
                alpha=alpha,
                delta=d,
                n_models=len(hard),
                oms_steps=oms_steps,
                oms_lr=oms_lr,
                full_credit=full,
                lower_variance=var_l,
                t_u=t_u,
                t_l=t_l,
            )
        )
    if int((~has_agg).sum()):
        notes.append(f"{int((~has_agg).sum())} item(s) without labels left out of L_N")

    oracle = None
    if gold is not None:
        oracle = _oracle_check(ratings, gold, agg, hard, annotators, ub, certs, d, bound)
    pts = None
    if curve:
        if curve_max_k is not None and curve_max_k < 1:
            raise InputError(f"curve_max_k {curve_max_k}: give a positive number of annotators")
        if annotators == "named":
            k_cap = len(ratings.raters) if ratings.raters is not None else 1
            k_max = min(curve_max_k or int(n_lab.max()), k_cap)
        else:
            k_max = curve_max_k or int(np.median(n_lab[n_lab >= 1]))
            n_pop = int((n_lab >= k_max).sum())
            if n_pop == 0:
                raise InputError(f"curve_max_k {k_max}: no item has that many labels")
            if n_pop < ratings.n_items:
                notes.append(
                    f"curve over k = 1 … {k_max} uses the {n_pop} items with ≥ {k_max} labels "
                    "(the same items at every k)"
                )
        pts = _curve(
            ratings,
            hard,
            gold,
            annotators,
            curve_subsets,
            seed,
            k_max,
            workers=workers,
            scheduler=scheduler,
            client=client,
        )
    return CertifyResult(
        n_items=ratings.n_items,
        annotators=ann,
        upper_bound=ub,
        models=certs,
        oracle=oracle,
        curve=pts,
        bound=bound,
        alpha=alpha,
        delta=d,
        aggregate=aggregate,
        simultaneous=_simultaneous(certs, alpha, u_used, tails_u[bound], joint_tails),
        notes=notes,
    )


# ------------------------------------------------------------------------------------------ gold
def _oracle_check(
    ratings: Ratings,
    gold: Gold,
    agg: np.ndarray,
    hard: dict[str, np.ndarray],
    annotators: str,
    ub: UpperBound,
    certs: list[ModelCertificate],
    delta: float,
    bound: str,
) -> OracleCheck:
    """True accuracies against gold and the assumption checks of Table 2."""
    if tuple(map(str, gold.classes)) != tuple(map(str, ratings.classes)):
        raise InputError(
            f"{gold.source or 'gold'}: classes {gold.classes!r} differ from the ratings' classes "
            f"{ratings.classes!r}"
        )
    g = gold.for_items(ratings.items, missing="drop").astype(np.int64)
    counts = ratings.counts
    n_lab = counts.sum(axis=1)
    has = (g >= 0) & (n_lab > 0)
    if not has.any():
        raise InputError(
            f"{gold.source or 'gold'}: no gold label matches a rated item; check the item ids"
        )
    rows = np.flatnonzero(has)
    correct = counts[rows, g[rows]].astype(np.float64)
    nn = n_lab[rows].astype(np.float64)
    if annotators == "named":
        mat = ratings.matrix()[rows]
        lab = mat >= 0
        hit = (mat == g[rows][:, None]) & lab
        per_rater = hit.sum(axis=0) / np.maximum(lab.sum(axis=0), 1)
        avg = float(per_rater[lab.sum(axis=0) > 0].mean())  # eq. 1
    else:
        avg = float((correct / nn).mean())
    agg_acc = float(np.nanmean(plurality_credit(agg[rows], g[rows])))
    model_acc = {name: float((pred[rows] == g[rows]).mean()) for name, pred in hard.items()}
    held: dict[str, bool] = {
        "theoretical_upper": bool(ub.theoretical is not None and ub.theoretical >= avg),
        "empirical_upper": bool(ub.empirical is not None and ub.empirical >= avg),
    }
    fin = ub.finite[bound]["value"]
    held["finite_upper"] = bool(fin is not None and fin >= avg)
    for c in certs:
        held[f"lower:{c.model}"] = bool(c.lower_bound <= model_acc[c.model])
        lf = c.lower_finite["value"]
        held[f"finite_lower:{c.model}"] = bool(lf is None or lf <= model_acc[c.model])
    checks: list[AssumptionCheck] = []
    # (a) Theorem 1: P(ℓi = ℓ* | ℓj = ℓ*) ≥ P(ℓi = ℓ*) for i ≠ j, pooled over ordered pairs of
    # distinct raters of the same item (items with ≥ 2 labels).
    m2 = nn >= 2
    if annotators == "named":
        checks.append(_named_theorem1(ratings.matrix()[rows], g[rows]))
    elif m2.any():
        both = (correct[m2] * (correct[m2] - 1) / (nn[m2] * (nn[m2] - 1))).mean()
        one = (correct[m2] / nn[m2]).mean()
        cond = float(both / one) if one > 0 else None
        checks.append(
            AssumptionCheck(
                "theorem1_positive_correlation",
                cond,
                float(one),
                bool(cond is not None and cond >= one),
                int(m2.sum()),
                {"left": "P(l_i = l* | l_j = l*)", "right": "P(l_i = l*)"},
            )
        )
    # (b) Theorem 3 with a = the aggregate and b = each model: P(ℓb = ℓ* | ℓa ≠ ℓ*) against
    # Σ_{x ≠ *} P(ℓb = ℓx | ℓa ≠ ℓ*) (the paper's conservative column) and max_x (the assumption).
    wrong = 1.0 - plurality_credit(agg[rows], g[rows])  # weight of "aggregate ≠ oracle" per item
    n_cls = ratings.n_classes
    for name, pred in hard.items():
        p = pred[rows]
        w = wrong.sum()
        if w <= 0:
            checks.append(
                AssumptionCheck(
                    f"theorem3:{name}",
                    None,
                    None,
                    True,
                    0,
                    {
                        "note": "the aggregate is never wrong on gold items: the assumption is vacuous"
                    },
                )
            )
            continue
        dist = np.bincount(p, weights=wrong, minlength=n_cls) / w  # P(ℓb = x | ℓa ≠ ℓ*) by class
        right_mass = float((wrong * (p == g[rows])).sum() / w)
        others = 1.0 - right_mass
        # per-item: the largest wrong class; pooled as the largest single wrong-class mass
        wrong_cls = np.where(p != g[rows], p, -1)
        per_class = (
            np.bincount(wrong_cls[wrong_cls >= 0], weights=wrong[wrong_cls >= 0], minlength=n_cls)
            / w
        )
        checks.append(
            AssumptionCheck(
                f"theorem3:{name}",
                right_mass,
                others,
                bool(right_mass >= float(per_class.max())),
                int((wrong > 0).sum()),
                {
                    "left": "P(l_b = l* | l_a != l*)",
                    "right": "sum over x != * of P(l_b = l_x | l_a != l*)",
                    "max_single_wrong_class": float(per_class.max()),
                    "conservative_passed": bool(right_mass >= others),
                    "prediction_distribution": dist.tolist(),
                },
            )
        )
    return OracleCheck(int(has.sum()), avg, agg_acc, model_acc, held, checks)


def _named_theorem1(mat: np.ndarray, g: np.ndarray) -> AssumptionCheck:
    """Table 2(a) for named raters: per ordered pair (i, j), on the gold items both labelled,
    P(ℓi = ℓ* | ℓj = ℓ*) against P(ℓi = ℓ*); both sides averaged over pairs."""
    lab = (mat >= 0).astype(np.float64)
    hit = ((mat == g[:, None]) & (mat >= 0)).astype(np.float64)
    both = hit.T @ hit  # [i, j]: items both correct
    j_ok = lab.T @ hit  # [i, j]: items both labelled where j is correct
    i_ok = hit.T @ lab  # [i, j]: items both labelled where i is correct
    common = lab.T @ lab
    off = ~np.eye(mat.shape[1], dtype=bool) & (common > 0) & (j_ok > 0)
    if not off.any():
        return AssumptionCheck(
            "theorem1_positive_correlation",
            None,
            None,
            True,
            0,
            {"note": "no pair of raters shares a gold item"},
        )
    cond = both[off] / j_ok[off]
    marg = i_ok[off] / common[off]
    left, right = float(cond.mean()), float(marg.mean())
    return AssumptionCheck(
        "theorem1_positive_correlation",
        left,
        right,
        bool(left >= right),
        int(off.sum()),
        {
            "left": "P(l_i = l* | l_j = l*), mean over ordered rater pairs",
            "right": "P(l_i = l*), mean over the same pairs and items",
            "pairs_passed": float((cond >= marg).mean()),
        },
    )


# ------------------------------------------------------------------------------------------ curves
def _mean_credit_k(rows: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> float:
    """Mean over items of the exact expected plurality credit of a random k-subset of their labels."""
    uniq, target, inv = rows
    vals = expected_plurality_credit(uniq, target, k)[inv]
    return float(np.nanmean(vals)) if np.isfinite(vals).any() else float("nan")


def _curve(
    ratings: Ratings,
    hard: dict[str, np.ndarray],
    gold: Gold | None,
    annotators: str,
    max_subsets: int,
    seed: int | None,
    k_max: int,
    *,
    workers: int | None,
    scheduler: str | None,
    client: Any,
) -> list[CurvePoint]:
    g = None
    if gold is not None:
        g = gold.for_items(ratings.items, missing="drop").astype(np.int64)
    if annotators == "named":
        a, _, mat = _named_agreement(ratings)
        args = [
            (mat, a, hard, g, k, max_subsets, seed, ratings.n_classes) for k in range(1, k_max + 1)
        ]
        return run_tasks(
            _named_curve_point,
            args,
            workers=workers,
            scheduler=scheduler,
            client=client,
            description="curve",
        )
    counts = ratings.counts
    n = counts.sum(axis=1)
    # one population for every k: the items with at least k_max labels (all items when K is constant)
    pop = n >= k_max
    counts, n = counts[pop], n[pop]
    hard = {name: pred[pop] for name, pred in hard.items()}
    g = None if g is None else g[pop]
    e2 = float(pairwise_agreement(counts).mean()) if k_max >= 2 else float("nan")
    rows = {name: unique_rows_with_target(counts, pred) for name, pred in hard.items()}
    rows_gold = unique_rows_with_target(counts, g) if g is not None else None
    points = []
    for k in range(1, k_max + 1):
        if k >= 2:
            # a random k-subset of an item's distinct raters has the same expected agreement
            emp = math.sqrt(e2)
            theo = math.sqrt(1.0 / k + (k - 1.0) / k * e2)
        else:
            emp, theo = None, 1.0
        lower = {name: _mean_credit_k(rows[name], k) for name in hard}
        acc = None
        if rows_gold is not None and g is not None and (g >= 0).any():
            acc = _mean_credit_k(rows_gold, k)
        points.append(CurvePoint(k, theo, emp, lower, int(pop.sum()), True, acc, None))
    return points


def _named_curve_point(
    mat: np.ndarray,
    a: np.ndarray,
    hard: dict[str, np.ndarray],
    g: np.ndarray | None,
    k: int,
    max_subsets: int,
    seed: int | None,
    n_cls: int,
) -> CurvePoint:
    """Fig. 3 at k named annotators: averages over k-subsets of raters (all if few, else sampled with
    the stream (seed, k))."""
    k_all = a.shape[0]
    total = math.comb(k_all, k)
    if total <= max_subsets:
        subsets = [np.asarray(s) for s in itertools.combinations(range(k_all), k)]
        exact = True
    else:
        r = stream(seed, k)
        subsets = [np.sort(r.choice(k_all, size=k, replace=False)) for _ in range(max_subsets)]
        exact = False
    theo, emp, accs = [], [], []
    lows: dict[str, list[float]] = {name: [] for name in hard}
    n_items = []
    for s in subsets:
        sub = a[np.ix_(s, s)]
        e2 = _offdiag_mean(sub) if k >= 2 else float("nan")
        if k >= 2 and math.isfinite(e2):
            emp.append(math.sqrt(e2))
            theo.append(math.sqrt(1.0 / k + (k - 1.0) / k * e2))
        elif k == 1:
            theo.append(1.0)
        m = mat[:, s]
        cnt = np.stack([(m == c).sum(axis=1) for c in range(n_cls)], axis=1)
        has = cnt.sum(axis=1) > 0
        n_items.append(int(has.sum()))
        if not has.any():
            continue
        for name, pred in hard.items():
            lows[name].append(float(np.nanmean(plurality_credit(cnt[has], pred[has]))))
        if g is not None and ((g >= 0) & has).any():
            sel = has & (g >= 0)
            accs.append(float(np.nanmean(plurality_credit(cnt[sel], g[sel]))))
    return CurvePoint(
        k,
        float(np.mean(theo)) if theo else None,
        float(np.mean(emp)) if emp else None,
        {name: (float(np.mean(v)) if v else None) for name, v in lows.items()},
        int(np.median(n_items)) if n_items else 0,
        exact,
        float(np.mean(accs)) if accs else None,
        len(subsets),
    )
