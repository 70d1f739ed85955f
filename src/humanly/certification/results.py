"""What :func:`~humanly.certification.certify` and :func:`~humanly.certification.certify_summary`
return: frozen, typed values that print, serialise (``to_dict()`` is the ``--json`` object) and
tabulate (``to_frame()``).

Names, one per concept (the paper's symbols in brackets):

* ``lower`` — a model's point lower bound L_N (eq. 25); ``upper`` — the average rater's point upper
  bound U_N (eq. 18), the empirical U⁽ᵉ⁾ or theoretical U⁽ᵗ⁾ one (``used``);
* ``lower_finite`` / ``upper_finite`` — the finite-sample bounds L_N − t_l (Theorem 6) and
  sqrt(U_N² + t_u) (Theorem 5), each a :class:`FiniteBound` ``(delta, t, value)``;
* ``raters`` — how the crowd was read (:class:`Raters`: slots, named or summary, and K).

>>> from humanly.certification import certify_summary
>>> res = certify_summary([0.971], 0.939, 1821)
>>> round(res.models[0].lower_finite.value, 4), round(res.upper_finite.value, 4)
(0.9392, 0.9558)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_int
from .._core.result import Result, jsonable
from ..data import InputError
from ._bounds import BOUNDS, Sample, Tail
from .confidence_score import ConfidenceScore, score
from .curves import BoundCurve
from .evidence import Evidence
from .lemma2 import Lemma2Check
from .oracle import OracleCheck

__all__ = [
    "BoundSummary",
    "CertifyResult",
    "Confidence",
    "ConfidenceCurve",
    "FiniteBound",
    "JointConfidence",
    "ModelCertificate",
    "Raters",
    "Simultaneous",
    "UpperBound",
    "UpperVerdict",
]


# ------------------------------------------------------------------------------------ bounds
@dataclasses.dataclass(frozen=True, repr=False)
class FiniteBound(Result):
    """A finite-sample bound: with probability ≥ 1 − ``delta`` the quantity lies on the bound's side of
    ``value``; ``t`` is the deviation δ allows. Upper: ``value = sqrt(U_N² + t)`` (Theorem 5, eq. 16);
    lower: ``value = L_N − t`` (Theorem 6, eq. 23). ``value`` is ``None`` when t is infinite.

    >>> from humanly.certification import hoeffding_tail
    >>> FiniteBound.lower_of(0.971, hoeffding_tail(1821), 0.025)
    FiniteBound(delta=0.025, t=0.0318256, value=0.939174)
    """

    delta: float
    t: float
    value: float | None

    @classmethod
    def upper_of(cls, u2: float, tail: Tail, delta: float, t: float | None = None) -> FiniteBound:
        """Theorem 5 (eq. 16): sqrt(U_N² + t) with t from δ, or δ from a given t."""
        if t is None:
            t = float(tail.t(delta))
        else:
            delta = tail.delta(t)
        return cls(delta, t, math.sqrt(u2 + t) if math.isfinite(t) else None)

    @classmethod
    def lower_of(
        cls, lower: float, tail: Tail, delta: float, t: float | None = None
    ) -> FiniteBound:
        """Theorem 6 (eq. 23): L_N − t with t from δ, or δ from a given t."""
        if t is None:
            t = float(tail.t(delta))
        else:
            delta = tail.delta(t)
        return cls(delta, t, lower - t if math.isfinite(t) else None)


@dataclasses.dataclass(frozen=True, repr=False)
class Confidence(Result):
    """Confidence score S (Theorem 7) under one bound: HMS and OMS, and the (t_u, t_l) of the OMS
    maximum. All ``None`` when no t_u is admissible (L_N ≤ U_N).

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
        """The result form of a :class:`~.confidence_score.ConfidenceScore`."""
        return cls(
            c.hms, c.oms, c.t_u, c.t_l, c.hms_t_u, c.hms_t_l, c.t_u_max, c.admissible, c.method
        )


