"""Inputs that used to be accepted silently or crash (issue 26, item 2): each is now refused with one
sentence naming the parameter and the fix, before any large allocation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import simulate
from humanly.budget.comparison import compare
from humanly.data import align
from humanly.errors import InputError

SHUFFLED = humanly.Ratings.from_long(["b", "b", "a", "a"], ["u", "v", "u", "v"], [0, 1, 1, 1])
SORTED = humanly.Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], ["x", "y", "y", "y"])


def _one_sentence(message: str) -> None:
    assert "\n" not in message and message.replace("e.g. ", "").count(". ") == 0


def test_a_positional_array_follows_the_ratings_as_held() -> None:
    """Issue 30's one rule: an array follows the ratings' items in the order the caller holds them
    (``R.items``: b, a here), and one of another length is refused with the fix."""
    for kwargs in ({"predictions": np.array([0, 1, 1])}, {"gold": np.array([0])}):
        with pytest.raises(InputError, match=r"pd\.Series") as e:
            humanly.read_study(SHUFFLED, **kwargs)
        _one_sentence(str(e.value))
    s = humanly.read_study(SHUFFLED, {"m": np.array([1, 0])}, np.array([0, 1]))
    assert list(s.ratings.items) == ["a", "b"]  # held sorted; the arrays followed b, a
    assert s.predictions.hard("m").tolist() == [0, 1] and s.gold.codes.tolist() == [1, 0]
    s = humanly.read_study(SORTED, {"m": np.array(["y", "x"])})
    assert s.predictions.hard("m").tolist() == [1, 0]
    # ratings from an array: items 0..n-1, its rows
    r = humanly.data.read_ratings(np.array([[0, 1], [1, 1], [0, 0]]), wide=True)
    hard = humanly.read_study(r, np.array([1, 1, 0])).predictions.hard("model")
    assert hard.tolist() == [1, 1, 0]


def test_an_array_in_the_order_of_r_items_is_the_series_answer() -> None:
    """The issue's case: the array in the order of ``R.items`` means what the Series by id means."""
    by_id = pd.Series([1, 0], index=["a", "b"])
    s = humanly.read_study(SHUFFLED, {"m": by_id})
    assert s.predictions.hard("m").tolist() == [1, 0]  # items sorted: a, b
    in_r_order = by_id.reindex(SHUFFLED.items).to_numpy()
    assert humanly.read_study(SHUFFLED, {"m": in_r_order}).predictions.hard("m").tolist() == [1, 0]


def test_a_probability_matrix_needs_its_class_order() -> None:
    with pytest.raises(InputError, match="one column per class"):
        humanly.read_study(SORTED, np.array([[0.2, 0.8], [0.5, 0.5]]))
    frame = pd.DataFrame({"y": [0.8, 0.5], "x": [0.2, 0.5]}, index=["a", "b"])
    assert humanly.read_study(SORTED, frame).predictions.proba("model")[0].tolist() == [0.2, 0.8]
    r = humanly.data.read_ratings(np.array([[0, 1], [1, 1]]), wide=True)  # classes 0, 1
    s = humanly.read_study(r, np.array([[0.3, 0.7], [0.9, 0.1]]))
    assert s.predictions.hard("model").tolist() == [1, 0]


def test_duplicate_item_ids_in_from_arrays() -> None:
    with pytest.raises(InputError, match="'a' appears more than once"):
        humanly.Predictions.from_arrays(["a", "a"], {"m": [0, 1]}, classes=[0, 1])


def test_classes_given_as_a_string() -> None:
    with pytest.raises(TypeError, match="classes='xy': give a list of classes"):
        humanly.Ratings.from_long(["a", "b"], ["u", "u"], ["x", "y"], classes="xy")
    with pytest.raises(TypeError, match="not a string"):
        humanly.Predictions.from_arrays(["a"], {"m": ["x"]}, classes="xy")


def test_two_dimensional_labels_and_unhashable_ids() -> None:
    with pytest.raises(InputError, match=r"labels=array of shape \(2, 2\)"):
        humanly.Ratings.from_long(["a", "b"], ["u", "u"], np.array([[0, 1], [1, 0]]))
    with pytest.raises(InputError, match=r"items\[0\]=\['a'\]"):
        humanly.Ratings.from_long([["a"], ["b"]], ["u", "u"], [0, 1])
    with pytest.raises(InputError, match=r"raters\[1\]=\{"):
        humanly.Ratings.from_long(["a", "b"], pd.Series(["u", {"v": 1}]), [0, 1])


