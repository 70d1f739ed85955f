"""Planning the next evaluation from a pilot: how many items to send to human raters and how many to
the judge only, for the most money to spend (``max_cost``) or a target interval width (ppi-python's
``ppi_mean_power``), for every estimand of a :class:`~humanly.judging.JudgeResult`, and what human
labels alone would give for the same money.

From the pilot each estimand keeps two numbers: ρ, the correlation between the human reference and the
judge's score on the labelled items (clipped at 1 − 1/n, as ppi-python does), and σ, the standard
deviation of the human reference. With n human-labelled and N judge-only items, PPI++ with its best λ
has the standard error of n(n + N)/(n + (1 − ρ²)N) human labels alone; the solver picks the cheapest
(n, N) for a target width (2·z·σ/√n_eff ≤ width) or the most powerful one costing at most
``max_cost``, where a human
label costs ``cost_human`` and a judge call ``cost_judge`` (the judge labels every item, n + N calls).

Unlike ppi-python, a judge whose correlation with the reference is negative buys nothing here: the
estimators clip λ̂ to [0, 1] (as ppi-python's ``ppi_mean_ci`` does), so such a judge is planned with
ρ = 0 (ppi-python's ``ppi_mean_power`` would use ρ², a saving the clipped estimator cannot deliver).

References
----------
Angelopoulos, Duchi & Zrnic, "PPI++: Efficient prediction-powered inference", arXiv:2311.01453 (2023).
Broska, Howes & van Loon, "The mixed subjects design: treating large language models as (potentially)
informative observations", SocArXiv (2024).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_number
from .._core.result import Note, Result
from ..errors import InputError, setting
from ._ppi import PowerPair, power, z_value
from ._strata import allocate
from .extended import StrataAllocation

__all__ = ["LabelPlan", "Pilot", "PlannedEstimand", "plan_labels"]


@dataclasses.dataclass(frozen=True)
class Pilot:
    """What planning needs from one estimand of a pilot (built by ``JudgeResult.pilot()``).

    Parameters
    ----------
    estimand : str
        The model, or ``"a − b"``.
    kind : str
        ``"accuracy"`` or ``"difference"``.
    models : tuple of str
        The models it is about.
    correlation : float or None
        ρ between the human reference and the judge's score (``None`` when undefined).
    sd : float
        σ, the standard deviation of the human reference.
    n : int
        The pilot's labelled items.
    strata : tuple of (str, float, float, float or None)
        With strata, each stratum's name, share, σ and ρ (for the Neyman allocation of the plan's
        human labels across strata).

    Examples
    --------
    >>> Pilot("m", "accuracy", ("m",), 0.5, 0.4, 100).n
    100
    """

    estimand: str
    kind: str
    models: tuple[str, ...]
    correlation: float | None
    sd: float
    n: int
    strata: tuple[tuple[str, float, float, float | None], ...] = ()


@dataclasses.dataclass(frozen=True, repr=False)
class PlannedEstimand(Result):
    """The plan for one estimand.

    Parameters
    ----------
    estimand, kind, models : str, str, tuple of str
        The model (accuracy) or the pair ``"a − b"`` (difference) planned for.
    correlation : float
        The ρ used (the pilot's, clipped to [0, 1 − 1/n]).
    n_human, n_judge : int or None
        Items to send to human raters (they are judged too) and items the judge alone labels.
    cost : float or None
        ``n_human · cost_human + (n_human + n_judge) · cost_judge``.
    effective_n : int or None
        The number of human labels alone with the same standard error (ppi-python's rounding).
    width : float or None
        The expected width of the interval at ``level`` with this plan (2·z·σ/√n_eff).
    human_n, human_width : int or None, float or None
        What human labels alone give for the same money (``floor(money / cost_human)`` labels) and
        their interval's expected width.
    capped : bool
        Whether ``n_max`` limited the plan.

    Examples
    --------
    >>> p = PlannedEstimand("m", "accuracy", ("m",), 0.5, 90, 400, 94.0, 110, 0.1, 94, 0.11, False)
    >>> p.n_judge
    400
    """

    estimand: str
    kind: str
    models: tuple[str, ...]
    correlation: float
    n_human: int | None
    n_judge: int | None
    cost: float | None
    effective_n: int | None
    width: float | None
    human_n: int | None
    human_width: float | None
    capped: bool


@dataclasses.dataclass(frozen=True, repr=False)
class LabelPlan(Result):
    """How many items to send to human raters and to the judge, per estimand
    (:meth:`humanly.judging.JudgeResult.plan`).

    Parameters
    ----------
    cost_human, cost_judge : float
        The cost of one human label and of one judge call.
    max_cost, target_width : float or None
        What was planned for (one of them): the most to spend, in the units of the costs, or the
        interval width to reach.
    n_max : int or None
        The most items available (n + N ≤ n_max), if any.
    level : float
        The level of the planned intervals.
    estimands : tuple of PlannedEstimand
        One plan per estimand of the pilot.
    notes : tuple of str
        Estimands that could not be planned, and why.
    allocation : StrataAllocation or None
        With strata, the plan's human labels (the most any estimand needs) split across the strata
        by the Neyman allocation (n_k ∝ w_k·√(Σ_e σ_ke²(1 − ρ_ke²)): the pilot's spread and
        correlation in each stratum, summed over the estimands), beside the proportional split.

    Examples
    --------
    >>> pilot = [Pilot("m", "accuracy", ("m",), 0.5238095238095241, 0.4, 100)]
    >>> plan = plan_labels(pilot, 1.0, 0.01, max_cost=100)
    >>> e = plan.estimands[0]
    >>> e.n_human, e.n_judge, e.effective_n, e.human_n
    (94, 485, 122, 100)
    """

    cost_human: float
    cost_judge: float
    max_cost: float | None
    target_width: float | None
    n_max: int | None
    level: float
    estimands: tuple[PlannedEstimand, ...]
    notes: tuple[Note, ...] = ()
    allocation: StrataAllocation | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per estimand."""
        rows = [e.to_dict() for e in self.estimands]
        for row in rows:
            row["models"] = ", ".join(row["models"])
        return pd.DataFrame(rows)


def _checked(
    cost_human: object, cost_judge: object, max_cost: object, target_width: object, n_max: object
) -> tuple[float, float, float | None, float | None, int | None]:
    ch = float(check_number("cost_human", cost_human, minimum=0, open_low=True))
    cj = float(check_number("cost_judge", cost_judge, minimum=0, open_low=True))
    if max_cost is None and target_width is None:
        raise InputError(
            f"{setting('max_cost', None)}, {setting('target_width', None)}: give a max_cost or a "
            "target interval width"
        )
    if max_cost is not None and target_width is not None:
        raise InputError(
            f"{setting('max_cost')} and {setting('target_width')}: give one of them, not both"
        )
    b = check_number("max_cost", max_cost, minimum=0, open_low=True, allow_none=True)
    if b is not None and b < 2 * ch:
        raise InputError(
            f"{setting('max_cost', b)}: buys fewer than 2 human labels at "
            f"{setting('cost_human', format(ch, 'g'), raw=True)}; give a max_cost of at least "
            f"{2 * ch:g}"
        )
    w = check_number("target_width", target_width, minimum=0, open_low=True, allow_none=True)
    m = check_int("n_max", n_max, minimum=2, allow_none=True)
    return ch, cj, (None if b is None else float(b)), (None if w is None else float(w)), m


def _width(z: float, sd: float, n: int, big_n: int, rho: float) -> float | None:
    if n <= 0:
        return None
    return 2 * z * sd * math.sqrt((n + (1 - rho**2) * big_n) / (n * (n + big_n)))


def _one(
    p: Pilot,
    ch: float,
    cj: float,
    max_cost: float | None,
    width: float | None,
    n_max: int | None,
    z: float,
) -> PlannedEstimand:
    rho = min(max(p.correlation or 0.0, 0.0), 1.0 - 1.0 / p.n)
    if max_cost is not None:
        pair = power(rho, ch, cj, max_cost=max_cost, n_max=n_max)
        money = max_cost
    else:
        assert width is not None
        need = max(math.ceil((2 * z * p.sd / width) ** 2 - 1e-9), 2)
        pair = power(rho, ch, cj, effective_n=need, n_max=n_max)
        if pair.n < 2:  # a target so wide that a couple of human labels reach it
            pair = PowerPair(need, 0, need * ch, need, rho)
        money = pair.cost
    human_n = math.floor(money / ch + 1e-9)
    return PlannedEstimand(
        estimand=p.estimand,
        kind=p.kind,
        models=p.models,
        correlation=rho,
        n_human=pair.n,
        n_judge=pair.big_n,
        cost=pair.cost,
        effective_n=pair.effective_n,
        width=_width(z, p.sd, pair.n, pair.big_n, rho),
        human_n=human_n,
        human_width=_width(z, p.sd, human_n, 0, 0.0),
        capped=pair.capped,
    )


def plan_labels(
    pilot: Sequence[Pilot],
    cost_human: float,
    cost_judge: float,
    *,
    max_cost: float | None = None,
    target_width: float | None = None,
    n_max: int | None = None,
    level: float = 0.95,
) -> LabelPlan:
    """The numbers of human-labelled and judge-only items for every estimand of a pilot.

    Usually called as :meth:`humanly.judging.JudgeResult.plan`, which builds ``pilot`` from the
    result.

    Parameters
    ----------
    pilot : sequence of Pilot
        Per estimand: the correlation ρ, the standard deviation σ and n from the pilot.
    cost_human, cost_judge : float
        The cost of a human label and of a judge call (> 0, in the same unit as ``max_cost``).
    max_cost : float, optional
        The most to spend, in the units of the costs (at least two human labels' worth); the most
        powerful plan that costs no more.
    target_width : float, optional
        The width of the interval at ``level`` to reach; the cheapest plan.
    n_max : int, optional
        At most this many items in all (n + N ≤ n_max), e.g. the size of the pool.
    level : float
        The level of the intervals (for ``target_width`` and the widths reported).

    Returns
    -------
    LabelPlan

    Raises
    ------
    InputError
        A cost ≤ 0, neither or both of ``max_cost`` and ``target_width``, a ``max_cost`` that buys
        fewer than two human labels.

    Examples
    --------
    >>> plan = plan_labels([Pilot("m", "accuracy", ("m",), 0.8, 0.4, 200)], 1.0, 0.01,
    ...                    target_width=0.05)
    >>> e = plan.estimands[0]
    >>> e.n_human < e.human_n, round(e.width, 4) <= 0.05
    (True, True)

    References
    ----------
    Angelopoulos, Duchi & Zrnic (2023), PPI++; ppi-python 0.2.3 ``ppi_mean_power``.
    """
    ch, cj, b, w, m = _checked(cost_human, cost_judge, max_cost, target_width, n_max)
    z = z_value(level)
    rows, notes = [], []
    for p in pilot:
        if not p.sd > 0:
            notes.append(Note("constant_reference", {"estimand": p.estimand}))
            continue
        rows.append(_one(p, ch, cj, b, w, m, z))
    allocation = _allocation(pilot, rows)
    return LabelPlan(ch, cj, b, w, m, float(level), tuple(rows), tuple(notes), allocation)


def _allocation(pilot: Sequence[Pilot], rows: list[PlannedEstimand]) -> StrataAllocation | None:
    """The Neyman allocation of the plan's human labels across the pilot's strata (``None``
    without strata, or when the plan has fewer than 2 labels per stratum to give)."""
    stratified = [p for p in pilot if p.strata]
    planned = [r.n_human for r in rows if r.n_human is not None]
    if not stratified or not planned:
        return None
    names = tuple(s[0] for s in stratified[0].strata)
    shares = np.array([s[1] for s in stratified[0].strata], dtype=float)
    sd = np.array([[s[2] for s in p.strata] for p in stratified], dtype=float).T  # K × E
    rho = np.array(
        [[0.0 if s[3] is None else s[3] for s in p.strata] for p in stratified], dtype=float
    ).T
    residual = sd**2 * (1 - np.clip(rho, 0.0, 1.0) ** 2)
    budget = int(max(planned))
    k = len(names)
    if budget < 2 * k:
        return None
    n = allocate(budget, shares, np.sqrt(residual.sum(axis=1)), None, 2)
    prop = allocate(budget, shares, np.zeros(k), None, 2)

    def se(counts: np.ndarray) -> tuple[float, ...]:
        v = (shares[:, None] ** 2 * residual / counts[:, None]).sum(axis=0)
        return tuple(float(x) for x in np.sqrt(v))

    return StrataAllocation(
        names,
        tuple(float(x) for x in shares),
        tuple(int(x) for x in n),
        tuple(int(x) for x in prop),
        se(n),
        se(prop),
        budget,
    )
