"""Printing for a person and for programs: tables and notes (rich, loaded on first use), one JSON object,
and :func:`clean`, which every render applies to the strings users wrote.

User strings — model, class, item and rater names, file names, values quoted in messages — may hold
terminal control sequences ("\\x1b[2J" clears the screen). They are printed with control characters
removed, and never read as rich markup ("[/b]" in a model name is text).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

__all__ = ["clean", "new_table", "note", "print_json", "show", "stderr", "stdout"]

_WHITESPACE = re.compile(r"[\t\n\r\v\f]")
# control characters, and the bidirectional controls that would reorder the text around them
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean(value: object) -> str:
    """``value`` as text without control characters (line breaks and tabs become spaces).

    >>> clean("model\\x1b[2J one\\nline")
    'model[2J one line'
    """
    return _CONTROL.sub("", _WHITESPACE.sub(" ", str(value)))


@cache
def stdout() -> Console:
    """The console for results (markup off: user strings are printed as given)."""
    from rich.console import Console

    return Console(soft_wrap=True, markup=False)


@cache
def stderr() -> Console:
    """The console for notes, progress and spinners."""
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True, markup=False)


class CleanTable:
    """A table whose title, caption and cells are :func:`clean` text, laid out to the terminal's width
    when it is printed (:func:`show`): cell text wraps, headers and kept columns never shorten.

    The layout rule, the same for every command's tables (:meth:`tables`):

    * a column is never narrower than the longest word of its header or of any cell, so a header
      wraps at its spaces and a number or a name is never cut ("w…");
    * a *kept* column (``keep=True``; by default the first column, which names the row: a model, k, a
      parameter) is as wide as its widest cell: its cells never wrap;
    * when the whole table is wider than the terminal, the other columns' cell text wraps, the
      widest columns first; when even that does not fit, the table is printed in parts, each with
      the kept columns and as many others as fit.

    Examples
    --------
    >>> t = new_table("scores")
    >>> t.column("model")
    >>> t.column("a rather long header", justify="right")
    >>> t.row("gpt-4o-mini", "0.8123")
    >>> [p.columns[0].width for p in t.tables(80)]  # fits: rich's own layout
    [None]
    """

    def __init__(self, title: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("title_justify", "left")
        self.title = None if title is None else clean(title)
        self.options = kwargs
        self.columns: list[tuple[str, bool, dict[str, Any]]] = []
        self.rows: list[tuple[tuple[Any, ...], str | None]] = []
        self.caption_text: str | None = None

    def column(self, header: str, *, keep: bool | None = None, **kwargs: Any) -> None:
        """Add a column; ``keep=True`` never wraps its cells (default: the first column only)."""
        kept = len(self.columns) == 0 if keep is None else bool(keep)
        self.columns.append((clean(header), kept, kwargs))

    def row(self, *cells: object, style: str | None = None) -> None:
        self.rows.append((tuple(_cell(c) for c in cells), style))

    def caption(self, text: str) -> None:
        self.caption_text = clean(text)

    @property
    def table(self) -> Table:
        """The whole table as one rich table, in rich's own layout."""
        return self._build(range(len(self.columns)), None, self.title, self.caption_text)

    def tables(self, width: int) -> list[Table]:
        """The table laid out for ``width`` columns of text: one part, or several (see the class)."""
        if not self.columns:
            return [self.table]
        lows, highs = zip(*(self._span(j) for j in range(len(self.columns))), strict=True)
        every = list(range(len(self.columns)))
        if sum(highs) + self._extra(len(every)) <= width:
            return [self.table]
        parts = self._parts(every, lows, width)
        out = []
        for i, part in enumerate(parts):
            title = self.title if i == 0 else f"{self.title or ''} (continued)".strip()
            caption = self.caption_text if i == len(parts) - 1 else None
            widths = self._fit(part, lows, highs, width - self._extra(len(part)))
            out.append(self._build(part, dict(zip(part, widths, strict=True)), title, caption))
        return out

    # ------------------------------------------------------------------ layout
    def _fit(self, part: list[int], lows: Any, highs: Any, room: int) -> list[int]:
        """The widths of a part's columns in ``room``: shrunk to their longest words; when even
        that is too wide (a terminal narrower than a name and one column), the other columns fold
        their words, and the kept ones stay whole."""
        widths = _shrink([highs[j] for j in part], [lows[j] for j in part], room)
        if sum(widths) <= room:
            return widths
        other = [i for i, j in enumerate(part) if not self.columns[j][1]]
        left = room - sum(w for i, w in enumerate(widths) if i not in other)
        folded = _shrink([widths[i] for i in other], [1] * len(other), max(left, len(other)))
        for i, w in zip(other, folded, strict=True):
            widths[i] = w
        return widths

    def _extra(self, n: int) -> int:
        """The width of a table of n columns beyond its cell text: borders and padding."""
        from rich import box as _box

        pad = 2 if self.options.get("padding") is None else _padding(self.options["padding"])
        frame = self.options.get("box", _box.HEAVY_HEAD)
        edge = self.options.get("show_edge", True)
        return n * pad + ((2 if edge else 0) + n - 1 if frame else 0)

    def _span(self, j: int) -> tuple[int, int]:
        """The narrowest and widest column j can be: its longest word (a kept column: its widest
        cell) and its widest line, headers included."""
        from rich.cells import cell_len

        header, kept, kwargs = self.columns[j]
        texts = [_plain(cells[j]) for cells, _ in self.rows if j < len(cells)]
        show_header = self.options.get("show_header", True)
        heads = [header] if show_header else []
        lines = [ln for t in texts + heads for ln in t.split("\n")]
        widest = max((cell_len(ln) for ln in lines), default=1)
        words = [w for t in heads + ([] if kept else texts) for w in t.split()]
        low = max((cell_len(w) for w in words), default=1)
        if kept:
            low = max([low] + [cell_len(ln) for t in texts for ln in t.split("\n")])
        low = max(low, int(kwargs.get("min_width") or 0), 1)
        return low, max(widest, low)

    def _parts(self, every: list[int], lows: tuple[int, ...], width: int) -> list[list[int]]:
        """The columns of each part: the kept ones in every part, the others as many as fit."""
        kept = [j for j in every if self.columns[j][1]]
        parts: list[list[int]] = []
        current: list[int] = []
        for j in (j for j in every if j not in kept):
            trial = sorted(kept + current + [j])
            if current and sum(lows[i] for i in trial) + self._extra(len(trial)) > width:
                parts.append(sorted(kept + current))
                current = []
            current.append(j)
        parts.append(sorted(kept + current))
        return parts

    def _build(
        self,
        columns: Iterable[int],
        widths: dict[int, int] | None,
        title: str | None,
        caption: str | None,
    ) -> Table:
        from rich.table import Table

        t = Table(title=title, caption=caption, **self.options)
        chosen = list(columns)
        for j in chosen:
            header, kept, kwargs = self.columns[j]
            kwargs = dict(kwargs)
            if widths is not None:
                kwargs.pop("min_width", None)
                kwargs.update(width=widths[j], no_wrap=kept, overflow="fold")
            t.add_column(header, **kwargs)
        for cells, style in self.rows:
            t.add_row(*(cells[j] if j < len(cells) else "" for j in chosen), style=style)
        return t