def test_none_where_data_is_needed() -> None:
    with pytest.raises(TypeError, match="predictions=None"):
        align(SORTED, None)
    with pytest.raises(TypeError, match="ratings=None"):
        align(None, None)
    with pytest.raises(TypeError, match="error_model=None"):
        compare(None, 100)


@pytest.mark.parametrize("b", [1, 2, 50, 99])
def test_a_bootstrap_below_100_is_refused(b: int) -> None:
    for run in (
        lambda: humanly.inspect(SORTED, bootstrap=b),
        lambda: humanly.agreement(SORTED, bootstrap=b),
        lambda: humanly.equivalence(
            SORTED, {"m": pd.Series([0, 1], index=["a", "b"])}, bootstrap=b
        ),
        lambda: humanly.analyze(SORTED, bootstrap=b),
    ):
        with pytest.raises(
            InputError, match=f"bootstrap={b}: give 0 .no intervals. or at least 100"
        ):
            run()
    assert humanly.inspect(SORTED, bootstrap=0).agreement_intervals is None


def test_memory_is_refused_before_allocating() -> None:
    with pytest.raises(InputError, match=r"bootstrap=1000000000000 needs 21.8 TiB"):
        humanly.inspect(SORTED, bootstrap=10**12)
    many = humanly.Ratings.from_long(
        ["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 1, 1, 1], classes=list(range(20_000))
    )
    with pytest.raises(InputError, match=r"Dawid–Skene with 20,000 classes .* dawid_skene=False"):
        humanly.inspect(many, bootstrap=0)
    # agreement without the classes × classes coincidence matrix
    res = humanly.inspect(many, bootstrap=0, dawid_skene=False)
    assert res.agreement.krippendorff_alpha == pytest.approx(
        humanly.inspect(SHUFFLED, bootstrap=0, dawid_skene=False).agreement.krippendorff_alpha
    )


def test_no_items_needed_for_a_model_below_zero_raters() -> None:
    d = simulate.running_example(300, 6, seed=4)
    # the hard model scored raw by cross-entropy is worth less than 0 raters (calibrated, it is not)
    res = humanly.equivalence(d.ratings, d.predictions, calibrate="none", bootstrap=100, seed=2)
    hard = res.model("hard")
    assert hard.equivalence is None and hard.items_needed(0.5) is None
    assert res.items_needed(0.01)[0] is None


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["inspect", "{d}/r.csv", "--bootstrap", "1"], "--bootstrap 1: give 0"),
        (["inspect", "{d}/r.csv", "--bootstrap", "1000000000000"], "needs 21.8 TiB"),
        (["inspect", "{d}/r.csv", "--classes", "MANY"], "--no-dawid-skene"),
    ],
)
def test_cli_refusals_are_one_line(cli, tmp_path: Path, args: list[str], fragment: str) -> None:
    pd.DataFrame({"item": [1, 1, 2, 2], "rater": ["u", "v"] * 2, "label": [0, 1, 1, 1]}).to_csv(
        tmp_path / "r.csv", index=False
    )
    many = ",".join(map(str, range(20_000)))
    out = cli(*(a.replace("{d}", str(tmp_path)).replace("MANY", many) for a in args))
    assert out.exit_code == 2
    assert fragment in out.stderr and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


