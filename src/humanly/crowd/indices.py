"""Why κ can be low while raters agree: prevalence and bias indices, PABAK, and the kappa paradox.

For two raters and two classes, Byrt, Bishop & Carlin (1993) split Cohen's κ into three numbers from
the 2 × 2 table ``[[a, b], [c, d]]`` of the items both rated (n of them):

* the prevalence index ``PI = (a − d) / n`` — how far the classes are from equally common;
* the bias index ``BI = (b − c) / n`` — how differently the two raters use the classes;
* PABAK, the prevalence-adjusted bias-adjusted κ, ``2 p_o − 1`` (``(q p_o − 1)/(q − 1)`` for q classes:
  Brennan–Prediger's coefficient on those items);

and ``κ = (PABAK − PI² + BI²) / (1 − PI² + BI²)``. A large ``|PI|`` (one class dominates) pulls κ down even
when raters agree on most items: the *kappa paradox* (Feinstein & Cicchetti 1990). :func:`paradox` flags
it — raw agreement at least ``paradox_agreement`` while κ is at most ``paradox_kappa`` — with the numbers
that explain it: the share of the most common class, the chance agreement it implies, and Gwet's AC1,
which does not fall with prevalence.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._core.result import Result

__all__ = ["Paradox", "TwoRaters", "paradox", "two_raters"]


@dataclasses.dataclass(frozen=True, repr=False)
class TwoRaters(Result):
    """Prevalence and bias indices and PABAK for two named raters (Byrt, Bishop & Carlin 1993).

    Parameters
    ----------
    raters : tuple of str
        The two raters: the table's rows are the first, its columns the second.
    items : int
        Items both raters labelled (the table's total).
    table : tuple of tuple of int
        The q × q table of those items, classes in order.
    agreement : float
        Observed agreement ``p_o`` on those items.
    kappa : float
        Cohen's κ of the table (equals the family's ``cohen_kappa`` when neither rater misses an item).
    pabak : float
        ``(q p_o − 1) / (q − 1)``; ``2 p_o − 1`` for two classes.
    prevalence_index, bias_index : float
        ``(a − d)/n`` and ``(b − c)/n`` for two classes (NaN for more).

    Examples
    --------
    >>> t = two_raters(np.array([[40, 5], [3, 2]]), ("A", "B"))
    >>> round(t.kappa, 4), round(t.pabak, 4), t.prevalence_index, t.bias_index
    (0.2453, 0.68, 0.76, 0.04)

    References
    ----------
    Byrt, T., Bishop, J., & Carlin, J. B. (1993). Bias, prevalence and kappa. *Journal of Clinical
    Epidemiology*, 46(5), 423–429.
    """

    raters: tuple[str, ...]
    items: int
    table: tuple[tuple[int, ...], ...]
    agreement: float
    kappa: float
    pabak: float
    prevalence_index: float
    bias_index: float


def two_raters(table: np.ndarray, raters: tuple[str, str]) -> TwoRaters:
    """The indices of a q × q table of two raters' labels (rows: first rater; columns: second).

    Parameters
    ----------
    table : numpy.ndarray
        Counts of the items both raters labelled.
    raters : tuple of str
        The two raters' ids.

    Returns
    -------
    TwoRaters

    Examples
    --------
    >>> two_raters(np.array([[5, 0], [0, 5]]), ("A", "B")).kappa
    1.0

    References
    ----------
    Byrt, T., Bishop, J., & Carlin, J. B. (1993). Bias, prevalence and kappa. *Journal of Clinical
    Epidemiology*, 46(5), 423–429.
    """
    t = np.asarray(table, dtype=float)
    q = len(t)
    n = float(t.sum())
    nan = math.nan
    if n == 0:
        cells = tuple(tuple(int(v) for v in row) for row in t)
        return TwoRaters(tuple(raters), 0, cells, nan, nan, nan, nan, nan)
    po = float(np.trace(t)) / n
    pe = float((t.sum(axis=1) / n) @ (t.sum(axis=0) / n))
    kappa = (po - pe) / (1.0 - pe) if pe < 1.0 else nan
    pabak = (q * po - 1.0) / (q - 1.0)
    pi = (t[0, 0] - t[1, 1]) / n if q == 2 else nan
    bi = (t[0, 1] - t[1, 0]) / n if q == 2 else nan
    cells = tuple(tuple(int(v) for v in row) for row in t)
    return TwoRaters(tuple(raters), int(n), cells, po, kappa, pabak, float(pi), float(bi))


@dataclasses.dataclass(frozen=True, repr=False)
class Paradox(Result):
    """The kappa paradox, as data: κ is low while raw agreement is high, and the numbers that explain it.

    Parameters
    ----------
    flagged : bool
        ``agreement ≥ threshold_agreement`` and ``kappa ≤ threshold_kappa``.
    kappa_name : str
        The κ looked at (``cohen_kappa`` for two named raters, else ``fleiss_kappa``).
    kappa, agreement, chance_agreement : float
        κ, the percent agreement and κ's chance agreement.
    top_class, top_share : str, float
        The most common class and its share of all labels.
    gwet_ac : float
        Gwet's AC1 on the same data (AC2 when weighted; NaN when not computed).
    pabak, prevalence_index, bias_index : float
        For two raters (NaN otherwise; the indices need two classes).
    threshold_agreement, threshold_kappa : float
        The thresholds used (``AgreementOptions.paradox_agreement`` and ``paradox_kappa``).

    Examples
    --------
    >>> p = paradox(kappa=0.26, kappa_name="cohen_kappa", agreement=0.84, chance=0.78,
    ...             classes=("yes", "no"), shares=np.array([0.86, 0.14]), gwet_ac=0.80,
    ...             pair=None, thresholds=(0.8, 0.4))
    >>> p.flagged, p.top_class
    (True, 'yes')

    References
    ----------
    Feinstein, A. R., & Cicchetti, D. V. (1990). High agreement but low kappa: I. The problems of two
    paradoxes. *Journal of Clinical Epidemiology*, 43(6), 543–549.
    """

    flagged: bool
    kappa_name: str
    kappa: float
    agreement: float
    chance_agreement: float
    top_class: str
    top_share: float
    gwet_ac: float
    pabak: float
    prevalence_index: float
    bias_index: float
    threshold_agreement: float
    threshold_kappa: float


def paradox(
    *,
    kappa: float,
    kappa_name: str,
    agreement: float,
    chance: float,
    classes: tuple[Any, ...],
    shares: np.ndarray,
    gwet_ac: float,
    pair: TwoRaters | None,
    thresholds: tuple[float, float],
) -> Paradox:
    """Check for the kappa paradox.

    Parameters
    ----------
    kappa, kappa_name, agreement, chance : float, str, float, float
        The κ looked at, its name, the percent agreement and κ's chance agreement.
    classes : tuple
        The classes; ``shares`` their shares of all labels.
    shares : numpy.ndarray
        Each class's share of all labels.
    gwet_ac : float
        Gwet's AC1 or AC2 (NaN when not computed).
    pair : TwoRaters or None
        The two-rater indices, when there are two named raters.
    thresholds : tuple of float
        ``(agreement at least, κ at most)`` for the flag.

    Returns
    -------
    Paradox

    Examples
    --------
    >>> paradox(kappa=0.7, kappa_name="fleiss_kappa", agreement=0.9, chance=0.6, classes=(0, 1),
    ...         shares=np.array([0.6, 0.4]), gwet_ac=0.8, pair=None, thresholds=(0.8, 0.4)).flagged
    False

    References
    ----------
    Feinstein, A. R., & Cicchetti, D. V. (1990). High agreement but low kappa: I. The problems of two
    paradoxes. *Journal of Clinical Epidemiology*, 43(6), 543–549.
    """
    top = int(np.argmax(shares))
    high, low = thresholds
    flagged = bool(
        math.isfinite(kappa) and math.isfinite(agreement) and agreement >= high and kappa <= low
    )
    nan = math.nan
    return Paradox(
        flagged=flagged,
        kappa_name=kappa_name,
        kappa=float(kappa),
        agreement=float(agreement),
        chance_agreement=float(chance),
        top_class=str(classes[top]),
        top_share=float(shares[top]),
        gwet_ac=float(gwet_ac),
        pabak=pair.pabak if pair is not None else nan,
        prevalence_index=pair.prevalence_index if pair is not None else nan,
        bias_index=pair.bias_index if pair is not None else nan,
        threshold_agreement=float(high),
        threshold_kappa=float(low),
    )
