"""Lemma 2 and the paper's advice on raters: when may U⁽ᵉ⁾ stand in for U⁽ᵗ⁾?

Lemma 2 (Appendix A, eqs. 39–42) shows U⁽ᵗ⁾/U⁽ᵉ⁾ → 1 as K grows, assuming raters agree at least as
often as chance, P(ℓᵢ = ℓⱼ) ≥ 1/N_c (N_c classes). Its proof bounds the ratio at every K:
U⁽ᵗ⁾/U⁽ᵉ⁾ ≤ sqrt((K − 1)/K) · sqrt(1 + N_c/(K − 1)) = sqrt((K − 1 + N_c)/K), which is close to 1 only
when K is large next to N_c — hence the paper's advice (Broader Impact) to have more raters per item than
classes. :func:`lemma2_check` reports both against the data: the estimated pairwise agreement (U⁽ᵉ⁾²,
and for named raters how many pairs fall below chance) against 1/N_c, and K against N_c.

>>> c, notes = lemma2_check(n_classes=5, agreement=0.66**2, k=3, theoretical=0.79, empirical=0.66)
>>> c.holds, c.more_raters_than_classes, round(c.ratio_bound, 3)  # SST-5: K = 3 < 5 classes
(True, False, 1.528)
>>> notes
(Note('raters_not_above_classes', {'raters': 3, 'classes': 5}),)
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._core.result import Note, Result

__all__ = ["Lemma2Check", "lemma2_check"]


@dataclasses.dataclass(frozen=True, repr=False)
class Lemma2Check(Result):
    """Lemma 2's condition and the advice on raters per item, checked on the data.

    Parameters
    ----------
    n_classes : int or None
        N_c (``None`` when unknown).
    chance : float or None
        1/N_c.
    agreement : float or None
        The estimated pairwise agreement P(ℓᵢ = ℓⱼ), U⁽ᵉ⁾².
    holds : bool or None
        Whether agreement ≥ chance (``None`` when N_c is unknown).
    labels_per_item : float or None
        K (the mean over items with ≥ 2 labels when it varies).
    more_raters_than_classes : bool or None
        Whether every item has more raters than classes.
    share_more_raters : float or None
        The share of those items with K > N_c.
    ratio : float or None
        U⁽ᵗ⁾/U⁽ᵉ⁾.
    ratio_bound : float or None
        sqrt((K − 1 + N_c)/K), its bound from Lemma 2's proof (complete designs; ``None`` when K
        varies).
    pairs : int, optional
        Named raters: the rater pairs sharing an item.
    pairs_below_chance : int, optional
        Named raters: those that agree less often than chance.

    Examples
    --------
    >>> lemma2_check(n_classes=2, agreement=0.88, k=3)[0].holds
    True
    """

    n_classes: int | None
    chance: float | None
    agreement: float | None
    holds: bool | None
    labels_per_item: float | None
    more_raters_than_classes: bool | None
    share_more_raters: float | None
    ratio: float | None
    ratio_bound: float | None
    pairs: int | None = None
    pairs_below_chance: int | None = None


def lemma2_check(
    *,
    n_classes: int | None,
    agreement: float | None,
    k: float | None,
    k_items: np.ndarray | None = None,
    theoretical: float | None = None,
    empirical: float | None = None,
    pairs: int | None = None,
    pairs_below_chance: int | None = None,
) -> tuple[Lemma2Check, tuple[Note, ...]]:
    """Lemma 2's condition and the advice on raters, with a note for each that fails.

    ``k`` is K (raters per item, the mean when it varies); ``k_items`` the number of labels of each item
    entering the upper bound, when known; ``pairs``/``pairs_below_chance`` count named rater pairs.

    >>> lemma2_check(n_classes=3, agreement=0.3, k=5)[1][0].code
    'lemma2_fails'
    """
    chance = None if not n_classes else 1.0 / n_classes
    ok = (
        None
        if chance is None or agreement is None or not math.isfinite(agreement)
        else bool(agreement >= chance)
    )
    more: bool | None = None
    share: float | None = None
    ragged = False
    if k_items is not None and len(k_items) and n_classes:
        above = np.asarray(k_items) > n_classes
        share = float(above.mean())
        more = bool(above.all())
        ragged = bool(np.min(k_items) != np.max(k_items))
    elif k is not None and n_classes:
        more = bool(k > n_classes)
        share = 1.0 if more else 0.0
    ratio = None
    if theoretical is not None and empirical:
        ratio = float(theoretical / empirical)
    bound = None
    if k is not None and n_classes and k > 1 and not ragged:
        bound = math.sqrt((k - 1.0 + n_classes) / k)
    check = Lemma2Check(
        n_classes, chance, agreement, ok, k, more, share, ratio, bound, pairs, pairs_below_chance
    )
    return check, _notes(check)


def _notes(c: Lemma2Check) -> tuple[Note, ...]:
    """Notes, with the data's numbers, for what fails."""
    notes: list[Note] = []
    chance = math.nan if c.chance is None else c.chance
    classes = 0 if c.n_classes is None else c.n_classes
    if c.holds is False and c.agreement is not None:
        values = {"agreement": c.agreement, "chance": chance, "classes": classes}
        notes.append(Note("lemma2_fails", values))
    if c.pairs_below_chance and c.pairs is not None:
        counts = {"count": c.pairs_below_chance, "pairs": c.pairs, "chance": chance}
        notes.append(Note("pairs_below_chance", counts))
    if c.more_raters_than_classes is False and c.labels_per_item is not None:
        if c.share_more_raters:
            share = {"share": c.share_more_raters, "classes": classes}
            notes.append(Note("few_items_more_raters_than_classes", share))
        else:
            raters = {"raters": c.labels_per_item, "classes": classes}
            notes.append(Note("raters_not_above_classes", raters))
    return tuple(notes)
