"""Validation against gold labels: the true accuracies, whether each bound held, and the assumption
checks of the paper's Table 2 — (a) Theorem 1's positive correlation of raters, (b) Theorem 3's "the
model is right more often than any single wrong class where the aggregate is wrong". The certificate
itself never uses gold.

Each assumption check reports both sides, their difference with a 95 % interval (normal approximation
over items, :mod:`._assumptions`) and a ``status``: ``"consistent"`` (the interval reaches the side the
assumption allows) or ``"evidence against at 95%"`` — never a verdict from two point estimates. For
Theorem 3 the check also reports the theorem's conclusion on the gold items, L_N − accuracy with its
interval: a lower bound that exceeds the model's accuracy (a model that copies the crowd's errors) is
evidence against the assumption, whatever Table 2's comparison says.

>>> from humanly import simulate
>>> from humanly.certification import certify
>>> d = simulate.oracle(300, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=2)
>>> [a.name for a in certify(d.ratings, d.predictions, gold=d.gold).oracle.assumptions]
['theorem1_positive_correlation', 'theorem3:m']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.result import Interval, Result
from ..data import InputError, Ratings
from ._agreement import dedupe_last
from ._assumptions import (
    METHOD,
    Estimate,
    named_theorem1,
    slots_theorem1,
    theorem3,
    theorem3_conclusion,
)

if TYPE_CHECKING:
    from .lower import Aggregate
    from .results import ModelCertificate, UpperBound

__all__ = [
    "CONSISTENT",
    "EVIDENCE_AGAINST",
    "AssumptionCheck",
    "AssumptionDetail",
    "OracleCheck",
    "oracle_check",
]

#: ``AssumptionCheck.status`` when the data do not contradict the assumption at 95 %
CONSISTENT = "consistent"
#: ``AssumptionCheck.status`` when the interval excludes what the assumption allows
EVIDENCE_AGAINST = "evidence_against"
#: ``AssumptionCheck.status`` when the assumption has nothing to check (e.g. the aggregate is never wrong)
VACUOUS = "vacuous"
#: ``AssumptionCheck.status`` when there are too few items for an interval
UNDETERMINED = "undetermined"


@dataclasses.dataclass(frozen=True, repr=False)
class AssumptionDetail(Result):
    """What an :class:`AssumptionCheck` compared.

    Fields that do not apply are ``None`` and left out of ``to_dict()``.

    Parameters
    ----------
    left_formula, right_formula : str, optional
        The formulas of the two sides.
    max_single_wrong_class : float, optional
        Theorem 3: the largest P(ℓ_b = ℓ_x | ℓ_a ≠ ℓ*) over the single wrong classes x.
    conservative_passed : bool, optional
        Theorem 3: whether the point estimates pass the paper's conservative column.
    prediction_distribution : tuple of float, optional
        Theorem 3: the model's predictions on the items the aggregate gets wrong, by class.
    pairs_passed : float, optional
        Theorem 1, named raters: the share of rater pairs whose point estimates pass.
    reason : str, optional
        Why the check is vacuous, a code: ``"no_shared_pair"`` (no pair of raters shares a gold
        item) or ``"aggregate_never_wrong"`` (the aggregate is never wrong on gold items); worded by
        :func:`humanly.verdicts.certify.vacuous_words`.

    Examples
    --------
    >>> AssumptionDetail(reason="no_shared_pair").to_dict()
    {'reason': 'no_shared_pair'}
    """

    left_formula: str | None = None
    right_formula: str | None = None
    max_single_wrong_class: float | None = None
    conservative_passed: bool | None = None
    prediction_distribution: tuple[float, ...] | None = None
    pairs_passed: float | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields that apply (not ``None``)."""
        out = {k: v for k, v in super().to_dict().items() if v is not None}
        return out


