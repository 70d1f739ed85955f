"""The parts of a certificate (:class:`~humanly.certification.CertifyResult`): finite-sample bounds,
confidence scores, the verdict under each concentration bound and under each upper bound, the verdicts
valid for all models at once, and the confidence curve S(t_u).

>>> from humanly.certification import certify_summary
>>> res = certify_summary([0.971], 0.939, 1821)
>>> round(res.models[0].finite_lower.value, 4), round(res.finite_upper.value, 4)
(0.9392, 0.9558)
"""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from .._core.result import Result
from ._bounds import Tail
from .confidence_score import ConfidenceScore
from .evidence import Evidence

__all__ = [
    "BoundSummary",
    "Confidence",
    "ConfidenceCurve",
    "FiniteBound",
    "JointConfidence",
    "Simultaneous",
    "UpperVerdict",
]


@dataclasses.dataclass(frozen=True, repr=False)
class FiniteBound(Result):
    """A finite-sample bound: with probability ≥ 1 − ``delta`` the quantity lies on the bound's side
    of ``value``.

    Upper: ``value = sqrt(U_N² + t)`` (Theorem 5, eq. 16); lower: ``value = L_N − t`` (Theorem 6,
    eq. 23).

    Parameters
    ----------
    delta : float
        The failure probability δ.
    t : float
        The deviation δ allows (or the deviation given, δ then following from it).
    value : float or None
        The bound; ``None`` when t is infinite.

    Examples
    --------
    >>> from humanly.certification import hoeffding_tail
    >>> FiniteBound.lower_of(0.971, hoeffding_tail(1821), 0.025)
    FiniteBound(delta=0.025, t=0.0318256, value=0.939174)
    """

    delta: float
    t: float
    value: float | None

    @classmethod
    def upper_of(cls, u2: float, tail: Tail, delta: float, t: float | None = None) -> FiniteBound:
        """Theorem 5 (eq. 16): sqrt(U_N² + t) with t from δ, or δ from a given t.

        Parameters
        ----------
        u2 : float
            U_N².
        tail : Tail
            The concentration bound of U_N².
        delta : float
            The failure probability (ignored when ``t`` is given).
        t : float, optional
            A fixed deviation.

        Returns
        -------
        FiniteBound
            The upper bound.

        Examples
        --------
        >>> from humanly.certification import hoeffding_tail
        >>> round(FiniteBound.upper_of(0.939**2, hoeffding_tail(1821), 0.025).value, 4)
        0.9558
        """
        if t is None:
            t = float(tail.t(delta))
        else:
            delta = tail.delta(t)
        return cls(delta, t, math.sqrt(u2 + t) if math.isfinite(t) else None)

    @classmethod
    def lower_of(
        cls, lower: float, tail: Tail, delta: float, t: float | None = None
    ) -> FiniteBound:
        """Theorem 6 (eq. 23): L_N − t with t from δ, or δ from a given t.

        Parameters
        ----------
        lower : float
            L_N.
        tail : Tail
            The concentration bound of L_N.
        delta : float
            The failure probability (ignored when ``t`` is given).
        t : float, optional
            A fixed deviation.

        Returns
        -------
        FiniteBound
            The lower bound.

        Examples
        --------
        >>> from humanly.certification import hoeffding_tail
        >>> FiniteBound.lower_of(0.971, hoeffding_tail(1821), 0.025, t=0.03).t
        0.03
        """
        if t is None:
            t = float(tail.t(delta))
        else:
            delta = tail.delta(t)
        return cls(delta, t, lower - t if math.isfinite(t) else None)


