"""Assemble the report: run each analysis with its defaults, collect results, figures and tables."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from .._atomic import atomic_path
from .._progress import progress
from .._result import Result, jsonable
from ..data import Gold, InputError, Predictions, Ratings
from ._page import Figure, Section, Table

__all__ = ["Figure", "Report", "Section", "Table", "build_report"]


@dataclasses.dataclass(frozen=True, repr=False)
class Report(Result):
    """A rendered-to-be report: sections, the embedded results and reproducibility facts."""

    title: str
    sections: tuple[Section, ...] = dataclasses.field(repr=False)
    results: dict[str, Any]
    reproducibility: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """What the page embeds as JSON: the analyses' results and reproducibility facts."""
        return {
            "results": jsonable(self.results),
            "reproducibility": jsonable(self.reproducibility),
        }

    def headline(self) -> list[str]:
        """One line per analysis that ran: the page's main findings in plain words."""
        lines = []
        for key, fn in HEADLINES.items():
            result = self.results.get(key)
            if result is not None:
                line = fn(result)
                if line:
                    lines.append(line)
        return lines

    def html(self) -> str:
        from .render import render

        return render(self)

    def write(self, path: str | os.PathLike[str], *, force: bool = False) -> Path:
        """Write the page atomically: to a temporary file in the target folder, then published under
        ``path`` in one step — replacing an existing page only with ``force``; without it, of two
        writers of the same new page exactly one succeeds (the other raises
        :class:`~humanly._atomic.OutputExists`, an :class:`InputError`)."""
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
    from .sections.data import data_section
    from .sections.survey import survey_section

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
    from .sections.data import data_headline
    from .sections.survey import survey_headline

    return {
        "inspect": data_headline,
        "certify": certify_headline,
        "survey": survey_headline,
        "budget": budget_headline,
    }


HEADLINES: dict[str, Callable[[dict[str, Any]], str | None]] = _headlines()


def _methods_section(keys: Sequence[str]) -> Section:
    from .methods import METHODS

    paragraphs = tuple(METHODS[k] for k in keys if k in METHODS)
    return Section("methods", "Methods", paragraphs=paragraphs)


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
) -> Report:
    """Run every analysis with its defaults on ``ratings`` (and ``predictions``/``gold`` if given) and
    assemble the report. ``inputs`` are the files read (named with their SHA-256 on the page);
    ``options`` are passed to every section builder as keyword arguments (e.g. ``bootstrap=200``)."""
    sections: list[Section] = []
    results: dict[str, Any] = {}
    for key, builder in progress(
        BUILDERS, total=len(BUILDERS), description="report", enabled=show_progress
    ):
        section, result = builder(ratings, gold, predictions, seed=seed, **(options or {}))
        sections.append(section)
        results[key] = result.to_dict() if isinstance(result, Result) else result
    sections.append(_methods_section([k for k, _ in BUILDERS]))
    files = [
        {"name": Path(p).name, "path": str(p), "sha256": _sha256(Path(p))}
        for p in inputs
        if Path(p).is_file()
    ]
    repro = {
        "humanly_version": __version__,
        "command": command,
        "seed": seed,
        "options": dict(options or {}),
        "inputs": files,
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    return Report(
        title=title or f"humanly report · {ratings.source or 'ratings'}",
        sections=tuple(sections),
        results=results,
        reproducibility=repro,
    )
