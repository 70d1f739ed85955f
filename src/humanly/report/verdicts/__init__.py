"""Verdicts: the plain sentences a reviewer can quote, one per model and analysis (or per study).

The report opens with them (one card per model) and the command line prints the same sentences, so
they are built in one place: one module per analysis (``certify``, ``survey``, ``budget``, ``data``),
each with a function ``verdicts(result) -> tuple[Verdict, ...]`` that reads a result only. This package
imports no plotting or templating library, so the command line can use it at no start-up cost.

>>> Verdict("certify", "m is certified superhuman.", model="m", status="certified").model
'm'
"""

from __future__ import annotations

import dataclasses

__all__ = ["Verdict"]


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One plain sentence a reviewer can quote — about one model (``model``) or the whole study
    (``model=None``).

    ``topic`` names the analysis (``"certify"``, ``"survey"``, ``"budget"``, ``"data"``), ``status`` a
    short machine-readable outcome for styling (e.g. ``"certified"``, ``"not certified"``,
    ``"no evidence"``), and ``methods`` the id of the Methods paragraph the sentence rests on (the card
    links to it)."""

    topic: str
    sentence: str
    model: str | None = None
    status: str = ""
    methods: str = ""