@dataclasses.dataclass(frozen=True, repr=False)
class Confidence(Result):
    """The confidence S that a model beats the average rater (Theorem 7) under one bound.

    All scores are ``None`` when no t_u is admissible (L_N − τ ≤ U_N).

    Parameters
    ----------
    hms : float or None
        S at the heuristic split (HMS, Algorithm 1); ``None`` also when that t_u is not admissible.
    oms : float or None
        The maximum of S over the admissible t_u (OMS, Algorithm 2).
    t_u, t_l : float or None
        The deviations of the OMS maximum.
    hms_t_u, hms_t_l : float or None
        The deviations of the HMS split.
    t_u_max : float or None
        The end of the admissible range, (L_N − τ)² − U_N².
    admissible : bool
        Whether some t_u is admissible.
    method : str
        How OMS was found.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> round(certify_summary([0.971], 0.939, 1821).models[0].confidence.oms, 4)
    0.6208
    """

    hms: float | None
    oms: float | None
    t_u: float | None
    t_l: float | None
    hms_t_u: float | None
    hms_t_l: float | None
    t_u_max: float | None
    admissible: bool
    method: str

    @classmethod
    def of(cls, c: ConfidenceScore) -> Confidence:
        """The result form of a confidence score.

        Parameters
        ----------
        c : ConfidenceScore
            What :func:`~humanly.certification.confidence_score.confidence` computed.

        Returns
        -------
        Confidence
            The same numbers.

        Examples
        --------
        >>> from humanly.certification import hoeffding_tail
        >>> from humanly.certification.confidence_score import confidence
        >>> t = hoeffding_tail(1821)
        >>> round(Confidence.of(confidence(0.971, 0.939, t, t)).hms, 4)
        0.473
        """
        return cls(
            c.hms, c.oms, c.t_u, c.t_l, c.hms_t_u, c.hms_t_l, c.t_u_max, c.admissible, c.method
        )


@dataclasses.dataclass(frozen=True, repr=False)
class BoundSummary(Result):
    """One model under one concentration bound, at failure probability ``delta`` per side.

    Positive ``certified_margin``: superhuman with probability ≥ 1 − δ_u − δ_l. With a fixed deviation
    (``CertifyOptions.t_u``/``t_l``) the δ of each side follows from it.

    Parameters
    ----------
    bound : str
        ``"hoeffding"``, ``"bernstein"`` or ``"exact"``.
    delta : float
        The failure probability per side asked for.
    finite_upper : FiniteBound
        sqrt(U_N² + t_u).
    finite_lower : FiniteBound
        L_N − t_l.
    certified_margin : float or None
        ``finite_lower − finite_upper``.
    confidence : Confidence
        S under this bound.
    superhuman : bool
        Whether S_OMS ≥ level under this bound.
    items_needed : int or None
        The items that would certify the same L_N and U_N under this bound.
    evidence : Evidence or None
        The verdict under this bound.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> b = certify_summary([0.971], 0.939, 1821).models[0].by_bound["hoeffding"]
    >>> round(b.certified_margin, 4)
    -0.0166
    """

    bound: str
    delta: float
    finite_upper: FiniteBound
    finite_lower: FiniteBound
    certified_margin: float | None
    confidence: Confidence
    superhuman: bool
    items_needed: int | None = None
    evidence: Evidence | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class UpperVerdict(Result):
    """A model's verdict under one upper bound, with the result's concentration bound.

    ``kind`` is ``"empirical"`` U⁽ᵉ⁾ (the paper's choice) or ``"theoretical"`` U⁽ᵗ⁾ (the one Theorem 1
    proves).

    Parameters
    ----------
    kind : str
        Which upper bound.
    upper : float
        Its value, used as U_N.
    n_upper : int
        The items behind it.
    confidence : Confidence
        S with this U_N.
    superhuman : bool
        Whether S_OMS ≥ level.
    items_needed : int or None
        The items that would certify it.
    evidence : Evidence
        The verdict.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> v = certify_summary([0.919], 0.879, 10000, labels_per_item=5).models[0].by_upper["theoretical"]
    >>> round(v.upper, 3), round(v.confidence.oms, 3), v.superhuman
    (0.904, 0.672, False)
    """

    kind: str
    upper: float
    n_upper: int
    confidence: Confidence
    superhuman: bool
    items_needed: int | None
    evidence: Evidence


