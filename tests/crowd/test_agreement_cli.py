"""``humanly agreement``: the family as one table and the verdict, Krippendorff's (2011) example at its
four scales through the command line, bad input in one sentence (exit 2), and row-order invariance."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly.verdicts.agreement import family_rows, paradox_sentence, verdicts

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: observers A–D × 12 units
KRIPPENDORFF_2011 = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
}


@pytest.fixture(scope="module")
def k2011(tmp_path_factory) -> str:
    rows = [
        (unit, rater, value)
        for rater, values in KRIPPENDORFF_2011.items()
        for unit, value in enumerate(values, start=1)
        if value is not None
    ]
    path = tmp_path_factory.mktemp("k2011") / "k2011.csv"
    pd.DataFrame(rows, columns=["item", "rater", "label"]).to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize(
    ("scale", "published"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff_2011_through_the_cli(cli, k2011, scale, published) -> None:
    res = cli("agreement", k2011, "--scale", scale, "--bootstrap", "0", "--json")
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    alpha = next(c for c in out["coefficients"] if c["name"] == "krippendorff_alpha")
    assert round(alpha["estimate"], 3) == published
    assert out["scale"] == scale


def test_the_table_and_the_verdict(cli, k2011) -> None:
    from rich.console import Console

    from humanly.cli.agreement_render import render

    res = cli("agreement", k2011, "--scale", "interval", "--bootstrap", "100")
    assert res.exit_code == 0, res.stderr
    assert "Krippendorff's α is 0.849" in res.stdout
    assert "on the Landis & Koch (1977) scale with probability" in res.stdout
    assert not re.search(r"\bnan\b", res.stdout)
    r = humanly.read_study(k2011, options=humanly.ReadOptions(scale="interval")).ratings
    console = Console(width=200, record=True)
    console.print(render(humanly.agreement(r, bootstrap=100), "k2011.csv").table)
    table = console.export_text()
    for header in ("coefficient", "estimate", "SE", "interval", "method", "bootstrap"):
        assert header in table
    for label in ("Conger's κ", "Fleiss' κ", "Gwet's AC2", "Brennan–Prediger", "Krippendorff's α"):
        assert label in table
    assert "≥ substantial (0.97)" in table and "interval metric" in table


def test_table_cells_are_result_fields(k2011) -> None:
    r = humanly.read_study(k2011, options=humanly.ReadOptions(scale="ordinal")).ratings
    res = humanly.agreement(r, bootstrap=0)
    rows = {row[0]: row for row in family_rows(res)}
    for c in res.coefficients:
        row = rows[c.label]
        assert row[2] == f"{c.estimate:.3f}" and row[3] == f"{c.standard_error:.3f}"
        assert row[4] == f"[{c.interval.low:.3f}, {c.interval.high:.3f}]"
    assert "bootstrap" not in " ".join(map(" ".join, rows.values()))


def test_paradox_line_when_kappa_is_low_and_agreement_high(cli, tmp_path) -> None:
    # two raters, 'no' dominates: they agree on 46 of 50 items, κ is low
    first = ["no"] * 45 + ["yes", "no", "no", "yes", "no"]
    second = ["no"] * 45 + ["yes", "yes", "yes", "no", "no"]
    frame = pd.DataFrame(
        {
            "item": list(range(50)) * 2,
            "rater": ["a"] * 50 + ["b"] * 50,
            "label": first + second,
        }
    )
    path = tmp_path / "skewed.csv"
    frame.to_csv(path, index=False)
    res = cli("agreement", path, "--bootstrap", "0")
    assert res.exit_code == 0, res.stderr
    result = humanly.agreement(humanly.read_study(path).ratings, bootstrap=0)
    line = paradox_sentence(result)
    assert line is not None and result.paradox is not None and result.paradox.flagged
    assert "Cohen's κ is low" in line and "prevalence index" in line and "Gwet's AC1" in line
    assert line in res.stdout.replace("\n", " ") or line[:60] in res.stdout
    assert [v.status for v in verdicts(result)] == ["agreement", "paradox"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--weights", "bogus"), "--weights bogus: use one of"),
        (("--weights", "linear"), "--weights linear needs ordered classes"),
        (("--level", "1.5"), "--level 1.5"),
        (("--benchmark", "2"), "--benchmark 2.0"),
        (("--scale", "likert"), "--scale likert"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(cli, k2011, args, words) -> None:
    res = cli("agreement", k2011, "--bootstrap", "0", *args)
    assert res.exit_code == 2 and res.stdout == ""
    assert words in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_single_rater_and_words_on_an_interval_scale(cli, tmp_path) -> None:
    one = tmp_path / "one.csv"
    one.write_text("item,rater,label\n1,a,x\n2,a,y\n3,a,x\n")
    res = cli("agreement", one, "--bootstrap", "0")
    assert res.exit_code == 2 and "a single rater ('a')" in res.stderr
    words = tmp_path / "words.csv"
    words.write_text("item,rater,label\n1,a,lo\n1,b,hi\n2,a,lo\n2,b,lo\n")
    res = cli("agreement", words, "--scale", "interval", "--bootstrap", "0")
    assert res.exit_code == 2 and "--scale interval needs numeric labels" in res.stderr


def _family(frame: pd.DataFrame, scale: str) -> dict[str, tuple[float, ...]]:
    r = humanly.read_study(frame, options=humanly.ReadOptions(scale=scale)).ratings
    res = humanly.agreement(r, bootstrap=100, seed=3)
    return {
        c.name: (c.estimate, c.standard_error, *c.interval, *c.bootstrap_interval)
        for c in res.coefficients
    }


@settings(max_examples=25, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 3), st.integers(1, 4)),
        min_size=6,
        max_size=40,
        unique_by=lambda t: (t[0], t[1]),
    ),
    order=st.randoms(use_true_random=False),
    scale=st.sampled_from(["nominal", "ordinal", "interval", "ratio"]),
)
def test_permuting_input_rows_leaves_every_coefficient_identical(data, order, scale) -> None:
    frame = pd.DataFrame(data, columns=["item", "rater", "label"])
    frame["rater"] = "r" + frame["rater"].astype(str)
    pairable = frame.groupby("item").size() >= 2
    labels_used = frame[frame["item"].isin(pairable[pairable].index)]["label"].nunique()
    if not pairable.any() or labels_used < 2 or frame["label"].nunique() < 2:
        return
    rows = list(range(len(frame)))
    order.shuffle(rows)
    shuffled = frame.iloc[rows].reset_index(drop=True)
    try:
        before = _family(frame, scale)
    except humanly.InputError:
        with pytest.raises(humanly.InputError):
            _family(shuffled, scale)
        return
    after = _family(shuffled, scale)
    assert before.keys() == after.keys()
    for name, values in before.items():
        for x, y in zip(values, after[name], strict=True):
            assert (x is None and y is None) or (
                x is not None and y is not None and ((math.isnan(x) and math.isnan(y)) or x == y)
            ), (name, values, after[name])
    assert np.isfinite([v[0] for v in before.values()]).any()


def test_report_from_saved_results_draws_the_same_family_table(
    cli, k2011, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first, again, saved = tmp_path / "a.html", tmp_path / "b.html", tmp_path / "s.json"
    res = cli(
        "report", k2011, "--scale", "ordinal", "--bootstrap", "100", "-o", first,
        "--save-results", saved,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    res = cli("report", "--from", saved, "-o", again)
    assert res.exit_code == 0, res.stderr
    page = first.read_bytes()
    assert page == again.read_bytes()
    text = page.decode("utf-8")
    assert "The agreement family" in text and "Krippendorff" in text and "0.815" in text
    saved_family = json.loads(saved.read_text())["inspect"]["family"]
    assert saved_family["scale"] == "ordinal"


def test_one_class_on_every_pairable_item_gives_dashes_not_an_error(cli, tmp_path) -> None:
    # item a: both raters say y; item b has one label (x): κ and α are undefined, not a crash
    r = humanly.Ratings.from_long(["a", "a", "b"], ["r1", "r2", "r1"], ["y", "y", "x"])
    res = humanly.agreement(r, bootstrap=0)
    for name in ("fleiss_kappa_pooled", "krippendorff_alpha"):
        assert math.isnan(res[name].estimate) and math.isnan(res[name].standard_error)
    path = tmp_path / "dup.csv"
    path.write_text("item,rater,label\na,r1,x\na,r2,y\nb,r1,x\na,r1,y\n")
    out = cli("inspect", path, "--duplicates", "last", "--bootstrap", "0", "--json")
    assert out.exit_code == 0, out.stderr
