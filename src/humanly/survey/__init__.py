"""Survey equivalence (Resnick, Kong, Schoenebeck & Weninger): how many human raters a classifier is
worth. Power curves (Algorithm 3), classifier scores (Algorithm 1), survey equivalence (Algorithm 4),
combiners (majority, plurality, frequency, Anonymous Bayesian Combiner), scorers, calibration,
bootstrap ranges, expert-vs-amateur equivalence and the information view with headroom.

Where things live: :mod:`~humanly.survey.results` (result types), :mod:`~humanly.survey.api`
(:func:`equivalence`, :func:`power_curve`), :mod:`~humanly.survey.experts`, :mod:`~humanly.survey.headroom`,
:mod:`~humanly.survey.combiners`, :mod:`~humanly.survey.scorers`, :mod:`~humanly.survey.calibration`,
:mod:`~humanly.survey.crossing` (Algorithm 4 and bootstrap ranges), :mod:`~humanly.survey.truth`
(HSCORE* and SEQ*, against the true states of a simulation); private: ``_prepare`` (argument
checks, inputs), ``_replicates`` (point estimate and bootstrap), ``_engine`` (exact, count-based) and
``_sampled`` (Algorithm 2).
"""

from __future__ import annotations

from .api import equivalence, power_curve
from .calibration import calibrate_outputs
from .combiners import (
    ABC,
    COMBINERS,
    Frequency,
    Majority,
    MatrixCombiner,
    Plurality,
    get_combiner,
    matrix_combiner,
)
from .crossing import equivalence_point
from .experts import expert_equivalence
from .headroom import headroom, urn_information
from .results import (
    AmateurWorth,
    EquivalenceResult,
    ExpertEquivalence,
    Headroom,
    HeadroomSupport,
    ModelEquivalence,
    PowerCurve,
    PowerCurvePoint,
)
from .scorers import SCORERS, Scorer, get_scorer, make_scorer
from .truth import TruthEquivalence, TruthModel, truth_equivalence

__all__ = [
    "ABC",
    "COMBINERS",
    "SCORERS",
    "AmateurWorth",
    "EquivalenceResult",
    "ExpertEquivalence",
    "Frequency",
    "Headroom",
    "HeadroomSupport",
    "Majority",
    "MatrixCombiner",
    "ModelEquivalence",
    "Plurality",
    "PowerCurve",
    "PowerCurvePoint",
    "Scorer",
    "TruthEquivalence",
    "TruthModel",
    "calibrate_outputs",
    "equivalence",
    "equivalence_point",
    "expert_equivalence",
    "get_combiner",
    "get_scorer",
    "headroom",
    "make_scorer",
    "matrix_combiner",
    "power_curve",
    "truth_equivalence",
    "urn_information",
]
