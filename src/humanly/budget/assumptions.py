"""The parts of a pilot plan that carry uncertainty: the parameters' bootstrap ranges and the tests of
the paper's assumptions 1 and 2 (each decided by the sign of one quantity, with its 95% percentile
bootstrap interval and a verdict), and the share of replicates choosing each latent variant."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.bootstrap import percentile_interval
from .._core.result import Interval, Result
from .latent import LATENT_VARIANTS
from .models import CorrelatedErrors
from .pilot import Pilot

__all__ = [
    "AGAINST",
    "CONSISTENT",
    "UNTESTED",
    "UNTESTED_REASONS",
    "Assumption2",
    "AssumptionTest",
    "Assumptions",
    "ParameterIntervals",
    "VariantShare",
]

_PARAMS = ("q_b", "q_w", "p_w", "p_b0", "p_b1")
#: Verdicts of an :class:`AssumptionTest`.
CONSISTENT = "consistent"
AGAINST = "evidence_against"
UNTESTED = "untested"
#: Why an :class:`AssumptionTest` is untested (its ``reason``; the sentence of each is written by
#: :func:`humanly.verdicts.pilot.assumption_sentence`).
UNTESTED_REASONS = ("no_bootstrap", "no_replicate", "too_few_labels", "undefined")


@dataclass(frozen=True, repr=False)
class ParameterIntervals(Result):
    """95% percentile bootstrap intervals of the correlated error model's parameters.

    An estimate's own value is at both ends when no replicate defines it.

    Parameters
    ----------
    q_b, q_w, p_w, p_b0, p_b1 : Interval
        The range of each parameter.

    Examples
    --------
    >>> r = ParameterIntervals(*(Interval(0.6, 0.8) for _ in range(5)))
    >>> r.items()[0]
    ('q_b', Interval(low=0.6, high=0.8))
    """

    q_b: Interval
    q_w: Interval
    p_w: Interval
    p_b0: Interval
    p_b1: Interval

    def items(self) -> tuple[tuple[str, Interval], ...]:
        """The (parameter, range) pairs in the order q_b, q_w, p_w, p_b0, p_b1.

        Returns
        -------
        tuple of (str, Interval)
            One pair per parameter.

        Examples
        --------
        >>> r = ParameterIntervals(*(Interval(0.6, 0.8) for _ in range(5)))
        >>> [k for k, _ in r.items()]
        ['q_b', 'q_w', 'p_w', 'p_b0', 'p_b1']
        """
        return tuple((k, getattr(self, k)) for k in _PARAMS)


@dataclass(frozen=True, repr=False)
class VariantShare(Result):
    """The share of bootstrap replicates whose fit selected one latent variant.

    Parameters
    ----------
    variant : str
        The latent variant.
    share : float
        The share of replicates that selected it.

    Examples
    --------
    >>> VariantShare("simple", 0.97).to_dict()
    {'variant': 'simple', 'share': 0.97}
    """

    variant: str
    share: float


@dataclass(frozen=True, repr=False)
class Assumption2(Result):
    """Assumption 2 (eq. 3) for one m > 1 at the point estimates (see :class:`AssumptionTest`).

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    holds : bool
        Whether the point estimates satisfy it (also when it cannot be computed).

    Examples
    --------
    >>> Assumption2(3, True).to_dict()
    {'labels_per_item': 3, 'holds': True}
    """

    labels_per_item: int
    holds: bool


@dataclass(frozen=True, repr=False)
class AssumptionTest(Result):
    """One of the paper's assumptions tested on the pilot.

    Parameters
    ----------
    name : str
        ``assumption1`` or ``assumption2_m<m>``.
    labels_per_item : int or None
        Labels per item (assumption 2), None for assumption 1.
    quantity : str
        What decides it: the assumption holds when it is ≥ 0.
    estimate : float or None
        Its value at the point estimates (None when it cannot be computed).
    interval : Interval
        Its 95% percentile bootstrap interval.
    verdict : str
        "evidence_against" (the whole 95% interval below 0), "consistent" (otherwise) or
        "untested" (no interval).
    reason : str, optional
        Why it is untested, one of :data:`UNTESTED_REASONS`: ``"no_bootstrap"`` (``bootstrap=0``),
        ``"no_replicate"`` (no bootstrap replicate defines it), ``"too_few_labels"`` (no pilot item
        has m labels; ``most_labels`` is the most one has) or ``"undefined"`` (it cannot be computed
        on this pilot).
    most_labels : int, optional
        With ``reason="too_few_labels"``: the most labels a pilot item has.

    Examples
    --------
    >>> t = AssumptionTest("assumption1", None, "q_b − q_w", 0.02, Interval(-0.01, 0.05), "consistent")
    >>> t.verdict, t.reason
    ('consistent', None)

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Assumptions 1–2.
    """

    name: str
    labels_per_item: int | None
    quantity: str
    estimate: float | None
    interval: Interval
    verdict: str
    reason: str | None = None
    most_labels: int | None = None


@dataclass(frozen=True, repr=False)
class Assumptions(Result):
    """The paper's assumptions on the pilot: 1 (q_b ≥ q_w) and 2 (eq. 3) for every m > 1.

    JSON also holds one flat key ``assumption2_m<m>`` per m (the point estimate's answer).

    Parameters
    ----------
    assumption1 : bool
        q_b ≥ q_w at the point estimates.
    assumption2 : tuple of Assumption2
        Assumption 2 per m at the point estimates.
    tests : tuple of AssumptionTest
        Every assumption tested with its uncertainty.

    Examples
    --------
    >>> a = Assumptions(True, (Assumption2(3, False),))
    >>> a.checks(), a.to_dict()["assumption2_m3"]
    ((('assumption1', True), ('assumption2_m3', False)), False)
    """

    assumption1: bool
    assumption2: tuple[Assumption2, ...] = ()
    tests: tuple[AssumptionTest, ...] = ()

    def checks(self) -> tuple[tuple[str, bool], ...]:
        """Each check at the point estimates.

        Returns
        -------
        tuple of (str, bool)
            (name, holds): ``assumption1``, ``assumption2_m3``, …

        Examples
        --------
        >>> Assumptions(True).checks()
        (('assumption1', True),)
        """
        second = ((f"assumption2_m{a.labels_per_item}", a.holds) for a in self.assumption2)
        return (("assumption1", self.assumption1), *second)

    def verdicts(self) -> tuple[tuple[str, str], ...]:
        """Each test's verdict.

        Returns
        -------
        tuple of (str, str)
            (name, verdict), e.g. ``("assumption1", "consistent")``.

        Examples
        --------
        >>> t = AssumptionTest("assumption1", None, "q_b − q_w", 0.1, Interval(0.0, 0.2), "consistent")
        >>> Assumptions(True, (), (t,)).verdicts()
        (('assumption1', 'consistent'),)
        """
        return tuple((t.name, t.verdict) for t in self.tests)

    def to_dict(self) -> dict[str, Any]:
        """The fields, plus one flat key ``assumption2_m<m>`` per m (the JSON contract)."""
        out = super().to_dict()
        out.update({f"assumption2_m{a.labels_per_item}": bool(a.holds) for a in self.assumption2})
        return out


# ------------------------------------------------------------------------------ from a pilot
def variant_shares(reps: list[dict[str, float]]) -> tuple[VariantShare, ...]:
    """The share of replicates per selected latent variant (variants never selected left out)."""
    picked = [int(r["variant"]) for r in reps if "variant" in r]
    names = tuple(LATENT_VARIANTS)
    return tuple(VariantShare(names[i], picked.count(i) / len(picked)) for i in sorted(set(picked)))


def _interval(values: list[float]) -> Interval:
    return percentile_interval(np.array(values, dtype=float), 0.95, method="linear")


def parameter_intervals(est: CorrelatedErrors, reps: list[dict[str, float]]) -> ParameterIntervals:
    """The bootstrap ranges of the five parameters (the estimate at both ends when undefined)."""
    out = {}
    for k in _PARAMS:
        low, high = _interval([r[k] for r in reps])
        value = getattr(est, k)
        out[k] = Interval(value, value) if low is None or high is None else Interval(low, high)
    return ParameterIntervals(**out)


def assumption1_share(est: CorrelatedErrors, reps: list[dict[str, float]]) -> float:
    """The share of bootstrap replicates with q_b ≥ q_w (among those defining both); the point
    estimate's answer without replicates."""
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
    most_labels: int | None = None,
) -> AssumptionTest:
    """An :class:`AssumptionTest` from the point value and the replicates' values (``most_labels``:
    the most labels a pilot item has, when fewer than ``m`` leave the point value NaN)."""
    point = float(estimate) if np.isfinite(estimate) else None
    interval = _interval(values) if bootstrap else Interval(None, None)
    if point is None:
        few = most_labels is not None and m is not None and most_labels < m
        reason = "too_few_labels" if few else "undefined"
        empty = Interval(None, None)
        return AssumptionTest(
            name, m, quantity, None, empty, UNTESTED, reason, most_labels if few else None
        )
    if interval.low is None or interval.high is None:
        reason = "no_bootstrap" if not bootstrap else "no_replicate"
        return AssumptionTest(name, m, quantity, point, interval, UNTESTED, reason)
    verdict = AGAINST if interval.high < 0 else CONSISTENT
    return AssumptionTest(name, m, quantity, point, interval, verdict)


def check_assumptions(
    pilot: Pilot, ms: tuple[int, ...], bootstrap: int, most_labels: int
) -> Assumptions:
    """Assumption 1 and assumption 2 for every m of ``ms`` (all > 1) on a pilot."""
    est, reps = pilot.estimates, pilot.replicates
    first = [r["q_b"] - r["q_w"] for r in reps]
    tests = [_test("assumption1", None, "q_b − q_w", est.q_b - est.q_w, first, bootstrap)]
    second = []
    for m in ms:
        value = pilot.assumption2[m]
        second.append(Assumption2(m, not bool(value < -1e-12)))
        quantity = f"(1 − p_w)p_b⁰/(p_w(1 − p_b¹))·(M_{m}(q_b) − E_b) − (M_{m}(q_w) − E_w)"
        values = [r[f"a2_m{m}"] for r in reps]
        tests.append(_test(f"assumption2_m{m}", m, quantity, value, values, bootstrap, most_labels))
    return Assumptions(bool(est.q_b >= est.q_w), tuple(second), tuple(tests))
