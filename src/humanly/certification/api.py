"""``certify(ratings, predictions, gold)``: the whole certificate on data, as a sequence of named steps —
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
from .._core.result import Note
from ..data import Ratings, Study, join
from ..data.matching import check_missing
from ..data.types import GoldLike, PredictionsLike, RatingsLike
from ._args import AGGREGATES, RATER_MODES, UPPER_KINDS, checked_options, settings
from ._bounds import BOUNDS, Sample, Tail
from .certificate import Settings, model_certificate, simultaneous
from .curves import bound_curve, curve_k_max
from .lower import Aggregate, aggregate_of, hard_predictions, lower_samples
from .options import CertifyOptions
from .oracle import OracleCheck, oracle_check
from .results import BoundCurve, CertifyResult, ModelCertificate, UpperBound
from .upper import UpperPart, upper_bound

__all__ = ["certify"]


def certify(
    ratings: RatingsLike,
    predictions: PredictionsLike | None = None,
    gold: GoldLike | None = None,
    *,
    rater_mode: Literal["slots", "named"] = "slots",
    aggregate: str | Any = "plurality",
    bound: Literal["hoeffding", "bernstein", "exact"] = "hoeffding",
    upper_kind: Literal["empirical", "theoretical"] = "empirical",
    level: float = 0.95,
    tau: float = 0.0,
    curve: bool = False,
    seed: int | None = 0,
    missing: Literal["error", "drop"] = "error",
    options: CertifyOptions | None = None,
) -> CertifyResult:
    """Certify models against a crowd: is each model more accurate than the average rater?

    Bounds the average rater's oracle accuracy from above (U_N, Theorems 1 and 5) and each model's
    from below (L_N, its agreement with the crowd's aggregate label, Theorems 3 and 6), and turns the
    gap into the confidence S that the model beats the average rater (Theorem 7, HMS and OMS), with
    the items that would certify it and the verdict under both upper bounds (``by_upper``).

    Parameters
    ----------
    ratings : Ratings, DataFrame, path or Study
        The crowd's labels; a :class:`~humanly.data.Study` brings its predictions and gold (then give
        neither again).
    predictions : Predictions, dict, Series, DataFrame or array, optional
        The models' outputs (labels, or probabilities counted as their argmax): a
        :class:`~humanly.data.Predictions`, a dict model → Series or DataFrame indexed by item id, an
        array in the ratings' item order, or one such value alone. Without them only U_N is computed.
    gold : Gold, Series or array, optional
        Oracle labels for any subset of the items, for validation only (true accuracies, whether the
        bounds held, Table 2's assumptions with 95% intervals).
    rater_mode : {"slots", "named"}
        ``"slots"``: the average rater is a random one of an item's raters, each item with its own
        K (ragged designs item by item). ``"named"``: K identified raters, P(ℓᵢ = ℓⱼ) per pair.
    aggregate : {"plurality", "soft", "weighted", "dawid_skene"} or aggregator
        The crowd's label for L_N: the plurality (a tie among t classes gives credit 1/t), the
        label distribution (``soft``), the same with raters weighted by their agreement
        (``weighted``), the Dawid–Skene posterior mode, or an object with crowd-kit's ``fit_predict``.
    bound : {"hoeffding", "bernstein", "exact"}
        The concentration bound of the verdict: Hoeffding (the paper's), empirical Bernstein, or
        Bernstein for U_N² and Clopper–Pearson for L_N. ``by_bound`` reports all three.
    upper_kind : {"empirical", "theoretical"}
        U_N: U⁽ᵉ⁾ (eq. 8, the paper's choice) or U⁽ᵗ⁾ (eq. 2).
    level : float
        A model is certified (``superhuman``) when its S_OMS ≥ level (default 0.95).
    tau : float
        Every confidence is that the model beats the average rater by at least τ (Theorem 7).
    curve : bool
        Also compute the bounds for k = 1 … K raters (Fig. 3).
    seed : int or None
        The seed of the exact bound's tie-breaks and of the named curve's sampled rater subsets.
    missing : {"error", "drop"}
        Ids that do not match (everything is joined by item id) are an error, or only the items
        both have are kept.
    options : CertifyOptions, optional
        The rarer knobs: ``delta`` (default (1 − level)/2) or ``t_u``/``t_l`` of the reported
        finite-sample bounds, the paper's OMS ascent, the curve's subsets and largest k, dask.

    Returns
    -------
    CertifyResult
        The upper bounds, one certificate per model, the joint verdicts, the gold checks, the curve.

    Raises
    ------
    InputError
        For inputs that cannot be read or joined, no item with two labels, values out of range.
    TypeError
        For a value of the wrong type, e.g. ``options`` that is not a :class:`CertifyOptions`.

    References
    ----------
    Q. Xu, C. Walder & C. Xu, *Humanly Certifying Superhuman Classifiers*: Theorems 1, 3, 5, 6, 7,
    Algorithms 1 and 2, Fig. 3 and Table 2.

    Examples
    --------
    >>> from humanly import simulate
    >>> d = simulate.oracle(1000, [0.85, 0.8, 0.75, 0.8, 0.7], models={"m": 0.97}, seed=1)
    >>> res = certify(d.ratings, d.predictions)
    >>> round(res.upper_bound.upper, 4), round(res.model("m").lower, 4), res.model("m").superhuman
    (0.8122, 0.894, True)
    >>> res.model("m").by_upper["theoretical"].evidence.status
    'not_certified'
    """
    opts = checked_options(options)
    verdict = settings(bound=bound, level=level, options=opts, tau=tau)
    read = _options(rater_mode, upper_kind, aggregate, missing, seed)
    study = join(ratings, predictions, gold, missing=check_missing(read.missing))  # Study as is
    study.ratings.require_classes("certify")
    up = upper_bound(study.ratings, read.raters, read.upper, verdict.delta, verdict.t_u)
    hard = hard_predictions(study.predictions)
    agg = aggregate_of(study.ratings, read.aggregate if isinstance(aggregate, str) else aggregate)
    certs, tails_l, notes_l = _certificates(study.ratings, hard, agg, up, verdict, read.seed)
    gold_codes = None if study.gold is None else study.gold.codes.astype(np.int64)
    oracle = _oracle(study, gold_codes, agg, hard, read.raters, up, certs, verdict.bound)
    points, notes_c = _curve(curve, study.ratings, hard, gold_codes, read, opts, up.bound)
    return CertifyResult(
        n_items=study.ratings.n_items,
        raters=up.raters,
        upper_bound=up.bound,
        models=certs,
        oracle=oracle,
        curve=points,
        bound=verdict.bound,
        level=verdict.level,
        delta=verdict.delta,
        aggregate=read.aggregate,
        simultaneous=simultaneous(
            certs, verdict.level, up.bound.upper, up.tails[verdict.bound], tails_l, verdict.tau
        ),
        notes=(*up.notes, *notes_l, *notes_c),
        tau=verdict.tau,
        identical_labels=_identical(hard),
    )


def _oracle(
    study: Study,
    gold: np.ndarray | None,
    agg: Aggregate,
    hard: dict[str, np.ndarray],
    raters: str,
    up: UpperPart,
    certs: tuple[ModelCertificate, ...],
    bound: str,
) -> OracleCheck | None:
    """The checks against gold (``None`` without gold)."""
    if study.gold is None or gold is None:
        return None
    return oracle_check(
        study.ratings, gold, agg, hard, raters, up.bound, certs, bound, source=study.gold.source
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
        raters=check_choice("rater_mode", raters, RATER_MODES),
        upper=check_choice("upper_kind", upper, UPPER_KINDS),
        aggregate=(
            check_choice("aggregate", aggregate, AGGREGATES)
            if isinstance(aggregate, str) or not hasattr(aggregate, "fit_predict")
            else type(aggregate).__name__
        ),
        missing=check_choice("missing", missing, ("error", "drop")),
        seed=check_int("seed", seed, minimum=0, allow_none=True),
    )


def _certificates(
    ratings: Ratings,
    hard: dict[str, np.ndarray],
    agg: Aggregate,
    up: UpperPart,
    verdict: Settings,
    seed: int | None,
) -> tuple[tuple[ModelCertificate, ...], dict[str, Tail], list[Note]]:
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
    if agg.name == "weighted" and not ratings.has_raters:
        notes.append(Note("weighted_on_anonymous_counts"))
    return certs, {x.model: x.tails[verdict.bound] for x in samples}, notes


def _curve(
    curve: bool,
    ratings: Ratings,
    hard: dict[str, np.ndarray],
    gold: np.ndarray | None,
    read: _Options,
    opts: CertifyOptions,
    ub: UpperBound,
) -> tuple[BoundCurve | None, Sequence[Note]]:
    """Fig. 3 when asked for, with a note when only some items enter it; the named raters'
    agreement matrix is reused from the upper bound ``ub`` when it computed one."""
    if not curve:
        return None, ()
    agreement = ub.agreement_matrix
    k_max, notes = curve_k_max(ratings, read.raters, opts.curve_max_k)
    points = bound_curve(
        ratings,
        hard,
        gold,
        read.raters,
        opts.curve_subsets,
        read.seed,
        k_max,
        workers=opts.workers,
        scheduler=opts.scheduler,
        client=opts.client,
        agreement=agreement if read.raters == "named" else None,
        every_k=opts.curve_every_k,
    )
    return points, notes