@dataclasses.dataclass(frozen=True, repr=False)
class AssumptionCheck(Result):
    """One assumption of Table 2 checked against gold labels, with its uncertainty.

    Read ``status``, never ``passed`` alone: a check is decided by the interval of the difference,
    not by two point estimates.

    Parameters
    ----------
    name : str
        ``"theorem1_positive_correlation"`` or ``"theorem3:<model>"``.
    left, right : float or None
        The two sides of Table 2 as the paper prints them.
    passed : bool
        Whether the *point estimates* satisfy the assumption (left ≥ right; for Theorem 3, left ≥ the
        largest single wrong class), without uncertainty.
    n : int
        The items (or rater pairs) behind the check.
    detail : AssumptionDetail
        What was compared.
    difference : float, optional
        The side the assumption says is larger minus the other.
    interval : Interval, optional
        Its 95% interval (``method``).
    status : str, optional
        ``"consistent"``, ``"evidence_against"`` (the 95% interval lies wholly below 0),
        ``"vacuous"`` or ``"undetermined"`` (too few items); :func:`humanly.verdicts.text.check_text`
        writes them in words.
    conclusion : float, optional
        Theorem 3: its conclusion on the gold items, L_N − accuracy (Theorem 3 says ≤ 0); an interval
        wholly above 0 is also evidence against the assumption.
    conclusion_interval : Interval, optional
        Its 95% interval.
    method : str, optional
        How the intervals were computed, as a code: ``normal_delta`` (a 95% normal interval over
        items, the delta method); :mod:`humanly.verdicts.methods` words it.

    Examples
    --------
    >>> AssumptionCheck("theorem1_positive_correlation", 0.85, 0.836, True, 100).passed
    True
    """

    name: str
    left: float | None
    right: float | None
    passed: bool
    n: int
    detail: AssumptionDetail = dataclasses.field(default_factory=AssumptionDetail)
    difference: float | None = None
    interval: Interval | None = None
    status: str | None = None
    conclusion: float | None = None
    conclusion_interval: Interval | None = None
    method: str | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class OracleCheck(Result):
    """Validation against gold labels (any subset of items); the certificate never uses them.

    Parameters
    ----------
    n_items : int
        The rated items with a gold label.
    average_rater : float
        The average rater's true accuracy P(ℓ_K = ℓ*) (eq. 1; slots: the mean over items of the
        share of right labels; named: the mean over raters of each one's accuracy).
    aggregate_accuracy : float
        The accuracy of the aggregate label.
    models : dict of str to float
        Each model's true accuracy.
    held : dict of str to bool
        Which bounds held: ``theoretical_upper``, ``empirical_upper``, ``finite_upper`` (≥ the average
        rater), ``lower:<model>`` and ``finite_lower:<model>`` (≤ the model).
    assumptions : tuple of AssumptionCheck
        Table 2's (a) for Theorem 1 and (b) for Theorem 3 per model.

    Examples
    --------
    >>> from humanly import simulate
    >>> from humanly.certification import certify
    >>> d = simulate.oracle(200, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> certify(d.ratings, d.predictions, gold=d.gold).oracle.held["lower:m"]
    True
    """

    n_items: int
    average_rater: float
    aggregate_accuracy: float
    models: dict[str, float]
    held: dict[str, bool]
    assumptions: tuple[AssumptionCheck, ...]


def oracle_check(
    ratings: Ratings,
    gold: np.ndarray,
    agg: Aggregate,
    hard: dict[str, np.ndarray],
    raters: str,
    ub: UpperBound,
    certs: Sequence[ModelCertificate],
    bound: str,
    source: str | None = None,
) -> OracleCheck:
    """True accuracies against ``gold`` (class codes in the ratings' item order, -1: none) and the
    assumption checks of Table 2; ``agg`` is the aggregate label of L_N."""
    counts = ratings.counts
    n_lab = counts.sum(axis=1)
    has = (gold >= 0) & (n_lab > 0)
    if not has.any():
        raise InputError(
            f"{source or 'gold'}: no gold label matches a rated item; check the item ids"
        )
    rows = np.flatnonzero(has)
    g = gold[rows]
    named = _gold_labels(ratings, rows, g) if raters == "named" else None
    if named is not None:
        _item, rater, hit = named
        n_r = int(ratings.n_raters or 0)
        labelled = np.bincount(rater, minlength=n_r)
        right = np.bincount(rater, weights=hit, minlength=n_r)
        avg = float((right[labelled > 0] / labelled[labelled > 0]).mean())  # eq. 1
    else:
        correct = counts[rows, g].astype(np.float64)
        avg = float((correct / n_lab[rows].astype(np.float64)).mean())
    agg_credit = agg.credit(g, rows)
    agg_acc = float(np.nanmean(agg_credit))
    model_acc = {name: float((pred[rows] == g).mean()) for name, pred in hard.items()}
    held = _held(ub, certs, bound, avg, model_acc)
    checks: list[AssumptionCheck] = []
    if named is not None:
        checks.append(_named_check(*named, len(rows), int(ratings.n_raters or 0)))
    else:
        checks += _slots_check(counts[rows], g)
    wrong = 1.0 - agg_credit  # weight of "aggregate ≠ oracle" per item
    for name, pred in hard.items():
        credit = agg.credit(pred[rows], rows)
        checks.append(_theorem3_check(name, pred[rows], g, wrong, credit, ratings.n_classes))
    return OracleCheck(int(has.sum()), avg, agg_acc, model_acc, held, tuple(checks))


