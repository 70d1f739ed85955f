"""``humanly report``: self-contained, escaped, atomic, JSON embedded; ``humanly demo``, whose terminal
output and pages agree section for section."""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path

from humanly.demo import run_demo
from humanly.report import build_report
from humanly.study import StudyResult

XSS = "<script>alert(1)</script>"


def _embedded(html: str) -> dict:
    m = re.search(
        r'<script type="application/json" id="humanly-results">(.*?)</script>', html, re.S
    )
    assert m, "no embedded JSON block"
    return json.loads(m.group(1))


def _report(cli, files: dict[str, Path], out: Path, *extra: object):
    return cli(
        "report", files["ratings"], "--predictions", files["predictions"], "--gold",
        files["gold"], "-o", out, "--bootstrap", 100, *extra,
    )  # fmt: skip


def test_report_is_self_contained_and_escaped(cli, xss_files, tmp_path):
    out = tmp_path / "r.html"
    res = _report(cli, xss_files, out)
    assert res.exit_code == 0, res.stderr
    html = out.read_text()
    # the hostile name appears escaped, never as markup
    assert XSS not in html.replace("\\u003c", "<").split('id="humanly-results">')[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # one executable-free page: the only <script> is the JSON block, nothing is fetched
    assert html.count("<script") == 1
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "<link" not in html
    for src in re.findall(r'<img src="([^"]+)"', html):
        assert src.startswith("data:image/")
    # embedded JSON parses, names the inputs with their hashes and the models by name
    data = _embedded(html)
    names = {f["name"] for f in data["study"]["provenance"]["inputs"]}
    assert names == {"ratings.csv", "predictions.csv", "gold.csv"}
    assert all(len(f["sha256"]) == 64 for f in data["study"]["provenance"]["inputs"])
    assert XSS in {m["model"] for m in data["study"]["inspect"]["models"]}


def test_embedded_json_matches_inspect_json(cli, xss_files, tmp_path):
    out = tmp_path / "r.html"
    assert _report(cli, xss_files, out).exit_code == 0
    embedded = _embedded(out.read_text())["study"]
    res = cli(
        "inspect", xss_files["ratings"], "--predictions", xss_files["predictions"],
        "--gold", xss_files["gold"], "--bootstrap", 100, "--json",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    ours = res.json()
    ours.pop("source", None)
    theirs = dict(embedded["inspect"])
    theirs.pop("source", None)
    assert theirs == ours


def test_report_refuses_to_overwrite_and_writes_nothing_on_error(cli, xss_files, tmp_path):
    out = tmp_path / "r.html"
    out.write_text("keep me")
    res = _report(cli, xss_files, out)
    assert res.exit_code == 2
    assert "--force" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert out.read_text() == "keep me"
    assert _report(cli, xss_files, out, "--force").exit_code == 0
    assert out.read_text() != "keep me"
    # bad input: exit 2, one line, no output file, no stray temporary file
    bad = tmp_path / "bad.html"
    res = cli("report", tmp_path / "missing.csv", "-o", bad)
    assert res.exit_code == 2 and "missing.csv" in res.stderr
    assert not bad.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]
    res = _report(cli, xss_files, tmp_path / "r.txt")
    assert res.exit_code == 2 and "*.html" in res.stderr


def test_report_json_and_headline(cli, xss_files, tmp_path):
    out = tmp_path / "r.html"
    res = _report(cli, xss_files, out, "--json")
    assert res.exit_code == 0
    data = res.json()
    assert data["path"] == str(out)
    assert data["study"] == _embedded(out.read_text())["study"]
    res = _report(cli, xss_files, out, "--force")
    assert f"report: {out}" in res.stdout


def _pages(stdout: str) -> dict[str, list[list[str]]]:
    """The demo's terminal output: page title → its blocks (a section's title, then its sentences)."""
    pages: dict[str, list[list[str]]] = {}
    blocks: list[list[str]] = []
    for line in stdout.splitlines():
        if line.startswith("humanly demo · "):
            blocks = pages.setdefault(line, [])
        elif line.startswith("reports: "):
            break
        elif not line.strip():
            blocks.append([])
        elif blocks:
            blocks[-1].append(line)
    return {title: [b for b in found if b] for title, found in pages.items()}


def test_demo_console_and_reports_agree_section_for_section(cli, tmp_path, monkeypatch):
    """``humanly demo`` prints, for each page, its sections in the page's order with the page's
    sentences: the verdicts the page's cards and sections show, or the note standing in for an
    analysis that did not run."""
    monkeypatch.chdir(tmp_path)
    res = cli("demo", "--bootstrap", 100)
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert lines[0].startswith("humanly demo · Wikipedia personal attacks")
    assert "humanly-demo/report.html" in lines[-1]
    pages = _pages(res.stdout)
    files = {"report.html": 2000, "running-example.html": 1000, "arena.html": None}
    assert len(pages) == len(files)
    for (title, blocks), (name, n_items) in zip(pages.items(), files.items(), strict=True):
        page = (tmp_path / "humanly-demo" / name).read_text()
        data = _embedded(page)
        if n_items is None:  # the arena page: simulated pairwise votes, ranked
            assert data["study"]["inspect"] is None and "simulated" in title
            assert data["study"]["rank"]["comparisons"] == 10_000
        else:
            assert data["study"]["inspect"]["n_items"] == n_items
        assert html_lib.unescape(re.search(r"<title>(.*?)</title>", page).group(1)) == title
        # the page's sections, in order: the cards, the analyses, Methods and Reproducibility
        ids = re.findall(r'<section id="([a-z]+)"', page)
        assert ids[0] == "verdicts" and ids[-2:] == ["methods", "reproducibility"]
        report = build_report(StudyResult.from_dict(data["study"]))
        assert [s.id for s in report.sections] == ids[1:-1]
        expected = [[s.title, *s.sentences] for s in report.section_sentences()]
        assert blocks == expected
        # every sentence printed is on the page: a card's sentence or a section's note
        shown = {v["sentence"] for v in data["verdicts"]}
        notes = {html_lib.unescape(n) for n in re.findall(r'<p class="note">(.*?)</p>', page)}
        for block in blocks:
            for sentence in block[1:]:
                assert sentence in shown or sentence in notes, sentence
    assert [b[0] for b in pages[next(reversed(pages))]] == ["Ranking: models compared in pairs"]
    wiki = next(iter(pages.values()))
    assert [b[0] for b in wiki] == [
        "Data",
        "Certify: is the model superhuman?",
        "Survey equivalence: how many raters is the model worth?",
        "Label budget: one label per item or majority votes?",
        "Judge: few human labels, many judge labels",
    ]
    again = run_demo(tmp_path / "humanly-demo", bootstrap=100, show_progress=False)
    assert again.report.exists()  # the demo replaces its own files


def test_embedded_json_matches_certify_and_equivalence_json(cli, xss_files, tmp_path):
    """The page embeds the same objects the analysis commands print with --json."""
    out = tmp_path / "r.html"
    assert _report(cli, xss_files, out, "--seed", 5).exit_code == 0
    embedded = _embedded(out.read_text())["study"]
    common = [xss_files["ratings"], "--predictions", xss_files["predictions"]]
    cert = cli("certify", *common, "--gold", xss_files["gold"], "--curve", "--seed", 5, "--json")
    assert cert.exit_code == 0, cert.stderr
    assert embedded["certify"] == cert.json()
    runs = {run["combiner"] + "+" + run["scorer"]: run["result"] for run in embedded["equivalence"]}
    for combiner, scorer, calibrate, extra in (
        ("abc", "cross_entropy", "isotonic", ["--headroom"]),
        ("majority", "agreement", "none", []),
    ):
        res = cli(
            "equivalence", *common, "--combiner", combiner, "--scorer", scorer,
            "--calibrate", calibrate, "--bootstrap", 100, "--seed", 5, *extra, "--json",
        )  # fmt: skip
        assert res.exit_code == 0, res.stderr
        assert runs[f"{combiner}+{scorer}"] == res.json()
    assert 0.5 <= embedded["plan"]["label_accuracy"] <= 1
