"""Paper-ready files from a report (``humanly report --export DIR``): every table as CSV and as a LaTeX
``booktabs`` table, every figure as PDF and SVG, the verdicts as CSV, and an index ``README.txt``.

The files hold the page's own text (:func:`humanly.report.render.section_views`), so their numbers are
the page's; the SVG is the page's SVG byte for byte and the PDF is drawn from the same matplotlib
figure (never from the page). Names come from the section id and the table or figure number in that
section, from 1 (``certify-table-2.csv``, ``survey-figure-1.pdf``) — the page's anchors — so they are
stable from run to run. Every file is written atomically; nothing holds a date other than the
report's, so with ``SOURCE_DATE_EPOCH`` set the same inputs give the same files.
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import io
import os
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core.atomic import atomic_folder, require_writable
from .._core.result import Result
from ..data import InputError
from ..verdicts.text import DASH_NOTE
from ._page import Page

if TYPE_CHECKING:
    from .render import TableView

__all__ = [
    "Export",
    "check_export_folder",
    "csv_columns",
    "export_report",
    "latex_escape",
    "latex_table",
]

_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "—": "---",
    "–": "--",
    "−": r"\ensuremath{-}",
    "≤": r"\ensuremath{\leq}",
    "≥": r"\ensuremath{\geq}",
    "≈": r"\ensuremath{\approx}",
    "±": r"\ensuremath{\pm}",
    "×": r"\ensuremath{\times}",
    "→": r"\ensuremath{\to}",
    "Σ": r"\ensuremath{\Sigma}",
    "α": r"\ensuremath{\alpha}",
    "δ": r"\ensuremath{\delta}",
    "ε": r"\ensuremath{\varepsilon}",
    "κ": r"\ensuremath{\kappa}",
    "τ": r"\ensuremath{\tau}",
    "μ": r"\ensuremath{\mu}",
}
_SUPERSCRIPT = {"⁽": "(", "⁾": ")", "ᵉ": "e", "ᵗ": "t", "²": "2", "³": "3", "⁺": "+", "⁻": "-"}
_HAT = "\u0302"  # combining circumflex: q̂


def latex_escape(text: str) -> str:
    r"""``text`` for LaTeX: the special characters ``_ % & # $ { } ~ ^ \`` escaped, dashes and the
    mathematical signs the report uses written as LaTeX, superscripts (U⁽ᵉ⁾) as ``\textsuperscript``
    and a hat (q̂) as ``\hat``; other non-ASCII letters are kept (UTF-8; XeLaTeX, LuaLaTeX or
    pdfLaTeX ≥ 2018 read them).

    >>> print(latex_escape("a_b 50% & #1 $5 {x} ~ ^ \\"))
    a\_b 50\% \& \#1 \$5 \{x\} \textasciitilde{} \textasciicircum{} \textbackslash{}
    >>> print(latex_escape("q̂ ≤ 0.9 — U⁽ᵉ⁾"))
    \ensuremath{\hat{q}} \ensuremath{\leq} 0.9 --- U\textsuperscript{(e)}
    """
    out: list[str] = []
    sup: list[str] = []
    chars = list(text)
    for i, ch in enumerate(chars):
        if ch == _HAT:
            continue
        if ch in _SUPERSCRIPT:
            sup.append(_SUPERSCRIPT[ch])
            continue
        if sup:
            out.append(r"\textsuperscript{" + "".join(sup) + "}")
            sup = []
        if i + 1 < len(chars) and chars[i + 1] == _HAT:
            out.append(r"\ensuremath{\hat{" + _LATEX.get(ch, ch) + "}}")
        else:
            out.append(_LATEX.get(ch, ch))
    if sup:
        out.append(r"\textsuperscript{" + "".join(sup) + "}")
    return "".join(out)


#: a hyphen used as a minus sign before a number ("-0.15", "[-0.97, -0.95]")
_MINUS = re.compile(r"(?:^|(?<=[\s\[(]))-(?=\.?\d)")
_NUMBER = re.compile(r"^[-+−]?[\d,]*\.?\d+(?:e[-+]?\d+)?%?$")


def latex_table(table: TableView, *, header: str = "") -> str:
    """A ``table`` environment with a booktabs ``tabular`` (``\\usepackage{booktabs}``): columns of
    numbers right-aligned, the caption and the page's anchor as label, the "—" footnote below."""
    ncol = max([len(table.headers), *(len(r) for r in table.rows)], default=1)

    def numeric(j: int) -> bool:
        col = [r[j] for r in table.rows if j < len(r) and r[j] != "—"]
        return bool(col) and all(_NUMBER.match(c.replace(" ", "")) for c in col)

    spec = "".join("r" if j > 0 and numeric(j) else "l" for j in range(ncol))

    def line(cells: Sequence[str]) -> str:
        padded = list(cells) + [""] * (ncol - len(cells))
        return (
            "    "
            + " & ".join(_MINUS.sub(r"\\ensuremath{-}", latex_escape(c)) for c in padded)
            + r" \\"
        )

    body = [
        *([header] if header else []),
        r"\begin{table}[htbp]",
        r"  \centering",
        r"  \caption{" + latex_escape(table.caption) + "}",
        r"  \label{tab:humanly-" + table.id + "}",
        r"  \begin{tabular}{" + spec + "}",
        r"    \toprule",
        line(table.headers),
        r"    \midrule",
        *(line(r) for r in table.rows),
        r"    \bottomrule",
        r"  \end{tabular}",
    ]
    if table.footnote:
        body.append(r"  \par\smallskip{\footnotesize " + latex_escape(table.footnote) + "}")
    body.append(r"\end{table}")
    return "\n".join(body) + "\n"


