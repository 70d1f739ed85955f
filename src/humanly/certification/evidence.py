"""What a certificate says, typed for a report to phrase: the verdict (``status``), why (``reason``) and
what it would take (``items_needed``).

The confidence S = 1 − δ_u − δ_l of Theorem 7 is a union bound: it is negative when the finite-sample
deviations cannot both fit inside the margin L_N − U_N − τ at this N. Such an S is reported as is (the
JSON keeps it), and the :class:`Evidence` says ``no_evidence`` ("no evidence (S < 0)") rather than
letting a reader compare a negative confidence with a positive margin.

====================  ====================================  ========================================
``status``            in words                              when
====================  ====================================  ========================================
``certified``         certified                             S_OMS ≥ level
``not_certified``     not certified                         0 ≤ S_OMS < level
``no_evidence``       no evidence (S < 0)                   S_OMS < 0: the deviations at this N
                                                            exceed the margin
``not_applicable``    not applicable (L_N ≤ U_N + τ)        no margin: no t_u is admissible, S is
                                                            not defined
====================  ====================================  ========================================

``reason`` is one of :data:`REASONS`. No sentence is built here: :mod:`humanly.verdicts.certify`
words the status (``status_text``) and phrases the verdict with its numbers.

>>> from humanly.certification import certify_summary
>>> e = certify_summary([0.971], 0.939, 1821).models[0].evidence
>>> e.status, e.reason, e.items_needed
('not_certified', 'margin_small_for_n', 4149)
"""

from __future__ import annotations

import dataclasses

from .._core.result import Result
from .confidence_score import ConfidenceScore

__all__ = ["REASONS", "STATUSES", "Evidence", "evidence_of"]

CERTIFIED = "certified"
NOT_CERTIFIED = "not_certified"
NO_EVIDENCE = "no_evidence"
NOT_APPLICABLE = "not_applicable"

#: every ``Evidence.status``, strongest first
STATUSES: tuple[str, ...] = (CERTIFIED, NOT_CERTIFIED, NO_EVIDENCE, NOT_APPLICABLE)

#: every ``Evidence.reason`` with what it means
REASONS: dict[str, str] = {
    "confidence_reached": "S_OMS ≥ level",
    "margin_small_for_n": "the margin is positive but too small for the finite-sample deviations at "
    "this N; items_needed items would certify it",
    "deviations_exceed_margin": "S_OMS < 0: at this N the deviations δ_u and δ_l cannot both be small "
    "inside the margin; items_needed items would certify it",
    "no_margin": "L_N ≤ U_N + τ: no number of items certifies",
    "rate_too_low": "exact bound: the success rate behind L_N is ≤ U_N + τ, so no number of items "
    "certifies (the exact tail concentrates at the success rate)",
    "needs_more_than_n_max": "more items than humanly searches (10¹²) would be needed",
}


@dataclasses.dataclass(frozen=True, repr=False)
class Evidence(Result):
    """A certificate's verdict, as data for a report to phrase (no sentence is built here).

    Parameters
    ----------
    status : str
        One of :data:`STATUSES`: ``"certified"`` (S_OMS ≥ level), ``"not_certified"``
        (0 ≤ S_OMS < level), ``"no_evidence"`` (S_OMS < 0) or ``"not_applicable"``
        (L_N ≤ U_N + τ).
    reason : str
        Why, a key of :data:`REASONS` (e.g. ``"margin_small_for_n"``).
    confidence : float or None
        S_OMS (Theorem 7), as computed (it may be negative); ``None`` when not applicable.
    level : float
        The level S_OMS is compared with.
    margin : float
        L_N − U_N − τ.
    n : int
        The items behind L_N.
    items_needed : int or None
        The smallest N (behind both bounds) that would certify the same L_N and U_N
        (:func:`~humanly.certification.items_needed`); ``None`` when no N does.

    Examples
    --------
    >>> e = Evidence("no evidence (S < 0)", "deviations_exceed_margin", -0.15, 0.95, 0.01, 300, 2100)
    >>> e.to_dict()["reason"], e.certified
    ('deviations_exceed_margin', False)
    """

    status: str
    reason: str
    confidence: float | None
    level: float
    margin: float
    n: int
    items_needed: int | None

    @property
    def certified(self) -> bool:
        """Whether the status is ``"certified"``.

        Examples
        --------
        >>> Evidence("certified", "confidence_reached", 0.99, 0.95, 0.04, 1000, 700).certified
        True
        """
        return self.status == CERTIFIED


def evidence_of(
    conf: ConfidenceScore,
    *,
    level: float,
    margin: float,
    n: int,
    items_needed: int | None,
    reachable: bool,
) -> Evidence:
    """The :class:`Evidence` of a confidence score at ``level``; ``margin`` is L_N − U_N − τ,
    ``reachable`` whether some N certifies (:func:`~humanly.certification.needed.reachable`).

    >>> from humanly.certification import hoeffding_tail
    >>> from humanly.certification.confidence_score import confidence
    >>> t = hoeffding_tail(300)
    >>> c = confidence(0.83, 0.8182, t, t)
    >>> e = evidence_of(c, level=0.95, margin=0.0118, n=300, items_needed=None, reachable=True)
    >>> round(e.confidence, 4), e.status
    (-0.797, 'no_evidence')
    """
    s = conf.oms
    if not conf.admissible or s is None:
        status, reason = NOT_APPLICABLE, "no_margin"
    elif s >= level:
        status, reason = CERTIFIED, "confidence_reached"
    else:
        status = NOT_CERTIFIED if s >= 0 else NO_EVIDENCE
        if not reachable:
            reason = "rate_too_low"
        elif items_needed is None:
            reason = "needs_more_than_n_max"
        else:
            reason = "margin_small_for_n" if s >= 0 else "deviations_exceed_margin"
    return Evidence(status, reason, s, level, margin, n, items_needed)
