"""Certify superhuman classifiers against a crowd (Xu, Walder & Xu, *Humanly Certifying Superhuman
Classifiers*): upper bounds for the average annotator, lower bounds for models, finite-sample
confidence (HMS/OMS), curves over the number of annotators and gold-label checks.

``certify(ratings, predictions)`` works on data; ``certify_summary(lower=..., upper=..., n=...)`` on
published numbers. :func:`coverage` checks on simulated data that each bound holds at its nominal rate.
"""

from __future__ import annotations

from ._bounds import (
    bernstein_tail,
    clopper_pearson_tail,
    confidence,
    hoeffding_delta,
    hoeffding_t,
    hoeffding_tail,
)
from ._core import (
    AssumptionCheck,
    BoundSummary,
    CertifyResult,
    Confidence,
    CurvePoint,
    ModelCertificate,
    OracleCheck,
    UpperBound,
    certify,
    certify_summary,
    theoretical_from_empirical,
)
from ._coverage import CoverageResult, coverage, population_values

__all__ = [
    "AssumptionCheck",
    "BoundSummary",
    "CertifyResult",
    "Confidence",
    "CoverageResult",
    "CurvePoint",
    "ModelCertificate",
    "OracleCheck",
    "UpperBound",
    "bernstein_tail",
    "certify",
    "certify_summary",
    "clopper_pearson_tail",
    "confidence",
    "coverage",
    "hoeffding_delta",
    "hoeffding_t",
    "hoeffding_tail",
    "population_values",
    "theoretical_from_empirical",
]