@dataclasses.dataclass(frozen=True, repr=False)
class JointConfidence(Result):
    """One confidence that every model in ``models`` beats the average rater at once.

    S = 1 − δ_u − Σ_m δ_l,m with one shared t_u: the upper bound's failure is paid once.

    Parameters
    ----------
    models : tuple of str
        The models with L_N − τ > U_N.
    confidence : float or None
        S (``None`` when no t_u is admissible).
    t_u : float or None
        The shared deviation of the maximum.
    superhuman : bool
        Whether S ≥ level.
    method : str
        How S was found, as a code: ``shared_t_u`` (S = 1 − δ_u − Σ_m δ_l,m with one shared t_u,
        maximised over the admissible range); :mod:`humanly.verdicts.methods` words it.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> certify_summary([0.919, 0.93], 0.879, 10000).simultaneous.joint.superhuman
    True
    """

    models: tuple[str, ...]
    confidence: float | None
    t_u: float | None
    superhuman: bool
    method: str


@dataclasses.dataclass(frozen=True, repr=False)
class Simultaneous(Result):
    """Verdicts valid for all models at once.

    Parameters
    ----------
    level : float
        The level every claim together holds at.
    level_per_model : float or None
        1 − (1 − level)/M for M models: the level each model's S_OMS must reach (the union bound,
        Bonferroni); ``None`` without models.
    superhuman : tuple of str
        The models certified at ``level_per_model``.
    method : str
        How, as a code: ``bonferroni_union`` (a union bound over models: S_m ≥ 1 − (1 − level)/M
        for each certified model); :mod:`humanly.verdicts.methods` words it.
    joint : JointConfidence or None
        The joint confidence of the models with L_N − τ > U_N (``None`` for a single model or none
        above U_N).

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> res = certify_summary([0.899, 0.919], 0.879, 10000, models=["GPT", "SemBERT"])
    >>> res.simultaneous.superhuman, res.simultaneous.level_per_model
    (('SemBERT',), 0.975)
    """

    level: float
    level_per_model: float | None
    superhuman: tuple[str, ...]
    method: str
    joint: JointConfidence | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class ConfidenceCurve(Result):
    """S(t_u) = 1 − δ_u(t_u) − δ_l(t_l) for one model under one bound (Theorem 7, eq. 38).

    t_l = L_N − τ − sqrt(t_u + U_N²) with the result's margin τ; from
    :meth:`~humanly.certification.CertifyResult.confidence_curve`.

    Parameters
    ----------
    model : str
        The model.
    bound : str
        The concentration bound.
    lower, upper : float
        L_N and U_N.
    t_u, t_l, delta_u, delta_l, confidence : tuple of float
        Per point: t_u, t_l, δ_u, δ_l and S.
    hms_t_u, hms : float or None
        The HMS choice of t_u and its S.
    oms_t_u, oms : float or None
        The OMS choice of t_u and its S.
    tau : float
        The margin τ.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> cc = certify_summary([0.971], 0.939, 1821).confidence_curve("model1", points=5)
    >>> cc.to_frame().columns.tolist()
    ['t_u', 't_l', 'delta_u', 'delta_l', 'confidence']
    """

    model: str
    bound: str
    lower: float
    upper: float
    t_u: tuple[float, ...]
    t_l: tuple[float, ...]
    delta_u: tuple[float, ...]
    delta_l: tuple[float, ...]
    confidence: tuple[float, ...]
    hms_t_u: float | None
    hms: float | None
    oms_t_u: float | None
    oms: float | None
    tau: float = 0.0

    def to_frame(self) -> pd.DataFrame:
        """One row per t_u: t_u, t_l, δ_u, δ_l and S."""
        return pd.DataFrame(
            {
                "t_u": self.t_u,
                "t_l": self.t_l,
                "delta_u": self.delta_u,
                "delta_l": self.delta_l,
                "confidence": self.confidence,
            }
        )
