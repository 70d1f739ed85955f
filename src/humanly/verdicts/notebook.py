"""What a result shows in a notebook (``_repr_html_``): its verdict sentences, then a compact table.

Every result of humanly is a :class:`~humanly._core.result.Result`, whose ``_repr_html_`` reaches
:func:`to_html` through the one late binding of the package (:mod:`humanly._core.views`: importing
this module registers it). The view leads with the sentences the command line prints for the result
(:func:`humanly.verdicts.verdicts_for`; a study's section by section, as ``humanly report`` prints
them), then a compact table with numbers as the page writes them: an undefined value (``None``, NaN)
is "—", a p-value below 1e-16 is "< 1e-16", a nested result is summed up in words (its first
sentence, or its main fields), never by its type name alone.

>>> import re, humanly
>>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]] * 10)
>>> html = humanly.agreement(r, bootstrap=0)._repr_html_()
>>> "Fleiss' κ is" in html, bool(re.search(r"\bnan\b", html, re.I)), "e+00" in html
(True, False, False)
"""

from __future__ import annotations

import dataclasses
import html
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from .._core.views import register_html
from . import verdicts_for
from .methods import method_text
from .notes import note_text
from .text import DASH, cell_text, clean_text, p_value_text

__all__ = ["MAX_ROWS", "summary_text", "table_rows", "to_html", "value_text"]

#: The most rows a table shows (then "… n more rows").
MAX_ROWS = 30
#: The most fields a nested result's summary names.
_FIELDS = 5


def _escape(text: str) -> str:
    """Text for an HTML element's content (quotes need no escaping there)."""
    return html.escape(text, quote=False)


def _is_result(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def _fields(value: Any) -> list[tuple[str, Any]]:
    """The fields of a dataclass that its JSON holds (``repr`` on), in order."""
    return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr]


def _label(value: Any) -> str | None:
    """A result's name in a list: its ``key``, model or name (``None`` when it has none)."""
    for attr in ("key", "model", "name", "parameter", "variant"):
        text = getattr(value, attr, None)
        if isinstance(text, str):
            return text
    return None


def summary_text(value: Any) -> str:
    """A nested result in words: its first verdict sentence, else its name with its main fields
    (``"seed 0 · level 0.95 · bootstrap 1000 · …"``).

    >>> from humanly._core.result import Skipped
    >>> summary_text(Skipped("plan", "single_label_items"))[:28]
    'Every item has one label, so'
    """
    said = verdicts_for(value)
    if said:
        return said[0].sentence
    parts = []
    for name, v in _fields(value):
        if _is_result(v) or (isinstance(v, (tuple, list)) and v and _is_result(v[0])):
            continue
        parts.append(f"{name.replace('_', ' ')} {value_text(name, v)}")
    shown = " · ".join(parts[:_FIELDS]) + (" · …" if len(parts) > _FIELDS else "")
    label = _label(value)
    return f"{label}: {shown}" if label and shown else (label or shown or DASH)


def _number(name: str, x: Any) -> str:
    """A number as the page writes it; a p-value (``name`` says so) below 1e-16 as "< 1e-16"."""
    if "p_value" in name:
        return p_value_text(float(x))
    if isinstance(x, numbers.Integral):
        return f"{int(x):,}"
    return cell_text(x)


def value_text(name: str, value: Any) -> str:
    """One value of a result as the table shows it (``name`` is its field or column).

    >>> value_text("p_value", 0.0), value_text("estimate", float("nan")), value_text("n", 12000)
    ('< 1e-16', '—', '12,000')
    >>> from humanly._core.result import Interval
    >>> value_text("range", Interval(0.25, None)), value_text("models", ("a", "b"))
    ('[0.25, —]', 'a, b')
    """
    if value is None:
        return DASH
    if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
        return cell_text(value)
    if isinstance(value, numbers.Real):
        return _number(name, value)
    if isinstance(value, str):
        return clean_text(method_text(value) if name.endswith("method") else value)
    if type(value).__name__ == "Note":  # a note: its sentence
        return clean_text(note_text(value))
    if _is_result(value):
        return summary_text(value)
    if isinstance(value, Mapping):
        items = [f"{k}: {value_text(name, v)}" for k, v in list(value.items())[:8]]
        return ", ".join(items) + (", …" if len(value) > 8 else "") if items else DASH
    if getattr(value, "_fields", None) == ("low", "high"):  # an Interval
        low, high = (DASH if v is None else _number(name, v) for v in value)
        return f"[{low}, {high}]"
    shape = getattr(value, "shape", None)
    if shape is not None and len(shape) != 1:
        return " × ".join(f"{n:,}" for n in shape) + " values"
    if isinstance(value, (tuple, list)) or shape is not None:
        return _sequence_text(name, list(value))
    return clean_text(str(value))


