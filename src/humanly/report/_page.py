"""Layout primitives of the report page: tables, figures and sections (plain values, no statistics)."""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Mapping
from typing import Any

from ..plots._style import to_svg
from .verdicts import Verdict

__all__ = ["Figure", "Section", "Table", "Verdict", "View"]


@dataclasses.dataclass(frozen=True)
class Table:
    """A small table: ``rows`` hold plain values (formatted in the template, escaped). ``None``, NaN
    and infinite cells show as "—"; ``note`` says why under the table (a general footnote otherwise)."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str | None = None


@dataclasses.dataclass(frozen=True)
class Figure:
    """A figure as an SVG data URI (scripts in an ``<img>`` never run).

    ``svg`` is the SVG text the page shows and ``source`` the matplotlib figure it was drawn from, kept
    so that ``humanly report --export`` writes the same SVG and a PDF without parsing the page
    (``None`` for a figure built from an SVG alone)."""

    caption: str
    data_uri: str
    alt: str
    svg: str = dataclasses.field(default="", repr=False, compare=False)
    source: Any = dataclasses.field(default=None, repr=False, compare=False)

    @classmethod
    def from_matplotlib(cls, fig: Any, caption: str, alt: str | None = None) -> Figure:
        text = to_svg(fig)
        # keep the layout the SVG was drawn with: later renders (the PDF of --export) then place
        # everything where the page shows it, and give the same bytes each time
        fig.set_layout_engine("none")
        uri = "data:image/svg+xml;base64," + base64.b64encode(text.encode()).decode("ascii")
        return cls(caption, uri, alt or caption, svg=text, source=fig)


@dataclasses.dataclass(frozen=True)
class Section:
    """One section of the page. ``note`` replaces the body when the inputs are missing;
    ``paragraph_ids`` (optional, one per paragraph) give paragraphs an anchor (the Methods section:
    ``methods-<topic>``)."""

    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    figures: tuple[Figure, ...] = ()
    note: str | None = None
    verdicts: tuple[Verdict, ...] = ()
    paragraph_ids: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class View:
    """How the page shows the results: the typed options every section builder takes.

    ``colors`` gives each model one colour in every figure; ``models`` are the models' names in card
    order; ``kinds`` each model's kind (``label``, ``proba``, ``score``)."""

    colors: Mapping[str, str]
    models: tuple[str, ...]
    kinds: Mapping[str, str]
