"""Survey equivalence (Resnick, Kong, Schoenebeck & Weninger): how many human raters a classifier is
worth.

:func:`equivalence` computes the survey power curve (Algorithm 3), each model's score (Algorithm 1)
and its survey equivalence (Algorithm 4) with percentile bootstrap ranges at ``level``;
:func:`power_curve` the curve alone; :func:`truth_equivalence` the same against the true item states
of a simulation (HSCORE*, SEQ*); :func:`scenario_equivalence` the population numbers of a latent-class
scenario, exactly, against target panels of t raters (``EquivalenceOptions(targets=...)`` does the
same on data); :func:`expert_equivalence` how many experts k amateurs are worth
(section 7); :func:`headroom` the information an ideal classifier would give. The rarer knobs of all
of them are one :class:`EquivalenceOptions`. :func:`make_scorer` and :func:`matrix_combiner` turn a
function into a scorer or a combiner that sees the whole rating matrix.

Where things live: :mod:`~humanly.survey.results` (result types), :mod:`~humanly.survey.options`,
:mod:`~humanly.survey.api` (:func:`equivalence`, :func:`power_curve`),
:mod:`~humanly.survey.experts`, :mod:`~humanly.survey.truth`, :mod:`~humanly.survey.headroom`,
:mod:`~humanly.survey.combiners`, :mod:`~humanly.survey.scorers`, :mod:`~humanly.survey.calibration`,
:mod:`~humanly.survey.crossing` (Algorithm 4 and the bootstrap ranges),
:mod:`~humanly.survey.scenario` (exact scenario mode), :mod:`~humanly.survey.targets` and
:mod:`~humanly.survey.target_results` (target panels); private: ``_latent_target`` (t = ∞ on
data), ``_prepare`` (argument checks, inputs), ``_replicates`` (point estimate and bootstrap),
``_engine`` and ``_levels`` (exact, count-based) and ``_sampled`` (Algorithm 2).
"""

from __future__ import annotations

from .api import equivalence, power_curve
from .combiners import matrix_combiner
from .experts import AmateurWorth, ExpertEquivalence, expert_equivalence
from .headroom import headroom
from .options import EquivalenceOptions
from .results import (
    EquivalenceResult,
    Headroom,
    HeadroomSupport,
    ModelEquivalence,
    PowerCurve,
    PowerCurvePoint,
    TargetEquivalence,
)
from .scenario import ScenarioPoint, ScenarioResult, ScenarioTarget, scenario_equivalence
from .scorers import make_scorer
from .target_results import LatentTarget, PanelOrder, TargetFlips
from .truth import TruthEquivalence, TruthModel, truth_equivalence

__all__ = [
    "AmateurWorth",
    "EquivalenceOptions",
    "EquivalenceResult",
    "ExpertEquivalence",
    "Headroom",
    "HeadroomSupport",
    "LatentTarget",
    "ModelEquivalence",
    "PanelOrder",
    "PowerCurve",
    "PowerCurvePoint",
    "ScenarioPoint",
    "ScenarioResult",
    "ScenarioTarget",
    "TargetEquivalence",
    "TargetFlips",
    "TruthEquivalence",
    "TruthModel",
    "equivalence",
    "expert_equivalence",
    "headroom",
    "make_scorer",
    "matrix_combiner",
    "power_curve",
    "scenario_equivalence",
    "truth_equivalence",
]
