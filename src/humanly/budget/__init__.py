"""Label budget (Dorner & Hardt, *Don't Label Twice*): one label for many items or a majority of m labels
for fewer? Exact win probabilities, Hoeffding and Cramér bounds, sample sizes, benchmark capacity, the
Appendix A sweep, planning from a pilot, an assessment of ratings for the report and Monte Carlo checks.

Modules, bottom to top: ``_args`` (argument checks; the two kinds of tie), ``bounds`` (Lemmas 1–2),
``gap`` (the gap indicator G, Propositions 1–2), ``models`` (M_m(q) and the two error models),
``exact`` (exact P(ΣG > 0); ``_binom``, Loader's binomial pmf), ``montecarlo``, ``comparison`` (Fig. 2),
``size`` (sample size, capacity —
Fig. 1), ``theory`` (section 3.1 and Appendix C: Lemmas C.2–C.3, Propositions C.1–C.2), ``rate_tables``
(Theorem 2, Fig. 3 a/b), ``multiclass`` (K classes exactly, section 5), ``latent`` (the latent-class
pilot estimate) + ``proxy`` (the crowd-majority one) + ``pilot`` → ``planning`` (a pilot), ``assessment`` (the
report's numbers), ``open_problems`` (section 5 by simulation), ``sweep`` + ``_kernel`` (Appendix A).

>>> from humanly.budget import IndependentModel, compare
>>> compare(IndependentModel(p=0.8, eps=0.01, q=0.8), budget=1500, m=(1, 3)).best_m
1

Names are imported on first use (PEP 562), so ``humanly budget win`` loads the exact engine only —
not pandas, ``scipy.stats`` or the pilot estimators.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core.lazy import attach

if TYPE_CHECKING:
    from ._args import TIES, VOTE_TIES, Ties, VoteTies
    from .assessment import (
        Assessment,
        QuickComparison,
        assess,
        label_accuracy_from_agreement,
        quick_compare,
    )
    from .bounds import cramer_error, cramer_exponent, hoeffding_error, hoeffding_exponent
    from .comparison import Comparison, ComparisonRow, compare, error_probability
    from .exact import MAX_N, Outcome, outcome, outcomes, win_probability
    from .gap import Gap, gap_correlated, gap_independent
    from .latent import (
        LATENT_MODELS,
        LatentClassFit,
        LatentModelFit,
        StateAccuracy,
        fit_latent_class,
    )
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
    from .planning import (
        METHODS,
        Assumption2,
        Assumptions,
        AssumptionTest,
        ModelShare,
        ParameterRanges,
        PlanResult,
        estimate_parameters,
        plan,
    )
    from .rate_tables import (
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

#: public name → the module that defines it (imported on first use)
_LAZY: dict[str, str] = {
    "Assessment": ".assessment",
    "Assumption2": ".planning",
    "AssumptionTest": ".planning",
    "Assumptions": ".planning",
    "CapacityResult": ".size",
    "CapacityRow": ".size",
    "Comparison": ".comparison",
    "ComparisonRow": ".comparison",
    "ConvergencePoint": ".rate_tables",
    "CorrelatedModel": ".models",
    "CramerConvergence": ".rate_tables",
    "Gap": ".gap",
    "IndependentModel": ".models",
    "LATENT_MODELS": ".latent",
    "LatentClassFit": ".latent",
    "LatentModelFit": ".latent",
    "MAX_N": ".exact",
    "METHODS": ".planning",
    "Model": ".models",
    "ModelShare": ".planning",
    "MonteCarlo": ".montecarlo",
    "MulticlassComparison": ".multiclass",
    "MulticlassRow": ".multiclass",
    "MulticlassSetting": ".multiclass",
    "Outcome": ".exact",
    "PAPER_N": ".sweep",
    "ParameterRanges": ".planning",
    "PlanResult": ".planning",
    "PluralitySetting": ".open_problems",
    "QuickComparison": ".assessment",
    "RULES": ".multiclass",
    "RateRow": ".rate_tables",
    "RateTable": ".rate_tables",
    "SCENARIOS": ".models",
    "SizeResult": ".size",
    "SizeRow": ".size",
    "StateAccuracy": ".latent",
    "StrategyComparison": ".open_problems",
    "StrategyRow": ".open_problems",
    "SweepCell": ".sweep",
    "SweepPoint": ".sweep",
    "SweepResult": ".sweep",
    "SweepSpec": ".sweep",
    "SweepViolation": ".sweep",
    "TIES": "._args",
    "Ties": "._args",
    "VOTE_TIES": "._args",
    "VoteTies": "._args",
    "adaptive_vs_single": ".open_problems",
    "aggregated_label_distribution": ".multiclass",
    "assess": ".assessment",
    "capacity": ".size",
    "compare": ".comparison",
    "cramer_convergence": ".rate_tables",
    "cramer_error": ".bounds",
    "cramer_exponent": ".bounds",
    "error_probability": ".comparison",
    "estimate_parameters": ".planning",
    "fit_latent_class": ".latent",
    "gap_correlated": ".gap",
    "gap_independent": ".gap",
    "hoeffding_error": ".bounds",
    "hoeffding_exponent": ".bounds",
    "label_accuracy_from_agreement": ".assessment",
    "lemma_c3_bound": ".theory",
    "majority_accuracy": ".models",
    "make_model": ".models",
    "mean_gap_ratio": ".theory",
    "multiclass_compare": ".multiclass",
    "multiclass_gap": ".multiclass",
    "multiclass_setting": ".multiclass",
    "outcome": ".exact",
    "outcomes": ".exact",
    "plan": ".planning",
    "plurality_vs_single": ".open_problems",
    "proposition_c2_bound": ".theory",
    "quick_compare": ".assessment",
    "rates": ".rate_tables",
    "run_sweep": ".sweep",
    "sample_size": ".size",
    "sigma": ".theory",
    "simulate_win": ".montecarlo",
    "subset_majority": ".models",
    "symmetric_confusion": ".multiclass",
    "win_probability": ".exact",
}

__all__ = [
    "LATENT_MODELS",
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
    "LatentModelFit",
    "Model",
    "ModelShare",
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


__getattr__, __dir__ = attach(__name__, _LAZY, __all__)
