"""Certify's views: the verdict sentences (Table 4, the bundled demo data, a certified simulation), the
command line's tables and flags, the report section and the figures. Numbers come from the library;
these tests check what a reader sees."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from humanly import simulate
from humanly.certification import certify, certify_summary
from humanly.datasets import WIKI_ATTACK_OPTIONS, wiki_attack, wiki_attack_path
from humanly.verdicts.certify import format_confidence, verdicts
from table4 import SUMMARY_ARGS

SST2 = dict(
    lower=[0.949, 0.971],
    upper=0.939,
    n_items=1821,
    labels_per_item=3,
    models=["BERT", "StructBERT"],
)
SNLI = dict(
    lower=[0.899, 0.919], upper=0.879, n_items=10000, labels_per_item=5, models=["GPT", "SemBERT"]
)


def _by_model(res):  # type: ignore[no-untyped-def]
    return {v.model: v for v in verdicts(res)}


@pytest.fixture(scope="module")
def table4() -> dict:
    return {**_by_model(certify_summary(**SST2)), **_by_model(certify_summary(**SNLI))}


@pytest.fixture(scope="module")
def copycat():  # type: ignore[no-untyped-def]
    return simulate.oracle(
        1000,
        [0.85, 0.8, 0.75, 0.8, 0.7],
        models={"strong": 0.97, "copycat": 0.8},
        copy_crowd={"copycat": 0.9},
        seed=1,
    )


# ------------------------------------------------------------------------------ verdict sentences
def _split(sentence: str) -> tuple[str, str]:
    """A verdict's plain first sentence (issue 26) and the technical rest."""
    plain, rest = re.split(r"(?<=\.)\s", sentence, maxsplit=1)
    return plain, rest


def test_table4_sembert_is_superhuman_under_the_empirical_bound_only(table4) -> None:
    v = table4["SemBERT"]
    assert v.topic == "certify" and v.status == "certified" and v.methods == "methods-certify"
    plain, s = _split(v.sentence)
    assert (
        plain
        == "SemBERT beats the average rater: the crowd's labels alone show it with 95% confidence."
    )
    assert s.startswith("SemBERT is certified superhuman: its lower bound L_N = 0.919 exceeds")
    assert "U_N = 0.879 (margin +0.040)" in s and "S = 0.999996 ≥ 0.95" in s
    assert "(Hoeffding, N = 10,000 items)" in s
    # the verdict names the upper bound it rests on and gives the one under U⁽ᵗ⁾ beside it
    assert "U_N is U⁽ᵉ⁾, the paper's empirical approximation" in s and "(Lemma 2)" in s
    assert "under U⁽ᵗ⁾ = 0.9045 it is not certified: S = 0.6716 < 0.95" in s
    assert "about 20,817 items would certify it" in s


def test_table4_other_rows(table4) -> None:
    bert, struct, gpt = table4["BERT"], table4["StructBERT"], table4["GPT"]
    assert bert.status == "no evidence"
    assert "the margin L_N − U_N = +0.010 (L_N = 0.949, U_N = 0.939) is smaller than the " in (
        bert.sentence
    )
    assert "(S < 0: no evidence; Hoeffding); about 42,618 items would certify it" in bert.sentence
    assert "under U⁽ᵗ⁾ = 0.9598, L_N ≤ U⁽ᵗ⁾: no number of items would certify it" in bert.sentence
    assert struct.status == "not certified"
    assert "gives confidence S = 0.6208 < 0.95 at N = 1,821 items" in struct.sentence
    assert "about 4,149 items would certify it at this margin" in struct.sentence
    assert "under U⁽ᵗ⁾ = 0.9598 there is no evidence (S < 0): about 33,217 items" in struct.sentence
    assert gpt.status == "not certified" and "S = 0.9267 < 0.95" in gpt.sentence
    # no row of Table 4 is certified under U⁽ᵗ⁾, and no sentence says a bare "superhuman: yes"
    for v in table4.values():
        assert "under U⁽ᵗ⁾" in v.sentence and "it is certified" not in v.sentence
        assert "−0." not in v.sentence.split("S = ")[-1][:3]  # no negative S quoted as a number