@dataclasses.dataclass(frozen=True, repr=False)
class BoundSummary(Result):
    """One model under one concentration bound at failure probability ``delta`` per side: the
    finite-sample ``upper_finite`` sqrt(U_N² + t_u) and ``lower_finite`` L_N − t_l, the certified margin
    ``lower_finite − upper_finite`` (positive: superhuman with probability ≥ 1 − δ_u − δ_l), and the
    confidence score. With a fixed deviation (``t_u``/``t_l``) the δ of each side follows from it.
    ``items_needed`` is the smallest number of items that would certify the same L_N and U_N under this
    bound (:mod:`~humanly.certification.needed`) and ``evidence`` the verdict a report phrases
    (:class:`~humanly.certification.evidence.Evidence`).

    >>> from humanly.certification import certify_summary
    >>> b = certify_summary([0.971], 0.939, 1821).models[0].by_bound["hoeffding"]
    >>> round(b.certified_margin, 4)
    -0.0166
    """

    bound: str
    delta: float
    upper_finite: FiniteBound
    lower_finite: FiniteBound
    certified_margin: float | None
    confidence: Confidence
    superhuman: bool
    items_needed: int | None = None
    evidence: Evidence | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class UpperBound(Result):
    """Upper bounds for the average rater's oracle accuracy.

    ``theoretical`` U⁽ᵗ⁾ (eq. 2 / eq. 18) and ``empirical`` U⁽ᵉ⁾ (eq. 8); ``upper`` is the one used as
    U_N (``used``); ``n`` items enter the finite-sample bound; ``finite`` maps each bound name to its
    :class:`FiniteBound` sqrt(U_N² + t) (eq. 16). ``variance`` is the sample variance of the per-item
    terms X_n of the U_N used (empirical Bernstein) and ``variances`` that of each kind; named raters
    add their ids (``raters``) and, up to :data:`~humanly.certification.MATRIX_MAX_RATERS` raters, the
    ``agreement_matrix`` (``None`` above: the pairs are counted sparsely). ``lemma2`` checks Lemma 2's
    condition and the advice on raters per item (:class:`~humanly.certification.Lemma2Check`).

    >>> from humanly.certification import certify_summary
    >>> ub = certify_summary([0.971], 0.939, 1821, k=3).upper_bound
    >>> round(ub.theoretical, 3), ub.used, ub.upper
    (0.96, 'empirical', 0.939)
    """

    theoretical: float | None
    empirical: float | None
    n: int
    used: str
    upper: float
    finite: dict[str, FiniteBound]
    variance: float | None = None
    agreement_matrix: np.ndarray | None = None
    raters: tuple[str, ...] | None = None
    lemma2: Lemma2Check | None = None
    variances: dict[str, float] | None = None

    def sample(self) -> Sample:
        """What the bounds of :data:`~._bounds.BOUNDS` need to bound U_N²."""
        return Sample(self.n, self.upper * self.upper, self.variance)

    def kinds(self) -> dict[str, float]:
        """The upper bounds available by kind: ``{"empirical": U⁽ᵉ⁾, "theoretical": U⁽ᵗ⁾}`` (the ones
        that are known).

        >>> from humanly.certification import certify_summary
        >>> sorted(certify_summary([0.97], 0.94, 1000, k=3).upper_bound.kinds())
        ['empirical', 'theoretical']
        """
        out = {}
        for kind, value in (("empirical", self.empirical), ("theoretical", self.theoretical)):
            if value is not None:
                out[kind] = float(value)
        return out

    def sample_of(self, kind: str) -> Sample:
        """What the bounds need to bound U_N² when U_N is the ``kind`` upper bound."""
        if kind == self.used:
            return self.sample()
        value = self.kinds()[kind]
        var = None if self.variances is None else self.variances.get(kind)
        return Sample(self.n, value * value, var)


