"""Certify superhuman classifiers against a crowd (Xu, Walder & Xu, *Humanly Certifying Superhuman
Classifiers*): upper bounds for the average rater, lower bounds for models, finite-sample confidence
(HMS/OMS, with a margin τ), the items needed to certify, curves over the number of raters and
gold-label checks.

``certify(ratings, predictions, gold)`` works on data; ``certify_summary(lower, upper, n_items)`` on published
numbers; both take their rarer knobs as one :class:`CertifyOptions`. :func:`coverage` checks on
simulated data that each bound holds at its nominal rate.

Modules, one idea each: ``_bounds`` (the concentration bounds, one registry :data:`BOUNDS`),
``confidence_score`` (Theorem 7: S, HMS, OMS, τ), ``needed`` (items needed to certify), ``evidence``
(the typed verdict), ``results`` and ``result_parts`` (the result values), ``options``
(:class:`CertifyOptions`), ``upper`` (U⁽ᵗ⁾, U⁽ᵉ⁾, U_N), ``_agreement`` (named rater pairs, sparse),
``lemma2`` (Lemma 2 and the advice on raters), ``lower`` (aggregates, L_N), ``certificate`` (verdicts),
``oracle`` and ``_assumptions`` (gold checks with intervals, Table 2), ``curves`` (Fig. 3), ``summary``
(published numbers), ``api`` (``certify``), ``_coverage``.

``__all__`` holds what a user needs: the functions, the options and every result type. The machinery
stays importable here too (the bound registry :data:`BOUNDS`, :class:`Sample`, :class:`Tail`, the
tails, :func:`items_needed`, :func:`confidence`, :func:`population_values`, :data:`STATUSES`,
:data:`REASONS`, :data:`MATRIX_MAX_RATERS`, :data:`NAMED_MAX_K`).

>>> res = certify_summary([0.949, 0.971], 0.939, [1821], labels_per_item=3, models=["BERT", "StructBERT"])
>>> [(m.model, m.superhuman) for m in res.models]
[('BERT', False), ('StructBERT', False)]
"""

from __future__ import annotations

# the machinery, importable here but not in __all__ ("X as X": an explicit re-export)
from ._agreement import MATRIX_MAX_RATERS as MATRIX_MAX_RATERS
from ._bounds import BOUNDS as BOUNDS
from ._bounds import Bound as Bound
from ._bounds import Sample as Sample
from ._bounds import Tail as Tail
from ._bounds import bernstein_tail as bernstein_tail
from ._bounds import clopper_pearson_tail as clopper_pearson_tail
from ._bounds import hoeffding_delta, hoeffding_t
from ._bounds import hoeffding_tail as hoeffding_tail
from ._coverage import CoverageResult, coverage
from ._coverage import population_values as population_values
from .api import certify
from .confidence_score import confidence as confidence
from .curves import NAMED_MAX_K as NAMED_MAX_K
from .curves import BoundCurve, BoundCurvePoint
from .evidence import REASONS as REASONS
from .evidence import STATUSES as STATUSES
from .evidence import Evidence
from .lemma2 import Lemma2Check
from .needed import items_needed as items_needed
from .options import CertifyOptions
from .oracle import AssumptionCheck, AssumptionDetail, OracleCheck
from .result_parts import (
    BoundSummary,
    Confidence,
    ConfidenceCurve,
    FiniteBound,
    JointConfidence,
    Simultaneous,
    UpperVerdict,
)
from .results import CertifyResult, ModelCertificate, Raters, UpperBound
from .summary import certify_summary
from .upper import theoretical_from_empirical

__all__ = [
    "AssumptionCheck",
    "AssumptionDetail",
    "BoundCurve",
    "BoundCurvePoint",
    "BoundSummary",
    "CertifyOptions",
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
    "Simultaneous",
    "UpperBound",
    "UpperVerdict",
    "certify",
    "certify_summary",
    "coverage",
    "hoeffding_delta",
    "hoeffding_t",
    "theoretical_from_empirical",
]
