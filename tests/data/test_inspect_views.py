"""The data summary's views: ``humanly inspect`` (tables, intervals, raters, verdicts), the verdict
sentences, the report's data section and its figures. Numbers come from :func:`humanly.inspect`;
these tests check that they are laid out honestly (intervals labelled, "—" with a reason instead of
``nan``, the same sentences everywhere)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly._core.result import Interval
from humanly.verdicts.inspect import (
    METHODS_ID,
    RATERS_SHOWN,
    interval_text,
    level_text,
    shown_raters,
    spread_text,
    verdicts,
)


def _long(n_items: int = 60, n_raters: int = 30, per_item: int = 4, seed: int = 0) -> pd.DataFrame:
    """Named raters of unequal activity and quality, two classes."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, n_items)
    weights = np.arange(1, n_raters + 1, dtype=float) ** 2
    quality = np.linspace(0.55, 0.95, n_raters)
    rows = []
    for i in range(n_items):
        who = rng.choice(n_raters, per_item, replace=False, p=weights / weights.sum())
        for r in who:
            right = rng.random() < quality[r]
            rows.append((f"i{i}", f"r{r:02d}", int(truth[i] if right else 1 - truth[i])))
    return pd.DataFrame(rows, columns=["item", "rater", "label"])


@pytest.fixture
def study(tmp_path: Path) -> dict[str, Path]:
    frame = _long()
    ratings = tmp_path / "r.csv"
    frame.to_csv(ratings, index=False)
    gold = tmp_path / "g.csv"
    items = frame["item"].unique()
    pd.DataFrame({"item": items[::2], "label": [0, 1] * (len(items[::2]) // 2)}).to_csv(
        gold, index=False
    )
    return {"ratings": ratings, "gold": gold}


# ---------------------------------------------------------------------------------- inspect table


def test_inspect_shows_intervals_raters_and_verdicts(cli, study) -> None:
    res = cli("inspect", study["ratings"], "--gold", study["gold"])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    s = humanly.inspect(
        humanly.data.read_ratings(study["ratings"]),
        gold=humanly.data.read_gold(study["gold"]),
    )
    ci = s.agreement_intervals
    assert ci is not None
    row = f"{s.agreement.pairwise:.4f} [{ci.pairwise.low:.3f}, {ci.pairwise.high:.3f}]"
    assert re.search(r"pairwise agreement\s+│ " + re.escape(row), out), out
    assert f"{s.agreement.fleiss_kappa:.4f} [{ci.fleiss_kappa.low:.3f}" in out
    assert "95% percentile bootstrap interval over items (1,000 resamples, seed 0); raters are not " \
        "resampled" in " ".join(out.split())  # fmt: skip
    assert re.search(r"crowd agreement\s+│ \d\.\d{4} \(mean over labels\)", out)
    assert re.search(r"Dawid–Skene\s+│ converged in \d+ steps", out)
    assert s.raters is not None
    n = len(s.raters.rows)
    assert f"raters by labels given (top and bottom {RATERS_SHOWN} of {n})" in out
    assert f"… {n - 2 * RATERS_SHOWN} more" in out and "middle half" in out and "crowd" in out
    for v in verdicts(s):  # the same sentences, after the tables
        assert v.sentence in " ".join(out.split())
    assert out.rstrip().endswith(verdicts(s)[-1].sentence)
    assert not re.search(r"\bnan\b", out.lower())


def test_inspect_flags_reach_inspect(cli, study) -> None:
    r = study["ratings"]
    plain = cli("inspect", r, "--bootstrap", "0", "--no-dawid-skene")
    assert plain.exit_code == 0, plain.stderr
    assert "[" not in plain.stdout.split("agreement family")[0]  # no intervals, no caption
    assert "resamples" not in plain.stdout
    assert "not fitted (--no-dawid-skene)" in plain.stdout
    header = next(line for line in plain.stdout.splitlines() if "compared" in line)
    assert "agreement" in header and "Dawid–Skene" not in header and "gold" not in header
    ninety = cli("inspect", r, "--level", "0.9", "--seed", "7", "--bootstrap", "300", "--json")
    d = ninety.json()
    assert d["agreement_intervals"]["level"] == 0.9 and d["agreement_intervals"]["seed"] == 7  # type: ignore[index]
    assert d["agreement_intervals"]["bootstrap"] == 300  # type: ignore[index]
    table = cli("inspect", r, "--level", "0.9", "--seed", "7", "--bootstrap", "300").stdout
    assert "90% percentile bootstrap interval over items (300 resamples, seed 7)" in " ".join(
        table.split()
    )
    bad = cli("inspect", r, "--level", "1.5")
    assert bad.exit_code == 2 and "--level" in bad.stderr and "level=" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    assert cli("inspect", r, "--bootstrap", "-1").exit_code == 2


def test_inspect_json_keeps_every_key_and_prints_no_sentence(cli, study) -> None:
    res = cli("inspect", study["ratings"], "--gold", study["gold"], "--json")
    d = res.json()
    assert isinstance(d, dict)
    expected = set(humanly.inspect(humanly.data.read_ratings(study["ratings"])).to_dict())
    assert expected <= set(d) and {"agreement_intervals", "raters"} <= set(d)
    assert {"rows", "crowd_agreement", "dawid_skene"} <= set(d["raters"])
    assert len(d["raters"]["rows"]) == d["n_raters"]
    assert res.stdout.count("\n") == 1  # one JSON object, no verdicts


def test_undefined_statistics_read_as_sentences_not_nan(cli, tmp_path) -> None:
    same = tmp_path / "same.csv"
    pd.DataFrame(
        {"item": ["a", "a", "b", "b"], "rater": ["u", "v", "u", "v"], "label": ["x"] * 4}
    ).to_csv(same, index=False)
    res = cli("inspect", same, "--classes", "x,y")
    assert res.exit_code == 0, res.stderr
    assert "— (undefined: every label is the same class)" in res.stdout
    assert not re.search(r"\bnan\b", res.stdout.lower())
    assert "Fleiss' κ is undefined (every label is the same class)" in res.stdout
    d = cli("inspect", same, "--classes", "x,y", "--json").json()
    assert d["agreement"]["fleiss_kappa"] is None  # type: ignore[index]
    assert d["agreement_intervals"]["fleiss_kappa"] == [None, None]  # type: ignore[index]

    single = tmp_path / "single.csv"
    pd.DataFrame({"item": ["a", "b"], "rater": ["u", "v"], "label": [0, 1]}).to_csv(
        single, index=False
    )
    res = cli("inspect", single)
    assert res.exit_code == 0, res.stderr
    assert "— (undefined: no item has two labels)" in res.stdout
    assert "no item has two labels, so agreement is undefined." in res.stdout
    assert "resamples" not in res.stdout  # no interval caption when nothing is defined
    assert not re.search(r"\bnan\b", res.stdout.lower())
    assert "No rater's label can be compared" in res.stdout


def test_few_raters_are_all_listed_with_separators() -> None:
    from humanly.cli.inspect_render import render_raters

    frame = pd.DataFrame(
        {
            "item": [f"i{k}" for k in range(1500)] * 2,
            "rater": ["big"] * 1500 + ["small"] * 1500,
            "label": [0, 1] * 1500,
        }
    )
    s = humanly.inspect(frame, bootstrap=0)
    table = render_raters(s)
    assert table is not None and table.table.title.endswith("(all)")  # type: ignore[union-attr]
    cells = [c._cells for c in table.table.columns]  # the cells rich will print
    assert "1,500" in cells[1]
    assert s.raters is not None
    rows, hidden = shown_raters(s.raters)
    assert hidden == 0 and [r.rater for r in rows] == ["big", "small"]


def test_shown_raters_are_top_and_bottom_by_labels() -> None:
    s = humanly.inspect(_long(), bootstrap=0, dawid_skene=False)
    assert s.raters is not None
    rows, hidden = shown_raters(s.raters)
    counts = sorted((r.n_labels for r in s.raters.rows), reverse=True)
    assert hidden == len(counts) - 2 * RATERS_SHOWN
    assert [r.n_labels for r in rows] == counts[:RATERS_SHOWN] + counts[-RATERS_SHOWN:]


# ---------------------------------------------------------------------------------- verdicts


def test_verdict_sentences_quote_the_summary() -> None:
    counts = [[3, 0], [2, 1], [0, 3], [1, 2]] * 50
    s = humanly.inspect(humanly.Ratings.from_counts(counts), bootstrap=500, seed=1)
    (v,) = verdicts(s)
    ci = s.agreement_intervals
    assert ci is not None
    assert v.topic == "inspect" and v.model is None and v.methods == METHODS_ID == "methods-inspect"
    assert v.sentence == (
        "200 items with 3.0 labels each on average (600 labels from anonymous raters); two raters of "
        f"an item agree 66.7% of the time (95% interval {100 * ci.pairwise.low:.1f}–"
        f"{100 * ci.pairwise.high:.1f}%), Fleiss' κ 0.33 [{ci.fleiss_kappa.low:.2f}, "
        f"{ci.fleiss_kappa.high:.2f}]."
    )


def test_named_raters_add_the_spread_of_rater_quality() -> None:
    s = humanly.inspect(_long())
    first, second = verdicts(s)
    assert first.status == "agreement" and second.status == "raters"
    assert s.raters is not None
    agree = [r.agreement for r in s.raters.rows if r.agreement is not None]
    q1, med, q3 = np.quantile(agree, [0.25, 0.5, 0.75])
    assert f"median {med:.2f} (middle half {q1:.2f}–{q3:.2f}" in second.sentence
    assert f"the crowd's mean over labels is {s.raters.crowd_agreement:.2f}" in second.sentence
    assert "Dawid–Skene accuracy has median" in second.sentence
    no_ds = verdicts(humanly.inspect(_long(), dawid_skene=False))[1].sentence
    assert "Dawid–Skene" not in no_ds


def test_spread_matches_numpy_quantiles_and_skips_undefined() -> None:
    from humanly.crowd.raters import _spread

    values = [0.2, None, 0.9, 0.5, float("nan"), 0.7, 0.1]
    sp = _spread(values)
    kept = [0.2, 0.9, 0.5, 0.7, 0.1]
    assert sp is not None and sp.n == 5
    np.testing.assert_allclose(
        [sp.min, sp.q1, sp.median, sp.q3, sp.max], np.quantile(kept, [0, 0.25, 0.5, 0.75, 1])
    )
    assert _spread([None, float("nan")]) is None
    one = _spread([0.4])
    assert one is not None and (one.q1, one.median, one.q3) == (0.4, 0.4, 0.4)
    assert spread_text(one).endswith("(1 rater)")


def test_the_spreads_are_fields_of_the_raters_table() -> None:
    """The views print the spreads the result holds; a result read back from its JSON has them."""
    s = humanly.inspect(_long(), bootstrap=0)
    assert s.raters is not None and s.raters.agreement_spread is not None
    agree = [r.agreement for r in s.raters.rows if r.agreement is not None]
    sp = s.raters.agreement_spread
    np.testing.assert_allclose([sp.q1, sp.median, sp.q3], np.quantile(agree, [0.25, 0.5, 0.75]))
    assert s.raters.gold_spread is None  # no gold
    back = type(s).from_dict(json.loads(s.to_json()))
    assert verdicts(back) == verdicts(s)


def test_wording_helpers() -> None:
    assert level_text(0.95) == "95%" and level_text(0.975) == "97.5%" and level_text(0.9) == "90%"
    assert interval_text(Interval(0.1234, None)) == "[0.123, —]"


def test_verdict_module_is_light() -> None:
    code = (
        "import sys, humanly.verdicts.inspect\n"
        "print(sorted(m for m in ('pandas', 'matplotlib', 'jinja2', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------------- report section


def test_report_section_lays_out_intervals_raters_and_verdicts() -> None:
    from humanly.report.methods import METHODS
    from humanly.report.sections.inspect import METHODS_TEXT
    from study_sections import section as study_section

    frame = _long()
    gold = pd.Series([0, 1, 1], index=["i0", "i1", "i2"])
    joined = humanly.data.join(frame, None, gold, missing="drop")
    section, s = study_section("inspect", joined.ratings, None, joined.gold)
    assert isinstance(s, humanly.InspectResult)
    assert (
        s.agreement_intervals is not None and s.agreement_intervals.bootstrap == 1000
    )  # as humanly inspect
    glance, raters, family = section.tables
    assert family.headers[:6] == ("coefficient", "weights", "estimate", "SE", "interval", "method")
    assert s.family is not None and [row[0] for row in family.rows] == [
        c.label for c in s.family.coefficients
    ]
    assert "1,000 resamples, seed 0); raters are not resampled" in glance.caption
    values = dict(glance.rows)
    assert re.fullmatch(r"\d\.\d{4} \[\d\.\d{3}, \d\.\d{3}\]", values["pairwise agreement"])
    assert values["crowd agreement (mean over labels)"].startswith("0.")
    assert raters.headers == (
        "rater", "labels", "compared", "agreement", "Dawid–Skene accuracy", "gold accuracy"
    )  # fmt: skip
    assert raters.rows[-1][0] == "crowd (mean over labels)"
    assert len(section.figures) == 2 and "Rater quality" in section.figures[1].caption
    assert section.verdicts == verdicts(s)
    cells = [str(c) for t in section.tables for row in t.rows for c in row]
    assert not any(c.lower() in ("nan", "none") or "nan" in c.split() for c in cells)
    assert METHODS["inspect"] == METHODS_TEXT and "Raters are not resampled" in METHODS_TEXT


def test_report_section_for_counts_has_no_rater_parts() -> None:
    from study_sections import section as study_section

    r = humanly.Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]] * 10)
    section, s = study_section("inspect", r, seed=3, bootstrap=1000)
    assert (
        s.raters is None and s.agreement_intervals is not None and s.agreement_intervals.seed == 3
    )
    assert len(section.tables) == 2 and len(section.figures) == 1 and len(section.verdicts) == 1
    assert section.tables[1].headers[0] == "coefficient"  # the agreement family


