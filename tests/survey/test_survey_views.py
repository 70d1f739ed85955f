"""Views of survey equivalence: the verdict sentences, the command line's tables and footnotes
(``--target-width``, ``--states``), the power-curve figure and the report section (the running example's
hard/soft split, HSCORE*/SEQ* with the true states, no ``None``/``nan`` cells)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from humanly._core.result import Interval
from humanly.simulate import running_example
from humanly.survey import EquivalenceOptions, ModelEquivalence, equivalence, truth_equivalence
from humanly.verdicts.equivalence import METHODS_ID, equivalence_interval, verdicts, worth


def _m(low: float | None = 1.5, high: float | None = 2.5, **kw: object) -> ModelEquivalence:
    """A model row; ``low``, ``high``: the ends of its equivalence range."""
    base: dict[str, object] = dict(
        model="m", score=-0.8, score_interval=Interval(-0.82, -0.78), equivalence=2.0,
        equivalence_note=None, equivalence_interval=Interval(low, high), n_items=1000,
        equivalence_mean=2.05,
    )  # fmt: skip
    base.update(kw)
    return ModelEquivalence(**base)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def sim():  # type: ignore[no-untyped-def]
    return running_example(1000, 10, seed=0)


@pytest.fixture(scope="module")
def files(sim, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:  # type: ignore[no-untyped-def]
    return sim.write(tmp_path_factory.mktemp("views") / "re.csv")


# ----------------------------------------------------------------------------------------- verdicts
def test_worth_sentence_names_range_mean_combiner_scorer_and_items() -> None:
    s = worth(_m(), "abc", "cross_entropy")
    assert s == (
        "m is worth 2.00 raters (95% interval 1.50–2.50; bootstrap mean 2.05) with the ABC combiner "
        "and cross-entropy scorer, on 1,000 items."
    )
    s = worth(_m(), "majority", "agreement", calibration="isotonic (in-sample)")
    assert "majority-vote combiner and agreement scorer" in s and "calibrated: isotonic" in s


def test_below_0_and_above_max_read_as_sentences() -> None:
    below = _m(equivalence=None, equivalence_note="below_0", low=0.0, high=0.0,
               equivalence_mean=0.0, score=-1.5)  # fmt: skip
    s = worth(below, "abc", "cross_entropy", c0=-0.9591, largest_k=9)
    assert s.startswith("m does no better than the ABC's prediction from no labels at all")
    assert (
        "so no number of raters matches it. It is worth less than 0 raters with the ABC combiner"
        in s
    )
    assert "c_0 = -0.9591, the score of the ABC's prediction from no labels" in s
    assert "0.00" not in s  # not "≡ < 0 raters, 0.00 – 0.00"
    s = worth(below, "majority", "agreement", c0=0.5)
    assert "a label picked at random" in s
    above = _m(equivalence=None, equivalence_note="above_max", low=None, high=None,
               equivalence_mean=None)  # fmt: skip
    s = worth(above, "abc", "cross_entropy", largest_k=9, bootstrap=100)
    assert "worth more than 9 raters, the largest survey measured" in s
    assert "97.5% of the bootstrap replicates lie above the curve" in s
    assert "more than 1 rater," in worth(above, "abc", "cross_entropy", largest_k=1)


def test_ranges_that_hit_an_end_say_so() -> None:
    assert "the low end 0 because at least 2.5%" in str(equivalence_interval(_m(low=0.0), 9))
    open_hi = _m(high=None, equivalence_mean=None)
    text = worth(open_hi, "abc", "cross_entropy", largest_k=9, bootstrap=100)
    assert (
        "95% interval 1.50 to more than 9: at least 2.5% of the bootstrap replicates lie above"
        in text
    )
    assert "no bootstrap mean: some replicates lie above the curve" in text
    assert equivalence_interval(_m(low=None, high=None), 9, bootstrap=0) is None


def test_sentences_follow_the_level() -> None:
    s = worth(_m(low=0.0), "abc", "cross_entropy", level=0.9)
    assert "90% interval 0–2.50, the low end 0 because at least 5% of the bootstrap replicates" in s
    assert "95%" not in s
    s = worth(_m(), "abc", "cross_entropy", level=0.99, target_width=0.5, items_needed=4000)
    assert "(99% interval 1.50–2.50;" in s and "narrow the 99% interval to 0.5 raters" in s
    above = _m(equivalence=None, equivalence_note="above_max", low=None, high=None)
    assert "at least 95% of the bootstrap replicates lie above" in str(
        equivalence_interval(above, 9, bootstrap=100, level=0.9)
    )


def test_width_phrases() -> None:
    s = worth(_m(), "abc", "cross_entropy", target_width=0.5, items_needed=4000)
    assert "about 4,000 items would narrow the 95% interval to 0.5 raters" in s
    assert "now 1.00 wide on 1,000 items; 1/√N approximation" in s
    assert _m().items_needed(0.5) == 4000  # what the result says for that width
    s = worth(_m(), "abc", "cross_entropy", target_width=2.0, items_needed=500)
    assert "already narrower than 2 raters" in s
    s = worth(_m(high=None), "abc", "cross_entropy", target_width=0.5)
    assert "no item count" in s
    assert worth(_m(), "abc", "cross_entropy", items_needed=4000) == worth(
        _m(), "abc", "cross_entropy"
    )


def test_verdicts_one_per_model_with_truth(sim) -> None:  # type: ignore[no-untyped-def]
    res = equivalence(sim.ratings, sim.predictions, calibrate="none", bootstrap=100)
    vs = verdicts(
        res,
        truth=truth_equivalence(sim, calibrate="none"),
        target_width=0.5,
        items_needed=res.items_needed(0.5),
    )
    assert [v.model for v in vs] == ["hard", "soft"]
    assert [v.status for v in vs] == ["below 0", "equivalent"]
    assert all(
        v.topic == "equivalence" and v.methods == METHODS_ID == "methods-equivalence" for v in vs
    )
    soft = vs[1].sentence
    assert soft.startswith(
        f"soft is worth {res.model('soft').equivalence:.2f} raters (95% interval "
    )
    assert "bootstrap mean" in soft and "items would narrow" in soft
    assert "against the true item states it is worth 1.90 raters (SEQ*; HSCORE* -0.8253)" in soft
    assert all("nan" not in v.sentence.lower() for v in vs)
    # scored uncalibrated by cross-entropy, each sentence says so in words
    hard, soft_v = vs
    assert "matches it, but its outputs were scored as given, not calibrated" in hard.sentence
    assert "(not calibrated: its outputs were scored as given" in soft_v.sentence
    cal = verdicts(equivalence(sim.ratings, sim.predictions, bootstrap=0))
    assert all("not calibrated" not in v.sentence for v in cal)
    assert all("(model calibrated: isotonic (in-sample))" in v.sentence for v in cal)


# ------------------------------------------------------------------------------------ command line
def _run(cli, files: dict[str, Path], *args: object):  # type: ignore[no-untyped-def]
    return cli("equivalence", files["ratings"], "--predictions", files["predictions"], *args)


def test_cli_tables_footnotes_and_verdicts(cli, files: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    r = _run(cli, files, "--bootstrap", 100, "--headroom", "--target-width", 0.5, "--calibrate",
             "none")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "nan" not in out.lower() and "0.00 – 0.00" not in out
    assert "survey equivalence (Algorithm 4)" in out and "mean" in out
    assert "items for width < 0.5" in out
    assert "< 0: the score is at or below c_0 = -0.9591, the score of the ABC's prediction" in out
    assert "candidate states" in out and "converged in" in out
    assert "hard does no better than the ABC's prediction from no labels at all" in out
    assert "It is worth less than 0 raters with the ABC combiner" in out
    assert "matches it, but its outputs were scored as given, not calibrated, and" in out
    assert "on 1,000 items (not calibrated): its score" in out
    assert "on 1,000 items (not calibrated: its outputs were scored as given" in out  # soft
    assert "soft is worth 1.91 raters (95% interval" in out and "items would narrow" in out
    assert "items_needed assumes" in r.stderr  # the width note
    j = _run(cli, files, "--bootstrap", 100, "--target-width", 0.5, "--json", "--calibrate",
             "none").json()  # fmt: skip
    i = next(i for i, m in enumerate(j["models"]) if m["model"] == "soft")
    soft = j["models"][i]
    assert f"{soft['equivalence_mean']:.2f}" in out and f"{j['items_needed'][i]:,}" in out
    assert j["target_width"] == 0.5 and len(j["items_needed"]) == len(j["models"])
    # the items needed are read off the printed ranges: a result read back answers the same
    from humanly.survey import EquivalenceResult

    back = EquivalenceResult.from_dict(
        {k: v for k, v in j.items() if k not in ("target_width", "items_needed")}
    )
    assert list(back.items_needed(0.5)) == j["items_needed"]  # fmt: skip


def test_cli_states_adds_hscore_and_seq_star(cli, files: dict[str, Path], sim) -> None:  # type: ignore[no-untyped-def]
    r = _run(cli, files, "--bootstrap", 100, "--states", files["states"])
    assert r.exit_code == 0, r.stderr
    assert "HSCORE*" in r.stdout and "SEQ*" in r.stdout and "c*_k (states)" in r.stdout
    assert "ideal" in r.stdout and "-0.6989" in r.stdout
    assert "(SEQ*; HSCORE* -0.8253)" in r.stdout
    j = _run(cli, files, "--bootstrap", 100, "--states", files["states"], "--json").json()
    assert j["truth"] == json.loads(json.dumps(truth_equivalence(sim).to_dict()))
    # the same calibration on both sides
    j = _run(cli, files, "--bootstrap", 0, "--states", files["states"], "--calibrate", "isotonic",
             "--json").json()  # fmt: skip
    cal = truth_equivalence(sim, calibrate="isotonic")
    assert j["truth"]["models"][0]["score"] == pytest.approx(cal.models[0].score)
    assert j["truth"]["models"][0]["score"] == pytest.approx(cal.model("soft").score)


def test_cli_states_errors_are_one_line(cli, files: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    table = pd.read_csv(files["states"])
    cases = []
    table.iloc[:-3].to_csv(tmp_path / "short.csv", index=False)
    cases.append((["--states", tmp_path / "short.csv"], "have no state"))
    table.drop(columns="item").to_csv(tmp_path / "noitem.csv", index=False)
    cases.append((["--states", tmp_path / "noitem.csv"], "no item column"))
    table.drop(columns="p_D").to_csv(tmp_path / "nocol.csv", index=False)
    cases.append((["--states", tmp_path / "nocol.csv"], "no column for class"))
    cases.append((["--states", tmp_path / "missing.csv"], "missing.csv"))
    cases.append((["--states", files["states"], "--scorer", "f1"], "--states with --scorer f1"))
    cases.append((["--target-width", "0"], "--target-width"))
    cases.append((["--target-width", "0.5", "--bootstrap", "0"], "--bootstrap"))
    for args, needle in cases:
        r = _run(cli, files, "--bootstrap", 100, *args)
        assert r.exit_code == 2, (args, r.stdout)
        assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert r.stdout == ""


def test_render_cells_never_say_nan() -> None:
    from humanly.cli.equivalence_render import equivalence_cell, range_cell

    assert equivalence_cell(None, "below_0", 9) == "< 0"
    assert equivalence_cell(None, "above_max", 9) == "> 9"
    assert equivalence_cell(None, None, 9) == "—"
    assert range_cell(_m(low=0.0), 9) == "0 – 2.50"
    assert range_cell(_m(high=None), 9) == "1.50 – > 9"
    assert range_cell(_m(low=None, high=None), 9) == "—"


def test_headroom_line_says_candidates_and_convergence(sim) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    from humanly.verdicts.equivalence import headroom_line

    res = equivalence(
        sim.ratings, sim.predictions, bootstrap=0, options=EquivalenceOptions(headroom=True)
    )
    line = headroom_line(res)
    assert line is not None and "over 201 candidate states" in line and "converged in" in line
    stuck = dataclasses.replace(res.headroom, converged=False, iterations=3, gap=0.01)
    line = headroom_line(dataclasses.replace(res, headroom=stuck))
    assert line is not None and "did not converge in 3 steps, up to 0.01 nats per item" in line


# ----------------------------------------------------------------------------------------- figure
def test_figure_colours_legend_below_and_width(sim) -> None:  # type: ignore[no-untyped-def]
    from matplotlib.colors import to_hex

    from humanly.plots.equivalence import plot_power_curve

    res = equivalence(sim.ratings, sim.predictions, calibrate="none", bootstrap=100)
    colors = {"hard": "#123456", "soft": "#abcdef"}
    fig = plot_power_curve(res, colors=colors, truth=truth_equivalence(sim, calibrate="none"))
    assert fig.get_size_inches()[0] * 72 == pytest.approx(460.8)
    ax = fig.axes[0]
    lines = {ln.get_label(): to_hex(ln.get_color()) for ln in ax.get_lines()}
    assert lines["soft: " + f"{res.model('soft').equivalence:.2f} raters"
                 + f" [{res.model('soft').equivalence_interval.low:.2f}, "
                 + f"{res.model('soft').equivalence_interval.high:.2f}]"] == "#abcdef"  # fmt: skip
    assert lines["hard: < 0 raters (at or below c_0)"] == "#123456"
    assert "k raters vs the true states" in lines
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.y1 <= ax.get_window_extent().y0  # below the axes, off the data
    only = plot_power_curve(res, models=["soft"])
    labels = [t.get_text() for t in only.axes[0].get_legend().get_texts()]
    assert not any(t.startswith("hard") for t in labels)


# ----------------------------------------------------------------------------------- report section
def _cells(section) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(c) for t in section.tables for row in t.rows for c in row]


def test_section_running_example_shows_the_papers_two_analyses(sim) -> None:  # type: ignore[no-untyped-def]
    from humanly.report.sections.equivalence import equivalence_section
    from humanly.study import AnalyzeOptions, analyze
    from humanly.verdicts.equivalence import headline as equivalence_headline
    from study_sections import view_of

    study = analyze(
        sim.ratings,
        sim.predictions,
        sim.gold,
        bootstrap=100,
        options=AnalyzeOptions(states=sim.truth["states"]),
    )
    section = equivalence_section(study, view_of(study))
    ce, ce_curve, ag, ag_curve = section.tables
    assert ce.caption.startswith("ABC + cross-entropy") and [r[0] for r in ce.rows] == ["soft"]
    assert ag.caption.startswith("majority + agreement") and [r[0] for r in ag.rows] == ["hard"]
    assert "HSCORE* (true states)" in ce.headers and "SEQ* (true states)" in ag.headers
    assert "c*_k (true states)" in ce_curve.headers and "c*_k (true states)" in ag_curve.headers
    text = " ".join(section.paragraphs)
    assert "hard is not in the ABC + cross-entropy table: a label is not a probability" in text
    assert "the same as soft" in text and "the same as hard" in text
    assert "The difference between the two tables is the analysis, not the classifier" in text
    assert "-0.6989" in text  # the ideal score, HSCORE* of the omniscient classifier
    assert [v.model for v in section.verdicts] == ["soft", "hard"]
    assert "ABC combiner" in section.verdicts[0].sentence
    assert "majority-vote combiner" in section.verdicts[1].sentence
    assert len(section.figures) == 2
    cells = _cells(section)
    assert not any(c in ("None", "nan") or "nan" in c.lower() for c in cells)
    assert {run.key: run.shown for run in study.equivalence} == {
        "abc+cross_entropy": ("soft",), "majority+agreement": ("hard",),
    }  # fmt: skip
    assert all(run.truth is not None for run in study.equivalence)
    line = equivalence_headline(type(study).from_dict(json.loads(study.to_json())).equivalence)
    assert line is not None and line.startswith("survey equivalence: soft worth")
    assert "(majority + agreement)" in line


def test_section_one_kind_shows_every_model_under_both(sim) -> None:  # type: ignore[no-untyped-def]
    from study_sections import section as study_section

    section, runs = study_section(
        "equivalence", sim.ratings, sim.predictions.select(["soft"]), bootstrap=100,
        target_width=0.5,
    )  # fmt: skip
    assert [r[0] for r in section.tables[0].rows] == ["soft"]
    assert [r[0] for r in section.tables[2].rows] == ["soft"]
    assert "items for a 95% interval < 0.5 raters" in section.tables[0].headers
    assert "Every model is shown under two analyses" in section.paragraphs[0]
    assert [v.model for v in section.verdicts] == ["soft"]
    assert runs and all(run.truth is None for run in runs)
    nothing, _ = study_section("equivalence", sim.ratings, None, bootstrap=100)
    assert not nothing.verdicts and len(nothing.tables) == 2


def test_section_below_0_cells_are_words(sim) -> None:  # type: ignore[no-untyped-def]
    """A model worse than c_0 (a hard model under uncalibrated cross-entropy) reads as words."""
    from humanly.report.sections import equivalence as sv
    from humanly.study import EquivalenceRun

    res = equivalence(sim.ratings, sim.predictions, calibrate="none", bootstrap=100)
    run = sv._Run(EquivalenceRun("abc", "cross_entropy", "none", ("hard", "soft"), res), None)
    table = sv._model_table(run, "none")
    assert table is not None
    hard = table.rows[0]
    assert "below 0 (at or below c_0)" in hard and "0 – 0" in hard
    notes = " ".join(sv._cell_notes(run))
    assert "'below 0' means the model's score is at or below c_0 = -0.9591" in notes
    assert "performance ratio" not in notes  # no headroom here


# ------------------------------------------------------------------------------- library addition
def test_truth_equivalence_calibrates_like_equivalence(sim) -> None:  # type: ignore[no-untyped-def]
    """``calibrate=`` scores the calibrated predictions (the ones ``equivalence`` scores); the
    default is ``equivalence``'s; ``"none"`` leaves the numbers as they were."""
    from humanly import Predictions
    from humanly.survey.calibration import calibrate_outputs

    plain = truth_equivalence(sim, calibrate="none")
    assert truth_equivalence(sim).model("soft").score == pytest.approx(
        truth_equivalence(sim, calibrate="isotonic").model("soft").score, rel=1e-12
    )  # the default: calibrated for cross-entropy, as equivalence
    assert plain.model("soft").score == pytest.approx(-0.8253, abs=5e-5)
    cal = truth_equivalence(sim, calibrate="isotonic")
    m = sim.predictions["soft"]
    p = calibrate_outputs(m.kind, m.values, sim.ratings.counts, "isotonic", positive=1, name="soft")
    mine = Predictions.from_arrays(sim.ratings.items, {"soft": p}, classes=sim.ratings.classes)
    by_hand = truth_equivalence(sim.ratings, mine, sim.truth["states"], calibrate="none")
    assert cal.model("soft").score == pytest.approx(by_hand.model("soft").score, rel=1e-12)
    assert cal.model("soft").equivalence == pytest.approx(by_hand.model("soft").equivalence)
    assert not np.isclose(cal.model("soft").score, plain.model("soft").score, rtol=1e-9, atol=0)


