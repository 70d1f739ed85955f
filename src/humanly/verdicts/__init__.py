"""Verdicts: the one voice of humanly's results — the plain sentences a reviewer can quote.

The analyses return numbers, status codes and reason codes, never prose; this floor (between the
analyses and :mod:`humanly.study` below, and ``plots``, ``report`` and ``cli`` above) turns them into
sentences, and nothing else writes one. The report's cards and sections, the command line, the
``--export`` files, ``humanly demo`` and the notebook view of every result (``_repr_html_``) quote
these sentences.

* one module per analysis — :mod:`~humanly.verdicts.inspect`, :mod:`~humanly.verdicts.agreement`,
  :mod:`~humanly.verdicts.certify`, :mod:`~humanly.verdicts.equivalence`,
  :mod:`~humanly.verdicts.plan`, :mod:`~humanly.verdicts.judge`, :mod:`~humanly.verdicts.rank` —
  each with a function ``verdicts(result) -> tuple[Verdict, ...]`` that reads a result only, and
  the wording helpers the command line and the report share (table cells, captions, one-line
  summaries);
* :mod:`~humanly.verdicts.study` — a whole study section by section, why an analysis did not run
  (the sentence of a :class:`~humanly.study.Skipped` reason code), and the lines the terminal prints;
* :mod:`~humanly.verdicts.notes` — the sentence of every note a result holds (a code and its
  values), and :mod:`~humanly.verdicts.methods` — what each method code means (an interval's
  method, a coefficient's definition of chance agreement);
* :mod:`~humanly.verdicts.text` — the text of every number (``"—"`` for what is undefined, p-values
  below 1e-16 as ``"< 1e-16"``);
* :mod:`~humanly.verdicts.notebook` — what a result shows in a notebook: its verdict sentences, then
  a compact table.

:func:`verdicts_for` finds the sentences of any result. Like the rest of this floor it imports no
numpy, pandas, matplotlib or jinja2 when it loads, so the command line uses it at no start-up cost.

>>> Verdict("certify", "m is certified superhuman.", model="m", status="certified").model
'm'
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

__all__ = ["Verdict", "verdicts_for"]


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One plain sentence a reviewer can quote, about one model or the whole study.

    The report puts verdicts with a ``model`` on that model's card and verdicts about the study
    (``model=None``, e.g. the labelling advice) on one card of their own; the terminal and the
    notebook print the same sentences section by section.

    Parameters
    ----------
    topic : str
        The analysis: ``"inspect"``, ``"agreement"``, ``"certify"``, ``"equivalence"``, ``"plan"``,
        ``"judge"``, ``"rank"``.
    sentence : str
        The sentence.
    model : str or None
        The model it is about; ``None`` for the whole study.
    status : str
        A short machine-readable outcome for styling (``"certified"``, ``"not certified"``,
        ``"no evidence"``).
    methods : str
        The Methods paragraph the sentence rests on: its key (``"certify"``, shown as the anchor
        ``#methods-certify``; ``"methods-certify"`` is read the same way). Empty, or a key the page
        has no paragraph for, links to the topic's paragraph.

    Examples
    --------
    >>> Verdict("certify", "m is certified superhuman.", "m", "certified").status
    'certified'
    """

    topic: str
    sentence: str
    model: str | None = None
    status: str = ""
    methods: str = ""


#: result type (its package and class name) → the module of this floor whose ``verdicts`` reads it
_MODULES = {
    ("crowd", "InspectResult"): "inspect",
    ("crowd", "AgreementResult"): "agreement",
    ("certification", "CertifyResult"): "certify",
    ("survey", "EquivalenceResult"): "equivalence",
    ("survey", "ScenarioResult"): "targets",
    ("budget", "PlanResult"): "plan",
    ("budget", "PilotPlan"): "plan",
    ("budget", "MulticlassPilotPlan"): "plan",
    ("budget", "Comparison"): "plan",
    ("judging", "JudgeResult"): "judge",
    ("judging", "LabelPlan"): "judge",
    ("judging", "Selection"): "judge",
    ("ranking", "RankResult"): "rank",
    ("ranking", "ComparisonSelection"): "rank",
    ("study", "StudyResult"): "study",
    ("study", "EquivalenceRun"): "study",
    ("_core", "Skipped"): "study",
}


def verdicts_for(result: Any) -> tuple[Verdict, ...]:
    """The verdict sentences of any result, as the command line prints them (none for a result that
    states no finding, e.g. a table of sample sizes).

    Parameters
    ----------
    result : Result
        A result of humanly (:class:`~humanly.certification.CertifyResult`,
        :class:`~humanly.study.StudyResult`, …).

    Returns
    -------
    tuple of Verdict
        Its sentences, in the order the command line prints them.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> verdicts_for(certify_summary([0.80], 0.85, 500, models=["m"]))[0].status
    'not applicable'
    >>> verdicts_for(3.5)
    ()
    """
    kind = type(result)
    parts = kind.__module__.split(".")
    package = parts[1] if len(parts) > 1 and parts[0] == "humanly" else ""
    module = _MODULES.get((package, kind.__name__))
    if module is None:
        return ()
    found: tuple[Verdict, ...] = importlib.import_module(f"{__name__}.{module}").verdicts(result)
    return found