@dataclasses.dataclass(frozen=True, repr=False)
class UpperVerdict(Result):
    """A model's verdict under one upper bound (``kind``: ``"empirical"`` U⁽ᵉ⁾, the paper's choice, or
    ``"theoretical"`` U⁽ᵗ⁾, the one Theorem 1 proves) with the result's chosen concentration bound:
    U_N (``upper``) on ``n_upper`` items, the confidence (HMS and OMS), ``superhuman``,
    ``items_needed`` and the :class:`~humanly.certification.evidence.Evidence`.

    >>> from humanly.certification import certify_summary
    >>> v = certify_summary([0.919], 0.879, 10000, k=5).models[0].by_upper["theoretical"]
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
class ModelCertificate(Result):
    """One model's lower bound L_N (``lower``, eq. 25), margin L_N − U_N, confidence and verdict.

    ``superhuman`` is ``S_OMS ≥ 1 − α`` under the chosen bound; ``superhuman_simultaneous`` the same at
    level α/M for M models (union bound), valid for all models at once. ``lower_finite`` is L_N − t_l
    under the chosen bound; ``by_bound`` reports the certified margin and confidence under every bound
    available. ``full_credit`` (tie-broken successes) and ``lower_variance`` feed the exact and
    Bernstein bounds. ``items_needed`` is the smallest number of items (behind both bounds) that would
    certify the same L_N and U_N under the chosen bound, ``evidence`` the typed verdict a report phrases,
    and ``by_upper`` the verdict under each upper bound — U⁽ᵉ⁾ (the paper's choice) and U⁽ᵗ⁾ (the one
    Theorem 1 proves) — with the chosen bound.

    >>> from humanly.certification import certify_summary
    >>> m = certify_summary([0.971], 0.939, 1821, models=["StructBERT"]).model("StructBERT")
    >>> m.lower, round(m.margin, 3), m.superhuman
    (0.971, 0.032, False)
    """

    model: str
    lower: float
    n: int
    margin: float
    confidence: Confidence
    superhuman: bool
    superhuman_simultaneous: bool
    lower_finite: FiniteBound
    by_bound: dict[str, BoundSummary]
    full_credit: int | None = None
    lower_variance: float | None = None
    items_needed: int | None = None
    evidence: Evidence | None = None
    by_upper: dict[str, UpperVerdict] = dataclasses.field(default_factory=dict)

    def sample(self) -> Sample:
        """What the bounds of :data:`~._bounds.BOUNDS` need to bound L_N."""
        return Sample(self.n, self.lower, self.lower_variance, self.full_credit)


@dataclasses.dataclass(frozen=True, repr=False)
class Raters(Result):
    """How the crowd was read: ``mode`` ``"slots"`` (an item's labels are exchangeable), ``"named"``
    (identified raters) or ``"summary"`` (published numbers), and K (``k``; the mean number of labels
    per item when it varies, then with ``k_min`` and ``k_max``).

    >>> Raters("slots", 5)
    Raters(mode='slots', k=5, k_min=None, k_max=None)
    >>> Raters("slots", 3.5, 2, 6).to_dict()
    {'mode': 'slots', 'k': 3.5, 'k_min': 2, 'k_max': 6, 'ragged': True}
    """

    mode: str
    k: float | None
    k_min: int | None = None
    k_max: int | None = None

    @property
    def ragged(self) -> bool:
        """Whether the number of labels per item varies."""
        return self.k_min is not None and self.k_min != self.k_max

    def to_dict(self) -> dict[str, Any]:
        """``{mode, k}``, with ``k_min``, ``k_max`` and ``ragged: true`` when K varies by item."""
        out: dict[str, Any] = {"mode": self.mode, "k": jsonable(self.k)}
        if self.ragged:
            out.update({"k_min": self.k_min, "k_max": self.k_max, "ragged": True})
        return out


@dataclasses.dataclass(frozen=True, repr=False)
class JointConfidence(Result):
    """One confidence for "every model in ``models`` beats the average rater": S = 1 − δ_u − Σ_m δ_l,m
    with one shared t_u (``None`` when no t_u is admissible).

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
    """Verdicts valid for all models at once: ``superhuman`` lists the models certified at level
    α/M each (Bonferroni, ``level_per_model``); ``joint`` the joint confidence of the models with
    L_N > U_N (``None`` for a single model or none above U_N).

    >>> from humanly.certification import certify_summary
    >>> certify_summary([0.899, 0.919], 0.879, 10000, models=["GPT", "SemBERT"]).simultaneous.superhuman
    ('SemBERT',)
    """

    alpha: float
    level_per_model: float | None
    superhuman: tuple[str, ...]
    method: str
    joint: JointConfidence | None = None


# ------------------------------------------------------------------------------------ curves
@dataclasses.dataclass(frozen=True, repr=False)
class ConfidenceCurve(Result):
    """S(t_u) = 1 − δ_u(t_u) − δ_l(t_l) (Theorem 7, eq. 38, t_l = L_N − τ − sqrt(t_u + U_N²)) for one
    model under one bound and the result's margin ``tau``, with the HMS and OMS choices of t_u. From
    :meth:`CertifyResult.confidence_curve`.

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


# ------------------------------------------------------------------------------------ result
@dataclasses.dataclass(frozen=True, repr=False)
class CertifyResult(Result):
    """Everything ``humanly certify`` reports. ``to_dict()`` is the ``--json`` object: ``n_items``,
    ``raters`` {mode, k}, ``upper_bound``, ``models``, ``oracle``
    (null without gold), ``curve``, ``simultaneous``, ``notes`` and ``tau``, the margin τ every
    confidence is about ("beats the average rater by at least τ"). ``to_frame()`` is the per-model
    table.

    >>> from humanly.certification import certify_summary
    >>> res = certify_summary([0.949, 0.971], 0.939, [1821], k=3, models=["BERT", "StructBERT"])
    >>> res.to_frame()[["model", "lower", "upper", "oms", "superhuman"]].round(4)
            model  lower  upper     oms  superhuman
    0        BERT  0.949  0.939 -0.2730       False
    1  StructBERT  0.971  0.939  0.6208       False
    """

    n_items: int | None
    raters: Raters
    upper_bound: UpperBound
    models: tuple[ModelCertificate, ...]
    oracle: OracleCheck | None
    curve: BoundCurve | None
    bound: str
    alpha: float
    delta: float
    aggregate: str | None
    simultaneous: Simultaneous
    notes: tuple[str, ...]
    tau: float = 0.0
    identical_labels: tuple[tuple[str, str], ...] = ()

    @property
    def upper_finite(self) -> FiniteBound:
        """The finite-sample upper bound sqrt(U_N² + t_u) under the chosen bound (Theorem 5)."""
        return self.upper_bound.finite[self.bound]

    def model(self, name: str) -> ModelCertificate:
        """The certificate of the model called ``name`` (``KeyError`` when there is none)."""
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(f"no model {name!r}; models are {[m.model for m in self.models]}")

    def to_frame(self) -> pd.DataFrame:
        """One row per model: L_N, U_N, margin, the finite-sample bounds and certified margin under the
        chosen bound, HMS/OMS confidence and verdicts, ``items_needed`` and the ``evidence`` status,
        the verdict under the other upper bound (``oms_theoretical``, ``superhuman_theoretical``,
        ``items_needed_theoretical`` when U_N is U⁽ᵉ⁾) and with gold the true accuracy."""
        rows = []
        for m in self.models:
            row: dict[str, Any] = {
                "model": m.model,
                "n": m.n,
                "lower": m.lower,
                "upper": self.upper_bound.upper,
                "margin": m.margin,
                "lower_finite": m.lower_finite.value,
                "upper_finite": self.upper_finite.value,
                "certified_margin": m.by_bound[self.bound].certified_margin,
                "hms": m.confidence.hms,
                "oms": m.confidence.oms,
                "t_u": m.confidence.t_u,
                "t_l": m.confidence.t_l,
                "superhuman": m.superhuman,
                "superhuman_simultaneous": m.superhuman_simultaneous,
                "items_needed": m.items_needed,
                "evidence": None if m.evidence is None else m.evidence.status,
            }
            for kind, v in m.by_upper.items():
                if kind != self.upper_bound.used:
                    row[f"oms_{kind}"] = v.confidence.oms
                    row[f"superhuman_{kind}"] = v.superhuman
                    row[f"items_needed_{kind}"] = v.items_needed
            if self.oracle is not None:
                row["true_accuracy"] = self.oracle.models.get(m.model)
            rows.append(row)
        return pd.DataFrame(rows)

    def confidence_curve(
        self, model: str, t_u: Sequence[float] | np.ndarray | None = None, *, points: int = 400
    ) -> ConfidenceCurve:
        """S(t_u) of Theorem 7 (eq. 38) for ``model`` under the result's bound and margin τ: at the
        given ``t_u`` values, or on ``points`` evenly spaced values over the admissible range
        [0, (L_N − τ)² − U_N²].

        >>> from humanly.certification import certify_summary
        >>> cc = certify_summary([0.971], 0.939, 1821).confidence_curve("model1")
        >>> round(max(cc.confidence), 4) <= round(cc.oms, 4)
        True
        """
        m = self.model(model)
        c = m.confidence
        if t_u is None:
            check_int("points", points, minimum=2)
            if not c.admissible or c.t_u_max is None:
                raise InputError(
                    f"model {model!r} has L_N ≤ U_N + τ: no t_u is admissible; give t_u values"
                )
            grid = np.linspace(0.0, c.t_u_max, points)
        else:
            grid = np.atleast_1d(np.asarray(t_u, dtype=float))
            if not np.isfinite(grid).all() or (grid < 0).any():
                raise InputError("t_u: give finite deviations ≥ 0")
        bound = BOUNDS[self.bound]
        tail_u = bound.upper(self.upper_bound.sample())
        tail_l = bound.lower(m.sample())
        u = self.upper_bound.upper
        s, t_l = zip(
            *(score(float(t), m.lower, u, tail_u, tail_l, self.tau) for t in grid), strict=True
        )
        return ConfidenceCurve(
            model=m.model,
            bound=self.bound,
            lower=m.lower,
            upper=u,
            t_u=tuple(float(t) for t in grid),
            t_l=tuple(t_l),
            delta_u=tuple(tail_u.delta(float(t)) for t in grid),
            delta_l=tuple(tail_l.delta(t) for t in t_l),
            confidence=tuple(s),
            hms_t_u=c.hms_t_u,
            hms=c.hms,
            oms_t_u=c.t_u,
            oms=c.oms,
            tau=self.tau,
        )
