"""From the bounds to a verdict: each model's certificate under every bound (Theorem 7) and the
verdicts valid for all models at once.

:class:`Settings` gathers the choices that turn U_N and L_N into a verdict (bound, α, δ, fixed
deviations, the OMS optimiser); :func:`model_certificate` applies them to one model and
:func:`simultaneous` to all. Used alike by :func:`~humanly.certify.certify` (data) and
:func:`~humanly.certify.certify_summary` (published numbers).

>>> from humanly.certify import hoeffding_tail
>>> tails = {"hoeffding": hoeffding_tail(1821)}
>>> cert = model_certificate("StructBERT", 0.971, 1821, 0.939, tails, tails, Settings(), n_models=1)
>>> round(cert.confidence.oms, 4), cert.superhuman
(0.6208, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from ._bounds import Tail
from .confidence_score import confidence, joint_confidence
from .results import (
    BoundSummary,
    Confidence,
    FiniteBound,
    JointConfidence,
    ModelCertificate,
    Simultaneous,
)

__all__ = ["Settings", "model_certificate", "simultaneous"]


@dataclasses.dataclass(frozen=True)
class Settings:
    """How bounds become a verdict: the ``bound`` of the verdict, level ``alpha``, failure probability
    ``delta`` per side of the reported finite-sample bounds (or fixed deviations ``t_u``/``t_l``), and
    the paper's OMS gradient ascent (``oms_steps``/``oms_lr``) instead of bounded maximisation.

    >>> Settings().delta
    0.025
    """

    bound: str = "hoeffding"
    alpha: float = 0.05
    delta: float = 0.025
    t_u: float | None = None
    t_l: float | None = None
    oms_steps: int | None = None
    oms_lr: float | None = None


def model_certificate(
    name: str,
    lower: float,
    n_lower: int,
    upper: float,
    tails_u: Mapping[str, Tail],
    tails_l: Mapping[str, Tail],
    settings: Settings,
    *,
    n_models: int,
    full_credit: int | None = None,
    lower_variance: float | None = None,
) -> ModelCertificate:
    """One model's certificate: L_N = ``lower`` on ``n_lower`` items against U_N = ``upper``, under
    every bound with a tail on both sides (``by_bound``) and the verdict under ``settings.bound``."""
    s = settings
    by_bound: dict[str, BoundSummary] = {}
    for b in tails_u:
        if b not in tails_l:
            continue
        conf = Confidence.of(
            confidence(lower, upper, tails_u[b], tails_l[b], oms_steps=s.oms_steps, oms_lr=s.oms_lr)
        )
        fu = FiniteBound.upper_of(upper * upper, tails_u[b], s.delta, s.t_u)
        fl = FiniteBound.lower_of(lower, tails_l[b], s.delta, s.t_l)
        margin = None if fu.value is None or fl.value is None else fl.value - fu.value
        by_bound[b] = BoundSummary(
            b,
            s.delta,
            fu,
            fl,
            margin,
            conf,
            bool(conf.oms is not None and conf.oms >= 1 - s.alpha),
        )
    chosen = by_bound[s.bound]
    oms = chosen.confidence.oms
    return ModelCertificate(
        model=name,
        lower=lower,
        n=n_lower,
        margin=lower - upper,
        confidence=chosen.confidence,
        superhuman=chosen.superhuman,
        superhuman_simultaneous=bool(oms is not None and oms >= 1 - s.alpha / max(n_models, 1)),
        lower_finite=FiniteBound.lower_of(lower, tails_l[s.bound], s.delta, s.t_l),
        by_bound=by_bound,
        full_credit=full_credit,
        lower_variance=lower_variance,
    )


def simultaneous(
    models: Sequence[ModelCertificate],
    alpha: float,
    upper: float,
    tail_u: Tail | None = None,
    tails_l: Mapping[str, Tail] | None = None,
) -> Simultaneous:
    """Verdicts valid for all models at once. ``superhuman``: Bonferroni on the per-model scores
    (1 − S_m ≤ α/M). ``joint``: one confidence for the claim "every model with L_N > U_N beats the
    average rater", paying δ_u once (:func:`~.confidence_score.joint_confidence`)."""
    m = len(models)
    joint = None
    cands = [x for x in models if x.lower > upper]
    if m > 1 and cands and tail_u is not None and tails_l is not None:
        s, t = joint_confidence(
            [x.lower for x in cands], upper, tail_u, [tails_l[x.model] for x in cands]
        )
        joint = JointConfidence(
            models=tuple(x.model for x in cands),
            confidence=s,
            t_u=t,
            superhuman=bool(s is not None and s >= 1 - alpha),
            method="S = 1 − δ_u − Σ_m δ_l,m with one shared t_u, maximised over the admissible range",
        )
    return Simultaneous(
        alpha=alpha,
        level_per_model=alpha / m if m else None,
        superhuman=tuple(x.model for x in models if x.superhuman_simultaneous),
        method="union bound (Bonferroni) over models: 1 − S_m ≤ α/M for each certified model",
        joint=joint,
    )
