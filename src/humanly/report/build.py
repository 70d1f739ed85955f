"""Assemble the report from one :class:`~humanly.study.StudyResult`: every section is a pure function of
the typed results (no analysis runs here), so a page drawn from saved results (``humanly report
--from``) is the page drawn from the data, byte for byte."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core.atomic import atomic_path
from .._core.progress import progress
from ..errors import InputError, setting
from ..study import StudyResult
from ..verdicts import Verdict
from ._page import Figure, Section, Table, View

if TYPE_CHECKING:
    from ..verdicts.study import SectionSentences
    from .cards import Card
    from .export import Export

__all__ = ["Figure", "Report", "Section", "Table", "View", "build_report", "report_date"]


#: A section builder: the study's results and the view → one section of the page (``None``: no
#: section, for an analysis the study did not ask for, e.g. ``judge`` without a judge).
SectionBuilder = Callable[[StudyResult, View], "Section | None"]


@dataclasses.dataclass(frozen=True, repr=False)
class Report:
    """A page to be rendered (made by :func:`build_report`).

    Parameters
    ----------
    study : StudyResult
        The study's results, all the page draws.
    sections : tuple of Section
        The sections drawn from them, in page order (Methods last).
    date : str
        The page's date (``SOURCE_DATE_EPOCH`` when set, see :func:`report_date`).

    Examples
    --------
    >>> from humanly import analyze, simulate
    >>> d = simulate.running_example(200, 5, seed=0)
    >>> page = build_report(analyze(d.ratings, d.predictions, bootstrap=0))
    >>> [s.id for s in page.sections]
    ['inspect', 'certify', 'equivalence', 'plan', 'methods']
    >>> page.title, page.models
    ('humanly report · simulated', ('hard', 'soft'))
    >>> sorted(page.reproducibility)
    ['command', 'date', 'humanly_version', 'inputs', 'seed']
    >>> {v.topic for v in page.verdicts()} >= {"certify", "equivalence"}
    True
    >>> [c.title for c in page.cards()][:2]
    ['hard', 'soft']
    >>> page.headline()[:2] == ["Data", page.sections[0].verdicts[0].sentence]
    True
    >>> [s.id for s in page.section_sentences()]
    ['inspect', 'certify', 'equivalence', 'plan']
    >>> page.html().startswith("<!DOCTYPE html>")
    True
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     page.write(pathlib.Path(tmp) / "report.html").name
    ...     "README.txt" in page.export(pathlib.Path(tmp) / "paper").files
    'report.html'
    True
    """

    study: StudyResult
    sections: tuple[Section, ...]
    date: str

    @property
    def title(self) -> str:
        """The page's title, without bidirectional control characters."""
        from ..verdicts.text import neutral

        return neutral(self.study.title)

    @property
    def models(self) -> tuple[str, ...]:
        """The models' names, in card order."""
        return self.study.models

    @property
    def reproducibility(self) -> dict[str, Any]:
        """What the Reproducibility table shows: version, command, seed, date and input files."""
        p = self.study.provenance
        return {
            "humanly_version": p.humanly_version,
            "command": p.command,
            "seed": self.study.settings.seed,
            "date": self.date,
            "inputs": p.inputs,
        }

    def __repr__(self) -> str:
        return f"Report(title={self.title!r}, sections={[s.id for s in self.sections]})"

    def verdicts(self) -> tuple[Verdict, ...]:
        """Every section's verdicts, in card order (model by model, then the study's).

        Returns
        -------
        tuple of Verdict
            The verdicts.
        """
        return tuple(line.verdict for card in self.cards() for line in card.lines)

    def cards(self) -> tuple[Card, ...]:
        """The verdict cards that open the page (none when no section gives a verdict).

        Returns
        -------
        tuple of Card
            One card per model with verdicts, then the study's card.
        """
        from .cards import build_cards

        keys = {k for s in self.sections if s.id == "methods" for k in s.paragraph_ids}
        found = [v for s in self.sections for v in s.verdicts]
        return build_cards(found, self.models, {k.removeprefix("methods-") for k in keys})

    def to_dict(self) -> dict[str, Any]:
        """What the page embeds as JSON: the study's results (as ``humanly report --save-results``
        writes them), the verdicts (in card order, each sentence as the card shows it) and the date."""
        verdicts = [
            {**dataclasses.asdict(line.verdict), "sentence": line.text}
            for card in self.cards()
            for line in card.lines
        ]
        return {"study": self.study.to_dict(), "verdicts": verdicts, "date": self.date}

    def headline(self) -> list[str]:
        """The page's findings in plain words, section by section, for the terminal
        (:func:`humanly.verdicts.study.console_lines`).

        Returns
        -------
        list of str
            Each section's title, then its verdict sentences (a section without verdicts: the note
            that stands in for its analysis, or its one-line summary); a blank line between sections.
        """
        from ..verdicts.study import console_lines

        return console_lines(self.section_sentences())

    def section_sentences(self) -> tuple[SectionSentences, ...]:
        """What the page says section by section, as the terminal prints it (Methods left out).

        Returns
        -------
        tuple of SectionSentences
            One per section: its id, title and sentences.
        """
        from ..verdicts.study import section_sentences

        return tuple(
            section_sentences(self.study, s.id, s.verdicts, s.note, s.title)
            for s in self.sections
            if s.id != "methods"
        )

    def html(self) -> str:
        """The page as one self-contained HTML document.

        Returns
        -------
        str
            The HTML (inline CSS and SVG figures, the results embedded as JSON).
        """
        from .render import render

        return render(self)

    def write(self, path: str | os.PathLike[str], *, force: bool = False) -> Path:
        """Write the page atomically.

        It is written to a temporary file in the target folder, then published under ``path`` in
        one step — replacing an existing page only with ``force``; without it, of two writers of the
        same new page exactly one succeeds.

        Parameters
        ----------
        path : str or os.PathLike
            The page's file (``*.html``; its folder must exist).
        force : bool
            Replace an existing file.

        Returns
        -------
        pathlib.Path
            The path written.

        Raises
        ------
        InputError
            For a folder, another suffix, or an existing file without ``force``.
        """
        target = Path(path)
        if target.is_dir():
            raise InputError(
                f"{target} is a folder; give the report a file name, e.g. {target}/report.html"
            )
        if target.suffix.lower() not in (".html", ".htm"):
            raise InputError(f"{target}: the report is HTML; name the output file *.html")
        if target.exists() and not force:
            raise InputError(
                f"{target} exists; choose another path or pass {setting('force', True)} to overwrite it"
            )
        text = self.html()
        with atomic_path(target, overwrite=force) as tmp:
            tmp.write_text(text, encoding="utf-8")
        return target

    def export(self, folder: str | os.PathLike[str], *, force: bool = False) -> Export:
        """Write every table as CSV and LaTeX (booktabs) and every figure as PDF and SVG.

        Parameters
        ----------
        folder : str or os.PathLike
            The export folder (created if its parent exists; an existing one must be empty unless
            ``force``); published in one step (see :mod:`humanly.report.export`).
        force : bool
            Replace files of the same names in an existing folder (others are kept).

        Returns
        -------
        Export
            The folder and the files written, with an index ``README.txt``.
        """
        from .export import export_report

        return export_report(self, folder, force=force)


