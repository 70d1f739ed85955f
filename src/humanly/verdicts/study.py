"""A whole study in words (:class:`~humanly.study.StudyResult`), section by section.

The report's sections, ``humanly report`` and ``humanly demo`` on the terminal and the study's
notebook view say the same thing in the same order, from here:

* :data:`SECTIONS` and :data:`TITLES` — the sections of a study, in page order, and their titles;
* :func:`section_verdicts` — the verdicts of one section (those of its analysis; for survey
  equivalence, each model's from the analysis that shows it);
* :func:`skipped_sentence`, :func:`section_note` — why an analysis did not run, from the reason code
  of its :class:`~humanly.study.Skipped` record, and the note its section shows instead;
* :func:`summary` — one line for a section without verdicts;
* :func:`sections`, :func:`console_lines` — the study section by section, as the terminal prints it.

>>> from humanly import Ratings, analyze
>>> study = analyze(Ratings.from_counts([[1, 0, 0], [0, 1, 0], [0, 0, 1]]), bootstrap=0)
>>> print(section_note(study, "plan"))  # doctest: +NORMALIZE_WHITESPACE
Every item has one label, so the label accuracy cannot be estimated from the crowd's agreement (it
needs items with two or more labels); the label-budget analysis is left out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import Verdict
from .text import clean_text

if TYPE_CHECKING:
    from .._core.result import Skipped
    from ..study import EquivalenceRun, StudyResult

__all__ = [
    "RATINGS_SECTIONS",
    "SECTIONS",
    "TITLES",
    "SectionSentences",
    "console_lines",
    "has_section",
    "run_notes",
    "section_note",
    "section_sentences",
    "section_verdicts",
    "sections",
    "skipped_sentence",
    "summary",
    "verdicts",
]

#: The sections of a study, in page order (each also the analysis' name and its JSON key).
SECTIONS = ("inspect", "certify", "equivalence", "plan", "judge", "rank")
#: Each section's title, as the page and the terminal show it.
TITLES = {
    "inspect": "Data",
    "certify": "Certify: is the model superhuman?",
    "equivalence": "Survey equivalence: how many raters is the model worth?",
    "plan": "Label budget: one label per item or majority votes?",
    "judge": "Judge: few human labels, many judge labels",
    "rank": "Ranking: models compared in pairs",
}
#: The sections of an analysis of ratings (a study of pairwise votes has none of them).
RATINGS_SECTIONS = ("inspect", "certify", "equivalence", "plan", "judge")
#: An analysis as a sentence names it.
_ANALYSIS_NAMES = {
    "inspect": "inspect (the ratings at a glance)",
    "certify": "certify",
    "equivalence": "survey equivalence",
    "plan": "the label-budget analysis",
    "judge": "the judge analysis",
    "rank": "the ranking",
}
#: What a section says when its analysis left no record of why it did not run.
_DID_NOT_RUN = {
    "certify": "certify did not run",
    "equivalence": "survey equivalence did not run",
    "plan": "the label-budget analysis did not run",
}


def skipped_sentence(skipped: Skipped) -> str:
    """Why an analysis did not run, in one sentence (without its full stop), from its reason code.

    Parameters
    ----------
    skipped : Skipped
        The record (``StudyResult.skipped``, ``EquivalenceRun.skipped``, ``PlanResult.pilot_skipped``).

    Returns
    -------
    str
        The sentence.

    Examples
    --------
    >>> from humanly.study import Skipped
    >>> skipped_sentence(Skipped("equivalence", "single_label_items"))
    'every item has a single label, so no rater can be held out to build a power curve'
    >>> skipped_sentence(Skipped("plan", "input_error", "q=nan: give a finite number."))
    'not applicable: q=nan: give a finite number.'
    """
    what, why = skipped.analysis, skipped.reason
    if why == "input_error":
        error = skipped.error or "the input was refused"
        return f"not applicable: {error}" if what in ("certify", "plan") else error
    if why == "two_classes_only":
        classes = ", ".join(skipped.classes)
        return (
            "the label-budget analysis (Don't Label Twice) is for two classes; this data has "
            f"{len(skipped.classes)} ({classes})"
        )
    if why == "single_label_items" and what == "plan":
        return (
            "every item has one label, so the label accuracy cannot be estimated from the crowd's "
            "agreement (it needs items with two or more labels); the label-budget analysis is left "
            "out"
        )
    if why == "single_label_items":
        return "every item has a single label, so no rater can be held out to build a power curve"
    if why == "no_ratings":
        return (
            f"{_ANALYSIS_NAMES.get(what, what)} needs ratings; this study has pairwise votes only"
        )
    if why in ("no_predictions", "one_model", "latent_only"):
        from .pilot import pilot_skipped_sentence

        return pilot_skipped_sentence(skipped)
    return f"{what} did not run ({why})"


def _as_note(text: str) -> str:
    """A sentence as a section's note: capitalised, with its full stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def section_note(study: StudyResult, section: str) -> str | None:
    """The note a section shows in place of its analysis when the analysis did not run (``None``
    when it ran, or for a judge section of a study without a judge).

    Examples
    --------
    >>> from humanly import Ratings, analyze
    >>> study = analyze(Ratings.from_counts([[1, 0], [0, 1], [1, 0]]), bootstrap=0)
    >>> section_note(study, "equivalence")[:40]
    'Every item has a single label, so no rat'
    """
    ran = {
        "inspect": study.inspect is not None,
        "certify": study.certify is not None,
        "equivalence": bool(study.equivalence),
        "plan": study.plan is not None,
        "judge": study.judge is not None,
        "rank": study.rank is not None,
    }[section]
    if ran:
        return None
    record = next((s for s in study.skipped if s.analysis == section), None)
    if record is not None:
        return _as_note(skipped_sentence(record))
    fallback = _DID_NOT_RUN.get(section)
    return None if fallback is None else _as_note(fallback)