def _padding(value: Any) -> int:
    """Left plus right padding of rich's ``padding`` option (1, 2 or 4 numbers)."""
    from rich.padding import Padding

    _, right, _, left = Padding.unpack(value)
    return int(left + right)


def _plain(value: object) -> str:
    from rich.text import Text

    return value.plain if isinstance(value, Text) else str(value)


def _shrink(highs: list[int], lows: list[int], room: int) -> list[int]:
    """Column widths from their widest (``highs``) towards their narrowest (``lows``), the widest
    first, until they fit in ``room`` (or every column is at its narrowest).

    >>> _shrink([10, 30, 4], [5, 8, 4], 30)
    [10, 16, 4]
    """
    widths = list(highs)
    excess = sum(widths) - room
    while excess > 0:
        free = [i for i, (w, lo) in enumerate(zip(widths, lows, strict=True)) if w > lo]
        if not free:
            break
        top = max(widths[i] for i in free)
        at_top = [i for i in free if widths[i] == top]
        second = max([widths[i] for i in free if widths[i] < top] + [max(lows[i] for i in at_top)])
        step = min(top - second, -(-excess // len(at_top)))
        for i in at_top:
            cut = min(step, widths[i] - lows[i], excess)
            widths[i] -= cut
            excess -= cut
    return widths


def _cell(value: object) -> Any:
    """A table cell: rich text objects pass (their plain text cleaned), anything else as clean text."""
    from rich.text import Text

    if isinstance(value, Text):
        return Text(clean(value.plain), style=value.style)
    return clean(value)


def new_table(title: str | None = None, **kwargs: Any) -> CleanTable:
    """A table for :func:`show` whose every string is cleaned (see :func:`clean`) and which is laid
    out to the terminal's width when printed (see :class:`CleanTable`)."""
    return CleanTable(title, **kwargs)


def show(*tables: CleanTable | Table | str) -> None:
    """Print tables (or lines of text, cleaned) on stdout."""
    for t in tables:
        if isinstance(t, str):
            stdout().print(clean(t), highlight=False)
        elif isinstance(t, CleanTable):
            for part in t.tables(stdout().width):
                stdout().print(part)
        else:
            stdout().print(t)


def lines(texts: Iterable[str]) -> None:
    """Print lines of text on stdout, cleaned."""
    for text in texts:
        stdout().print(clean(text), highlight=False)


def print_json(obj: Any) -> None:
    """Exactly one JSON object on stdout."""
    sys.stdout.write(json.dumps(obj, allow_nan=False) + "\n")
    sys.stdout.flush()


def note(message: str) -> None:
    """A message for the person at the terminal (stderr, never mixed into --json output)."""
    stderr().print(clean(message), highlight=False)
