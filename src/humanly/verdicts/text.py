"""The text of every value humanly shows, in one place: the report page, its ``--export`` files, the
command line and the notebook view (``_repr_html_``) use these functions, so they show the same
numbers. ``None``, NaN and infinities become "—" (and the page says why), p-values below 1e-16 are
"< 1e-16".

>>> cell_text(None), cell_text(float("nan")), cell_text(0.25), cell_text(3), cell_text(True)
('—', '—', '0.25', '3', 'yes')
>>> clean_text("S = nan [nan, 0.91]; information gain")
'S = — [—, 0.91]; information gain'
>>> clean_text("inf", protected={"inf"})  # a model named "inf" keeps its name
'inf'
>>> clean_text("model\u202egnp.exe")  # a right-to-left override cannot reorder the page
'modelgnp.exe'
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Collection
from typing import Any

__all__ = [
    "BIDI_CONTROLS",
    "CHECK_WORDS",
    "DASH",
    "DASH_NOTE",
    "P_VALUE_FLOOR",
    "cell_text",
    "check_text",
    "clean_text",
    "has_dash",
    "neutral",
    "number_text",
    "p_value_text",
]

#: The invisible characters that change the direction of the text around them (embeddings,
#: overrides, isolates and marks): in a user's name they could make the page read otherwise than it
#: says, so they are taken out of every string the page and the exports show.
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


#: The status of a check of an assumption, in words (the codes: ``consistent``, ``evidence_against``,
#: ``vacuous``, ``undetermined``, ``untested``).
CHECK_WORDS = {
    "evidence_against": "evidence against at 95%",
    "undetermined": "undetermined (too few items)",
}


def check_text(status: str | None) -> str:
    """A check's status code in words (``—`` for none).

    >>> check_text("evidence_against"), check_text("consistent"), check_text(None)
    ('evidence against at 95%', 'consistent', '—')
    """
    if status is None:
        return "—"
    return CHECK_WORDS.get(status, status)


def neutral(text: str) -> str:
    """``text`` without bidirectional control characters (:data:`BIDI_CONTROLS`)."""
    return BIDI_CONTROLS.sub("", text)


DASH = "—"

#: Footnote under a table (or section) that shows "—" and does not explain it itself.
DASH_NOTE = (
    "— : not defined here, e.g. a range the data cannot give (too few items or labels), or a "
    "quantity that does not apply to this model or analysis."
)

# "nan" / "inf" / "-inf" as a number in text (what an f-string makes of NaN): standing alone, after a
# space, sign, bracket, comma, colon or relation, and before the end, a space or punctuation.
_NONFINITE = re.compile(
    r"(?:^|(?<=[\s=(\[,;:≈≤≥<>±/]))[-+−]?(?:nan|inf(?:inity)?)(?=$|[\s,;:)\]%]|\.(?!\w))",
    re.IGNORECASE,
)


def clean_text(text: str, protected: Collection[str] = ()) -> str:
    """``text`` with every "nan"/"inf" number replaced by "—" (names in ``protected``, the models'
    names, are kept as they are), and without bidirectional control characters (:func:`neutral`)."""
    text = neutral(text)
    if text in protected:
        return text
    return _NONFINITE.sub(lambda m: m.group(0) if m.group(0) in protected else DASH, text)


def _is_bool(value: Any) -> bool:
    """A Python or numpy boolean (numpy is not imported here: the command line uses this module)."""
    return isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b"


def cell_text(value: Any, protected: Collection[str] = ()) -> str:
    """The text of one table cell: "—" for ``None``/NaN/±inf, yes/no for booleans, whole numbers as
    they are, other numbers to 6 significant digits (sections format their numbers themselves; this
    is the fallback), strings cleaned by :func:`clean_text`."""
    if value is None:
        return DASH
    if _is_bool(value):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        f = float(value)
        return format(f, ".6g") if math.isfinite(f) else DASH
    return clean_text(str(value), protected)


def number_text(x: float | None, spec: str = ".4f") -> str:
    """A number formatted by ``spec`` for a table or sentence; "—" for ``None``, NaN and ±inf.

    >>> number_text(0.93154), number_text(2.5, ".2f"), number_text(None), number_text(float("nan"))
    ('0.9315', '2.50', '—', '—')
    """
    if x is None or not math.isfinite(x):
        return DASH
    return format(x, spec)


#: the smallest p-value shown as a number: below it, double precision cannot tell it from 0
P_VALUE_FLOOR = 1e-16


def p_value_text(p: float | None) -> str:
    """A p-value for a table or sentence: two significant digits, "< 1e-16" below what double
    precision resolves (never "0.000000e+00"), "—" when undefined.

    >>> p_value_text(0.0321), p_value_text(3.2e-9), p_value_text(0.0), p_value_text(float("nan"))
    ('0.032', '3.2e-09', '< 1e-16', '—')
    """
    if p is None or not math.isfinite(p):
        return DASH
    if p < P_VALUE_FLOOR:
        return "< 1e-16"
    return format(p, ".2g")


_DASH_CELL = re.compile(r"(?:^|[\s\[(,;])—(?:$|[\s\]),;])")


def has_dash(cells: Any) -> bool:
    """Whether any of ``cells`` (cell texts, or rows of them) shows "—" for a value.

    >>> has_dash([["0.93", "—"]]), has_dash(["[—, 0.91]"]), has_dash(["0.93"])
    (True, True, False)
    """
    if isinstance(cells, str):
        return bool(_DASH_CELL.search(cells))
    return any(has_dash(c) for c in cells)