# ---------------------------------------------------------------------- issue 30: no silent result
def _line(out: Any) -> str:
    """The one line a refused command prints: exit status 2, nothing on stdout, ≤ ~300 characters."""
    assert out.exit_code == 2 and out.stdout == "", (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("humanly: error: "), out.stderr
    assert len(lines[0]) <= 320, len(lines[0])
    return lines[0]


def test_ordinal_word_labels_need_their_order(cli, tmp_path: Path) -> None:
    """Words have no order of their own: on main they were sorted alphabetically (high < low < mid)
    with no word; now the scale asks for their order. Numbers keep their value order."""
    frame = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "rater": ["u", "v"] * 3,
         "label": ["low", "mid", "high", "high", "low", "low"]}
    )  # fmt: skip
    ordinal = humanly.ReadOptions(scale="ordinal")
    with pytest.raises(InputError, match=r"are words.*lowest first with classes=") as e:
        humanly.data.read_ratings(frame, options=ordinal)
    _one_sentence(str(e.value).replace("e.g.", ""))
    with pytest.raises(InputError, match="are words"):
        humanly.read_study(frame, options=ordinal)
    r = humanly.data.read_ratings(frame, classes=["low", "mid", "high"], options=ordinal)
    assert r.classes == ("low", "mid", "high") and r.scale == "ordinal"
    numbers = frame.assign(label=[10, 2, 1, 1, 10, 10])
    assert humanly.data.read_ratings(numbers, options=ordinal).classes == (1, 2, 10)
    listed = pd.DataFrame({"item": [1, 2], "n_low": [1, 0], "n_mid": [1, 2], "n_high": [0, 1]})
    counts = "low=n_low,mid=n_mid,high=n_high"  # listed in order: declared
    r = humanly.data.read_ratings(listed, counts=counts, options=ordinal)
    assert r.classes == ("low", "mid", "high")
    frame.to_csv(tmp_path / "r.csv", index=False)
    line = _line(cli("agreement", tmp_path / "r.csv", "--scale", "ordinal"))
    assert "--classes low,mid,high" in line and "classes=" not in line
    ok = cli("agreement", tmp_path / "r.csv", "--scale", "ordinal", "--classes", "low,mid,high")
    assert ok.exit_code == 0, ok.stderr


def test_a_key_twice_in_keyed_json_is_refused(tmp_path: Path) -> None:
    """A JSON object keyed by item id keeps the last of two entries for one item: refused."""
    twice = tmp_path / "twice.json"
    twice.write_text(
        '{"a": {"annotations": "0,1", "annotators": "u,v"},'
        ' "b": {"annotations": "1,1", "annotators": "u,v"},'
        ' "a": {"annotations": "1,1", "annotators": "u,v"}}',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"twice.json: item 'a' appears twice") as e:
        humanly.data.read_ratings(twice)
    _one_sentence(str(e.value))
    inner = tmp_path / "inner.json"
    inner.write_text(
        '{"a": {"annotations": "0,1", "annotators": "u,v", "annotations": "1,1"},'
        ' "b": {"annotations": "1,1", "annotators": "u,v"}}',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"key 'annotations' appears twice"):
        humanly.data.read_ratings(inner)
    once = tmp_path / "once.json"
    once.write_text(twice.read_text().rsplit(', "a"', 1)[0] + "}", encoding="utf-8")
    assert humanly.data.read_ratings(once).n_items == 2
    counts = pd.DataFrame({"item": ["a"], "label_counter": ['{"e": 3, "e": 7}']})
    with pytest.raises(InputError, match=r"row 1: key 'e' appears twice"):
        humanly.data.read_ratings(counts, options=humanly.ReadOptions(counts_col="label_counter"))


def test_every_model_name_given_must_exist(cli, tmp_path: Path) -> None:
    """``budget plan --better nope`` exited 0 (the pilot, which checked the name, did not run)."""
    from humanly.budget import PlanOptions
    from humanly.plots.equivalence import plot_power_curve

    d = simulate.running_example(60, 5, seed=1)
    for options in (PlanOptions(better="nope"), PlanOptions(worse="nope")):
        with pytest.raises(InputError, match=r"=.nope.: no such model; the models are: hard, soft"):
            humanly.plan(d.ratings, d.predictions, bootstrap=0, options=options)
        with pytest.raises(InputError, match=r"no such model; the models are: none"):
            humanly.plan(d.ratings, bootstrap=0, options=options)
    res = humanly.equivalence(d.ratings, d.predictions, bootstrap=0)
    with pytest.raises(InputError, match=r"models: no model 'nope'; the models are: hard, soft"):
        plot_power_curve(res, models=["nope"])
    with pytest.raises(KeyError, match=r"no model 'nope'; models are \['hard', 'soft'\]"):
        res.model("nope")
    d.ratings.to_frame().to_csv(tmp_path / "r.csv", index=False)
    line = _line(cli("budget", "plan", tmp_path / "r.csv", "--better", "nope", "--bootstrap", "0"))
    assert "--better nope: no such model; the models are: none" in line


