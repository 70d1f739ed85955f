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

__all__ = ["METHODS", "methods_paragraphs"]

#: topic → the module whose ``METHODS_TEXT`` describes it (page order of the Methods section)
_MODULES = {
    "inspect": ".sections.inspect",
    "certify": ".sections.certify",
    "equivalence": ".sections.equivalence",
    "plan": ".sections.plan",
    "judge": ".sections.judge",
    "rank": ".sections.rank",
}


def methods_paragraphs() -> dict[str, str]:
    """Every Methods paragraph by key, in page order (key ``topic`` for a single paragraph)."""
    out: dict[str, str] = {}
    for topic, module in _MODULES.items():
        text = getattr(importlib.import_module(module, __package__), "METHODS_TEXT", None)
        if isinstance(text, Mapping):
            out.update({str(k): str(v) for k, v in text.items()})
        elif isinstance(text, (tuple, list)):
            keys = [topic] + [f"{topic}-{i}" for i in range(2, len(text) + 1)]
            out.update(zip(keys, map(str, text), strict=True))
        elif text:
            out[topic] = str(text)
    return out


#: The paragraphs, by key (``"inspect"``, ``"certify"``, ``"equivalence"``, ``"plan"``, …).
METHODS: dict[str, str] = methods_paragraphs()
