"""Label budget (Dorner & Hardt, *Don't Label Twice*): one label for many items or a majority of m labels
for fewer? Exact win probabilities, Hoeffding and Cramér bounds, sample sizes, benchmark capacity, the
Appendix A sweep, planning from a pilot and Monte Carlo checks."""

from __future__ import annotations

from .core import (
    CorrelatedModel,
    Gap,
    IndependentModel,
    Model,
    Outcome,
    cramer_error,
    cramer_exponent,
    gap_correlated,
    gap_independent,
    hoeffding_error,
    hoeffding_exponent,
    majority_accuracy,
    make_model,
    outcome,
    outcomes,
    win_probability,
)

__all__ = [
    "CorrelatedModel",
    "Gap",
    "IndependentModel",
    "Model",
    "Outcome",
    "cramer_error",
    "cramer_exponent",
    "gap_correlated",
    "gap_independent",
    "hoeffding_error",
    "hoeffding_exponent",
    "majority_accuracy",
    "make_model",
    "outcome",
    "outcomes",
    "win_probability",
]

from .analysis import (
    CapacityResult,
    Comparison,
    MonteCarlo,
    QuickComparison,
    SizeResult,
    capacity,
    compare,
    error_probability,
    quick_compare,
    sample_size,
    simulate_win,
)

__all__ += [
    "CapacityResult",
    "Comparison",
    "MonteCarlo",
    "QuickComparison",
    "SizeResult",
    "capacity",
    "compare",
    "error_probability",
    "quick_compare",
    "sample_size",
    "simulate_win",
]

from .sweep import PAPER_N, SweepResult, SweepSpec, run_sweep  # noqa: E402

__all__ += ["PAPER_N", "SweepResult", "SweepSpec", "run_sweep"]

from .plan import PlanResult, estimate_parameters, plan  # noqa: E402

__all__ += ["PlanResult", "estimate_parameters", "plan"]

from .open_problems import StrategyComparison, adaptive_vs_single, plurality_vs_single  # noqa: E402

__all__ += ["StrategyComparison", "adaptive_vs_single", "plurality_vs_single"]
