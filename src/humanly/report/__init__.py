"""`humanly report`: one self-contained HTML page per dataset (data, certify, survey equivalence, budget).

The page inlines its CSS and figures (SVG data URIs), fetches nothing, escapes every user-supplied string
(jinja2 autoescape), and embeds every number it shows in ``<script type="application/json"
id="humanly-results">`` — the same objects the ``--json`` commands print.
"""

from ._page import Figure, Section, Table
from .build import Report, build_report

__all__ = ["Figure", "Report", "Section", "Table", "build_report"]
