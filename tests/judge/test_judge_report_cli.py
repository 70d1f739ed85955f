"""``humanly report --judge FILE``: the judge's outputs on every item (the ratings on some) put the
Judge section on the page; --save-results keeps the judge analysis and --from draws the same bytes;
bad input is one sentence, exit status 2 and no output."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("judge-report")
    rng = np.random.default_rng(4)
    n, labelled = 400, 120
    items = [f"c{k}" for k in range(n)]
    truth = rng.integers(0, 2, n)

    def noisy(p: float) -> np.ndarray:
        return np.where(rng.random(n) < p, truth, 1 - truth)

    rows = [(items[k], f"r{j}", int(noisy(0.9)[k])) for k in range(labelled) for j in range(2)]
    pd.DataFrame(rows, columns=["item", "rater", "label"]).to_csv(folder / "r.csv", index=False)
    pd.DataFrame(
        {"item": items * 2, "model": ["a"] * n + ["b"] * n,
         "prediction": np.concatenate([noisy(0.85), noisy(0.7)])}
    ).to_csv(folder / "p.csv", index=False)  # fmt: skip
    pd.DataFrame({"item": items, "prediction": noisy(0.9)}).to_csv(folder / "j.csv", index=False)
    pd.DataFrame({"item": [*items, "extra"], "prediction": [*noisy(0.9), 1]}).to_csv(
        folder / "j-extra.csv", index=False
    )
    pd.DataFrame({"item": items[:-5], "prediction": noisy(0.9)[:-5]}).to_csv(
        folder / "j-short.csv", index=False
    )
    names = ("r", "p", "j", "j-extra", "j-short")
    return {"folder": folder, **{k: folder / f"{k}.csv" for k in names}}


def _report(cli, files, out: Path, *extra: object):
    return cli("report", files["r"], "--predictions", files["p"], "--bootstrap", 0,
               "-o", out, *extra)  # fmt: skip


def test_the_page_has_the_judge_section_and_from_draws_the_same_bytes(
    cli, files, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    saved = tmp_path / "results.json"
    res = _report(cli, files, tmp_path / "r.html", "--judge", files["j"], "--save-results", saved)
    assert res.exit_code == 0, res.stderr
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="judge"' in html
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["judge"] is not None
    assert (data["judge"]["n_labelled"], data["judge"]["n_unlabelled"]) == (120, 280)
    again = cli("report", "--from", saved, "-o", tmp_path / "again.html")
    assert again.exit_code == 0, again.stderr
    assert (tmp_path / "again.html").read_bytes() == (tmp_path / "r.html").read_bytes()
    twice = tmp_path / "twice.json"
    res = cli("report", "--from", saved, "-o", tmp_path / "x.html", "--save-results", twice)
    assert res.exit_code == 0 and twice.read_bytes() == saved.read_bytes()


def test_bad_judge_input_is_one_sentence_and_no_output(cli, files, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    for judge, words in ((tmp_path / "nope.csv", "--judge "),
                         (files["j-extra"], "1 judge output(s) are for items predictions "),
                         (files["j-short"], "5 of 400 items of predictions ")):  # fmt: skip
        res = _report(cli, files, out, "--judge", judge, "--save-results", tmp_path / "s.json")
        assert res.exit_code == 2 and res.stdout == ""
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and str(judge) in lines[0], res.stderr  # names the judge's file
        assert words in lines[0] and len(lines[0]) < 320, lines[0]
        assert "Traceback" not in res.stderr and list(tmp_path.iterdir()) == []
    res = cli("report", "--from", tmp_path / "x.json", "-o", out, "--judge", files["j"])
    assert res.exit_code == 2 and "drop --judge" in res.stderr and not out.exists()


def test_strata_reach_the_judge_section(cli, files, tmp_path: Path, monkeypatch) -> None:
    """``--strata COLUMN`` (a column of the judge file) gives the page's judge analysis a λ per
    stratum, as ``humanly judge --strata`` does; without --judge it is one sentence."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    judged = pd.read_csv(files["j"])
    judged["topic"] = np.where(np.arange(len(judged)) % 3 == 0, "x", "y")
    path = tmp_path / "j-topic.csv"
    judged.to_csv(path, index=False)
    saved = tmp_path / "s.json"
    res = _report(
        cli, files, tmp_path / "r.html", "--judge", path, "--strata", "topic",
        "--save-results", saved,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    data = json.loads(saved.read_text(encoding="utf-8"))
    strata = data["judge"]["models"][0]["accuracy"]["strata"]
    assert [s["stratum"] for s in strata] == ["x", "y"]
    bad = _report(cli, files, tmp_path / "bad.html", "--strata", "topic")
    assert bad.exit_code == 2 and "give --judge FILE with it" in bad.stderr
    assert not (tmp_path / "bad.html").exists()
