"""Survey equivalence (Resnick, Kong, Schoenebeck & Weninger): how many human raters a classifier is
worth. Power curves (Algorithm 3), classifier scores (Algorithm 1), survey equivalence (Algorithm 4),
combiners (majority, plurality, frequency, Anonymous Bayesian Combiner), scorers, calibration,
bootstrap ranges, expert-vs-amateur equivalence and the information view with headroom."""

from __future__ import annotations

from .calibration import calibrate_outputs
from .combiners import ABC, COMBINERS, Frequency, Majority, Plurality, get_combiner
from .core import (
    CurvePoint,
    EquivalenceResult,
    ModelEquivalence,
    PowerCurve,
    equivalence,
    equivalence_point,
    power_curve,
)
from .experts import ExpertEquivalence, expert_equivalence
from .headroom import Headroom, headroom, urn_information
from .scorers import SCORERS, Scorer, get_scorer, make_scorer

__all__ = [
    "ABC",
    "COMBINERS",
    "SCORERS",
    "CurvePoint",
    "EquivalenceResult",
    "ExpertEquivalence",
    "Frequency",
    "Headroom",
    "Majority",
    "ModelEquivalence",
    "Plurality",
    "PowerCurve",
    "Scorer",
    "calibrate_outputs",
    "equivalence",
    "equivalence_point",
    "expert_equivalence",
    "get_combiner",
    "get_scorer",
    "headroom",
    "make_scorer",
    "power_curve",
    "urn_information",
]