def test_figures_are_461_pt_labelled_and_deterministic() -> None:
    from humanly.plots.inspect import data_overview, rater_quality
    from humanly.plots.style import to_svg

    s = humanly.inspect(_long(), bootstrap=0)
    assert s.raters is not None
    for make in (lambda: data_overview(s), lambda: rater_quality(s.raters)):
        fig = make()
        assert math.isclose(fig.get_figwidth(), 6.4)
        assert to_svg(make()) == to_svg(fig)  # same result, same bytes
    fig = rater_quality(s.raters)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "Dawid–Skene accuracy" in labels and "agreement with the others' plurality" in labels
    assert f"crowd agreement {s.raters.crowd_agreement:.3f} (mean over labels)" in labels
    assert any(text.endswith(" labels") for text in labels)  # the size key


def test_report_on_real_data_matches_inspect_json(cli, shared_data, tmp_path) -> None:
    product = shared_data / "product" / "answer.csv"
    d = cli("inspect", product, "--json").json()
    assert d["agreement_intervals"]["pairwise"][0] < d["agreement"]["pairwise"]  # type: ignore[index]
    assert len(d["raters"]["rows"]) == 176  # type: ignore[index]
    out = cli("inspect", product).stdout
    assert "raters by labels given (top and bottom 10 of 176)" in out
    assert "2,944" in out and not re.search(r"\bnan\b", out.lower())
    json.dumps(d)