def test_the_demo_data_has_no_evidence_beside_a_positive_margin() -> None:
    ratings, predictions = wiki_attack()
    res = certify(ratings, predictions)
    m = res.models[0]
    assert round(m.confidence.oms, 4) == -0.1495  # the library's number, unchanged
    (v,) = verdicts(res)
    assert v.status == "no evidence"
    assert v.sentence == (
        "predictor_prob is not yet shown to beat the average rater: the test set is too small to "
        "tell; about 31,000 items would show it if the gap holds. "
        "predictor_prob is not certified: the margin L_N − U_N = +0.0118 (L_N = 0.9315, U_N = "
        "0.9197) is smaller than the finite-sample deviations at N = 2,000 items (S < 0: no "
        "evidence; Hoeffding); about 31,211 items would certify it at this margin. U_N is U⁽ᵉ⁾, the "
        "paper's empirical approximation that approaches the theorem-backed U⁽ᵗ⁾ only as K grows "
        "(Lemma 2); under U⁽ᵗ⁾ = 0.9265 there is no evidence (S < 0): about 169,388 items would "
        "certify it."
    )
    assert "0.1495" not in v.sentence  # a negative S is "no evidence", never a probability


def test_a_certified_simulation_and_a_copycat_against_gold(copycat) -> None:
    res = certify(copycat.ratings, copycat.predictions, gold=copycat.gold)
    v = _by_model(res)
    strong, copy = v["strong"].sentence, v["copycat"].sentence
    assert v["strong"].status == "certified"
    assert _split(strong)[1].startswith(
        "strong is certified superhuman: its lower bound L_N = 0.894"
    )
    assert "S = 0.9894 ≥ 0.95 (Hoeffding, N = 1,000 items)" in strong
    assert "under U⁽ᵗ⁾ = 0.853 it is not certified: S = 0.5058 < 0.95, about 2,717 items" in strong
    assert "On the 1,000 gold items its accuracy is 0.970 and the average rater's 0.7754." in strong
    # S within 10⁻⁶ of 1 is not printed as 1
    assert "S > 0.999999, above 0.95" in copy
    assert "evidence against Theorem 3's assumption for copycat" in copy
    assert "L_N − accuracy = +0.064 [+0.0463, +0.0817], above 0" in copy
    assert "so L_N = 0.978 may not bound its accuracy" in copy


def test_not_applicable_tau_theoretical_and_unknown_k() -> None:
    (v,) = verdicts(certify_summary([0.80], 0.85, 500, models=["m"]))
    assert v.status == "not applicable"
    assert _split(v.sentence)[0].startswith(
        "m is not shown to beat the average rater: its agreement"
    )
    assert _split(v.sentence)[1].startswith(
        "m is not superhuman by these bounds: L_N = 0.800 ≤ U_N = 0.850"
    )
    assert "U⁽ᵗ⁾ needs K, the number of raters per item, which was not given" in v.sentence
    (t,) = verdicts(certify_summary([0.919], 0.879, 10000, models=["SemBERT"], tau=0.02))
    needed = re.search(r"about ([\d,]+) items would certify", t.sentence)
    assert needed is not None
    rounded = f"{round(int(needed.group(1).replace(',', '')), -3):,}"  # two significant digits
    assert _split(t.sentence)[0] == (
        "SemBERT is not yet shown to beat the average rater by at least 2 points: the evidence "
        f"falls short of 95% confidence; about {rounded} items would show it if the gap holds."
    )
    assert _split(t.sentence)[1].startswith(
        "SemBERT is not certified to beat the average rater by at least τ = 0.02: the margin "
        "L_N − U_N − τ = +0.020"
    )
    (u,) = verdicts(
        certify_summary(
            [0.919], 0.879, 10000, labels_per_item=5, models=["SemBERT"], upper_kind="theoretical"
        )
    )
    assert u.status == "not certified"
    assert "U_N is U⁽ᵗ⁾, the theorem-backed upper bound (Theorem 1)" in u.sentence
    assert "under the paper's U⁽ᵉ⁾ = 0.879, an approximation, it is certified: S = 0.999996" in (
        u.sentence
    )


def test_format_confidence() -> None:
    assert format_confidence(0.999996) == "0.999996"
    assert format_confidence(0.99996) == "0.99996" and format_confidence(0.99994) == "0.9999"
    assert format_confidence(0.9762) == "0.9762"
    assert format_confidence(1 - 1e-9) == "> 0.999999"
    assert format_confidence(-0.27301) == "−0.2730"
    assert format_confidence(None) == "—" and format_confidence(float("nan")) == "—"


