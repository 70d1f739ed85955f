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
    """Builds a rich table whose title, caption and cells are :func:`clean` text."""

    def __init__(self, title: str | None = None, **kwargs: Any) -> None:
        from rich.table import Table

        kwargs.setdefault("title_justify", "left")
        self.table: Table = Table(title=None if title is None else clean(title), **kwargs)

    def column(self, header: str, **kwargs: Any) -> None:
        self.table.add_column(clean(header), **kwargs)

    def row(self, *cells: object, style: str | None = None) -> None:
        self.table.add_row(*(_cell(c) for c in cells), style=style)

    def caption(self, text: str) -> None:
        self.table.caption = clean(text)


def _cell(value: object) -> Any:
    """A table cell: rich text objects pass (their plain text cleaned), anything else as clean text."""
    from rich.text import Text

    if isinstance(value, Text):
        return Text(clean(value.plain), style=value.style)
    return clean(value)


def new_table(title: str | None = None, **kwargs: Any) -> CleanTable:
    """A table for :func:`show` whose every string is cleaned (see :func:`clean`)."""
    return CleanTable(title, **kwargs)


def show(*tables: CleanTable | Table | str) -> None:
    """Print tables (or lines of text, cleaned) on stdout."""
    for t in tables:
        if isinstance(t, str):
            stdout().print(clean(t), highlight=False)
        else:
            stdout().print(t.table if isinstance(t, CleanTable) else t)


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