# --------------------------------------------------------------------------------------- sections
def _builders() -> dict[str, SectionBuilder]:
    from .sections.certify import certify_section
    from .sections.equivalence import equivalence_section
    from .sections.inspect import inspect_section
    from .sections.judge import judge_section
    from .sections.plan import plan_section
    from .sections.rank import rank_section

    return {
        "inspect": inspect_section,
        "certify": certify_section,
        "equivalence": equivalence_section,
        "plan": plan_section,
        "judge": judge_section,
        "rank": rank_section,
    }


#: Section builders by section id (also the analysis' name and its key in the study's JSON), in
#: page order.
BUILDERS: dict[str, SectionBuilder] = _builders()


def _methods_section() -> Section:
    """One paragraph per analysis, each anchored ``methods-<key>`` for the verdict cards' links."""
    from .methods import methods_paragraphs

    paragraphs = methods_paragraphs()
    return Section(
        "methods",
        "Methods",
        paragraphs=tuple(paragraphs.values()),
        paragraph_ids=tuple(f"methods-{k}" for k in paragraphs),
    )


def report_date() -> str:
    """The page's date (UTC, ISO 8601): ``SOURCE_DATE_EPOCH`` when set (the reproducible-builds
    convention: seconds since 1970-01-01 UTC), else now.

    >>> import os; os.environ["SOURCE_DATE_EPOCH"] = "1700000000"; report_date()
    '2023-11-14T22:13:20+00:00'
    >>> del os.environ["SOURCE_DATE_EPOCH"]
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    try:
        seconds = int(epoch)
        when = _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc)
    except (ValueError, OverflowError, OSError):
        raise InputError(
            f"SOURCE_DATE_EPOCH={epoch!r}: give a whole number of seconds since 1970-01-01 UTC "
            "(or unset it)"
        ) from None
    return when.isoformat(timespec="seconds")


def build_report(study: StudyResult) -> Report:
    """The report page of a study's results: verdict cards, one section per analysis, Methods and
    Reproducibility. A pure function of ``study`` (and ``SOURCE_DATE_EPOCH`` for the date): no
    analysis runs here.

    Parameters
    ----------
    study
        The results of :func:`humanly.analyze` (or :meth:`StudyResult.from_dict` of saved ones).

    Returns
    -------
    Report
        The page, to :meth:`~Report.write`, :meth:`~Report.export` or read (:meth:`~Report.cards`).

    Raises
    ------
    TypeError
        When ``study`` is not a :class:`~humanly.study.StudyResult`.

    Examples
    --------
    >>> from humanly import analyze, simulate
    >>> d = simulate.running_example(200, 5, seed=0)
    >>> report = build_report(analyze(d.ratings, d.predictions, bootstrap=100))
    >>> report.html().startswith("<!DOCTYPE html>")
    True
    """
    if not isinstance(study, StudyResult):
        raise TypeError(
            f"study={type(study).__name__}: give the StudyResult of humanly.analyze (build_report "
            "draws results; it does not compute them)"
        )
    from ..plots.style import model_colors

    date = report_date()  # a malformed SOURCE_DATE_EPOCH stops before the work
    view = View(
        colors=model_colors(study.models),
        models=study.models,
        kinds=dict(zip(study.models, study.model_kinds, strict=True)),
    )
    from ..verdicts.study import has_section

    shown = {k: b for k, b in BUILDERS.items() if has_section(study, k)}  # votes: the ranking only
    built = (
        builder(study, view)
        for builder in progress(shown.values(), total=len(shown), description="report")
    )
    sections = [s for s in built if s is not None]
    sections.append(_methods_section())
    return Report(study=study, sections=tuple(sections), date=date)