_NUM = r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?"
_CELL_NUMBER = re.compile(rf"^({_NUM})(%?)$")
_CELL_RANGE = re.compile(rf"^\[?({_NUM}|—)\s*(?:–|,)\s*({_NUM}|—)\]?$")
_CELL_ESTIMATE = re.compile(rf"^({_NUM})\s*\[({_NUM}|—),\s*({_NUM}|—)\]$")


def _number(text: str) -> float | int | None:
    """A number as the page writes it ("1,234", "−0.05", "35%") as a number; "—" → None."""
    if text in ("—", ""):
        return None
    m = _CELL_NUMBER.match(text.replace(" ", ""))
    if m is None:
        return None
    raw = m.group(1).replace(",", "").replace("−", "-")
    value: float | int = int(raw) if re.fullmatch(r"[-+]?\d+", raw) else float(raw)
    return value / 100 if m.group(2) else value


def _parts(text: str) -> tuple[str, list[float | int | None]] | None:
    """The shape of one cell and its numbers: ``("number", [x])``, ``("range", [low, high])``,
    ``("estimate", [x, low, high])``, ``("dash", [])``; ``None`` for text."""
    cell = text.strip()
    if cell in ("—", ""):  # an empty cell is a missing number, as "—" is
        return "dash", []
    if _CELL_NUMBER.match(cell.replace(" ", "")):
        return "number", [_number(cell)]
    m = _CELL_ESTIMATE.match(cell)
    if m:
        return "estimate", [_number(g) for g in m.groups()]
    m = _CELL_RANGE.match(cell)
    if m and not re.fullmatch(_NUM, cell):
        return "range", [_number(g) for g in m.groups()]
    return None


def _base(header: str) -> str:
    """A header without its bracketed note ("score [95% interval]" → "score")."""
    return re.sub(r"\s*\[[^]]*\]\s*$", "", header) or header


