"""``certify(ratings, predictions)``: the whole certificate on data, as a sequence of named steps —
check the arguments, join the inputs by item id, bound the average rater from above (:mod:`.upper`) and
each model from below (:mod:`.lower`), turn both into verdicts (:mod:`.certificate`), and optionally check
against gold (:mod:`.oracle`) and draw the curve over k (:mod:`.curves`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from .._core.checks import check_choice, check_int
from .._core.parallel import check_workers
from ..data import Gold, InputError, Predictions, Ratings, Study, as_ratings, join
from ._args import AGGREGATES, RATER_MODES, UPPER_KINDS, settings
from ._bounds import BOUNDS, Sample, Tail
from .certificate import Settings, model_certificate, simultaneous
from .curves import bound_curve, curve_k_max
from .lower import Aggregate, aggregate_of, hard_predictions, lower_samples
from .oracle import oracle_check
from .results import BoundCurve, CertifyResult, ModelCertificate
from .upper import UpperPart, upper_bound

__all__ = ["certify"]


def certify(
    ratings: Any,
    predictions: Any = None,
    *,
    gold: Any = None,
    missing: Literal["error", "drop"] = "error",
    raters: Literal["slots", "named"] = "slots",
    aggregate: str | Any = "majority",
    bound: Literal["hoeffding", "bernstein", "exact"] = "hoeffding",
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
    tau: float = 0.0,
    seed: int | None = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
) -> CertifyResult:
    """Certify models against a crowd (Theorems 1, 3, 5, 6, 7 of Xu, Walder & Xu). Long only for its
    parameter documentation: the body is a sequence of named steps.

    ``ratings`` is a :class:`~humanly.Ratings` (or a long DataFrame or a file); ``predictions`` the
    models' outputs as a :class:`~humanly.Predictions`, a dict model → pandas Series (labels or
    positive-class probabilities) or DataFrame (one probability column per class) indexed by item id, a
    numpy array in the ratings' item order, or one such value alone; probabilities count as their argmax.
    ``gold`` (a Gold, a Series by item id, or an array in the ratings' order) holds oracle labels for any
    subset of the items — only for validation: true accuracies, whether the bounds held, Table 2's
    assumption checks; the certificate never uses gold. Everything is joined by item id
    (:func:`humanly.join`): items missing on one side, or predictions or gold for unrated items, are an
    error unless ``missing="drop"``, which keeps the items both have.

    * ``raters="slots"``: the average rater is a random one of an item's raters; each item's own
      K = its number of labels (ragged designs item by item; items with < 2 labels leave the upper bound).
      ``"named"``: K identified raters, P(ℓᵢ = ℓⱼ) per pair over the items both labelled, U⁽ᵗ⁾ by eq. 2
      and U⁽ᵉ⁾ by eq. 8.
    * ``aggregate``: ``"majority"`` (plurality; a tie among classes T gives credit 1/|T| when the model
      predicts one of them), ``"weighted"`` (a soft aggregate: each item's label distribution with
      raters weighted by their agreement with the others; credit = the probability the distribution
      gives the model's label, :mod:`~humanly.certification.lower`), ``"soft"`` (the same, unweighted) or
      ``"dawid-skene"`` (the posterior mode of :func:`humanly.crowd.dawid_skene.dawid_skene`); or an
      aggregator object with crowd-kit's interface (``fit_predict`` on a ``task, worker, label`` frame,
      e.g. ``crowdkit.aggregation.MMSR()``), whose labels are used as a hard aggregate.
    * ``bound`` of the verdict: ``"hoeffding"`` (the paper's), ``"bernstein"`` (empirical Bernstein for U_N²
      and L_N) or ``"exact"`` (Bernstein for U_N², Clopper–Pearson for L_N with ties broken at random
      with ``seed``); ``by_bound`` always reports all three.
    * A model is ``superhuman`` when its OMS confidence ≥ 1 − ``alpha``. ``delta`` (default α/2) is the
      failure probability per side of the reported finite-sample bounds; or fix the deviations
      ``t_u``/``t_l`` and δ follows. ``upper``: U_N is ``"empirical"`` U⁽ᵉ⁾ (Table 4) or ``"theoretical"``.
    * ``curve``: bounds for k = 1 … ``curve_max_k`` raters (Fig. 3; default K, or the median labels per
      item when ragged, on the items with that many). Slots mode is exact; named mode enumerates rater
      subsets when there are at most ``curve_subsets``, else samples that many with ``seed``, in-process
      or on dask (``workers``, ``scheduler``, ``client``) with the same numbers.
    * ``oms_steps``/``oms_lr``: the paper's gradient ascent for OMS instead of bounded maximisation.
    * ``tau``: every confidence is for "the model beats the average rater by at least τ" (Theorem 7,
      eq. 29; default 0, the paper's "beats").

    Each model's certificate also carries ``items_needed`` (the smallest number of items, behind both
    bounds, that would certify the same L_N and U_N), a typed ``evidence`` (status, reason) and
    ``by_upper``, the verdict under U⁽ᵉ⁾ and under U⁽ᵗ⁾ (the one Theorem 1 proves);
    ``upper_bound.lemma2`` checks Lemma 2's condition and the advice of more raters than classes.

    >>> from humanly import simulate
    >>> d = simulate.oracle(1000, [0.85, 0.8, 0.75, 0.8, 0.7], models={"m": 0.97}, seed=1)
    >>> res = certify(d.ratings, d.predictions)
    >>> round(res.upper_bound.upper, 4), round(res.model("m").lower, 4), res.model("m").superhuman
    (0.8122, 0.894, True)
    """
    verdict = settings(
        bound=bound, alpha=alpha, delta=delta, t_u=t_u, t_l=t_l, oms_steps=oms_steps, oms_lr=oms_lr,
        tau=tau,
    )  # fmt: skip
    aggregate_obj = None if isinstance(aggregate, str) else aggregate
    opts = _options(raters, upper, aggregate, missing, seed)
    plan = _curve_plan(curve, curve_subsets, curve_max_k, workers, scheduler, client)
    study = _joined(ratings, predictions, gold, opts.missing)
    up = upper_bound(study.ratings, opts.raters, opts.upper, verdict.delta, verdict.t_u)
    hard = hard_predictions(study.predictions)
    agg = aggregate_of(study.ratings, opts.aggregate if aggregate_obj is None else aggregate_obj)
    certs, tails_l, notes_l = _certificates(study.ratings, hard, agg, up, verdict, opts.seed)
    if opts.aggregate == "weighted" and not study.ratings.has_raters:
        notes_l.append('aggregate="weighted" on anonymous counts: every rater weighs the same')
    gold_codes = None if study.gold is None else study.gold.codes.astype(np.int64)
    oracle = None
    if study.gold is not None and gold_codes is not None:
        oracle = oracle_check(
            study.ratings, gold_codes, agg, hard, opts.raters, up.bound, certs, verdict.bound,
            source=study.gold.source,
        )  # fmt: skip
    points, notes_c = _curve(study.ratings, hard, gold_codes, opts, plan, up.bound.agreement_matrix)
    return CertifyResult(
        n_items=study.ratings.n_items,
        raters=up.raters,
        upper_bound=up.bound,
        models=certs,
        oracle=oracle,
        curve=points,
        bound=verdict.bound,
        alpha=verdict.alpha,
        delta=verdict.delta,
        aggregate=opts.aggregate,
        simultaneous=simultaneous(
            certs, verdict.alpha, up.bound.upper, up.tails[verdict.bound], tails_l, verdict.tau
        ),
        notes=(*up.notes, *notes_l, *notes_c),
        tau=verdict.tau,
        identical_labels=_identical(hard),
    )


def _identical(hard: dict[str, np.ndarray]) -> tuple[tuple[str, str], ...]:
    """The pairs of models (in order) whose hard labels agree on every item."""
    names = list(hard)
    return tuple(
        (a, b)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if np.array_equal(hard[a], hard[b])
    )


@dataclasses.dataclass(frozen=True)
class _Options:
    """The checked data-mode choices: how to read the raters, which U_N, the aggregate, what to do
    with items on one side only, and the seed."""

    raters: str
    upper: str
    aggregate: str
    missing: str
    seed: int | None


def _options(raters: Any, upper: Any, aggregate: Any, missing: Any, seed: Any) -> _Options:
    """Check the data-mode choices and the seed (a whole number ≥ 0 or ``None``)."""
    return _Options(
        raters=check_choice("raters", raters, RATER_MODES),
        upper=check_choice("upper", upper, UPPER_KINDS),
        aggregate=(
            check_choice("aggregate", aggregate, AGGREGATES)
            if isinstance(aggregate, str) or not hasattr(aggregate, "fit_predict")
            else type(aggregate).__name__
        ),
        missing=check_choice("missing", missing, ("error", "drop")),
        seed=check_int("seed", seed, minimum=0, allow_none=True),
    )


@dataclasses.dataclass(frozen=True)
class _CurvePlan:
    """Whether to compute Fig. 3, with how many rater subsets, up to which k, and where."""

    curve: bool
    subsets: int
    max_k: int | None
    workers: int | None
    scheduler: str | None
    client: Any


def _curve_plan(
    curve: Any, subsets: Any, max_k: Any, workers: Any, scheduler: Any, client: Any
) -> _CurvePlan:
    """Check the curve arguments: whole numbers ≥ 1 and the dask options."""
    workers = check_int("workers", workers, minimum=1, allow_none=True)
    check_workers(workers, scheduler)
    return _CurvePlan(
        curve=bool(curve),
        subsets=check_int("curve_subsets", subsets, minimum=1),
        max_k=check_int("curve_max_k", max_k, minimum=1, allow_none=True),
        workers=workers,
        scheduler=scheduler,
        client=client,
    )


def _joined(ratings: Any, predictions: Any, gold: Any, missing: Any) -> Study:
    """Ratings, predictions and gold joined by item id (:func:`humanly.join`), after checking that
    ready-made Predictions and Gold use the ratings' classes."""
    r: Ratings = as_ratings(ratings)
    classes = [str(c) for c in r.classes]
    if isinstance(predictions, Predictions):
        unknown = [c for c in map(str, predictions.classes) if c not in classes]
        if unknown:
            raise InputError(
                f"{predictions.source or 'predictions'}: class(es) {unknown} are not among the "
                f"ratings' classes {list(r.classes)}; models must predict the raters' classes"
            )
    if isinstance(gold, Gold) and [str(c) for c in gold.classes] != classes:
        raise InputError(
            f"{gold.source or 'gold'}: classes {gold.classes!r} differ from the ratings' classes "
            f"{r.classes!r}"
        )
    return join(r, predictions, gold, missing=missing)


def _certificates(
    ratings: Ratings,
    hard: dict[str, np.ndarray],
    agg: Aggregate,
    up: UpperPart,
    verdict: Settings,
    seed: int | None,
) -> tuple[tuple[ModelCertificate, ...], dict[str, Tail], list[str]]:
    """Each model's L_N and certificate; the tail of the verdict's bound per model (for the joint
    confidence) and notes."""
    samples, notes = lower_samples(ratings, hard, agg, seed)
    certs = tuple(
        model_certificate(
            x.model,
            Sample(x.n, x.lower, x.variance, x.successes),
            up.bound,
            list(BOUNDS),
            verdict,
            n_models=len(samples),
        )
        for x in samples
    )
    return certs, {x.model: x.tails[verdict.bound] for x in samples}, notes


def _curve(
    ratings: Ratings,
    hard: dict[str, np.ndarray],
    gold: np.ndarray | None,
    opts: _Options,
    plan: _CurvePlan,
    agreement: np.ndarray | None = None,
) -> tuple[BoundCurve | None, Sequence[str]]:
    """Fig. 3 when asked for, with a note when only some items enter it; ``agreement`` is the named
    raters' agreement matrix when the upper bound computed it."""
    if not plan.curve:
        return None, ()
    k_max, notes = curve_k_max(ratings, opts.raters, plan.max_k)
    points = bound_curve(
        ratings,
        hard,
        gold,
        opts.raters,
        plan.subsets,
        opts.seed,
        k_max,
        workers=plan.workers,
        scheduler=plan.scheduler,
        client=plan.client,
        agreement=agreement if opts.raters == "named" else None,
    )
    return points, notes
