"""Helpers for the report-page tests: a small simulated report, hand-made verdicts (until every
section gives its own), and reading a page back (its tables, its visible text)."""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser

from humanly.demo import simulated_states
from humanly.report import Report, build_report
from humanly.simulate import running_example
from humanly.study import AnalyzeOptions, analyze
from humanly.verdicts import Verdict

XSS = "<script>alert(1)</script>"


def simulated_report(n_items: int = 200, labels: int = 6, *, bootstrap: int = 100) -> Report:
    """The running example (hard and soft model, with the true states), small and quick."""
    sim = running_example(n_items, labels, seed=3)
    study = analyze(
        sim.ratings,
        sim.predictions,
        sim.gold,
        seed=0,
        bootstrap=bootstrap,
        options=AnalyzeOptions(title="running example", states=simulated_states(sim)),
    )
    return build_report(study)


HANDMADE = {
    "certify": (
        Verdict(
            "certify",
            "hard is not certified superhuman: its agreement with the plurality is below the "
            "average rater's upper bound.",
            "hard",
            "not certified",
            "certify",
        ),
        Verdict(
            "certify",
            "soft is not certified superhuman (no evidence, S < 0); S = nan.",
            "soft",
            "no evidence",
            "methods-certify",
        ),
    ),
    "equivalence": (
        Verdict("equivalence", "hard is worth about one rater.", "hard", "1 rater", "equivalence"),
        Verdict("equivalence", "soft is worth about two raters.", "soft", "2 raters", ""),
    ),
    "plan": (
        Verdict(
            "plan",
            "Spend the next test set's labels on single labels, one per item.",
            None,
            "single labels",
            "no-such-paragraph",
        ),
    ),
}


def with_verdicts(report: Report) -> Report:
    """``report`` as it is when its sections give verdicts; else with the hand-made ones above."""
    if any(s.verdicts for s in report.sections):
        return report
    sections = tuple(
        dataclasses.replace(s, verdicts=HANDMADE.get(s.id, ())) for s in report.sections
    )
    return dataclasses.replace(report, sections=sections)


class _Tables(HTMLParser):
    """Every ``<div class="table-block" id=…>`` table of a page: id → rows of cell text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self._id: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "div" and "table-block" in (a.get("class") or ""):
            self._id = a.get("id")
            self.tables[self._id or ""] = []
        elif tag == "tr" and self._id is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._id is not None:
            self.tables[self._id].append(self._row)
            self._row = None
        elif tag == "table":
            self._id = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def page_tables(html: str) -> dict[str, list[list[str]]]:
    """The page's tables by anchor id: the header row, then the body rows, as the reader sees them."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def visible_text(html: str) -> str:
    """The page without the embedded JSON, the style sheet and the figures' data URIs."""
    text = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    text = re.sub(r"<style>.*?</style>", "", text, flags=re.S)
    return re.sub(r'src="data:[^"]*"', 'src=""', text)


def hand_made_report(sections, models: tuple[str, ...], title: str = "t") -> Report:
    """A report of hand-made sections (a small real study underneath, its models renamed)."""
    sim = running_example(20, 3, seed=1)
    study = analyze(sim.ratings, None, bootstrap=0)
    study = dataclasses.replace(
        study, title=title, models=models, model_kinds=("label",) * len(models)
    )
    return Report(study=study, sections=tuple(sections), date="d")