def csv_columns(table: TableView) -> tuple[list[str], list[list[Any]]]:
    """The table as numbers where the page shows numbers (what a CSV reader wants): thousands
    separators and the typographic minus dropped, percentages as fractions (the header says so),
    ranges ("0.72 – 0.77", "[0.61, 0.64]") split into ``low`` and ``high`` columns, an estimate with
    its interval into three; "—" is an empty cell. A column mixing numbers and words keeps its text
    and gains a ``(number)`` column beside it (the number, or the estimate of an estimate with
    its interval; percentages as fractions), and ``(low)``/``(high)`` columns when it holds ranges.

    >>> from humanly.report.render import TableView
    >>> t = TableView("t", "c", ("k", "score [95% interval]", "items"),
    ...               (("0", "0.5 [0.4, 0.6]", "2,000"), ("1", "0.7 [—, 0.8]", "2,000")), None)
    >>> headers, rows = csv_columns(t)
    >>> headers
    ['k', 'score', 'score low', 'score high', 'items']
    >>> rows
    [[0, 0.5, 0.4, 0.6, 2000], [1, 0.7, None, 0.8, 2000]]
    """
    ncol = max([len(table.headers), *(len(r) for r in table.rows)], default=0)
    rows = [list(r) + [""] * (ncol - len(r)) for r in table.rows]
    headers = list(table.headers) + [""] * (ncol - len(table.headers))
    out_headers: list[str] = []
    columns: list[list[Any]] = []
    for j, header in enumerate(headers):
        cells = [r[j] for r in rows]
        shapes = [_parts(c) for c in cells]
        kinds = {s[0] for s in shapes if s is not None and s[0] != "dash"}
        if all(s is not None for s in shapes) and len(kinds) <= 1:
            kind = kinds.pop() if kinds else "number"  # a column of "—" only: empty numbers
            base = _base(header)
            names = {
                "number": [header],
                "range": [f"{header} low", f"{header} high"],
                "estimate": [base, f"{base} low", f"{base} high"],
            }[kind]
            if kind == "number" and any(c.strip().endswith("%") for c in cells):
                names = [f"{header} (fraction)"]
            out_headers += names
            for k in range(len(names)):
                columns.append([s[1][k] if s[0] != "dash" else None for s in shapes])  # type: ignore[index]
            continue
        out_headers.append(header)
        columns.append(cells)
        if j == 0 or not kinds:
            continue
        numbers: list[Any] = []
        lows: list[Any] = []
        highs: list[Any] = []
        for shape in shapes:
            kind, values = shape if shape is not None else ("text", [])
            # a number (a percentage already as a fraction), or an estimate's point
            numbers.append(values[0] if kind in ("number", "estimate") else None)
            lows.append(values[-2] if kind in ("range", "estimate") else None)
            highs.append(values[-1] if kind in ("range", "estimate") else None)
        out_headers.append(f"{header} (number)")
        columns.append(numbers)
        if any(v is not None for v in lows + highs):
            out_headers += [f"{header} (low)", f"{header} (high)"]
            columns += [lows, highs]
    return out_headers, [list(r) for r in zip(*columns, strict=True)] if columns else []


def _csv(table: TableView) -> str:
    headers, rows = csv_columns(table)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows([["" if v is None else v for v in row] for row in rows])
    return buf.getvalue()


@dataclasses.dataclass(frozen=True, repr=False)
class Export(Result):
    """What :func:`export_report` wrote.

    Parameters
    ----------
    folder : pathlib.Path
        The export folder.
    files : tuple of str
        The files in it, by name, in the index's order.

    Examples
    --------
    >>> Export(Path("paper"), ("README.txt",)).index.name
    'README.txt'
    """

    folder: Path
    files: tuple[str, ...]

    @property
    def index(self) -> Path:
        """The index of the files, ``README.txt``.

        Examples
        --------
        >>> Export(Path("paper"), ()).index.as_posix()
        'paper/README.txt'
        """
        return self.folder / "README.txt"

    def to_dict(self) -> dict[str, Any]:
        return {"folder": str(self.folder), "index": str(self.index), "files": list(self.files)}


