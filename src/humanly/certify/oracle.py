"""Validation against gold labels: the true accuracies, whether each bound held, and the assumption
checks of the paper's Table 2 — (a) Theorem 1's positive correlation of raters, (b) Theorem 3's "the
model is right more often than any single wrong class where the aggregate is wrong". The certificate
itself never uses gold.

>>> from humanly import simulate
>>> from humanly.certify import certify
>>> d = simulate.oracle(300, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=2)
>>> [a.name for a in certify(d.ratings, d.predictions, gold=d.gold).oracle.assumptions]
['theorem1_positive_correlation', 'theorem3:m']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._counts import plurality_credit
from .._result import Result
from ..data import InputError, Ratings

if TYPE_CHECKING:
    from .results import ModelCertificate, UpperBound

__all__ = ["AssumptionCheck", "AssumptionDetail", "OracleCheck", "oracle_check"]


@dataclasses.dataclass(frozen=True, repr=False)
class AssumptionDetail(Result):
    """What an :class:`AssumptionCheck` compared: the formulas of its two sides and, for Theorem 3,
    the largest single wrong class, the paper's conservative column and the model's predictions on the
    items the aggregate gets wrong; ``note`` when the check is vacuous. Fields that do not apply are
    ``None`` and left out of ``to_dict()``.

    >>> AssumptionDetail(note="no pair of raters shares a gold item").to_dict()
    {'note': 'no pair of raters shares a gold item'}
    """

    left_formula: str | None = None
    right_formula: str | None = None
    max_single_wrong_class: float | None = None
    conservative_passed: bool | None = None
    prediction_distribution: tuple[float, ...] | None = None
    pairs_passed: float | None = None
    note: str | None = None

    json_aliases: ClassVar[dict[str, str]] = {
        "left": "left_formula",
        "right": "right_formula",
    }

    def to_dict(self) -> dict[str, Any]:
        """The fields that apply (not ``None``), with the formulas also under ``left``/``right``."""
        out = {k: v for k, v in super().to_dict().items() if v is not None}
        return out


@dataclasses.dataclass(frozen=True, repr=False)
class AssumptionCheck(Result):
    """One assumption of Table 2 checked against gold labels: its two sides, whether it holds, and on
    how many items (or rater pairs).

    >>> AssumptionCheck("theorem1_positive_correlation", 0.85, 0.836, True, 100).passed
    True
    """

    name: str
    left: float | None
    right: float | None
    passed: bool
    n: int
    detail: AssumptionDetail = dataclasses.field(default_factory=AssumptionDetail)


@dataclasses.dataclass(frozen=True, repr=False)
class OracleCheck(Result):
    """Validation against gold labels (any subset of items).

    ``average_annotator`` is the true P(ℓ_K = ℓ*) (eq. 1); ``models`` each model's true accuracy and
    ``aggregate_accuracy`` the accuracy of the aggregate label; ``held`` says which bounds held (point
    bounds and finite-sample bounds); ``assumptions`` are Table 2's (a) for Theorem 1 and (b) for
    Theorem 3 per model.

    >>> from humanly import simulate
    >>> from humanly.certify import certify
    >>> d = simulate.oracle(200, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> certify(d.ratings, d.predictions, gold=d.gold).oracle.held["lower:m"]
    True
    """

    n_items: int
    average_annotator: float
    aggregate_accuracy: float
    models: dict[str, float]
    held: dict[str, bool]
    assumptions: tuple[AssumptionCheck, ...]


def oracle_check(
    ratings: Ratings,
    gold: np.ndarray,
    agg: np.ndarray,
    hard: dict[str, np.ndarray],
    raters: str,
    ub: UpperBound,
    certs: Sequence[ModelCertificate],
    bound: str,
    source: str | None = None,
) -> OracleCheck:
    """True accuracies against ``gold`` (class codes in the ratings' item order, -1: none) and the
    assumption checks of Table 2; ``agg`` holds the aggregate's items × classes weights."""
    counts = ratings.counts
    n_lab = counts.sum(axis=1)
    has = (gold >= 0) & (n_lab > 0)
    if not has.any():
        raise InputError(
            f"{source or 'gold'}: no gold label matches a rated item; check the item ids"
        )
    rows = np.flatnonzero(has)
    g = gold[rows]
    if raters == "named":
        mat = ratings.matrix()[rows]
        lab = mat >= 0
        hit = (mat == g[:, None]) & lab
        per_rater = hit.sum(axis=0) / np.maximum(lab.sum(axis=0), 1)
        avg = float(per_rater[lab.sum(axis=0) > 0].mean())  # eq. 1
    else:
        correct = counts[rows, g].astype(np.float64)
        avg = float((correct / n_lab[rows].astype(np.float64)).mean())
    agg_acc = float(np.nanmean(plurality_credit(agg[rows], g)))
    model_acc = {name: float((pred[rows] == g).mean()) for name, pred in hard.items()}
    held = _held(ub, certs, bound, avg, model_acc)
    checks: list[AssumptionCheck] = []
    if raters == "named":
        checks.append(_named_theorem1(ratings.matrix()[rows], g))
    else:
        checks += _slots_theorem1(counts[rows], g)
    wrong = 1.0 - plurality_credit(agg[rows], g)  # weight of "aggregate ≠ oracle" per item
    for name, pred in hard.items():
        checks.append(_theorem3(name, pred[rows], g, wrong, ratings.n_classes))
    return OracleCheck(int(has.sum()), avg, agg_acc, model_acc, held, tuple(checks))


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
        lf = c.lower_finite.value
        held[f"finite_lower:{c.model}"] = bool(lf is None or lf <= model_acc[c.model])
    return held


def _slots_theorem1(counts: np.ndarray, g: np.ndarray) -> list[AssumptionCheck]:
    """Table 2(a), slots: P(ℓi = ℓ* | ℓj = ℓ*) ≥ P(ℓi = ℓ*) for i ≠ j, pooled over ordered pairs of
    distinct raters of the same item (items with ≥ 2 labels); empty when no item has two labels."""
    correct = counts[np.arange(len(g)), g].astype(np.float64)
    nn = counts.sum(axis=1).astype(np.float64)
    m2 = nn >= 2
    if not m2.any():
        return []
    both = (correct[m2] * (correct[m2] - 1) / (nn[m2] * (nn[m2] - 1))).mean()
    one = (correct[m2] / nn[m2]).mean()
    cond = float(both / one) if one > 0 else None
    return [
        AssumptionCheck(
            "theorem1_positive_correlation",
            cond,
            float(one),
            bool(cond is not None and cond >= one),
            int(m2.sum()),
            AssumptionDetail("P(l_i = l* | l_j = l*)", "P(l_i = l*)"),
        )
    ]


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
            AssumptionDetail(note="no pair of raters shares a gold item"),
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
        AssumptionDetail(
            "P(l_i = l* | l_j = l*), mean over ordered rater pairs",
            "P(l_i = l*), mean over the same pairs and items",
            pairs_passed=float((cond >= marg).mean()),
        ),
    )


def _theorem3(
    name: str, p: np.ndarray, g: np.ndarray, wrong: np.ndarray, n_cls: int
) -> AssumptionCheck:
    """Table 2(b) with a = the aggregate and b = the model: P(ℓb = ℓ* | ℓa ≠ ℓ*) against
    Σ_{x ≠ *} P(ℓb = ℓx | ℓa ≠ ℓ*) (the paper's conservative column) and max_x (the assumption);
    ``wrong`` is each item's weight of "aggregate ≠ oracle"."""
    w = wrong.sum()
    if w <= 0:
        return AssumptionCheck(
            f"theorem3:{name}",
            None,
            None,
            True,
            0,
            AssumptionDetail(
                note="the aggregate is never wrong on gold items: the assumption is vacuous"
            ),
        )
    dist = np.bincount(p, weights=wrong, minlength=n_cls) / w  # P(ℓb = x | ℓa ≠ ℓ*) by class
    right_mass = float((wrong * (p == g)).sum() / w)
    others = 1.0 - right_mass
    # per-item: the largest wrong class; pooled as the largest single wrong-class mass
    wrong_cls = np.where(p != g, p, -1)
    per_class = (
        np.bincount(wrong_cls[wrong_cls >= 0], weights=wrong[wrong_cls >= 0], minlength=n_cls) / w
    )
    return AssumptionCheck(
        f"theorem3:{name}",
        right_mass,
        others,
        bool(right_mass >= float(per_class.max())),
        int((wrong > 0).sum()),
        AssumptionDetail(
            "P(l_b = l* | l_a != l*)",
            "sum over x != * of P(l_b = l_x | l_a != l*)",
            max_single_wrong_class=float(per_class.max()),
            conservative_passed=bool(right_mass >= others),
            prediction_distribution=tuple(float(x) for x in dist),
        ),
    )
