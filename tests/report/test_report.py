"""``humanly report``: self-contained, escaped, atomic, JSON embedded; ``humanly demo``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from humanly.demo import run_demo

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


def test_demo_writes_two_reports_and_short_summary(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = cli("demo", "--bootstrap", 100)
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert lines[0].startswith("humanly demo · Wikipedia personal attacks")
    assert "humanly-demo/report.html" in lines[-1]
    html = (tmp_path / "humanly-demo" / "report.html").read_text()
    sentences = [v["sentence"] for v in _embedded(html)["verdicts"]]
    if sentences:  # the terminal prints the cards' sentences, in card order
        assert [ln for ln in lines if ln in sentences] == sentences
    else:  # one summary line per analysis
        assert lines[1].startswith("certify:") and lines[2].startswith("survey equivalence")
        assert lines[3].startswith("budget:") and len(lines) == 5
    for name in ("report.html", "running-example.html"):
        html = (tmp_path / "humanly-demo" / name).read_text()
        assert _embedded(html)["study"]["inspect"]["n_items"] in (1000, 2000)
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
