"""Layout primitives of the report page: tables, figures and sections (plain values, no statistics),
and :class:`Page`, what the renderer and the exporter read of a report."""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..plots.style import to_svg
from ..verdicts import Verdict

if TYPE_CHECKING:
    from .cards import Card

__all__ = ["Figure", "Page", "Section", "Table", "Verdict", "View"]


@dataclasses.dataclass(frozen=True)
class Table:
    """A small table of the page.

    Parameters
    ----------
    caption : str
        The caption.
    headers : tuple of str
        The column headers.
    rows : tuple of tuple
        The cells: plain values, formatted and escaped by the page; ``None``, NaN and infinities show
        as "—".
    note : str or None
        Why a "—" shows, under the table (a general footnote otherwise).

    Examples
    --------
    >>> Table("Sizes", ("quantity", "value"), (("items", 3),)).rows[0]
    ('items', 3)
    """

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str | None = None


@dataclasses.dataclass(frozen=True)
class Figure:
    """A figure as an SVG data URI (scripts in an ``<img>`` never run).

    Parameters
    ----------
    caption : str
        The caption.
    data_uri : str
        The SVG as a ``data:`` URI.
    alt : str
        The text alternative.
    svg : str
        The SVG text the page shows (``--export`` writes it as it is).
    source : matplotlib.figure.Figure or None
        The figure it was drawn from, for the PDF of ``--export`` (``None`` for an SVG alone).

    Examples
    --------
    >>> from humanly.plots import figure
    >>> fig, ax = figure()
    >>> Figure.from_matplotlib(fig, "An empty figure.").data_uri.startswith("data:image/svg+xml")
    True
    """

    caption: str
    data_uri: str
    alt: str
    svg: str = dataclasses.field(default="", repr=False, compare=False)
    source: Any = dataclasses.field(default=None, repr=False, compare=False)

    @classmethod
    def from_matplotlib(cls, fig: Any, caption: str, alt: str | None = None) -> Figure:
        """The page's figure of a matplotlib figure (drawn to SVG once; its layout then frozen).

        Parameters
        ----------
        fig : matplotlib.figure.Figure
            The figure.
        caption : str
            The caption.
        alt : str, optional
            The text alternative (default: the caption).

        Returns
        -------
        Figure
            The figure as the page shows it.

        Examples
        --------
        >>> from humanly.plots import figure
        >>> fig, ax = figure()
        >>> Figure.from_matplotlib(fig, "An empty figure.").alt
        'An empty figure.'
        """
        text = to_svg(fig)
        # keep the layout the SVG was drawn with: later renders (the PDF of --export) then place
        # everything where the page shows it, and give the same bytes each time
        fig.set_layout_engine("none")
        uri = "data:image/svg+xml;base64," + base64.b64encode(text.encode()).decode("ascii")
        return cls(caption, uri, alt or caption, svg=text, source=fig)


@dataclasses.dataclass(frozen=True)
class Section:
    """One section of the page.

    Parameters
    ----------
    id : str
        Its anchor (the analysis' name, e.g. ``"certify"``).
    title : str
        Its heading.
    paragraphs : tuple of str
        Paragraphs of text.
    tables, figures : tuple
        Its :class:`Table` and :class:`Figure` objects.
    note : str or None
        Replaces the body when the analysis did not apply (one sentence saying why).
    verdicts : tuple of Verdict
        The sentences its analysis gives, for the cards.
    paragraph_ids : tuple of str
        Anchors of the paragraphs, one per paragraph (the Methods section: ``methods-<topic>``).

    Examples
    --------
    >>> Section("certify", "Certify", note="Not applicable: no model.").note
    'Not applicable: no model.'
    """

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

    Parameters
    ----------
    colors : mapping of str to str
        One colour per model, the same in every figure.
    models : tuple of str
        The models' names, in card order.
    kinds : mapping of str to str
        Each model's kind (``label``, ``proba``, ``score``).

    Examples
    --------
    >>> View({"m": "#0072B2"}, ("m",), {"m": "label"}).models
    ('m',)
    """

    colors: Mapping[str, str]
    models: tuple[str, ...]
    kinds: Mapping[str, str]


class Page(Protocol):
    """What :func:`~humanly.report.render.render` and :func:`~humanly.report.export.export_report`
    read of a page: :class:`~humanly.report.build.Report` is one. They take the page by what it offers
    rather than by its class, so the page's builder can call them without an import circle.
    """

    @property
    def title(self) -> str:
        """The page's title."""

    @property
    def models(self) -> tuple[str, ...]:
        """The models' names, in card order."""

    @property
    def sections(self) -> tuple[Section, ...]:
        """The sections, in page order."""

    @property
    def reproducibility(self) -> dict[str, Any]:
        """Version, command, seed, date and input files."""

    def cards(self) -> tuple[Card, ...]:
        """The verdict cards that open the page."""

    def to_dict(self) -> dict[str, Any]:
        """What the page embeds as JSON."""