def test_report_from_a_file_it_cannot_read_names_the_key(cli, tmp_path: Path) -> None:
    """A saved file missing a key printed a 2,715-character line; one of another major version was
    drawn as if it were this one's."""
    import json

    d = simulate.running_example(40, 4, seed=2)
    saved = tmp_path / "s.json"
    res = humanly.analyze(d.ratings, d.predictions, d.gold, bootstrap=0)
    saved.write_text(res.to_json(), encoding="utf-8")
    cases = {
        "certify.models": lambda x: x["certify"].pop("models"),
        "certify.upper_bound.upper": lambda x: x["certify"]["upper_bound"].pop("upper"),
        "inspect.agreement.fleiss_kappa": lambda x: x["inspect"]["agreement"].pop("fleiss_kappa"),
        "equivalence[0].result.models[1].score": (
            lambda x: x["equivalence"][0]["result"]["models"][1].pop("score")
        ),
        "settings.tau": lambda x: x["settings"].pop("tau"),
    }
    for key, drop in cases.items():
        data = json.loads(saved.read_text())
        drop(data)
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        line = _line(cli("report", "--from", bad, "-o", tmp_path / "r.html"))
        assert f"the key {key} is missing" in line, line
    data = json.loads(saved.read_text())
    data["provenance"]["humanly_version"] = "9.1.0"
    bad.write_text(json.dumps(data), encoding="utf-8")
    line = _line(cli("report", "--from", bad, "-o", tmp_path / "r.html"))
    assert "saved by humanly 9.1.0, another major version" in line
    assert not (tmp_path / "r.html").exists()
    assert cli("report", "--from", saved, "-o", tmp_path / "r.html").exit_code == 0


def test_a_bad_label_is_reported_where_it_first_occurs(cli, tmp_path: Path) -> None:
    """A judge file whose first bad label is 'maybe' on line 7 was reported as "line 2: label '1'"
    (a number read as text beside the words), with advice to use --classes, which humanly judge
    does not have."""
    rows = [f"i{k},{'maybe' if 5 <= k < 10 else k % 2}" for k in range(30)]
    (tmp_path / "j.csv").write_text("item,prediction\n" + "\n".join(rows) + "\n")
    (tmp_path / "p.csv").write_text(
        "item,prediction\n" + "\n".join(f"i{k},{k % 2}" for k in range(30)) + "\n"
    )
    (tmp_path / "h.csv").write_text(
        "item,rater,label\n" + "\n".join(f"i{k},r,{k % 2}" for k in range(10)) + "\n"
    )
    h, p, j = (tmp_path / f for f in ("h.csv", "p.csv", "j.csv"))
    for args in (["judge", h, "--predictions", p, "--judge", j],
                 ["report", h, "--predictions", p, "--judge", j, "-o", tmp_path / "r.html"]):  # fmt: skip
        line = _line(cli(*args))
        assert "j.csv line 7: label 'maybe'" in line, line
        assert "classes=" not in line and "--classes" not in line  # no class to add: fix the label
        flags = set(re.findall(r"--[a-z][a-z-]*", cli(args[0], "--help").stdout))
        if args[0] == "judge":
            flags |= set(re.findall(r"--[a-z][a-z-]*", cli("judge", "estimate", "--help").stdout))
        assert set(re.findall(r"--[a-z][a-z-]*", line)) <= flags, line  # advice names real flags
    # humanly judge reads its inputs as every data command does: the study's flags are its own
    res = cli("judge", h, "--predictions", p, "--judge", j, "--missing", "drop", "--json")
    assert res.exit_code == 2 and "label 'maybe'" in res.stderr


def test_the_first_offending_row_is_named(tmp_path: Path) -> None:
    """Whatever is wrong with it, the first bad row is the one named (on main a missing value or a
    probability out of range was looked for first, wherever it was)."""
    r = humanly.Ratings.from_counts([[1, 1]] * 6, items=[f"i{k}" for k in range(6)])
    probs = tmp_path / "p.csv"
    probs.write_text(
        "item,prob_0,prob_1\ni0,0.5,0.5\ni1,0.6,0.6\ni2,0.5,0.5\ni3,,0.5\ni4,1.5,-0.5\ni5,0.5,0.5\n"
    )
    with pytest.raises(InputError, match=r"p.csv line 3: probabilities sum to 1.2"):
        humanly.read_study(r, probs)
    labels = tmp_path / "l.csv"
    labels.write_text("item,prediction\ni0,0\ni1,2\ni2,\ni3,0\ni4,1\ni5,1\n")
    with pytest.raises(InputError, match=r"l.csv line 3: label 2 in column 'prediction'"):
        humanly.read_study(r, labels)
    labels.write_text("item,prediction\ni0,0\ni1,\ni2,2\ni3,0\ni4,1\ni5,1\n")
    with pytest.raises(InputError, match=r"l.csv line 3: blank or missing value"):
        humanly.read_study(r, labels)
