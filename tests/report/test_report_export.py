"""``humanly report --export DIR``: tables as CSV and LaTeX with the page's numbers, figures as PDF and
SVG, an index; the folder checked before any work."""

from __future__ import annotations

import base64
import csv
import io
import re
from pathlib import Path

import pytest
from report_pages import page_tables, simulated_report, with_verdicts

from humanly.data import InputError
from humanly.report import Report
from humanly.report.export import latex_escape


@pytest.fixture(scope="module")
def report() -> Report:
    return with_verdicts(simulated_report())


@pytest.fixture(scope="module")
def exported(report: Report, tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("export") / "paper"
    return report.export(folder), report.html()


def test_csv_holds_the_page_cells(exported) -> None:
    done, html = exported
    tables = page_tables(html)
    stems = sorted(p.stem for p in done.folder.glob("*-table-*.csv"))
    assert stems == sorted(k for k in tables if "-table-" in k)  # every table of the page, no other
    assert {"inspect-table-1", "certify-table-1", "equivalence-table-1", "plan-table-1"} <= set(
        stems
    )
    for stem in stems:
        text = (done.folder / f"{stem}.csv").read_text(encoding="utf-8")
        rows = list(csv.reader(io.StringIO(text)))
        page = tables[stem]
        assert len(rows) == len(page), stem  # one CSV row per page row, the header included
        assert [r[0] for r in rows] == [r[0] for r in page], stem  # the same first column
        for page_row, row in zip(
            page[1:], rows[1:], strict=True
        ):  # every page number is in the CSV
            for cell in page_row:
                for number in re.findall(r"\d[\d,]*\.?\d*", cell):
                    plain = number.replace(",", "")
                    if "%" in cell or not plain.strip("."):
                        continue
                    assert (
                        any(
                            c and abs(abs(float(c)) - float(plain.rstrip("."))) < 1e-9
                            for c in row
                            if re.fullmatch(r"[-+]?\d+\.?\d*(e[-+]?\d+)?", c)
                        )
                        or plain in row
                        or cell in row
                    ), (stem, cell, row)
        assert not re.search(r"\bnan\b", text, re.I)


def test_latex_tables_are_booktabs_with_escaped_cells(exported) -> None:
    done, html = exported
    tex = (done.folder / "certify-table-1.tex").read_text(encoding="utf-8")
    for part in (r"\begin{table}", r"\toprule", r"\midrule", r"\bottomrule", r"\end{tabular}"):
        assert part in tex
    assert r"\label{tab:humanly-certify-table-1}" in tex
    first = page_tables(html)["equivalence-table-2"][1][1]  # a number of the power curve
    assert first.replace("-", r"\ensuremath{-}", 1) in (
        done.folder / "equivalence-table-2.tex"
    ).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "tex"),
    [
        ("a_b", r"a\_b"),
        ("50%", r"50\%"),
        ("A & B", r"A \& B"),
        ("#1", r"\#1"),
        ("$5", r"\$5"),
        ("{x}", r"\{x\}"),
        ("~", r"\textasciitilde{}"),
        ("^", r"\textasciicircum{}"),
        ("\\", r"\textbackslash{}"),
        ("q̂ ≤ 0.9", r"\ensuremath{\hat{q}} \ensuremath{\leq} 0.9"),
        ("U⁽ᵉ⁾", r"U\textsuperscript{(e)}"),
        ("—", "---"),
    ],
)
def test_latex_escape(text: str, tex: str) -> None:
    assert latex_escape(text) == tex


def test_figures_as_pdf_and_the_pages_svg(exported) -> None:
    done, html = exported
    uris = re.findall(
        r'<figure id="([^"]+)">\s*<img src="data:image/svg\+xml;base64,([^"]+)"', html
    )
    assert uris
    for fid, b64 in uris:
        assert (done.folder / f"{fid}.svg").read_bytes() == base64.b64decode(b64)
        pdf = (done.folder / f"{fid}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF") and b"CreationDate" not in pdf


