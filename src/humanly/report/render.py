"""Render a report page (:class:`~humanly.report.build.Report`, read as a
:class:`~humanly.report._page.Page`) to one self-contained HTML page (jinja2, autoescape).

The page is a function of the report alone: no clock (the date is the report's, see
:func:`humanly.report.build.report_date`), no object ids, no set order; figures carry fixed SVG ids.
Every value goes through :func:`humanly.verdicts.text.cell_text` / ``clean_text``, the same text the
``--export`` files hold, so "nan" never reaches the page ("—", with a footnote saying why).
"""

from __future__ import annotations

import dataclasses
from importlib.resources import files
from typing import Any

import jinja2

from ..verdicts.text import DASH_NOTE, cell_text, clean_text, has_dash
from ._page import Figure, Page, Section, Table

__all__ = ["SectionView", "TableView", "figure_id", "render", "section_views", "table_id"]


@dataclasses.dataclass(frozen=True)
class TableView:
    """A table as the page shows it: every cell as text, and its footnote when a cell shows "—"."""

    id: str
    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    footnote: str | None


@dataclasses.dataclass(frozen=True)
class SectionView:
    """A section as the page shows it (text cleaned; paragraphs with their anchors)."""

    id: str
    title: str
    short: str
    note: str | None
    paragraphs: tuple[tuple[str | None, str], ...]
    tables: tuple[TableView, ...]
    figures: tuple[tuple[str, Figure], ...]
    footnote: str | None


def table_id(section: Section, index: int) -> str:
    """The page anchor (and export file stem) of a section's ``index``-th table (from 1)."""
    return f"{section.id}-table-{index}"


def figure_id(section: Section, index: int) -> str:
    """The page anchor (and export file stem) of a section's ``index``-th figure (from 1)."""
    return f"{section.id}-figure-{index}"


def table_view(table: Table, anchor: str, protected: set[str]) -> TableView:
    rows = tuple(tuple(cell_text(c, protected) for c in row) for row in table.rows)
    return TableView(
        anchor,
        clean_text(table.caption, protected),
        tuple(cell_text(h, protected) for h in table.headers),
        rows,
        (table.note or DASH_NOTE) if has_dash(rows) else None,
    )


def section_views(report: Page) -> tuple[SectionView, ...]:
    """Every section as the page shows it."""
    protected = set(report.models)
    out = []
    for s in report.sections:
        ids = tuple(s.paragraph_ids) + (None,) * (len(s.paragraphs) - len(s.paragraph_ids))
        cleaned = tuple(clean_text(p, protected) for p in s.paragraphs)
        note = None if s.note is None else clean_text(s.note, protected)
        replaced = cleaned != s.paragraphs or note != s.note
        out.append(
            SectionView(
                s.id,
                s.title,
                s.title.split(":")[0],
                note,
                tuple(zip(ids, cleaned, strict=False)),
                tuple(table_view(t, table_id(s, i), protected) for i, t in enumerate(s.tables, 1)),
                tuple((figure_id(s, i), f) for i, f in enumerate(s.figures, 1)),
                DASH_NOTE if replaced else None,
            )
        )
    return tuple(out)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("humanly.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"], default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env


def render(report: Page) -> str:
    css = files("humanly.report").joinpath("templates/style.css").read_text(encoding="utf-8")
    template = _environment().get_template("report.html.j2")
    cards = report.cards()
    page: Any = template.render(
        report=report,
        cards=cards,
        cards_note=DASH_NOTE
        if any(ln.text != ln.verdict.sentence for c in cards for ln in c.lines)
        else None,
        sections=section_views(report),
        css=css,
        embedded=report.to_dict(),
    )
    return str(page)
