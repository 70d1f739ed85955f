"""From the bounds to a verdict: each model's certificate under every bound (Theorem 7) and the
verdicts valid for all models at once.

:class:`Settings` gathers the choices that turn U_N and L_N into a verdict (bound, level, δ, fixed
deviations, the OMS optimiser, the margin τ); :func:`model_certificate` applies them to one model — under
every concentration bound (``by_bound``) and under every upper bound U⁽ᵉ⁾/U⁽ᵗ⁾ (``by_upper``), each with
the items that would certify it (:mod:`.needed`) and the typed evidence (:mod:`.evidence`) — and
:func:`simultaneous` to all. Used alike by :func:`~humanly.certification.certify` (data) and
:func:`~humanly.certification.certify_summary` (published numbers).

>>> from humanly.certification import certify_summary
>>> ub = certify_summary([0.971], 0.939, 1821).upper_bound
>>> cert = model_certificate("StructBERT", Sample(1821, 0.971), ub, ["hoeffding"], Settings(), n_models=1)
>>> round(cert.confidence.oms, 4), cert.superhuman, cert.items_needed
(0.6208, False, 4149)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from decimal import Decimal

from ._bounds import BOUNDS, Sample, Tail
from .confidence_score import ConfidenceScore, confidence, joint_confidence
from .evidence import Evidence, evidence_of
from .needed import items_needed, reachable
from .result_parts import (
    BoundSummary,
    Confidence,
    FiniteBound,
    JointConfidence,
    Simultaneous,
    UpperVerdict,
)
from .results import ModelCertificate, UpperBound

__all__ = ["Settings", "failure", "model_certificate", "per_model", "simultaneous"]


def failure(level: float) -> float:
    """1 − ``level``, the failure probability a certificate allows, in decimal arithmetic: as written,
    so that ``level=0.95`` gives 0.05 exactly (binary floating point gives 0.050000000000000044).

    >>> failure(0.95), failure(0.9), 1 - 0.95
    (0.05, 0.1, 0.050000000000000044)
    """
    return float(Decimal(1) - Decimal(repr(float(level))))


def per_model(level: float, n_models: int) -> float:
    """The level each of ``n_models`` models must reach for all claims to hold together at ``level``
    (the union bound): 1 − (1 − level)/M.

    >>> per_model(0.95, 2), per_model(0.95, 1)
    (0.975, 0.95)
    """
    return 1.0 - failure(level) / max(n_models, 1)


@dataclasses.dataclass(frozen=True)
class Settings:
    """How bounds become a verdict: the ``bound`` of the verdict, the ``level`` S_OMS must reach,
    failure probability ``delta`` per side of the reported finite-sample bounds (or fixed deviations
    ``t_u``/``t_l``), the paper's OMS gradient ascent (``oms_steps``/``oms_lr``) instead of bounded
    maximisation, and the margin ``tau`` of the claim (Theorem 7: the model beats the average rater by
    at least τ).

    >>> Settings().delta
    0.025
    """

    bound: str = "hoeffding"
    level: float = 0.95
    delta: float = 0.025
    t_u: float | None = None
    t_l: float | None = None
    oms_steps: int | None = None
    oms_lr: float | None = None
    tau: float = 0.0


def model_certificate(
    name: str,
    sample_l: Sample,
    ub: UpperBound,
    bounds: Sequence[str],
    settings: Settings,
    *,
    n_models: int,
) -> ModelCertificate:
    """One model's certificate: L_N (``sample_l.mean`` on ``sample_l.n`` items) against the upper bound
    ``ub``, under each of ``bounds`` (``by_bound``), the verdict under ``settings.bound``, and that
    verdict under each upper bound ``ub`` knows (``by_upper``)."""
    s = settings
    lower = sample_l.mean
    sample_u = ub.sample()
    by_bound: dict[str, BoundSummary] = {}
    for b in bounds:
        tail_u, tail_l = BOUNDS[b].upper(sample_u), BOUNDS[b].lower(sample_l)
        conf, needed, ev = _verdict(b, lower, ub.upper, sample_u, sample_l, tail_u, tail_l, s)
        fu = FiniteBound.upper_of(ub.upper * ub.upper, tail_u, s.delta, s.t_u)
        fl = FiniteBound.lower_of(lower, tail_l, s.delta, s.t_l)
        margin = None if fu.value is None or fl.value is None else fl.value - fu.value
        by_bound[b] = BoundSummary(b, s.delta, fu, fl, margin, conf, ev.certified, needed, ev)
    chosen = by_bound[s.bound]
    oms = chosen.confidence.oms
    return ModelCertificate(
        model=name,
        lower=lower,
        n=sample_l.n,
        margin=lower - ub.upper,
        confidence=chosen.confidence,
        superhuman=chosen.superhuman,
        superhuman_simultaneous=bool(oms is not None and oms >= per_model(s.level, n_models)),
        finite_lower=chosen.finite_lower,
        by_bound=by_bound,
        full_credit=None if sample_l.successes is None else int(sample_l.successes),
        lower_variance=sample_l.variance,
        items_needed=chosen.items_needed,
        evidence=chosen.evidence,
        by_upper=_by_upper(lower, sample_l, ub, chosen, s),
    )


def _verdict(
    bound: str,
    lower: float,
    upper: float,
    sample_u: Sample,
    sample_l: Sample,
    tail_u: Tail,
    tail_l: Tail,
    s: Settings,
) -> tuple[Confidence, int | None, Evidence]:
    """Confidence, items needed and evidence of L_N = ``lower`` against U_N = ``upper`` under ``bound``."""
    c: ConfidenceScore = confidence(
        lower, upper, tail_u, tail_l, oms_steps=s.oms_steps, oms_lr=s.oms_lr, tau=s.tau
    )
    b = BOUNDS[bound]
    needed = items_needed(
        lower,
        upper,
        b,
        sample_u,
        sample_l,
        level=s.level,
        tau=s.tau,
        oms_steps=s.oms_steps,
        oms_lr=s.oms_lr,
    )
    ev = evidence_of(
        c,
        level=s.level,
        margin=lower - upper - s.tau,
        n=sample_l.n,
        items_needed=needed,
        reachable=reachable(b, lower, upper, sample_l, s.tau),
    )
    return Confidence.of(c), needed, ev


def _by_upper(
    lower: float, sample_l: Sample, ub: UpperBound, chosen: BoundSummary, s: Settings
) -> dict[str, UpperVerdict]:
    """The verdict under the chosen bound with U_N = each upper bound ``ub`` knows (U⁽ᵉ⁾, U⁽ᵗ⁾)."""
    out: dict[str, UpperVerdict] = {}
    for kind, value in ub.kinds().items():
        if kind == ub.used:
            conf, needed, ev = chosen.confidence, chosen.items_needed, chosen.evidence
        else:
            sample_u = ub.sample_of(kind)
            b = BOUNDS[s.bound]
            tail_u, tail_l = b.upper(sample_u), b.lower(sample_l)
            conf, needed, ev = _verdict(
                s.bound, lower, value, sample_u, sample_l, tail_u, tail_l, s
            )
        assert ev is not None
        out[kind] = UpperVerdict(kind, value, ub.n, conf, ev.certified, needed, ev)
    return out


def simultaneous(
    models: Sequence[ModelCertificate],
    level: float,
    upper: float,
    tail_u: Tail | None = None,
    tails_l: Mapping[str, Tail] | None = None,
    tau: float = 0.0,
) -> Simultaneous:
    """Verdicts valid for all models at once. ``superhuman``: Bonferroni on the per-model scores
    (S_m ≥ 1 − (1 − level)/M). ``joint``: one confidence for the claim "every model with
    L_N − τ > U_N beats the average rater by at least τ", paying δ_u once
    (:func:`~.confidence_score.joint_confidence`)."""
    m = len(models)
    joint = None
    cands = [x for x in models if x.lower - tau > upper]
    if m > 1 and cands and tail_u is not None and tails_l is not None:
        s, t = joint_confidence(
            [x.lower for x in cands], upper, tail_u, [tails_l[x.model] for x in cands], tau
        )
        joint = JointConfidence(
            models=tuple(x.model for x in cands),
            confidence=s,
            t_u=t,
            superhuman=bool(s is not None and s >= level),
            method="shared_t_u",
        )
    return Simultaneous(
        level=level,
        level_per_model=per_model(level, m) if m else None,
        superhuman=tuple(x.model for x in models if x.superhuman_simultaneous),
        method="bonferroni_union",
        joint=joint,
    )