def run_notes(run: EquivalenceRun) -> tuple[str | None, str | None]:
    """For one survey-equivalence run: why its result is missing, and why its scores against the
    true item states are (each ``None`` when it is there).

    Examples
    --------
    >>> from humanly.study import EquivalenceRun, Skipped
    >>> run = EquivalenceRun("abc", "cross_entropy", "auto", (), None,
    ...                      skipped=Skipped("equivalence", "input_error", "scorer: unknown"))
    >>> run_notes(run)[0]
    'abc + cross_entropy: not applicable (scorer: unknown).'
    """
    what = f"{run.combiner} + {run.scorer}"
    missing = (
        f"{what}: not applicable ({skipped_sentence(run.skipped)})."
        if run.result is None and run.skipped is not None
        else None
    )
    truth = (
        f"HSCORE* and SEQ* ({what}) not computed: {skipped_sentence(run.truth_skipped)}."
        if run.truth_skipped is not None
        else None
    )
    return missing, truth


def section_verdicts(study: StudyResult, section: str) -> tuple[Verdict, ...]:
    """The verdicts of one section of a study (empty when its analysis did not run).

    Examples
    --------
    >>> from humanly import analyze, simulate
    >>> d = simulate.oracle(100, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> study = analyze(d.ratings, d.predictions, d.gold, bootstrap=0)
    >>> [v.model for v in section_verdicts(study, "certify")]
    ['m']
    """
    if section == "inspect":
        from .inspect import verdicts as inspect_verdicts

        return () if study.inspect is None else inspect_verdicts(study.inspect)
    if section == "certify":
        from .certify import verdicts as certify_verdicts

        return () if study.certify is None else certify_verdicts(study.certify)
    if section == "equivalence":
        from .equivalence import study_verdicts

        return study_verdicts(study)
    if section == "plan":
        from .plan import plan_verdicts

        return () if study.plan is None else plan_verdicts(study.plan)
    if section == "judge":
        from .judge import verdicts as judge_verdicts

        return () if study.judge is None else judge_verdicts(study.judge)
    if section == "rank":
        from .rank import verdicts as rank_verdicts

        return () if study.rank is None else rank_verdicts(study.rank)
    raise KeyError(section)


def summary(study: StudyResult, section: str) -> str | None:
    """One line for the terminal about a section of a study (``None`` when its analysis did not run).

    Examples
    --------
    >>> from humanly import Ratings, analyze
    >>> summary(analyze(Ratings.from_counts([[2, 1], [0, 3]]), bootstrap=0), "inspect")[:16]
    'data: 2 items, 6'
    """
    if section == "inspect":
        from .inspect import headline as inspect_headline

        return None if study.inspect is None else inspect_headline(study.inspect)
    if section == "certify":
        from .certify import headline as certify_headline

        return certify_headline(study.certify)
    if section == "equivalence":
        from .equivalence import headline as equivalence_headline

        return equivalence_headline(study.equivalence)
    if section == "plan":
        from .plan import headline as plan_headline

        return None if study.plan is None else plan_headline(study.plan)
    if section == "judge":
        from .judge import headline as judge_headline

        return None if study.judge is None else judge_headline(study.judge)
    if section == "rank":
        from .rank import headline as rank_headline

        return None if study.rank is None else rank_headline(study.rank)
    return None


