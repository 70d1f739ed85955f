"""Weak identification of a pilot's estimates: estimates on the boundary, and estimates the pilot
leaves loose.

Two checks, both cheap (they read the point estimates and the bootstrap replicates the plan already
has):

* **boundary** — a parameter within :data:`EDGE` of the edge of its range (p_w, p_b⁰, p_b¹ at 0 or
  1; q_b, q_w at ½ — the fit keeps label accuracies ≥ ½ — or 1). At a boundary maximum the likelihood
  is not curved in the usual way, bootstrap ranges lose their coverage and the estimate is often
  where EM stopped, not where the truth is (a crowd at accuracy 0.6 with 3 labels per item puts
  p_b⁰ at 1.0 against a truth near 0.55);
* **loose** — the bootstrap range of a parameter (its ``level`` percentile interval) is wider than
  :data:`WIDE`: the pilot pins it down no better than ± 0.1 on a probability scale, coarser than the
  differences of a few hundredths the budget turns on (a flat likelihood; e.g. q_w when the worse
  model is rarely the only one right, as with p_w = 0.85);
* **flat** — without a bootstrap (``bootstrap=0``), the Wald range from the observed information
  (:mod:`humanly.budget.information`) is wider than :data:`WIDE`, or unbounded (the information is
  singular along the parameter): the same signal, read off the curvature of the log-likelihood at
  the fit instead of the bootstrap (a crowd right 60 % of the time with 3 labels per item leaves
  every parameter flat while EM stops at an interior point that looks like any other estimate).

A flagged plan carries the flagged parameters (:class:`WeakEstimate`, each with its reason code);
the plan's verdict says what they mean in words (:func:`humanly.verdicts.pilot.weak_sentence`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._core.result import Interval, Result
from .models import CorrelatedErrors

__all__ = ["EDGE", "WIDE", "WeakEstimate", "weak_estimates"]

#: a parameter this close to an edge of its range is on the boundary
EDGE = 1e-3
#: a bootstrap range wider than this makes a parameter loosely identified
WIDE = 0.2

_BOUNDS = {
    "q_b": (0.5, 1.0),
    "q_w": (0.5, 1.0),
    "p_w": (0.0, 1.0),
    "p_b0": (0.0, 1.0),
    "p_b1": (0.0, 1.0),
}


@dataclass(frozen=True, repr=False)
class WeakEstimate(Result):
    """A parameter of the pilot's estimate that the pilot identifies weakly.

    Parameters
    ----------
    parameter : str
        ``q_b``, ``q_w``, ``p_w``, ``p_b0`` or ``p_b1``.
    estimate : float
        The point estimate.
    reason : {"boundary", "loose", "flat"}
        On the edge of its range, a bootstrap range wider than :data:`WIDE`, or (without a
        bootstrap) a Wald range from the observed information wider than :data:`WIDE`.
    interval : Interval
        Its bootstrap range, or for ``"flat"`` its Wald range (both ends ``None`` when there is
        none, or when the information is singular along the parameter).

    Examples
    --------
    >>> WeakEstimate("p_b0", 1.0, "boundary", Interval(None, None)).reason
    'boundary'
    """

    parameter: str
    estimate: float
    reason: str
    interval: Interval


def weak_estimates(
    est: CorrelatedErrors,
    intervals: dict[str, Interval],
    bootstrap: int,
    information: dict[str, Interval] | None = None,
) -> tuple[WeakEstimate, ...]:
    """The parameters on the boundary of their range, with a bootstrap range wider than
    :data:`WIDE`, or — without a bootstrap — with a Wald range from the observed information wider
    than :data:`WIDE` (or unbounded), in the order q_b, q_w, p_w, p_b0, p_b1.

    Parameters
    ----------
    est : CorrelatedErrors
        The point estimates.
    intervals : dict
        Parameter name → its bootstrap interval.
    bootstrap : int
        The bootstrap replicates behind the ranges (0: the boundary and ``information``).
    information : dict, optional
        Parameter name → its Wald range from the observed information, read when ``bootstrap`` is 0.

    Returns
    -------
    tuple of WeakEstimate
        The flagged parameters (empty when none is).

    Examples
    --------
    >>> est = CorrelatedErrors(q_b=0.8, q_w=0.7, p_w=0.7, p_b0=1.0, p_b1=0.9, check=False)
    >>> [w.parameter for w in weak_estimates(est, {}, 0)]
    ['p_b0']
    """
    out = []
    for name, (low, high) in _BOUNDS.items():
        value = float(getattr(est, name))
        if not math.isfinite(value):
            continue
        rng = intervals.get(name, Interval(None, None)) if bootstrap else Interval(None, None)
        wald = (information or {}).get(name) if not bootstrap else None
        if value <= low + EDGE or value >= high - EDGE:
            out.append(WeakEstimate(name, value, "boundary", rng))
        elif rng.width is not None and rng.width > WIDE:
            out.append(WeakEstimate(name, value, "loose", rng))
        elif wald is not None and (wald.width is None or wald.width > WIDE):
            out.append(WeakEstimate(name, value, "flat", wald))
    return tuple(out)
