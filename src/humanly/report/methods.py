"""The report's Methods section: one paragraph per analysis (paper, equations, assumptions), each with
its own anchor ``#methods-<key>`` that the verdict cards link to.

A section module keeps its paragraph as ``METHODS_TEXT``: a string (one paragraph, anchored by the
section's topic), a mapping ``{key: paragraph}`` for several paragraphs (anchors ``#methods-<key>``;
a verdict names one with ``Verdict(methods=key)``), or a tuple of paragraphs (keys ``topic``,
``topic-2``, …).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

__all__ = ["DATA_TEXT", "METHODS", "methods_paragraphs"]

DATA_TEXT = (
    "Data. Pairwise agreement is the mean over items with at least two labels of the share of "
    "agreeing ordered pairs of distinct raters, Σ_c n_c(n_c − 1) / (n(n − 1)). Fleiss' kappa (Fleiss "
    "1971) uses that mean as observed agreement and the pooled class shares for chance agreement; with "
    "unequal numbers of labels per item this is the usual generalisation and reduces to Fleiss' kappa "
    "when every item has the same number. Krippendorff's alpha is the nominal alpha computed from the "
    "coincidence matrix of per-item counts. Ties of the plurality label get fractional credit "
    "1/|tied classes|."
)

#: topic → the module whose ``METHODS_TEXT`` describes it (page order of the Methods section)
_MODULES = {
    "data": ".sections.data",
    "certify": ".sections.certify",
    "survey": ".sections.survey",
    "budget": ".sections.budget",
}


def methods_paragraphs() -> dict[str, str]:
    """Every Methods paragraph by key, in page order (key ``topic`` for a single paragraph)."""
    out: dict[str, str] = {}
    for topic, module in _MODULES.items():
        text = getattr(importlib.import_module(module, __package__), "METHODS_TEXT", None)
        if text is None and topic == "data":
            text = DATA_TEXT
        if isinstance(text, Mapping):
            out.update({str(k): str(v) for k, v in text.items()})
        elif isinstance(text, (tuple, list)):
            keys = [topic] + [f"{topic}-{i}" for i in range(2, len(text) + 1)]
            out.update(zip(keys, map(str, text), strict=True))
        elif text:
            out[topic] = str(text)
    return out


#: The paragraphs, by key (``"data"``, ``"certify"``, ``"survey"``, ``"budget"``, …).
METHODS: dict[str, str] = methods_paragraphs()
