"""Layout primitives of the report page: tables, figures and sections (plain values, no statistics)."""

from __future__ import annotations

import base64
import dataclasses
from typing import Any

from ..plots._style import to_svg
from .verdicts import Verdict

__all__ = ["Figure", "Section", "Table", "Verdict"]


@dataclasses.dataclass(frozen=True)
class Table:
    """A small table: ``rows`` hold plain values (formatted in the template, escaped)."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@dataclasses.dataclass(frozen=True)
class Figure:
    """A figure as an SVG data URI (scripts in an ``<img>`` never run)."""

    caption: str
    data_uri: str
    alt: str

    @classmethod
    def from_matplotlib(cls, fig: Any, caption: str, alt: str | None = None) -> Figure:
        svg = to_svg(fig).encode()
        uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
        return cls(caption, uri, alt or caption)


@dataclasses.dataclass(frozen=True)
class Section:
    """One section of the page. ``note`` replaces the body when the inputs are missing."""

    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    figures: tuple[Figure, ...] = ()
    note: str | None = None
    verdicts: tuple[Verdict, ...] = ()
