"""The agreement family as one terminal table (``humanly agreement`` and ``humanly inspect``): the cells
come from :mod:`humanly.verdicts.agreement`, so the terminal and the report say the same."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..verdicts.agreement import family_caption, family_headers, family_rows
from ..verdicts.notes import notes_text
from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from ..crowd.family_results import AgreementResult

__all__ = ["render"]

_RIGHT = {"estimate", "SE"}
_NO_WRAP = {"coefficient", "estimate", "SE", "interval", "bootstrap"}


def render(result: AgreementResult, source: str | None = None) -> CleanTable:
    """One row per coefficient; the caption says what the intervals and the reading are."""
    title = "agreement" if source is None else source if " " in source else f"agreement · {source}"
    t = new_table(title)
    for header in family_headers(result):
        justify = "right" if header in _RIGHT else "left"
        t.column(header, justify=justify, no_wrap=header in _NO_WRAP)
    for row in family_rows(result):
        t.row(*row)
    notes = " · ".join(notes_text(result.notes))
    t.caption(family_caption(result) + ("" if not notes else f" · {notes}"))
    return t
