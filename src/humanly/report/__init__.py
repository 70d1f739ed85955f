"""`humanly report`: one self-contained HTML page per dataset — verdict cards (one per model, one for
the study), then data, certify, survey equivalence, budget, Methods and Reproducibility.

The page inlines its CSS and figures (SVG data URIs), fetches nothing, escapes every user-supplied string
(jinja2 autoescape), and embeds every number it shows in ``<script type="application/json"
id="humanly-results">`` — the same objects the ``--json`` commands print. With ``SOURCE_DATE_EPOCH`` set
the same inputs give the same bytes; :meth:`Report.export` writes the tables (CSV, LaTeX) and figures
(PDF, SVG) for papers. See docs/report.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core.lazy import attach

if TYPE_CHECKING:
    from ._page import Figure, Section, Table
    from .build import Report, build_report
    from .cards import Card
    from .export import Export

#: public name → the module that defines it (imported on first use: the page builder loads
#: matplotlib and jinja2 only when used). The sentences the page quotes are written by
#: :mod:`humanly.verdicts` (its ``Verdict``), the floor below this one.
_LAZY: dict[str, str] = {
    "Figure": "._page",
    "Section": "._page",
    "Table": "._page",
    "Report": ".build",
    "build_report": ".build",
    "Card": ".cards",
    "Export": ".export",
}

__all__ = ["Card", "Export", "Figure", "Report", "Section", "Table", "build_report"]


__getattr__, __dir__ = attach(__name__, _LAZY, __all__)