def _sequence_text(name: str, values: list[Any]) -> str:
    if not values:
        return DASH
    if _is_result(values[0]):
        labels = [_label(v) for v in values]
        if all(labels):
            return (
                f"{len(values):,}: "
                + ", ".join(str(x) for x in labels[:8])
                + (", …" if len(values) > 8 else "")
            )
        return "; ".join(summary_text(v) for v in values[:3]) + ("; …" if len(values) > 3 else "")
    shown = ", ".join(value_text(name, v) for v in values[:8])
    return shown + (f", … ({len(values):,} in all)" if len(values) > 8 else "")


def table_rows(result: Any) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The compact table of a result: its headers and rows of text. The agreement family is the
    page's own table with each coefficient's p-value; a result with a table (``to_frame()``) shows
    it; others show their fields (name, value).

    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]] * 10)
    >>> headers, rows = table_rows(humanly.inspect(r, bootstrap=0))
    >>> headers, rows[0]
    (('field', 'value'), ('source', '—'))
    """
    if type(result).__name__ == "AgreementResult":  # the page's table, with the p-values
        from .agreement import family_headers, family_rows

        rows = [
            (*row, p_value_text(c.p_value))
            for row, c in zip(family_rows(result), result.coefficients, strict=True)
        ]
        return (*family_headers(result), "p-value"), rows
    if type(result).__name__ == "RankResult":  # the command line's table of the leading family
        from .rank import ranking_table

        headers, text_rows = ranking_table(result)
        return headers, [tuple(row) for row in text_rows]
    frame = getattr(result, "to_frame", None)
    if callable(frame) and type(result).__name__ != "StudyResult":
        try:
            table = frame()
        except Exception:  # a result whose table needs more than it holds: show its fields
            table = None
        if table is not None and len(table.columns):
            headers = tuple(str(c) for c in table.columns)
            rows = [
                tuple(value_text(h, v) for h, v in zip(headers, row, strict=True))
                for row in table.itertuples(index=False)
            ]
            return headers, rows
    return ("field", "value"), [(name, value_text(name, v)) for name, v in _fields(result)]


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th style='text-align:left'>{_escape(h)}</th>" for h in headers)
    body = [
        "<tr>" + "".join(f"<td style='text-align:left'>{_escape(c)}</td>" for c in row) + "</tr>"
        for row in rows[:MAX_ROWS]
    ]
    if len(rows) > MAX_ROWS:
        more = len(rows) - MAX_ROWS
        body.append(f"<tr><td colspan='{len(headers)}'>… {more:,} more rows</td></tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _study_html(study: Any) -> str:
    """A study: its sections' sentences (as ``humanly report`` prints them), then one row per
    analysis with its one-line summary, the settings and the provenance."""
    from .study import sections, summary

    out = []
    blocks = sections(study)
    for block in blocks:
        out.append(f"<p><strong>{_escape(block.title)}</strong></p>")
        out += [f"<p>{_escape(s)}</p>" for s in block.sentences]
    rows = [(block.title, summary(study, block.id) or DASH) for block in blocks]
    rows += [
        ("settings", summary_text(study.settings)),
        ("humanly", value_text("provenance", study.provenance)),
    ]
    return "".join(out) + _table(("section", "in one line"), rows)


def to_html(result: Any) -> str:
    """The notebook view of ``result``: its verdict sentences, then its compact table.

    Parameters
    ----------
    result : Result
        Any result of humanly.

    Returns
    -------
    str
        HTML (every string escaped).

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> html = to_html(certify_summary([0.919], 0.879, 10000, models=["SemBERT"]))
    >>> html.count("SemBERT beats the average rater")
    1
    """
    title = f"<p><strong>{_escape(type(result).__name__)}</strong></p>"
    if type(result).__name__ == "StudyResult":
        return f"<div>{title}{_study_html(result)}</div>"
    sentences = "".join(f"<p>{_escape(v.sentence)}</p>" for v in verdicts_for(result))
    return f"<div>{title}{sentences}{_table(*table_rows(result))}</div>"


register_html(to_html)
