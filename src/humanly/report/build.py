"""Assemble the report: run each analysis with its defaults, collect results, figures and tables."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import os
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import __version__
from .._core.atomic import atomic_path
from .._core.progress import progress
from .._core.result import Result, jsonable
from ..data import Gold, InputError, Predictions, Ratings
from ..plots._style import model_colors
from ._page import Figure, Section, Table
from .verdicts import Verdict

if TYPE_CHECKING:
    from .cards import Card
    from .export import Export

__all__ = ["Figure", "Report", "Section", "Table", "build_report", "report_date"]


@dataclasses.dataclass(frozen=True, repr=False)
class Report(Result):
    """A rendered-to-be report: sections, the embedded results and reproducibility facts; ``models``
    are the models' names in the order of the predictions (the order of the verdict cards)."""

    title: str
    sections: tuple[Section, ...] = dataclasses.field(repr=False)
    results: dict[str, Any]
    reproducibility: dict[str, Any]
    models: tuple[str, ...] = ()

    def verdicts(self) -> tuple[Verdict, ...]:
        """Every section's verdicts, in card order (model by model, then the study's)."""
        return tuple(line.verdict for card in self.cards() for line in card.lines)

    def cards(self) -> tuple[Card, ...]:
        """The verdict cards that open the page (none when no section gives a verdict)."""
        from .cards import build_cards

        keys = {k for s in self.sections if s.id == "methods" for k in s.paragraph_ids}
        found = [v for s in self.sections for v in s.verdicts]
        return build_cards(found, self.models, {k.removeprefix("methods-") for k in keys})

    def to_dict(self) -> dict[str, Any]:
        """What the page embeds as JSON: the analyses' results, the verdicts (in card order, each
        sentence as the card shows it) and reproducibility facts."""
        verdicts = [
            {**dataclasses.asdict(line.verdict), "sentence": line.text}
            for card in self.cards()
            for line in card.lines
        ]
        return {
            "results": jsonable(self.results),
            "verdicts": verdicts,
            "reproducibility": jsonable(self.reproducibility),
        }

    def headline(self) -> list[str]:
        """The page's main findings in plain words, for the terminal: the data in one line, then the
        verdict cards' sentences in card order; an analysis that gives no verdicts gets its one-line
        summary instead."""
        from ._cells import clean_text

        with_verdicts = {s.id for s in self.sections if s.verdicts}
        lines = _summaries(self.results, [k for k in HEADLINES if k == "inspect"], with_verdicts)
        protected = set(self.models)
        lines += [line.text for card in self.cards() for line in card.lines]
        rest = [k for k in HEADLINES if k != "inspect"]
        lines += _summaries(self.results, rest, with_verdicts)
        return [clean_text(line, protected) for line in lines]

    def html(self) -> str:
        from .render import render

        return render(self)

    def write(self, path: str | os.PathLike[str], *, force: bool = False) -> Path:
        """Write the page atomically: to a temporary file in the target folder, then published under
        ``path`` in one step — replacing an existing page only with ``force``; without it, of two
        writers of the same new page exactly one succeeds (the other raises
        :class:`~humanly._core.atomic.OutputExists`, an :class:`InputError`)."""
        target = Path(path)
        if target.is_dir():
            raise InputError(
                f"{target} is a folder; give the report a file name, e.g. {target}/report.html"
            )
        if target.suffix.lower() not in (".html", ".htm"):
            raise InputError(f"{target}: the report is HTML; name the output file *.html")
        if target.exists() and not force:
            raise InputError(
                f"{target} exists; choose another path or pass force=True to overwrite it"
            )
        text = self.html()
        with atomic_path(target, overwrite=force) as tmp:
            tmp.write_text(text, encoding="utf-8")
        return target

    def export(self, folder: str | os.PathLike[str], *, force: bool = False) -> Export:
        """Write every table as CSV and LaTeX (booktabs) and every figure as PDF and SVG into
        ``folder``, with an index ``README.txt`` (see :mod:`humanly.report.export`)."""
        from .export import export_report

        return export_report(self, folder, force=force)


def _summaries(results: dict[str, Any], keys: Sequence[str], skip: Collection[str]) -> list[str]:
    """The one-line summaries of the analyses ``keys`` whose sections (``skip``) gave no verdicts."""
    lines = []
    for key in keys:
        result = results.get(key)
        if result is not None and SECTION_IDS.get(key, key) not in skip:
            line = HEADLINES[key](result)
            if line:
                lines.append(line)
    return lines


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------------------- sections
#: Section builders, in page order: (key in the embedded results, builder). Each builder returns the
#: section and the analysis result whose ``to_dict()`` is embedded (``None`` when not applicable).
SectionBuilder = Callable[..., tuple[Section, Any]]


