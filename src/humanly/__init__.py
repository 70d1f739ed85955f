"""humanly: how good is this model when the only reference is a crowd of fallible humans?

Read the data as it is held — files, crowd-kit long frames, cleanlab N × M arrays, count tables,
Series by item id — with :func:`read_study` (everything is joined by item id), then ask:

* :func:`inspect` — the ratings at a glance: sizes, agreement, raters, models, gold;
* :func:`agreement` — the chance-corrected agreement family, for every kind of label;
* :func:`certify` — is the model more accurate than the average rater (Xu, Walder & Xu)?
* :func:`equivalence` — how many raters is the model worth (Resnick, Kong, Schoenebeck & Weninger)?
* :func:`plan` — one label per item or majority votes for the next test set (Dorner & Hardt)?
* :func:`judge` — a few human labels and a model judge on every item (prediction-powered inference);
* :func:`rank` — models ranked from pairwise votes, a few human votes and judges on many comparisons;
* :func:`analyze` — every analysis that applies, once: the :class:`StudyResult` the report draws.

Each returns a typed result (``to_dict``/``from_dict``, ``to_frame``, a readable ``repr``); the rarer
knobs of each are one options object. The machinery of each analysis stays importable from its
sub-package (``humanly.certification``, ``humanly.survey``, ``humanly.budget``, ``humanly.judging``,
``humanly.ranking``, ``humanly.crowd``, ``humanly.data``).

Names are imported on first use (PEP 562): ``import humanly`` is cheap, and ``humanly.certify`` loads
the analysis when it is first touched.

>>> import humanly
>>> study = humanly.read_study(humanly.Ratings.from_counts([[3, 1], [0, 4], [2, 2]]))
>>> humanly.inspect(study, bootstrap=0).n_labels
12
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._core.lazy import attach
from .errors import InputError

__version__ = "0.1.0"

if TYPE_CHECKING:
    from ._core.result import Interval
    from .budget import PlanOptions, PlanResult, plan
    from .certification import CertifyOptions, CertifyResult, certify
    from .crowd.family import agreement
    from .crowd.family_results import AgreementOptions, AgreementResult
    from .crowd.inspect import InspectResult, inspect
    from .data import Counts, Gold, Predictions, Ratings, ReadOptions, Study, read_study
    from .judging import JudgeOptions, JudgeResult, judge
    from .ranking import RankOptions, RankResult, rank
    from .study import AnalyzeOptions, StudyResult, analyze
    from .survey import EquivalenceOptions, EquivalenceResult, equivalence

#: public name → the module that defines it (imported on first use)
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("Counts", "Gold", "Predictions", "Ratings", "ReadOptions", "Study", "read_study"), ".data"
    ),
    "Interval": "._core.result",
    **dict.fromkeys(("inspect", "InspectResult"), ".crowd.inspect"),
    "agreement": ".crowd.family",
    **dict.fromkeys(("AgreementOptions", "AgreementResult"), ".crowd.family_results"),
    **dict.fromkeys(("certify", "CertifyOptions", "CertifyResult"), ".certification"),
    **dict.fromkeys(("equivalence", "EquivalenceOptions", "EquivalenceResult"), ".survey"),
    **dict.fromkeys(("plan", "PlanOptions", "PlanResult"), ".budget"),
    **dict.fromkeys(("judge", "JudgeOptions", "JudgeResult"), ".judging"),
    **dict.fromkeys(("rank", "RankOptions", "RankResult"), ".ranking"),
    **dict.fromkeys(("analyze", "AnalyzeOptions", "StudyResult"), ".study"),
}

__all__ = [
    "AgreementOptions",
    "AgreementResult",
    "AnalyzeOptions",
    "CertifyOptions",
    "CertifyResult",
    "Counts",
    "EquivalenceOptions",
    "EquivalenceResult",
    "Gold",
    "InputError",
    "InspectResult",
    "Interval",
    "JudgeOptions",
    "JudgeResult",
    "PlanOptions",
    "PlanResult",
    "Predictions",
    "RankOptions",
    "RankResult",
    "Ratings",
    "ReadOptions",
    "Study",
    "StudyResult",
    "__version__",
    "agreement",
    "analyze",
    "certify",
    "equivalence",
    "inspect",
    "judge",
    "plan",
    "rank",
    "read_study",
]


__getattr__, __dir__ = attach(__name__, _LAZY, __all__)