@dataclasses.dataclass(frozen=True)
class SectionSentences:
    """What the terminal prints for one section: its id and title, and its sentences (its verdicts;
    without them, the note that stands in for the analysis, or the section's one-line summary).

    Parameters
    ----------
    id : str
        The section (one of :data:`SECTIONS`).
    title : str
        Its title.
    sentences : tuple of str
        Its sentences, as the page shows them.
    """

    id: str
    title: str
    sentences: tuple[str, ...]


def has_section(study: StudyResult, section: str) -> bool:
    """Whether the page of ``study`` has ``section``: a study of ratings has every section of
    ratings (the judge's only with a judge, or a record of why the judge analysis did not run); a
    study of pairwise votes has the ranking alone (:data:`RATINGS_SECTIONS` are skipped there,
    ``no_ratings``)."""
    if study.inspect is None:
        return section == "rank"
    if section not in ("judge", "rank"):
        return True
    done = study.judge if section == "judge" else study.rank
    return done is not None or any(s.analysis == section for s in study.skipped)


def section_sentences(
    study: StudyResult,
    section: str,
    verdicts: Sequence[Verdict],
    note: str | None,
    title: str | None = None,
) -> SectionSentences:
    """One section's :class:`SectionSentences` from its verdicts and note (cleaned as the page
    cleans them: an undefined number is "—", the models' names kept as they are); a section with
    neither gets its :func:`summary`. ``title`` defaults to the section's in :data:`TITLES`."""
    texts = [v.sentence for v in verdicts] or ([note] if note else [])
    if not texts:
        line = summary(study, section)
        texts = [line] if line else []
    head = title if title is not None else TITLES.get(section, section)
    keep = set(study.models)
    return SectionSentences(section, head, tuple(clean_text(t, keep) for t in texts))


def sections(study: StudyResult) -> tuple[SectionSentences, ...]:
    """The study section by section, in page order: what the report's sections say and what the
    terminal and the notebook print.

    Parameters
    ----------
    study : StudyResult
        The analysed study.

    Returns
    -------
    tuple of SectionSentences
        One per section of the page.

    Examples
    --------
    >>> from humanly import analyze, simulate
    >>> d = simulate.running_example(200, 5, seed=0)
    >>> [s.title for s in sections(analyze(d.ratings, d.predictions, bootstrap=0))][:2]
    ['Data', 'Certify: is the model superhuman?']
    """
    return tuple(
        section_sentences(study, key, section_verdicts(study, key), section_note(study, key))
        for key in SECTIONS
        if has_section(study, key)
    )


def console_lines(blocks: Sequence[SectionSentences]) -> list[str]:
    """The lines the terminal prints for a study: each section's title, then its sentences, one per
    line; a blank line between sections.

    Examples
    --------
    >>> console_lines([SectionSentences("inspect", "Data", ("4 items.",)),
    ...                SectionSentences("plan", "Label budget", ("Single labels.",))])
    ['Data', '4 items.', '', 'Label budget', 'Single labels.']
    """
    out: list[str] = []
    for block in blocks:
        if out:
            out.append("")
        out += [block.title, *block.sentences]
    return out


def verdicts(result: Any) -> tuple[Verdict, ...]:
    """The verdicts of a :class:`~humanly.study.StudyResult` (every section's, in page order), of an
    :class:`~humanly.study.EquivalenceRun` (its models', or why it did not run) or of a
    :class:`~humanly.study.Skipped` record (why the analysis did not run).

    Examples
    --------
    >>> from humanly.study import Skipped
    >>> verdicts(Skipped("equivalence", "single_label_items"))[0].status
    'skipped'
    """
    kind = type(result).__name__
    if kind == "StudyResult":
        return tuple(v for key in SECTIONS for v in section_verdicts(result, key))
    if kind == "Skipped":
        topic = result.analysis
        return (Verdict(topic, _as_note(skipped_sentence(result)), None, "skipped", topic),)
    if kind == "EquivalenceRun":
        if result.result is None:
            missing, _ = run_notes(result)
            return (Verdict("equivalence", missing or "", None, "skipped", "equivalence"),)
        from .equivalence import verdicts as equivalence_verdicts

        return equivalence_verdicts(result.result, truth=result.truth)
    return ()
