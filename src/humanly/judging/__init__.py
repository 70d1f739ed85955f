"""Judge-assisted evaluation: model accuracies from a few human labels and many judge labels.

A *judge* (an LLM, or a strong classifier) labels every item cheaply; human raters label a few.
:func:`judge` combines the two by prediction-powered inference (PPI, and PPI++ with a tuned λ) into
unbiased accuracies and paired differences with valid intervals, the human-only interval beside each,
and the effective number of human labels the judge bought. :class:`JudgeResult` also holds the
frontier check (is the judge more accurate than the model? if not, Dorner, Nastl & Hardt bound the
saving by a factor two) and plans the next evaluation (:meth:`JudgeResult.plan`, ppi-python's
``ppi_mean_power``). :func:`select` picks the items to send to raters next from the judge's
uncertainty (active inference); the estimate afterwards is :func:`judge` with the selection passed as
``JudgeOptions(probabilities=...)``.

Modules, one idea each: ``_ppi`` (the estimators and the sample-size solver on plain arrays),
``_inputs`` (what the estimators read off a joined study), ``_scoring`` (Y and f per item, the
checks beside the estimates), ``_estimation`` (every estimand through strata, several judges,
cross-fitting and the small-sample rule), ``_rating_verb`` (ratings of models' outputs), ``results``
(the result values), ``planning`` (the plan), ``api`` (``judge``), ``active`` (``select``).

References
----------
Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", *Science* (2023).
Angelopoulos, Duchi & Zrnic, "PPI++: Efficient prediction-powered inference", arXiv:2311.01453 (2023).
Zrnic & Candès, "Active statistical inference", ICML 2024.
Dorner, Nastl & Hardt, "Limits to scalable evaluation at the frontier: LLM as judge won't beat twice
the data", ICLR 2025.

>>> import numpy as np, pandas as pd
>>> rng = np.random.default_rng(0)
>>> ids = np.arange(1000)
>>> truth = rng.integers(0, 2, 1000)
>>> model = pd.Series(np.where(rng.random(1000) < 0.8, truth, 1 - truth), index=ids)
>>> llm = pd.Series(np.where(rng.random(1000) < 0.95, truth, 1 - truth), index=ids)
>>> human = pd.DataFrame({"item": ids[:150], "rater": "r", "label": truth[:150]})
>>> res = judge(human, {"m": model}, judge=llm)
>>> res.frontier.models[0].status
'judge more accurate'
"""

from __future__ import annotations

from ._rated_results import ModelRating, RatingComparison
from .active import Selection, SelectionStratum, sampling_probabilities, select
from .api import ESTIMATORS, REFERENCES, JudgeOptions, judge, judge_study
from .planning import LabelPlan, Pilot, PlannedEstimand, plan_labels
from .results import (
    Comparison,
    Estimate,
    FrontierCheck,
    FrontierRow,
    GoldAccuracy,
    JudgeResult,
    ModelAccuracy,
)

__all__ = [
    "ESTIMATORS",
    "REFERENCES",
    "Comparison",
    "Estimate",
    "FrontierCheck",
    "FrontierRow",
    "GoldAccuracy",
    "JudgeOptions",
    "JudgeResult",
    "LabelPlan",
    "ModelAccuracy",
    "ModelRating",
    "Pilot",
    "PlannedEstimand",
    "RatingComparison",
    "Selection",
    "SelectionStratum",
    "judge",
    "judge_study",
    "plan_labels",
    "sampling_probabilities",
    "select",
]