def check_export_folder(path: Path, *, force: bool, option: str = "folder") -> None:
    """Refuse, before any work, an export folder that is a file, whose parent folder is missing, that
    cannot be written, or that already holds files (unless ``force``: then files of the same names are
    replaced and others left alone)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise InputError(f"{option} {path}: is a file, not a folder; give a folder name")
    where = path if path.is_dir() else (path.parent if str(path.parent) else Path("."))
    if not where.is_dir():
        raise InputError(f"{option} {path}: folder {where} does not exist; create it first")
    require_writable(where, option, path)
    if path.is_dir() and not force and any(path.iterdir()):
        raise InputError(
            f"{option} {path}: folder exists and is not empty; choose another {option} or pass "
            "--force to replace its files"
        )


def _write(folder: Path, name: str, data: str | bytes) -> str:
    """One file of the (temporary, not yet published) export folder."""
    path = folder / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8", newline="\n")
    return name


def _figure_files(folder: Path, stem: str, fig: Any) -> list[str]:
    from ..plots.style import save_figure

    svg = fig.svg.encode() if fig.svg else base64.b64decode(fig.data_uri.split(",", 1)[1])
    names = []
    if fig.source is not None:
        save_figure(fig.source, folder / f"{stem}.pdf")
        names.append(f"{stem}.pdf")
    names.append(_write(folder, f"{stem}.svg", svg))
    return names


def _verdicts_csv(report: Page) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(("card", "model", "topic", "status", "sentence", "methods"))
    for card in report.cards():
        for ln in card.lines:
            model = "" if card.model is None else card.model
            writer.writerow(
                (card.title, model, ln.verdict.topic, ln.verdict.status, ln.text, ln.href)
            )
    return buf.getvalue()


def export_report(report: Page, folder: str | os.PathLike[str], *, force: bool = False) -> Export:
    """Write the report's tables, figures and verdicts into ``folder`` (created if its parent exists)
    with an index ``README.txt``; see the module docstring for names and formats. The files are
    written into a temporary folder beside ``folder`` and published in one step
    (:func:`humanly._core.atomic.atomic_folder`): a stopped export leaves the folder as it was."""
    from .render import section_views

    out = Path(folder)
    check_export_folder(out, force=force)
    index: list[tuple[str, str]] = []  # (files, what)
    files: list[str] = []
    version = report.reproducibility.get("humanly_version", "")
    with atomic_folder(out) as tmp:
        if report.cards():
            files.append(_write(tmp, "verdicts.csv", _verdicts_csv(report)))
            index.append(("verdicts.csv", "the verdict cards, one sentence per row"))
        for view in section_views(report):
            if view.id == "methods":
                continue
            for t in view.tables:
                head = (
                    f"% humanly {version} · {view.title} · {t.id} (needs \\usepackage{{booktabs}})"
                )
                names = [_write(tmp, f"{t.id}.csv", _csv(t))]
                names.append(_write(tmp, f"{t.id}.tex", latex_table(t, header=head)))
                files += names
                index.append((", ".join(names), f"{view.title} — table: {t.caption}"))
            for fid, fig in view.figures:
                names = _figure_files(tmp, fid, fig)
                files += names
                index.append((", ".join(names), f"{view.title} — figure: {fig.caption}"))
        files.append(_write(tmp, "README.txt", _readme(report, index)))
    return Export(out, tuple(files))


def _readme(report: Page, index: list[tuple[str, str]]) -> str:
    r = report.reproducibility
    lines = [
        f"{report.title} — files for papers",
        "",
        f"humanly {r.get('humanly_version', '')}, seed {r.get('seed', '')}, date {r.get('date', '')}",
        f"command: {r.get('command') or '(Python API)'}",
        "",
        "Tables: CSV (UTF-8, numbers as numbers: no thousands separators, percentages as fractions,",
        "ranges split into low and high columns, '—' an empty cell; a column of words and numbers",
        "keeps its words and adds a '(number)' column) and LaTeX (the cells as the page shows them, a",
        "table environment with a booktabs tabular: \\usepackage{booktabs}). Figures: PDF and SVG",
        "(the page's SVG).",
        "Names: <section>-table-<n> and <section>-figure-<n>, numbered from 1 within each section in",
        "page order; the page has the same anchors (report.html#certify-table-1).",
        *textwrap.wrap(DASH_NOTE, 100),
        "",
        "Files",
        "-----",
    ]
    for names, what in index:
        lines += [names, *textwrap.wrap(what, 100, initial_indent="    ", subsequent_indent="    ")]
    return "\n".join(lines) + "\n"
