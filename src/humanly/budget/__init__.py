"""Label budget (Dorner & Hardt, *Don't Label Twice*): one label for many items or a majority of m labels
for fewer? Exact win probabilities, Hoeffding and Cramér bounds, sample sizes, benchmark capacity, the
Appendix A sweep, planning from a pilot, an assessment of ratings for the report and Monte Carlo checks.

Modules, bottom to top: ``_args`` (argument checks; the two kinds of tie), ``bounds`` (Lemmas 1–2),
``gap`` (the gap indicator G, Propositions 1–2), ``models`` (M_m(q) and the two error models),
``exact`` (exact P(ΣG > 0)), ``montecarlo``, ``compare`` (Fig. 2), ``size`` (sample size, capacity —
Fig. 1), ``theory`` (section 3.1 and Appendix C: Lemmas C.2–C.3, Propositions C.1–C.2), ``rates``
(Theorem 2, Fig. 3 a/b), ``multiclass`` (K classes exactly, section 5), ``latent`` (the latent-class
pilot estimate) + ``proxy`` (the crowd-majority one) + ``pilot`` → ``plan`` (a pilot), ``assess`` (the
report's numbers), ``open_problems`` (section 5 by simulation), ``sweep`` + ``_kernel`` (Appendix A).

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
from .latent import LatentClassFit, StateAccuracy, fit_latent_class
from .models import (
    SCENARIOS,
    CorrelatedModel,
    IndependentModel,
    Model,
    majority_accuracy,
    make_model,
    subset_majority,
)
from .montecarlo import MonteCarlo, simulate_win
from .multiclass import (
    RULES,
    MulticlassComparison,
    MulticlassRow,
    MulticlassSetting,
    aggregated_label_distribution,
    multiclass_compare,
    multiclass_gap,
    multiclass_setting,
    symmetric_confusion,
)
from .open_problems import (
    PluralitySetting,
    StrategyComparison,
    StrategyRow,
    adaptive_vs_single,
    plurality_vs_single,
)
from .plan import (
    METHODS,
    Assumption2,
    Assumptions,
    AssumptionTest,
    ParameterRanges,
    PlanResult,
    estimate_parameters,
    plan,
)
from .rates import (
    ConvergencePoint,
    CramerConvergence,
    RateRow,
    RateTable,
    cramer_convergence,
    rates,
)
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
from .theory import lemma_c3_bound, mean_gap_ratio, proposition_c2_bound, sigma

__all__ = [
    "MAX_N",
    "METHODS",
    "PAPER_N",
    "RULES",
    "SCENARIOS",
    "TIES",
    "VOTE_TIES",
    "Assessment",
    "Assumption2",
    "AssumptionTest",
    "Assumptions",
    "CapacityResult",
    "CapacityRow",
    "Comparison",
    "ComparisonRow",
    "ConvergencePoint",
    "CorrelatedModel",
    "CramerConvergence",
    "Gap",
    "IndependentModel",
    "LatentClassFit",
    "Model",
    "MonteCarlo",
    "MulticlassComparison",
    "MulticlassRow",
    "MulticlassSetting",
    "Outcome",
    "ParameterRanges",
    "PlanResult",
    "PluralitySetting",
    "QuickComparison",
    "RateRow",
    "RateTable",
    "SizeResult",
    "SizeRow",
    "StateAccuracy",
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
    "aggregated_label_distribution",
    "assess",
    "capacity",
    "compare",
    "cramer_convergence",
    "cramer_error",
    "cramer_exponent",
    "error_probability",
    "estimate_parameters",
    "fit_latent_class",
    "gap_correlated",
    "gap_independent",
    "hoeffding_error",
    "hoeffding_exponent",
    "label_accuracy_from_agreement",
    "lemma_c3_bound",
    "majority_accuracy",
    "make_model",
    "mean_gap_ratio",
    "multiclass_compare",
    "multiclass_gap",
    "multiclass_setting",
    "outcome",
    "outcomes",
    "plan",
    "plurality_vs_single",
    "proposition_c2_bound",
    "quick_compare",
    "rates",
    "run_sweep",
    "sample_size",
    "sigma",
    "simulate_win",
    "subset_majority",
    "symmetric_confusion",
    "win_probability",
]