def _gold_labels(
    ratings: Ratings, rows: np.ndarray, g: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The labels on the gold items ``rows`` as (row position, rater, whether right), one per item and
    rater (the last, as :meth:`~humanly.data.Ratings.matrix`)."""
    item, rater, label = dedupe_last(ratings)
    pos = np.full(ratings.n_items, -1, dtype=np.int64)
    pos[rows] = np.arange(len(rows))
    on = pos[item] >= 0
    r_item = pos[item[on]]
    return r_item, rater[on], (label[on] == g[r_item]).astype(np.float64)


def _status(d: Estimate, *, against: bool = False) -> str:
    """``evidence against`` when the interval of the difference lies wholly below 0 (or ``against``)."""
    low, high = d.interval()
    if against:
        return EVIDENCE_AGAINST
    if high is None or low is None:
        return UNDETERMINED
    return EVIDENCE_AGAINST if high < 0 else CONSISTENT


def _held(
    ub: UpperBound,
    certs: Sequence[ModelCertificate],
    bound: str,
    avg: float,
    model_acc: dict[str, float],
) -> dict[str, bool]:
    """Which bounds held against the true accuracies: point and finite-sample, upper and lower."""
    held: dict[str, bool] = {
        "theoretical_upper": bool(ub.theoretical is not None and ub.theoretical >= avg),
        "empirical_upper": bool(ub.empirical is not None and ub.empirical >= avg),
    }
    fin = ub.finite[bound].value
    held["finite_upper"] = bool(fin is not None and fin >= avg)
    for c in certs:
        held[f"lower:{c.model}"] = bool(c.lower <= model_acc[c.model])
        lf = c.finite_lower.value
        held[f"finite_lower:{c.model}"] = bool(lf is None or lf <= model_acc[c.model])
    return held


def _slots_check(counts: np.ndarray, g: np.ndarray) -> list[AssumptionCheck]:
    """Table 2(a), slots: P(ℓi = ℓ* | ℓj = ℓ*) ≥ P(ℓi = ℓ*) for i ≠ j, pooled over ordered pairs of
    distinct raters of the same item (items with ≥ 2 labels); empty when no item has two labels."""
    out = slots_theorem1(counts, g)
    if out is None:
        return []
    left, right, n, d = out
    cond = left if np.isfinite(left) else None
    return [
        AssumptionCheck(
            "theorem1_positive_correlation",
            cond,
            right,
            bool(cond is not None and cond >= right),
            n,
            AssumptionDetail("P(l_i = l* | l_j = l*)", "P(l_i = l*)"),
            d.value if np.isfinite(d.value) else None,
            d.interval(),
            _status(d),
            method=METHOD,
        )
    ]


def _named_check(
    item: np.ndarray, rater: np.ndarray, hit: np.ndarray, n_items: int, n_raters: int
) -> AssumptionCheck:
    """Table 2(a) for named raters: per ordered pair (i, j), on the gold items both labelled,
    P(ℓi = ℓ* | ℓj = ℓ*) against P(ℓi = ℓ*); both sides averaged over pairs."""
    out = named_theorem1(item, rater, hit, n_items, n_raters)
    if out is None:
        return AssumptionCheck(
            "theorem1_positive_correlation",
            None,
            None,
            True,
            0,
            AssumptionDetail(reason="no_shared_pair"),
            status=VACUOUS,
            method=METHOD,
        )
    d = out.difference
    return AssumptionCheck(
        "theorem1_positive_correlation",
        out.left,
        out.right,
        bool(out.left >= out.right),
        out.n_pairs,
        AssumptionDetail(
            "P(l_i = l* | l_j = l*), mean over ordered rater pairs",
            "P(l_i = l*), mean over the same pairs and items",
            pairs_passed=out.pairs_passed,
        ),
        d.value,
        d.interval(),
        _status(d),
        method=METHOD,
    )


def _theorem3_check(
    name: str,
    p: np.ndarray,
    g: np.ndarray,
    wrong: np.ndarray,
    credit: np.ndarray,
    n_cls: int,
) -> AssumptionCheck:
    """Table 2(b) with a = the aggregate and b = the model: P(ℓb = ℓ* | ℓa ≠ ℓ*) against
    Σ_{x ≠ *} P(ℓb = ℓx | ℓa ≠ ℓ*) (the paper's conservative column) and max_x (the assumption), and
    the conclusion L_N − accuracy on the gold items; ``wrong`` is each item's weight of "aggregate ≠
    oracle" and ``credit`` the model's credit against the aggregate."""
    concl = theorem3_conclusion(credit, (p == g).astype(np.float64))
    c_low, _ = c_int = concl.interval()
    contradicted = c_low is not None and c_low > 0
    out = theorem3(p, g, wrong, n_cls)
    if out is None:
        return AssumptionCheck(
            f"theorem3:{name}",
            None,
            None,
            True,
            0,
            AssumptionDetail(reason="aggregate_never_wrong"),
            status=EVIDENCE_AGAINST if contradicted else VACUOUS,
            conclusion=concl.value,
            conclusion_interval=c_int,
            method=METHOD,
        )
    left, others, dist, per_class, d = out
    top = float(per_class.max())
    return AssumptionCheck(
        f"theorem3:{name}",
        left,
        others,
        bool(left >= top),
        int((wrong > 0).sum()),
        AssumptionDetail(
            "P(l_b = l* | l_a != l*)",
            "sum over x != * of P(l_b = l_x | l_a != l*)",
            max_single_wrong_class=top,
            conservative_passed=bool(left >= others),
            prediction_distribution=tuple(float(x) for x in dist),
        ),
        d.value,
        d.interval(),
        _status(d, against=contradicted),
        concl.value,
        c_int,
        METHOD,
    )