def test_verdicts_import_no_heavy_library() -> None:
    code = (
        "import sys, humanly.verdicts.certify\n"
        "print(sorted(m for m in ('pandas', 'matplotlib', 'jinja2', 'scipy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ------------------------------------------------------------------------------ command line
def _cells(result) -> set[str]:  # type: ignore[no-untyped-def]
    """Every cell of the command line's tables, unwrapped."""
    from humanly.cli.certify_render import render

    return {str(c) for t in render(result) for col in t.table.columns for c in col._cells}


def _numbers(text: str) -> list[str]:
    return re.findall(r"[+−-]?\d[\d,]*\.?\d*", text)


def _tables_and_sentences(stdout: str, n_models: int) -> tuple[str, list[str]]:
    lines = stdout.rstrip("\n").split("\n")
    sentences = lines[-2 * n_models + 1 :: 2]
    return "\n".join(lines[: -2 * n_models]), sentences


def _every_number_in_the_tables(stdout: str, n_models: int) -> None:
    tables, sentences = _tables_and_sentences(stdout, n_models)
    assert len(sentences) == n_models
    flat = tables.replace("\n", " ")
    for sentence in sentences:
        # the plain first sentence rounds the items needed ("about 31,000"); the rest quotes the table
        for num in _numbers(_split(sentence)[1]):
            if num.rstrip(".") in {"1", "2", "3", "5", "7"}:  # Theorem/Lemma numbers
                continue
            assert num.rstrip(".,") in flat, (num, sentence)


def test_cli_table4_summary(cli) -> None:
    args = [*SUMMARY_ARGS]
    r = cli(*args, "--models", "BERT,StructBERT", "--n-classes", "2")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "the verdict rests on" in out and "U_N = U⁽ᵉ⁾ = 0.9390" in out
    assert "the same models under U⁽ᵗ⁾ = 0.9598" in out
    assert "42,618" in out and "4,149" in out and "33,217" in out
    cells = _cells(certify_summary(**SST2))  # printed cells may wrap at 80 columns
    assert {"no evidence (S < 0)", "not certified", "n/a (L_N ≤ U_N)"} <= cells
    assert "0.8817 vs 1/2 = 0.5000: holds" in out and "K = 3 > 2 classes" in out
    assert "BERT is not certified" in out and "StructBERT is not certified" in out
    _every_number_in_the_tables(out, 2)
    j = cli(*args, "--n-classes", "2", "--json")
    assert j.json()["upper_bound"]["lemma2"]["holds"] is True  # type: ignore[index]
    assert "is not certified" not in j.stdout  # no sentences with --json


def test_cli_snli_semBERT_digits_and_tau(cli) -> None:
    base = [
        "certify",
        "summary",
        "--lower",
        "0.899",
        "0.919",
        "--upper",
        "0.879",
        "--n-items",
        "10000",
    ]
    r = cli(*base, "--labels-per-item", "5", "--models", "GPT,SemBERT")
    assert r.exit_code == 0, r.stderr
    assert "0.999996" in r.stdout and "SemBERT is certified superhuman" in r.stdout
    _every_number_in_the_tables(r.stdout, 2)
    t = cli(*base, "--labels-per-item", "5", "--models", "GPT,SemBERT", "--tau", "0.01")
    assert t.exit_code == 0, t.stderr
    assert "by at least τ = 0.01" in t.stdout.split("\n")[0]
    assert "superhuman by at least τ = 0.01?" in t.stdout
    assert "n/a (L_N ≤ U_N + τ)" in _cells(certify_summary(**SNLI, tau=0.01))
    j = cli(*base, "--tau", "0.01", "--json").json()
    assert j["tau"] == 0.01  # type: ignore[index]
    plain = cli(*base, "--json").json()
    assert set(plain) <= set(j)  # type: ignore[arg-type]


def test_cli_demo_data(cli) -> None:
    path = wiki_attack_path()
    opts = WIKI_ATTACK_OPTIONS
    r = cli(
        "certify",
        path,
        "--item-col",
        opts["item_col"],
        "--counts",
        opts["counts"].columns,
        "--total",
        opts["counts"].total,
        "--rest-class",
        opts["counts"].rest_class,
        "--predictions",
        path,
        "--prob-col",
        "predictor_prob",
    )
    assert r.exit_code == 0, r.stderr
    assert "−0.1495" in r.stdout and "31,211" in r.stdout and "169,388" in r.stdout
    assert "K = 8–36 by item (mean 15.4)" in r.stdout
    assert "predictor_prob is not certified" in r.stdout
    _every_number_in_the_tables(r.stdout, 1)


def test_cli_gold_checks_are_intervals_with_a_status(
    cli, copycat, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a wide terminal: at 80 columns the interval cells wrap at their spaces (tests/test_cli_tables.py);
    # the console is made once per process, so it is made again for this width and after it
    from humanly.cli import _console

    monkeypatch.setenv("COLUMNS", "160")
    _console.stdout.cache_clear()
    files = copycat.write(tmp_path / "sim.csv")
    try:
        r = cli(
            "certify", files["ratings"], "--predictions", files["predictions"], "--gold",
            files["gold"],
        )  # fmt: skip
    finally:
        monkeypatch.delenv("COLUMNS")
        _console.stdout.cache_clear()
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "FAIL" not in out and "pass" not in out and "VIOLATED" not in out
    assert "+0.0051 [−0.0000, +0.0102]" in out and "consistent" in out
    assert "−0.3488 [−0.4958, −0.2019]" in out and "evidence against" in out
    assert "+0.0640 [+0.0463, +0.0817]" in out and "Theorem 3 says ≤ 0" in out
    assert "below L_N, L_N − t_l: did not hold" in out
    _every_number_in_the_tables(out, 2)


def test_cli_flags_are_checked(cli, copycat, tmp_path: Path) -> None:
    files = copycat.write(tmp_path / "sim.csv")
    r = cli("certify", files["ratings"], "--predictions", files["predictions"], "--aggregate", "x")
    assert r.exit_code == 2 and "--aggregate x" in r.stderr and r.stdout == ""
    r = cli("certify", files["ratings"], "--n-classes", "3")
    assert r.exit_code == 2 and "--n-classes" in r.stderr
    r = cli(
        "certify", "summary", "--lower", "0.9", "--upper", "0.8", "--n-items", "100", "--tau", "-1"
    )
    assert r.exit_code == 2 and "--tau" in r.stderr
    r = cli(
        "certify",
        "summary",
        "--lower",
        "0.9",
        "--upper",
        "0.8",
        "--n-items",
        "100",
        "--n-classes",
        "1",
    )
    assert r.exit_code == 2 and "--n-classes 1" in r.stderr
    for aggregate in ("weighted", "soft"):
        r = cli(
            "certify", files["ratings"], "--predictions", files["predictions"],
            "--aggregate", aggregate, "--json",
        )  # fmt: skip
        assert r.exit_code == 0, r.stderr
        assert json.loads(r.stdout)["aggregate"] == aggregate


# ------------------------------------------------------------------------------ report and figures
def test_report_section_running_example() -> None:
    from humanly.report.sections.certify import METHODS_TEXT
    from study_sections import section as study_section

    sim = simulate.running_example(1000, 10, seed=0)
    section, res = study_section(
        "certify", sim.ratings, sim.predictions, sim.gold, colors={"hard": "#000"}, bootstrap=0
    )
    assert res is not None and [v.model for v in section.verdicts] == ["hard", "soft"]
    text = " ".join(section.paragraphs)
    assert "Certify scores hard labels" in text
    assert "Here hard and soft pick the same class on every item" in text
    models = section.tables[1]
    assert "items needed" in models.headers and "evidence under U⁽ᵗ⁾" in models.headers
    hard = models.rows[0]
    assert "no evidence (S < 0)" in hard and "−0.0549" in hard and "9,096" in hard
    assumptions = section.tables[3]
    assert all(row[-1] in ("consistent", "≤ 0 by Theorem 3") for row in assumptions.rows)
    assert all("nan" not in str(c) for t in section.tables for row in t.rows for c in row)
    for word in ("τ", "items needed", "U⁽ᵗ⁾", "no evidence (S < 0)", "Lemma 2"):
        assert word in METHODS_TEXT
    tau, _ = study_section("certify", sim.ratings, sim.predictions, sim.gold, tau=0.02, bootstrap=0)
    assert "τ = 0.02" in tau.tables[1].caption


def test_confidence_figure_shows_negative_s() -> None:
    from humanly.plots.certify import plot_confidence, plot_curve

    ratings, predictions = wiki_attack()
    res = certify(ratings, predictions, curve=True)
    fig = plot_confidence(res, colors={"predictor_prob": "#123456"})
    ax = fig.axes[0]
    low, high = ax.get_ylim()
    assert low < -0.6 and high >= 1.0  # the S curve (−0.62 … −0.15) is on the axes
    assert fig.get_size_inches()[0] == pytest.approx(6.4)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == "predictor_prob"
    assert any(lab.startswith("S = 0") for lab in labels)
    assert "level 0.95 (certified above)" in labels
    assert ax.get_lines()[0].get_color() == "#123456"
    # the legend sits under the axes, off the data
    assert ax.get_legend().get_bbox_to_anchor().y1 < ax.get_window_extent().y0
    curve = plot_curve(res).axes[0]
    assert all(not line.get_label().startswith("_") for line in curve.get_lines())


def test_curve_figure_labels_every_line(copycat) -> None:
    from humanly.plots.certify import plot_curve

    res = certify(copycat.ratings, copycat.predictions, gold=copycat.gold, curve=True)
    ax = plot_curve(res, colors={"strong": "#111111", "copycat": "#222222"}).axes[0]
    labels = [line.get_label() for line in ax.get_lines()]
    assert not any(lab.startswith("_") for lab in labels)  # no unlabelled line
    assert "true accuracy strong (gold)" in labels and "true average rater (gold)" in labels
    assert ax.get_legend().get_bbox_to_anchor().y1 < ax.get_window_extent().y0


def test_the_joint_verdict_reads_the_level_per_model_from_the_result() -> None:
    """Certified alone (S = 0.963 ≥ 0.95) but not with the other model: the union bound needs
    S ≥ 1 − (1 − level)/M = 0.975, the result's ``simultaneous.level_per_model``."""
    from humanly.certification import certify_summary
    from humanly.verdicts.certify import verdicts

    res = certify_summary([0.901, 0.95], 0.879, 10000, models=["a", "b"])
    a = res.model("a")
    assert a.superhuman and not a.superhuman_simultaneous
    assert res.simultaneous.level_per_model == 0.975 and res.simultaneous.superhuman == ("b",)
    sentence = verdicts(res)[0].sentence
    assert (
        "Taken together with the other 1 model it is not certified (union bound: for all 2 claims "
        "to hold at once at level 0.95, each needs S ≥ 0.975)." in sentence
    )
    strict = certify_summary([0.901, 0.95], 0.879, 10000, models=["a", "b"], level=0.9)
    assert strict.simultaneous.level_per_model == 0.95 and strict.model("a").superhuman_simultaneous


def _text(tables) -> str:  # type: ignore[no-untyped-def]
    """What the terminal shows of command-line tables."""
    import io

    from rich.console import Console

    console = Console(record=True, width=120, file=io.StringIO())
    for t in tables:
        console.print(t.table)
    return console.export_text()


def test_a_result_read_back_from_its_json_draws_the_same_views(copycat) -> None:
    """The views read result fields and result methods only: the result rebuilt from its JSON gives
    the same sentences, terminal tables, confidence curves and figure data."""
    import numpy as np

    from humanly.certification import CertifyResult
    from humanly.cli.certify_render import render
    from humanly.plots.certify import plot_confidence, plot_curve
    from humanly.verdicts.certify import headline as certify_line

    for bound in ("hoeffding", "exact"):
        res = certify(copycat.ratings, copycat.predictions, copycat.gold, curve=True, bound=bound)
        back = CertifyResult.from_dict(json.loads(res.to_json()))
        assert [v.sentence for v in verdicts(back)] == [v.sentence for v in verdicts(res)]
        assert certify_line(back) == certify_line(res)
        assert _text(render(back)) == _text(render(res))
        for m in res.models:
            assert back.confidence_curve(m.model, points=30) == res.confidence_curve(
                m.model, points=30
            )
        for draw in (plot_confidence, plot_curve):
            lines_a = [ln.get_ydata() for ln in draw(res).axes[0].get_lines()]
            lines_b = [ln.get_ydata() for ln in draw(back).axes[0].get_lines()]
            assert len(lines_a) == len(lines_b) > 2
            for a, b in zip(lines_a, lines_b, strict=True):
                np.testing.assert_array_equal(np.asarray(a, float), np.asarray(b, float))
