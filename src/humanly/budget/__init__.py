"""Label budget (Dorner & Hardt, *Don't Label Twice*): one label for many items or a majority of m labels
for fewer? Exact win probabilities, Hoeffding and Cramér bounds, sample sizes, benchmark capacity, the
Appendix A sweep, planning from a pilot, an assessment of ratings for the report and Monte Carlo checks.

Modules, bottom to top: ``_args`` (argument checks; the two kinds of tie), ``bounds`` (Lemmas 1–2),
``gap`` (the gap indicator G, Propositions 1–2), ``models`` (M_m(q) and the two error models),
``exact`` (exact P(ΣG > 0)), ``montecarlo``, ``compare`` (Fig. 2), ``size`` (sample size, capacity —
Fig. 1), ``plan`` (a pilot), ``assess`` (the report's numbers), ``open_problems`` (section 5),
``sweep`` + ``_kernel`` (Appendix A).

>>> from humanly.budget import IndependentModel, compare
>>> compare(IndependentModel(p=0.8, eps=0.01, q=0.8), budget=1500, m=(1, 3)).best_m
1
"""

from __future__ import annotations

from ._args import TIES, VOTE_TIES, Ties, VoteTies
from .assess import (
    Assessment,
    QuickComparison,
    assess,
    label_accuracy_from_agreement,
    quick_compare,
)
from .bounds import cramer_error, cramer_exponent, hoeffding_error, hoeffding_exponent
from .compare import Comparison, ComparisonRow, compare, error_probability
from .exact import MAX_N, Outcome, outcome, outcomes, win_probability
from .gap import Gap, gap_correlated, gap_independent
from .models import (
    SCENARIOS,
    CorrelatedModel,
    IndependentModel,
    Model,
    majority_accuracy,
    make_model,
)
from .montecarlo import MonteCarlo, simulate_win
from .open_problems import (
    PluralitySetting,
    StrategyComparison,
    StrategyRow,
    adaptive_vs_single,
    plurality_vs_single,
)
from .plan import Assumption2, Assumptions, ParameterRanges, PlanResult, estimate_parameters, plan
from .size import CapacityResult, CapacityRow, SizeResult, SizeRow, capacity, sample_size
from .sweep import (
    PAPER_N,
    SweepCell,
    SweepPoint,
    SweepResult,
    SweepSpec,
    SweepViolation,
    run_sweep,
)

__all__ = [
    "MAX_N",
    "PAPER_N",
    "SCENARIOS",
    "TIES",
    "VOTE_TIES",
    "Assessment",
    "Assumption2",
    "Assumptions",
    "CapacityResult",
    "CapacityRow",
    "Comparison",
    "ComparisonRow",
    "CorrelatedModel",
    "Gap",
    "IndependentModel",
    "Model",
    "MonteCarlo",
    "Outcome",
    "ParameterRanges",
    "PlanResult",
    "PluralitySetting",
    "QuickComparison",
    "SizeResult",
    "SizeRow",
    "StrategyComparison",
    "StrategyRow",
    "SweepCell",
    "SweepPoint",
    "SweepResult",
    "SweepSpec",
    "SweepViolation",
    "Ties",
    "VoteTies",
    "adaptive_vs_single",
    "assess",
    "capacity",
    "compare",
    "cramer_error",
    "cramer_exponent",
    "error_probability",
    "estimate_parameters",
    "gap_correlated",
    "gap_independent",
    "hoeffding_error",
    "hoeffding_exponent",
    "label_accuracy_from_agreement",
    "majority_accuracy",
    "make_model",
    "outcome",
    "outcomes",
    "plan",
    "plurality_vs_single",
    "quick_compare",
    "run_sweep",
    "sample_size",
    "simulate_win",
    "win_probability",
]