def _builders() -> list[tuple[str, SectionBuilder]]:
    from .sections.budget import budget_section
    from .sections.certify import certify_section
    from .sections.equivalence import survey_section
    from .sections.inspect import data_section

    return [
        ("inspect", data_section),
        ("certify", certify_section),
        ("survey", survey_section),
        ("budget", budget_section),
    ]


BUILDERS: list[tuple[str, SectionBuilder]] = _builders()


#: One-line summaries of each analysis' embedded result, for the terminal (``humanly report/demo``).
def _headlines() -> dict[str, Callable[[dict[str, Any]], str | None]]:
    from .sections.budget import budget_headline
    from .sections.certify import certify_headline
    from .sections.equivalence import survey_headline
    from .sections.inspect import data_headline

    return {
        "inspect": data_headline,
        "certify": certify_headline,
        "survey": survey_headline,
        "budget": budget_headline,
    }


HEADLINES: dict[str, Callable[[dict[str, Any]], str | None]] = _headlines()

#: key of an analysis' embedded result → the id of its section (where they differ)
SECTION_IDS = {"inspect": "data"}


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


def _shown_path(path: Path) -> str:
    """How the page names an input file: as given, except files shipped with humanly (the demo's
    data), named relative to the installed package so the page does not depend on where it is."""
    here = Path(__file__).resolve().parents[1]
    try:
        return Path(path).resolve().relative_to(here.parent).as_posix()
    except ValueError:
        return str(path)


def _states_frame(states: Any, ratings: Ratings) -> Any:
    """The true item states as :func:`humanly.survey.truth_equivalence` takes them — a DataFrame
    indexed by item id with one column per class; an items × classes array in the ratings' order is
    turned into one (a DataFrame is passed on as given)."""
    if states is None:
        return None
    import pandas as pd

    if isinstance(states, pd.DataFrame):
        return states
    arr = np.asarray(states, dtype=float)
    if arr.shape != (ratings.n_items, ratings.n_classes):
        raise InputError(
            f"states: need {ratings.n_items} × {ratings.n_classes} (items × classes), got "
            f"{' × '.join(map(str, arr.shape))}"
        )
    return pd.DataFrame(arr, index=ratings.items.map(str), columns=list(ratings.classes))


def build_report(
    ratings: Ratings,
    predictions: Predictions | None = None,
    gold: Gold | None = None,
    *,
    seed: int = 0,
    title: str | None = None,
    command: str | None = None,
    inputs: Sequence[str | os.PathLike[str]] = (),
    show_progress: bool = True,
    options: dict[str, Any] | None = None,
    states: Any = None,
) -> Report:
    """Run every analysis with its defaults on ``ratings`` (and ``predictions``/``gold`` if given) and
    assemble the report. ``inputs`` are the files read (named with their SHA-256 on the page);
    ``options`` are passed to every section builder as keyword arguments (e.g. ``bootstrap=200``);
    ``states`` are the true item states of a simulation (see :func:`_states_frame`; every section
    builder gets them as ``states=``, e.g. for SEQ* and HSCORE*). Every builder also gets
    ``colors=``, one colour per model for every figure (:func:`humanly.plots._style.model_colors`).
    The page's date is ``SOURCE_DATE_EPOCH`` when set (:func:`report_date`).

    >>> from humanly.simulate import running_example
    >>> d = running_example(200, 5, seed=0)
    >>> report = build_report(d.ratings, d.predictions, show_progress=False)
    >>> report.html().startswith("<!DOCTYPE html>")
    True
    """
    date = report_date()  # a malformed SOURCE_DATE_EPOCH stops before the work
    models = tuple(str(n) for n in predictions.names) if predictions is not None else ()
    kwargs = dict(options or {})
    kwargs.update(colors=model_colors(models), states=_states_frame(states, ratings))
    sections: list[Section] = []
    results: dict[str, Any] = {}
    for key, builder in progress(
        BUILDERS, total=len(BUILDERS), description="report", enabled=show_progress
    ):
        section, result = builder(ratings, gold, predictions, seed=seed, **kwargs)
        sections.append(section)
        results[key] = result.to_dict() if isinstance(result, Result) else result
    sections.append(_methods_section())
    files = [
        {"name": Path(p).name, "path": _shown_path(Path(p)), "sha256": _sha256(Path(p))}
        for p in inputs
        if Path(p).is_file()
    ]
    repro = {
        "humanly_version": __version__,
        "command": command,
        "seed": seed,
        "options": dict(options or {}),
        "inputs": files,
        "date": date,
    }
    return Report(
        title=title or f"humanly report · {ratings.source or 'ratings'}",
        sections=tuple(sections),
        results=results,
        reproducibility=repro,
        models=models,
    )
