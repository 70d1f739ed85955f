"""Target panels and the exact scenario mode on the command line, in the verdicts and in the figures
(issue 33): ``humanly equivalence --targets``, ``humanly simulate equivalence``, the flip sentence,
and the flags of the ABC at large k (issue 34, item 3) in the curve table and the figure."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pytest

from humanly.simulate import running_example
from humanly.survey import (
    EquivalenceOptions,
    EquivalenceResult,
    ScenarioResult,
    equivalence,
    scenario_equivalence,
)
from humanly.verdicts import verdicts_for
from humanly.verdicts.targets import flip_sentence, target_words

#: The revised paper's counter-example (issue 33): the classifier and one rater against t = 1, 3, ∞.
CLASSIFIER = (0.705982, 0.575480, 0.500656)
ONE_RATER = (0.705773, 0.576897, 0.492504)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = running_example(200, 6, seed=1)
    return d.write(tmp_path_factory.mktemp("targets") / "ex.csv")


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_counter_example_from_the_cli_to_1e_6(cli) -> None:
    done = cli("simulate", "equivalence", "--json")
    assert done.exit_code == 0, done.stderr
    data = done.json()
    res = ScenarioResult.from_dict(data)
    assert res.to_dict() == data  # round trip through the JSON
    assert [t.target for t in res.targets] == [1, 3, "inf"]
    for t, h, one in zip(res.targets, CLASSIFIER, ONE_RATER, strict=True):
        assert abs(-t.classifier_score - h) < 1e-6 and abs(-t.power_curve[1].score - one) < 1e-6
    assert res.flips.status == "flips" and res.flips.flips_at == (1, 2)
    # the flags are the function's parameters; the same numbers as from Python
    same = cli(
        "simulate", "equivalence", "--prior", "0.5", "--rater", "0.85,0.07", "--classifier",
        "0.96,0.2", "--scorer", "cross_entropy", "--combiner", "majority", "--targets", "1,3,inf",
        "--max-sources", "10", "--json",
    )  # fmt: skip
    assert same.json() == scenario_equivalence().to_dict() == data


def test_the_scenario_prints_tables_kappa_and_the_flip_sentence(cli) -> None:
    done = cli("simulate", "equivalence")
    assert done.exit_code == 0, done.stderr
    out = _words(done.stdout)
    for cell in ("-0.705982", "-0.575480", "-0.500656", "-0.705773", "0.6123", "0.8579", "2.01"):
        assert cell in out
    sentence = verdicts_for(scenario_equivalence())[0].sentence
    assert _words(sentence) in out
    assert (
        "The classifier's verdict flips with the target panel: against 1–2 raters it is behind "
        "under t = 1, ahead under t = 3 and behind under t = ∞ (bigger panels are not always "
        "better)."
    ) in sentence
    assert "c_k t = ∞" in out and "targets: t = 1 one other rater" in out


def test_a_three_class_scenario_and_bad_flags(cli) -> None:
    matrix = "0.8,0.1,0.1;0.1,0.8,0.1;0.1,0.1,0.8"
    done = cli(
        "simulate", "equivalence", "--prior", "0.5,0.3,0.2", "--rater", matrix, "--classifier",
        "0.9,0.05,0.05;0.1,0.85,0.05;0.1,0.1,0.8", "--combiner", "plurality", "--targets",
        "1,inf", "--max-sources", "4", "--json",
    )  # fmt: skip
    assert done.exit_code == 0, done.stderr
    res = ScenarioResult.from_dict(done.json())
    assert res.classes == (0, 1, 2) and [t.target for t in res.targets] == [1, "inf"]
    bad = cli("simulate", "equivalence", "--rater", "0.85")
    assert bad.exit_code == 2 and "--rater" in bad.stderr and len(bad.stderr.splitlines()) == 1
    bad = cli("simulate", "equivalence", "--targets", "1,three")
    assert bad.exit_code == 2 and "--targets 1,three" in bad.stderr


def test_the_scenario_plot_flag_and_unreadable_numbers(cli, tmp_path: Path) -> None:
    out = tmp_path / "scenario.png"
    done = cli("simulate", "equivalence", "--plot", out)
    assert done.exit_code == 0, done.stderr
    assert out.stat().st_size > 10_000 and "flips with the target panel" in done.stdout
    for flag, value in (("--rater", "0.85,x"), ("--prior", ",")):
        bad = cli("simulate", "equivalence", flag, value)
        assert bad.exit_code == 2 and f"{flag} " in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_the_scenario_figure_marks_each_crossing(tmp_path: Path) -> None:
    from humanly.plots.equivalence import plot_target_panels

    fig = plot_target_panels(scenario_equivalence())
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[:3] == ["k raters, t = 1", "k raters, t = 3", "k raters, t = ∞ (the true class)"]
    assert texts[3] == "classifier: 1.00 (t = 1), 2.01 (t = 3), 0.98 (t = ∞)"
    # the crossing markers sit on their curves at the equivalence
    res = scenario_equivalence()
    big = [ln for ln in ax.lines if ln.get_markersize() == 8]
    assert len(big) == 3
    for line, t in zip(big, res.targets, strict=True):
        assert line.get_xdata()[0] == pytest.approx(t.equivalence)
        assert line.get_ydata()[0] == pytest.approx(t.classifier_score)


def test_equivalence_targets_on_the_command_line(cli, files: dict[str, Path]) -> None:
    args = ["equivalence", files["ratings"], "--predictions", files["predictions"]]
    done = cli(*args, "--bootstrap", "100", "--targets", "1,3,inf", "--json")
    assert done.exit_code == 0, done.stderr
    data = done.json()
    res = EquivalenceResult.from_dict(data)
    assert res.to_dict() == data
    assert [t.target for t in res.targets] == [1, 3, "inf"]
    assert res.targets[2].codes[0] == "rests_on_latent_class_model"
    # the same as the library with the same options
    d = running_example(200, 6, seed=1)
    lib = equivalence(
        d.ratings, d.predictions, bootstrap=100,
        options=EquivalenceOptions(targets=(1, 3, "inf"), progress=False),
    )  # fmt: skip
    assert [m.equivalence for m in lib.targets[2].models] == [
        m.equivalence for m in res.targets[2].models
    ]
    printed = cli(*args, "--bootstrap", "100", "--targets", "1,3,inf")
    assert printed.exit_code == 0, printed.stderr
    out = _words(printed.stdout)
    header = next(ln for ln in printed.stdout.splitlines() if "c_k t = 1" in ln)
    assert re.search(r"c_k t = 1 +┃ +c_k t = 3 +┃ +c_k t = ∞", header)  # side by side
    for entry in res.targets:
        assert _words(target_words(entry, res.n_items)) in out
    for v in verdicts_for(res):
        assert _words(v.sentence) in out
        assert (
            "Against each target panel" in v.sentence and "rests on the latent-class" in v.sentence
        )


def test_targets_errors_are_one_line(cli, files: dict[str, Path]) -> None:
    args = ["equivalence", files["ratings"], "--predictions", files["predictions"]]
    for bad, needle in (("1,0", "--targets"), ("1,x", "--targets 1,x"), ("3,3", "given twice")):
        done = cli(*args, "--bootstrap", "0", "--targets", bad)
        assert done.exit_code == 2 and needle in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    done = cli(*args, "--bootstrap", "0", "--targets", "inf", "--scorer", "f1")
    assert done.exit_code == 2 and "inf" in done.stderr


def test_items_without_the_target_are_counted_in_words() -> None:
    from humanly import Predictions, Ratings

    g = np.random.default_rng(0)
    counts = np.array([g.multinomial(n, [0.7, 0.3]) for n in [2] * 40 + [5] * 160])
    r = Ratings.from_counts(counts)
    p = Predictions.from_arrays(r.items, {"m": g.random(200)}, classes=r.classes)
    res = equivalence(r, p, bootstrap=0, options=EquivalenceOptions(targets=(1, 3)))
    entry = res.target(3)
    assert entry.n_items == 160 and "items_without_target" in entry.codes
    assert "160 of 200 items have 3 or more labels" in target_words(entry, res.n_items)


def test_the_flip_sentence_groups_panel_sizes() -> None:
    from humanly.survey.target_results import target_flips

    f = target_flips(
        "m", (1, 3, "inf"), [0.5, 0.5, 0.5],
        [[0, 0.6, 0.6, 0.4, 0.6], [0, 0.4, 0.4, 0.6, 0.4], [0, 0.4, 0.45, 0.4, 0.4]],
    )  # fmt: skip
    said = flip_sentence(f)
    assert said is not None
    assert said.startswith(
        "m's verdict flips with the target panel: against 1–2 and 4 raters it is"
    )
    assert (
        "against 3 raters it is ahead under t = 1, behind under t = 3 and ahead under t = ∞" in said
    )
    stable = target_flips("m", (1, 3), [0.9, 0.9], [[0, 0.5], [0, 0.6]])
    assert flip_sentence(stable) is None


def test_the_notebook_view_of_a_scenario_leads_with_its_sentence() -> None:
    res = scenario_equivalence()
    view = res._repr_html_()
    sentence = verdicts_for(res)[0].sentence
    assert view.index(html.escape(sentence, quote=False)) < view.index("<table")


# ------------------------------------------------------------------ the ABC at large k (issue 34)
def _hundred_labels(n: int = 120, seed: int = 0) -> tuple[object, object]:
    """ChaosNLI-like data: 100 anonymous labels per item over 3 classes, two models."""
    from humanly import Predictions, Ratings

    g = np.random.default_rng(seed)
    truth = g.choice(3, size=n, p=[0.35, 0.3, 0.35])
    base = np.array([[0.75, 0.18, 0.07], [0.15, 0.65, 0.2], [0.06, 0.2, 0.74]])
    counts = np.stack([g.multinomial(100, g.dirichlet(20 * base[c])) for c in truth])
    r = Ratings.from_counts(counts, classes=["e", "n", "c"])
    hard = np.where(g.random(n) < 0.85, truth, g.integers(0, 3, n))
    p = Predictions.from_arrays(r.items, {"m": np.array(["e", "n", "c"])[hard]}, classes=r.classes)
    return r, p


def test_large_k_flags_in_the_cli_table_and_its_notes() -> None:
    from humanly.cli.equivalence_render import footnotes, render

    r, p = _hundred_labels()
    res = equivalence(r, p, bootstrap=0, options=EquivalenceOptions(progress=False))
    assert res.informative_max_k is not None and res.informative_max_k < 99
    table = render(res)
    headers = [h for h, _, _ in table.columns]
    assert headers[-2:] == ["fallback", "flags"]
    rows = {int(cells[0]): cells for cells, _ in table.rows}
    assert "not informative" in rows[99][-1] and "fallback" in rows[99][-1]
    assert rows[99][-2].endswith("%") and rows[1][-1] == ""
    notes = " ".join(footnotes(res))
    assert f"past k = {res.informative_max_k} the estimated curve falls" in notes
    assert "fallback rule" in notes


def test_large_k_figure_keeps_the_crossings_legible() -> None:
    from humanly.plots.equivalence import plot_power_curve

    r, p = _hundred_labels()
    res = equivalence(r, p, bootstrap=0, options=EquivalenceOptions(progress=False))
    fig = plot_power_curve(res)
    ax = fig.axes[0]
    assert ax.get_xscale() == "symlog"
    # k ≤ 10 takes more than half of the axis' width
    x0, x10, x99 = (ax.transData.transform((k, 0))[0] for k in (0, 10, 99))
    assert (x10 - x0) / (x99 - x0) > 0.5
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"not informative past k = {res.informative_max_k}" in labels
    assert "fallback rule for most draws" in labels
    # the fall past the informative part does not squeeze the axis: it stays off it, with an arrow
    low = ax.get_ylim()[0]
    shift = res.power_curve[0].score
    assert low > min(pt.score for pt in res.power_curve) - shift
    assert any(t.get_text().startswith("falls to ") for t in ax.texts)


def test_equivalence_targets_plot_draws_one_curve_per_target(
    cli, files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--targets --plot``: the target-panel figure (one curve per t), not the single power curve."""
    from humanly.plots import equivalence as pl

    drawn: list[str] = []
    for name in ("plot_target_panels", "plot_power_curve"):
        real = getattr(pl, name)

        def spy(*a, _real=real, _name=name, **kw):
            drawn.append(_name)
            return _real(*a, **kw)

        monkeypatch.setattr(pl, name, spy)
    args = ["equivalence", files["ratings"], "--predictions", files["predictions"], "--bootstrap"]
    out = tmp_path / "targets.png"
    done = cli(*args, "0", "--targets", "1,inf", "--plot", out)
    assert done.exit_code == 0, done.stderr
    assert drawn == ["plot_target_panels"] and out.stat().st_size > 10_000
    drawn.clear()
    done = cli(*args, "0", "--plot", tmp_path / "one.png")
    assert done.exit_code == 0, done.stderr
    assert drawn == ["plot_power_curve"]


