"""Certify superhuman classifiers against a crowd (Xu, Walder & Xu, *Humanly Certifying Superhuman
Classifiers*): upper bounds for the average rater, lower bounds for models, finite-sample confidence
(HMS/OMS, with a margin τ), the items needed to certify, curves over the number of raters and
gold-label checks.

``certify(ratings, predictions)`` works on data; ``certify_summary(lower, upper, n)`` on published
numbers. :func:`coverage` checks on simulated data that each bound holds at its nominal rate.

Modules, one idea each: ``_bounds`` (the concentration bounds, one registry :data:`BOUNDS`),
``confidence_score`` (Theorem 7: S, HMS, OMS, τ), ``needed`` (items needed to certify), ``evidence``
(the typed verdict), ``results`` (the result values), ``upper`` (U⁽ᵗ⁾, U⁽ᵉ⁾, U_N), ``_agreement`` (named
rater pairs, sparse), ``lemma2`` (Lemma 2 and the advice on raters), ``lower`` (aggregates, L_N),
``certificate`` (verdicts), ``oracle`` and ``_assumptions`` (gold checks with intervals, Table 2),
``curves`` (Fig. 3), ``summary`` (published numbers), ``api`` (``certify``), ``_coverage``.

>>> res = certify_summary([0.949, 0.971], 0.939, [1821], k=3, models=["BERT", "StructBERT"])
>>> [(m.model, m.superhuman) for m in res.models]
[('BERT', False), ('StructBERT', False)]
"""

from __future__ import annotations

from ._agreement import MATRIX_MAX_RATERS
from ._bounds import (
    BOUNDS,
    Bound,
    Sample,
    Tail,
    bernstein_tail,
    clopper_pearson_tail,
    hoeffding_delta,
    hoeffding_t,
    hoeffding_tail,
)
from ._coverage import CoverageResult, coverage, population_values
from .api import certify
from .confidence_score import confidence
from .curves import NAMED_MAX_K, BoundCurve, BoundCurvePoint
from .evidence import REASONS, STATUSES, Evidence
from .lemma2 import Lemma2Check
from .needed import items_needed
from .oracle import AssumptionCheck, AssumptionDetail, OracleCheck
from .results import (
    BoundSummary,
    CertifyResult,
    Confidence,
    ConfidenceCurve,
    FiniteBound,
    JointConfidence,
    ModelCertificate,
    Raters,
    Simultaneous,
    UpperBound,
    UpperVerdict,
)
from .summary import certify_summary
from .upper import theoretical_from_empirical

__all__ = [
    "BOUNDS",
    "MATRIX_MAX_RATERS",
    "NAMED_MAX_K",
    "REASONS",
    "STATUSES",
    "AssumptionCheck",
    "AssumptionDetail",
    "Bound",
    "BoundCurve",
    "BoundCurvePoint",
    "BoundSummary",
    "CertifyResult",
    "Confidence",
    "ConfidenceCurve",
    "CoverageResult",
    "Evidence",
    "FiniteBound",
    "JointConfidence",
    "Lemma2Check",
    "ModelCertificate",
    "OracleCheck",
    "Raters",
    "Sample",
    "Simultaneous",
    "Tail",
    "UpperBound",
    "UpperVerdict",
    "bernstein_tail",
    "certify",
    "certify_summary",
    "clopper_pearson_tail",
    "confidence",
    "coverage",
    "hoeffding_delta",
    "hoeffding_t",
    "hoeffding_tail",
    "items_needed",
    "population_values",
    "theoretical_from_empirical",
]