# ------------------------------------------------------------------------ information ranges (API)
def test_information_intervals_are_taken_replicate_by_replicate() -> None:
    d = running_example(200, 6, seed=3)
    res = equivalence(d.ratings, d.predictions, bootstrap=200, seed=1)
    assert res.curve_samples is not None and res.model_samples is not None
    rel = res.curve_samples - res.curve_samples[:, :1]
    ranges = res.information_intervals
    assert ranges is not None and len(ranges) == len(res.power_curve)
    # at k = 0 the gain is 0 in every replicate, so the range is exactly [0, 0]
    assert ranges[0].low == 0.0 and ranges[0].high == 0.0
    for j, r in enumerate(ranges[1:], start=1):
        # an independent percentile (inverted CDF) of the same replicate differences
        assert r.low == pytest.approx(np.percentile(rel[:, j], 2.5, method="inverted_cdf"))
        assert r.high == pytest.approx(np.percentile(rel[:, j], 97.5, method="inverted_cdf"))
    assert res.curve.information_intervals == ranges
    for i, m in enumerate(res.models):
        assert m.information_interval is not None
        lo, hi = m.information_interval
        diff = res.model_samples[:, i] - res.curve_samples[:, 0]
        assert lo == pytest.approx(np.percentile(diff, 2.5, method="inverted_cdf"))
        assert hi == pytest.approx(np.percentile(diff, 97.5, method="inverted_cdf"))
    # at another level, the same replicates at other tails
    at90 = equivalence(d.ratings, d.predictions, bootstrap=200, seed=1, level=0.9)
    assert at90.information_intervals is not None
    assert at90.information_intervals[2].low == pytest.approx(
        np.percentile(rel[:, 2], 5, method="inverted_cdf")
    )


def test_information_intervals_only_for_abc_cross_entropy_and_empty_without_replicates() -> None:
    d = running_example(200, 6, seed=3)
    res = equivalence(d.ratings, d.predictions, bootstrap=0)
    assert res.information_intervals is not None
    assert all(r == (None, None) for r in res.information_intervals)
    assert all(m.information_interval == (None, None) for m in res.models)
    other = equivalence(d.ratings, d.predictions, combiner="majority", scorer="agreement",
                        bootstrap=100)  # fmt: skip
    assert other.information is None and other.information_intervals is None
    assert all(m.information_interval is None for m in other.models)
