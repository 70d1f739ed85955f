"""One paragraph per analysis for the report's Methods section: paper, equations, assumptions."""

from __future__ import annotations

from .sections.budget import METHODS_TEXT as _BUDGET
from .sections.certify import METHODS_TEXT as _CERTIFY
from .sections.data import METHODS_TEXT as _DATA
from .sections.survey import METHODS_TEXT as _SURVEY

METHODS: dict[str, str] = {
    "certify": _CERTIFY,
    "survey": _SURVEY,
    "budget": _BUDGET,
    "inspect": _DATA,
}