# ------------------------------------------------------------------ a flip on data (issue 33 item 1)
def test_on_data_from_a_scenario_the_targets_reproduce_it_and_its_flip() -> None:
    """Data drawn from a binary scenario (10 raters who say + with probability 0.75 when the truth is +
    and 0.1 when it is −, 7 labels per item; a classifier at 0.99 and 0.3): the target panels on the
    data — held-out raters for t = 1, 3, the latent-class posterior for t = ∞ — reproduce the exact
    scenario's scores (majority votes scored by agreement, which calibrates nothing, so both modes
    define the same numbers) within 4 binomial standard errors of 20,000 items (√(s(1 − s)/n) ≤
    0.0035; measured differences ≤ 0.0008), and the same flip: behind one rater against t = 1 and
    t = 3, worth more than two against the truth. The verdict says so and the figure draws one curve
    per target."""
    from humanly.plots.equivalence import plot_target_panels
    from humanly.simulate import oracle

    n, targets = 20_000, (1, 3, "inf")
    rater = np.array([[0.9, 0.1], [0.25, 0.75]])  # rows: truth −, +; columns: says −, +
    d = oracle(
        n,
        np.stack([rater] * 10),
        prior=[0.5, 0.5],
        models={"m": [[0.7, 0.3], [0.01, 0.99]]},
        labels_per_item=7,
        seed=0,
    )
    opts = EquivalenceOptions(targets=targets, progress=False)
    res = equivalence(
        d.ratings, d.predictions, combiner="majority", scorer="agreement", bootstrap=0, options=opts
    )
    exact = scenario_equivalence(
        prior=0.5, rater=(0.75, 0.1), classifier=(0.99, 0.3), scorer="agreement", max_sources=6
    )
    for t in targets:
        got, want = res.target(t), exact.target(t)
        s = want.classifier_score
        assert abs(got.model("m").score - s) < 4 * np.sqrt(s * (1 - s) / n), t
        assert len(got.power_curve) == (7 if t == "inf" else 8 - t)  # k ≤ 7 − max(t, 1)
        assert all(p.n_items == n for p in got.power_curve)
        for k in range(1, len(got.power_curve)):
            c = want.power_curve[k].score
            assert abs(got.power_curve[k].score - c) < 4 * np.sqrt(c * (1 - c) / n), (t, k)
    eq = [res.target(t).model("m").equivalence for t in targets]
    assert eq[0] < 1 and eq[1] < 1 and eq[2] > 2  # exact: 0.910, 0.957, 2.241
    flips = res.target_flips[0]
    assert flips.status == "flips" and flips.flips_at == exact.flips.flips_at == (1, 2)
    said = flip_sentence(flips)
    assert said == (
        "m's verdict flips with the target panel: against 1–2 raters it is behind under t = 1, "
        "behind under t = 3 and ahead under t = ∞ (bigger panels are not always better)."
    )
    assert any(said in v.sentence for v in verdicts_for(res))
    legend = [x.get_text() for x in plot_target_panels(res).axes[0].get_legend().get_texts()]
    assert legend[:3] == ["k raters, t = 1", "k raters, t = 3", "k raters, t = ∞ (the true class)"]