def test_index_lists_every_file_and_the_export_is_reproducible(
    exported, report: Report, tmp_path: Path
) -> None:
    done, _ = exported
    on_disk = sorted(p.name for p in done.folder.iterdir())
    assert on_disk == sorted(done.files)
    index = done.index.read_text(encoding="utf-8")
    for name in done.files:
        if name != "README.txt":
            assert name in index
    rows = list(csv.reader(io.StringIO((done.folder / "verdicts.csv").read_text())))
    assert rows[0] == ["card", "model", "topic", "status", "sentence", "methods"]
    assert len(rows) - 1 == len(report.verdicts())
    again = report.export(tmp_path / "again")
    for name in done.files:
        assert (again.folder / name).read_bytes() == (done.folder / name).read_bytes(), name


def test_export_refuses_a_folder_with_files_unless_forced(report: Report, tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(InputError, match="not empty"):
        report.export(tmp_path)
    done = report.export(tmp_path, force=True)
    assert (tmp_path / "keep.txt").read_text() == "mine" and done.index.exists()


def test_cli_export_writes_the_files(cli, xss_files, tmp_path: Path) -> None:
    out, folder = tmp_path / "r.html", tmp_path / "paper"
    res = cli(
        "report", xss_files["ratings"], "--predictions", xss_files["predictions"],
        "-o", out, "--bootstrap", 100, "--export", folder, "--json",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    data = res.json()
    assert data["export"]["folder"] == str(folder)
    assert sorted(data["export"]["files"]) == sorted(p.name for p in folder.iterdir())
    tables = page_tables(out.read_text(encoding="utf-8"))
    rows = list(csv.reader(io.StringIO((folder / "inspect-table-2.csv").read_text())))
    page = tables["inspect-table-2"]
    assert [r[:4] for r in rows] == [
        r[:4] for r in page
    ]  # names and numbers as the page shows them
    assert [r[4] for r in rows[1:]] == ["" if r[4] == "—" else r[4] for r in page[1:]]  # "—": empty
    assert "&lt;script&gt;" not in (folder / "inspect-table-2.csv").read_text()  # text, not HTML
    res = cli(
        "report", xss_files["ratings"], "--predictions", xss_files["predictions"],
        "-o", tmp_path / "s.html", "--bootstrap", 100, "--export", tmp_path / "p2",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1].startswith("export: ")


@pytest.mark.parametrize("case", ["file", "no-parent", "readonly", "not-empty"])
def test_cli_export_paths_checked_before_any_work(
    cli, xss_files, tmp_path: Path, readonly: Path, case: str
) -> None:
    a_file = tmp_path / "a.txt"
    a_file.write_text("x")
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("x")
    target, fragment = {
        "file": (a_file, "is a file, not a folder"),
        "no-parent": (tmp_path / "no" / "dir", "does not exist; create it first"),
        "readonly": (readonly / "dir", "cannot write"),
        "not-empty": (full, "not empty"),
    }[case]
    out = tmp_path / "r.html"
    res = cli("report", xss_files["ratings"], "-o", out, "--export", target)
    assert res.exit_code == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "--export" in lines[0] and fragment in lines[0], lines
    assert not out.exists()


def test_demo_export_path_checked_before_any_work(cli, tmp_path: Path) -> None:
    a_file = tmp_path / "a.txt"
    a_file.write_text("x")
    res = cli("demo", "-o", tmp_path / "demo", "--export", a_file)
    assert res.exit_code == 2 and "--export" in res.stderr and "is a file" in res.stderr
    assert not (tmp_path / "demo").exists()


@pytest.mark.parametrize(
    ("paths", "said"),
    [
        (["-o", "{t}/out/r.html", "--export", "{t}/out/r.html"], "is the -o file"),
        (["-o", "{t}/out/e/r.html", "--export", "{t}/out/e"], "lies in the --export folder"),
        (["-o", "{t}/out/r.html", "--save-results", "{t}/out/e/s.json", "--export", "{t}/out/e"],
         "lies in the --export folder"),
        (["-o", "{t}/out/r.html", "--save-results", "{t}/out/r.html"], "*.json"),
    ],
)  # fmt: skip
def test_outputs_that_would_clash_are_refused_before_any_work(
    cli, xss_files, tmp_path: Path, paths: list[str], said: str
) -> None:
    """`report -o out/r.html --export out/r.html` wrote the page, then refused the export after the
    work (issue 26): every output path is checked first, and nothing is written."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "e").mkdir()
    args = [a.replace("{t}", str(tmp_path)) for a in paths]
    res = cli("report", xss_files["ratings"], "--predictions", xss_files["predictions"], *args)
    assert res.exit_code == 2 and said in res.stderr and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in (tmp_path / "out").rglob("*")) == ["e"]


def test_a_stopped_export_leaves_the_folder_as_it_was(
    report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export is written in a temporary folder and published in one step: stopped half way (here
    by an error while drawing a figure), it leaves neither a partial folder nor hidden files."""
    from humanly.report import export as export_mod

    calls = {"n": 0}
    real = export_mod._figure_files

    def stop_on_second(folder, stem, fig):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(folder, stem, fig)

    monkeypatch.setattr(export_mod, "_figure_files", stop_on_second)
    with pytest.raises(KeyboardInterrupt):
        report.export(tmp_path / "paper")
    assert list(tmp_path.iterdir()) == []  # no folder, no .paper.*.tmp
    old = tmp_path / "kept"
    old.mkdir()
    (old / "mine.txt").write_text("keep")
    calls["n"] = 0
    with pytest.raises(KeyboardInterrupt):
        report.export(old, force=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept"]
    assert [p.name for p in old.iterdir()] == ["mine.txt"]
    monkeypatch.setattr(export_mod, "_figure_files", real)
    done = report.export(old, force=True)
    assert (old / "mine.txt").read_text() == "keep" and set(done.files) <= {
        p.name for p in old.iterdir()
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept"]


def test_exported_csv_columns_are_numbers_where_the_page_shows_numbers(exported) -> None:
    """Exports hold numbers, not display strings (issue 26: "8,000" and "0.7180 – 0.7747" read as
    text): every CSV loads with pandas into numeric columns wherever the page shows numbers."""
    import pandas as pd

    done, _ = exported
    numeric_somewhere = 0
    for name in done.files:
        if not name.endswith(".csv") or name == "verdicts.csv":
            continue
        frame = pd.read_csv(done.folder / name)
        for column in frame.columns:
            values = frame[column].dropna().astype(str)
            looks_numeric = values.str.fullmatch(r"[-+]?[\d,]*\.?\d+(e[-+]?\d+)?").all()
            if len(values) and looks_numeric:
                assert pd.api.types.is_numeric_dtype(frame[column]), (name, column)
            numeric_somewhere += pd.api.types.is_numeric_dtype(frame[column])
        worded = [c for c in frame.columns if f"{c} (number)" in frame.columns]  # words + numbers
        plain = frame.drop(columns=worded).astype(str)
        assert not plain.apply(lambda c: c.str.contains(r"\d,\d{3}\b")).any().any(), name
        for column in worded:  # the words keep the page's text; the numbers are in (number)
            assert pd.api.types.is_numeric_dtype(frame[f"{column} (number)"]), (name, column)
    assert numeric_somewhere > 10
    curve = pd.read_csv(done.folder / "equivalence-table-2.csv")
    assert {"95% interval low", "95% interval high"} <= set(curve.columns)
    assert (
        pd.api.types.is_integer_dtype(curve["items"])
        and (curve["95% interval low"] <= curve["score c_k"]).all()
    )
