"""Label budget (Dorner & Hardt, *Don't Label Twice*): one label for many items or a majority of m labels
for fewer? The budget analysis of a study (:func:`plan`: the comparison at the crowd's own label
accuracy, and with two models the pilot plan of :func:`pilot_plan`), and the paper's calculators that
need no data: exact win probabilities, Hoeffding and Cramér bounds, sample sizes, benchmark capacity,
error rates per label, the Appendix A sweep, K classes, the open problems and Monte Carlo checks.

A target ``level`` is the probability of ranking the better classifier first that a budget must reach
(the paper's error δ is 1 − level). An *error model* (:class:`IndependentErrors`,
:class:`CorrelatedErrors`) describes how the classifiers' and the labels' errors relate; "model" means a
classifier.

Modules, bottom to top: ``_args`` (argument checks; the two kinds of tie), ``bounds`` (Lemmas 1–2),
``gap`` (the gap indicator G, Propositions 1–2), ``models`` (M_m(q) and the two error models),
``exact`` (exact P(ΣG > 0); ``_binom``, Loader's binomial pmf), ``montecarlo``, ``comparison`` (Fig. 2),
``size`` (sample size, capacity — Fig. 1), ``curves`` (the figures' curves), ``theory`` (section 3.1 and
Appendix C), ``rate_tables`` (Theorem 2, Fig. 3 a/b), ``multiclass`` (K classes exactly, section 5),
``latent`` + ``_em`` (the latent-class pilot estimate) and ``proxy`` (the crowd-majority one) →
``pilot`` → ``assumptions`` → ``planning`` (:func:`pilot_plan`), ``options`` (:class:`PlanOptions`),
``analysis`` (:func:`plan`), ``open_problems`` (section 5 by simulation), ``sweep`` + ``_kernel``
(Appendix A).

>>> from humanly.budget import IndependentErrors, compare
>>> errors = IndependentErrors(p=0.8, eps=0.01, q=0.8)
>>> compare(errors, budget=1500, labels_per_item=(1, 3)).best_labels_per_item
1

Names are imported on first use (PEP 562), so ``humanly budget win`` loads the exact engine only —
not pandas, ``scipy.stats`` or the pilot estimators. Names outside ``__all__`` (the paper's lemmas in
``theory``, the gap formulas, the constants) stay importable from their modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core.lazy import attach

if TYPE_CHECKING:
    from .analysis import (
        PlanResult,
        QuickComparison,
        label_accuracy_from_agreement,
        plan,
        quick_compare,
    )
    from .assumptions import (
        Assumption2 as Assumption2,
    )
    from .assumptions import (
        Assumptions as Assumptions,
    )
    from .assumptions import (
        AssumptionTest as AssumptionTest,
    )
    from .assumptions import (
        ParameterIntervals as ParameterIntervals,
    )
    from .assumptions import (
        VariantShare as VariantShare,
    )
    from .bounds import cramer_error, hoeffding_error
    from .comparison import Comparison, compare
    from .comparison import ComparisonRow as ComparisonRow
    from .confusion import ConfusionErrors, symmetric_errors
    from .curves import (
        AccuracyCurve,
        CapacityCurve,
        RateCurve,
        WinCurve,
        accuracy_curve,
        capacity_curve,
        rate_curve,
        win_curve,
    )
    from .curves import (
        AccuracyPoint as AccuracyPoint,
    )
    from .curves import (
        RatePoint as RatePoint,
    )
    from .curves import (
        WinPoint as WinPoint,
    )
    from .exact import Outcome, outcome, win_probability
    from .gap import Gap
    from .latent import (
        LatentClassFit,
        fit_latent_class,
    )
    from .latent import (
        LatentVariantFit as LatentVariantFit,
    )
    from .latent import (
        StateAccuracy as StateAccuracy,
    )
    from .models import (
        CorrelatedErrors,
        ErrorModel,
        IndependentErrors,
        majority_accuracy,
        make_error_model,
    )
    from .montecarlo import MonteCarlo, simulate_win
    from .multiclass import (
        MulticlassComparison,
        multiclass_compare,
        symmetric_confusion,
    )
    from .multiclass import (
        MulticlassRow as MulticlassRow,
    )
    from .multiclass import (
        MulticlassSetting as MulticlassSetting,
    )
    from .multiclass_pilot import ConfusionEstimate as ConfusionEstimate
    from .multiclass_plan import MulticlassPilotPlan, multiclass_pilot_plan
    from .open_problems import (
        PluralitySetting as PluralitySetting,
    )
    from .open_problems import (
        StrategyComparison,
        adaptive_vs_single,
        plurality_vs_single,
    )
    from .open_problems import (
        StrategyRow as StrategyRow,
    )
    from .options import PlanOptions
    from .planning import PilotPlan, pilot_plan
    from .rate_tables import (
        ConvergencePoint as ConvergencePoint,
    )
    from .rate_tables import (
        CramerConvergence,
        RateTable,
        cramer_convergence,
        rates,
    )
    from .rate_tables import (
        RateRow as RateRow,
    )
    from .size import (
        CapacityResult,
        SizeResult,
        capacity,
        sample_size,
    )
    from .size import (
        CapacityRow as CapacityRow,
    )
    from .size import (
        SizeRow as SizeRow,
    )
    from .sweep import (
        SweepCell as SweepCell,
    )
    from .sweep import (
        SweepPoint as SweepPoint,
    )
    from .sweep import (
        SweepResult,
        SweepSpec,
        run_sweep,
    )
    from .sweep import (
        SweepViolation as SweepViolation,
    )

#: public name → the module that defines it (imported on first use)
_LAZY: dict[str, str] = {
    # the budget analysis of a study
    "plan": ".analysis",
    "PlanResult": ".analysis",
    "PlanOptions": ".options",
    "QuickComparison": ".analysis",
    "quick_compare": ".analysis",
    "label_accuracy_from_agreement": ".analysis",
    "pilot_plan": ".planning",
    "PilotPlan": ".planning",
    "multiclass_pilot_plan": ".multiclass_plan",
    "MulticlassPilotPlan": ".multiclass_plan",
    "ConfusionEstimate": ".multiclass_pilot",
    "ParameterIntervals": ".assumptions",
    "Assumptions": ".assumptions",
    "Assumption2": ".assumptions",
    "AssumptionTest": ".assumptions",
    "VariantShare": ".assumptions",
    "LatentClassFit": ".latent",
    "LatentVariantFit": ".latent",
    "StateAccuracy": ".latent",
    "fit_latent_class": ".latent",
    # error models
    "ErrorModel": ".models",
    "IndependentErrors": ".models",
    "CorrelatedErrors": ".models",
    "ConfusionErrors": ".confusion",
    "symmetric_errors": ".confusion",
    "make_error_model": ".models",
    "majority_accuracy": ".models",
    "Gap": ".gap",
    # the calculators
    "compare": ".comparison",
    "Comparison": ".comparison",
    "ComparisonRow": ".comparison",
    "sample_size": ".size",
    "SizeResult": ".size",
    "SizeRow": ".size",
    "capacity": ".size",
    "CapacityResult": ".size",
    "CapacityRow": ".size",
    "rates": ".rate_tables",
    "RateTable": ".rate_tables",
    "RateRow": ".rate_tables",
    "cramer_convergence": ".rate_tables",
    "CramerConvergence": ".rate_tables",
    "ConvergencePoint": ".rate_tables",
    "outcome": ".exact",
    "Outcome": ".exact",
    "win_probability": ".exact",
    "hoeffding_error": ".bounds",
    "cramer_error": ".bounds",
    "simulate_win": ".montecarlo",
    "MonteCarlo": ".montecarlo",
    "run_sweep": ".sweep",
    "SweepSpec": ".sweep",
    "SweepResult": ".sweep",
    "SweepCell": ".sweep",
    "SweepPoint": ".sweep",
    "SweepViolation": ".sweep",
    "multiclass_compare": ".multiclass",
    "MulticlassComparison": ".multiclass",
    "MulticlassRow": ".multiclass",
    "MulticlassSetting": ".multiclass",
    "symmetric_confusion": ".multiclass",
    "plurality_vs_single": ".open_problems",
    "adaptive_vs_single": ".open_problems",
    "StrategyComparison": ".open_problems",
    "StrategyRow": ".open_problems",
    "PluralitySetting": ".open_problems",
    # the figures' curves
    "win_curve": ".curves",
    "WinCurve": ".curves",
    "WinPoint": ".curves",
    "accuracy_curve": ".curves",
    "AccuracyCurve": ".curves",
    "AccuracyPoint": ".curves",
    "capacity_curve": ".curves",
    "CapacityCurve": ".curves",
    "rate_curve": ".curves",
    "RateCurve": ".curves",
    "RatePoint": ".curves",
    # the paper's machinery and constants (importable here, outside ``__all__``)
    "error_probability": ".comparison",
    "outcomes": ".exact",
    "MAX_N": ".exact",
    "gap_independent": ".gap",
    "gap_correlated": ".gap",
    "hoeffding_exponent": ".bounds",
    "cramer_exponent": ".bounds",
    "subset_majority": ".models",
    "SCENARIOS": ".models",
    "sigma": ".theory",
    "mean_gap_ratio": ".theory",
    "lemma_c3_bound": ".theory",
    "proposition_c2_bound": ".theory",
    "estimate_parameters": ".proxy",
    "aggregated_label_distribution": ".multiclass",
    "multiclass_gap": ".multiclass",
    "multiclass_setting": ".multiclass",
    "RULES": ".multiclass",
    "LATENT_VARIANTS": ".latent",
    "ESTIMATORS": ".planning",
    "PAPER_N": ".sweep_results",
    "TIES": "._args",
    "VOTE_TIES": "._args",
    "Ties": "._args",
    "VoteTies": "._args",
}

#: What a user needs; the parts of results (rows, points, settings, the assumption tests) stay
#: importable from here as well.
__all__ = [
    "AccuracyCurve",
    "CapacityCurve",
    "CapacityResult",
    "Comparison",
    "ConfusionErrors",
    "CorrelatedErrors",
    "CramerConvergence",
    "ErrorModel",
    "Gap",
    "IndependentErrors",
    "LatentClassFit",
    "MonteCarlo",
    "MulticlassComparison",
    "MulticlassPilotPlan",
    "Outcome",
    "PilotPlan",
    "PlanOptions",
    "PlanResult",
    "QuickComparison",
    "RateCurve",
    "RateTable",
    "SizeResult",
    "StrategyComparison",
    "SweepResult",
    "SweepSpec",
    "WinCurve",
    "accuracy_curve",
    "adaptive_vs_single",
    "capacity",
    "capacity_curve",
    "compare",
    "cramer_convergence",
    "cramer_error",
    "fit_latent_class",
    "hoeffding_error",
    "label_accuracy_from_agreement",
    "majority_accuracy",
    "make_error_model",
    "multiclass_compare",
    "multiclass_pilot_plan",
    "outcome",
    "pilot_plan",
    "plan",
    "plurality_vs_single",
    "quick_compare",
    "rate_curve",
    "rates",
    "run_sweep",
    "sample_size",
    "simulate_win",
    "symmetric_confusion",
    "symmetric_errors",
    "win_curve",
    "win_probability",
]

__getattr__, __dir__ = attach(__name__, _LAZY, __all__)
