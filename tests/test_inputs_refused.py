"""Inputs that used to be accepted silently or crash (issue 26, item 2): each is now refused with one
sentence naming the parameter and the fix, before any large allocation."""

from __future__ import annotations

from pathlib import Path

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
    assert humanly.inspect(SORTED, bootstrap=0).agreement_ci is None


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
