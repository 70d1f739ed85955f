"""Verdicts: the plain sentences a reviewer can quote, one per model and analysis (or per study).

The report opens with them (one card per model) and the command line prints the same sentences, so
they are built in one place: one module per analysis (``inspect``, ``agreement``, ``certify``,
``equivalence``, ``plan``), each with a function ``verdicts(result) -> tuple[Verdict, ...]`` that
reads a result only. This package imports no plotting or templating library, so the command line can
use it at no start-up cost.

>>> Verdict("certify", "m is certified superhuman.", model="m", status="certified").model
'm'
"""

from __future__ import annotations

import dataclasses

__all__ = ["Verdict"]


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One plain sentence a reviewer can quote, about one model or the whole study.

    The report puts verdicts with a ``model`` on that model's card and verdicts about the study
    (``model=None``, e.g. the labelling advice) on one card of their own, and prints the same
    sentences in the same order on the terminal (``Report.headline()``).

    Parameters
    ----------
    topic : str
        The analysis: ``"inspect"``, ``"certify"``, ``"equivalence"``, ``"plan"``, ``"judge"``.
    sentence : str
        The sentence.
    model : str or None
        The model it is about; ``None`` for the whole study.
    status : str
        A short machine-readable outcome for styling (``"certified"``, ``"not certified"``,
        ``"no evidence"``).
    methods : str
        The Methods paragraph the sentence rests on: its key (``"certify"``, shown as the anchor
        ``#methods-certify``; ``"methods-certify"`` is read the same way). Empty, or a key the page
        has no paragraph for, links to the topic's paragraph.

    Examples
    --------
    >>> Verdict("certify", "m is certified superhuman.", "m", "certified").status
    'certified'
    """

    topic: str
    sentence: str
    model: str | None = None
    status: str = ""
    methods: str = ""
