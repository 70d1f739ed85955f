"""Inputs as users hold them: ``plan`` and ``pilot_plan`` join predictions to ratings by item id (never
by position), and every public budget function checks its arguments with one sentence naming the Python
parameter."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import InputError
from humanly.budget import (
    CorrelatedErrors,
    IndependentErrors,
    PlanOptions,
    SweepSpec,
    adaptive_vs_single,
    capacity,
    compare,
    cramer_error,
    error_probability,
    hoeffding_error,
    majority_accuracy,
    outcome,
    outcomes,
    pilot_plan,
    plan,
    plurality_vs_single,
    quick_compare,
    sample_size,
    simulate_win,
    win_probability,
)
from humanly.simulate import pair

FIG2 = IndependentErrors(0.8, 0.01, 0.8)


def _pilot(n: int = 400, labels: int = 5, seed: int = 7):
    data = pair(n, labels, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=seed)
    return data


def _series(preds: humanly.Predictions, order: np.ndarray | None = None) -> dict[str, pd.Series]:
    """Each model's labels as a Series indexed by item id (in ``order`` of the items if given)."""
    out = {}
    for name in preds.names:
        s = pd.Series(np.asarray(preds.classes)[preds.hard(name)], index=preds.items, name=name)
        out[name] = s if order is None else s.iloc[order]
    return out


# --------------------------------------------------------------------------- plan joins by item id
def test_plan_series_in_another_order_identical() -> None:
    data = _pilot()
    base = pilot_plan(data.ratings, data.predictions, bootstrap=100, seed=3, budget=600)
    perm = np.random.default_rng(1).permutation(data.ratings.n_items)
    shuffled = pilot_plan(
        data.ratings, _series(data.predictions, perm), bootstrap=100, seed=3, budget=600
    )
    assert shuffled == base
    assert shuffled.to_dict() == base.to_dict()
    # sorted in reverse item order, and the Predictions object itself taken in another order
    rev = pilot_plan(
        data.ratings, _series(data.predictions, np.arange(400)[::-1]), bootstrap=100, seed=3
    )
    taken = pilot_plan(data.ratings, data.predictions.take(perm), bootstrap=100, seed=3)
    assert rev.estimates == base.estimates and taken.estimates == base.estimates
    assert rev.intervals == base.intervals == taken.intervals


def test_plan_predictions_file_with_rows_shuffled_identical(tmp_path: Path) -> None:
    data = _pilot()
    written = data.write(tmp_path / "pilot.csv")
    table = pd.read_csv(written["predictions"])
    table.sample(frac=1.0, random_state=5).to_csv(tmp_path / "shuffled.csv", index=False)
    classes = data.ratings.classes
    in_order = humanly.data.read_predictions(written["predictions"], classes=classes)
    shuffled = humanly.data.read_predictions(tmp_path / "shuffled.csv", classes=classes)
    assert list(shuffled.items) != list(in_order.items)  # the rows really are in another order
    a = pilot_plan(data.ratings, in_order, bootstrap=100, seed=0)
    b = pilot_plan(data.ratings, shuffled, bootstrap=100, seed=0)
    assert a == b


def test_plan_accepts_every_form_of_join() -> None:
    data = _pilot()
    base = pilot_plan(data.ratings, data.predictions, bootstrap=0)
    preds = data.predictions
    arrays = {n: np.asarray(preds.classes)[preds.hard(n)] for n in preds.names}
    frames = {
        n: pd.DataFrame(np.eye(2)[preds.hard(n)], index=preds.items, columns=list(preds.classes))
        for n in preds.names
    }
    for form in (arrays, frames, _series(preds)):
        assert pilot_plan(data.ratings, form, bootstrap=0) == base
    long = data.ratings.to_frame()
    assert pilot_plan(long, _series(preds), bootstrap=0).estimates == base.estimates


def test_plan_missing_items_error_or_drop() -> None:
    data = _pilot()
    part = {k: v.iloc[:300] for k, v in _series(data.predictions).items()}
    with pytest.raises(InputError, match="missing='drop'"):
        pilot_plan(data.ratings, part, bootstrap=0)
    dropped = pilot_plan(data.ratings, part, missing="drop", bootstrap=0)
    assert dropped.n_items == 300
    with pytest.raises(InputError, match="two models"):
        pilot_plan(data.ratings, None)


def test_plan_snow_rte_predictions_in_sorted_item_order(shared_data: Path, tmp_path: Path) -> None:
    """Issue 14: on Snow et al. RTE with predictions in sorted item order the old positional match gave
    p_w = 0.52 (0.486 in the issue's run) instead of ≈ 0.72."""
    path = shared_data / "snow2008_rte" / "rte.standardized.tsv"
    cols = {"item_col": "orig_id", "rater_col": "!amt_worker_ids", "label_col": "response"}
    ratings = humanly.data.read_ratings(path, **cols)
    gold = pd.read_csv(path, sep="\t").groupby("orig_id").gold.first()  # sorted by item id
    rng = np.random.default_rng(0)
    g = gold.to_numpy()
    models = {
        "better": np.where(rng.random(len(g)) < 0.10, 1 - g, g),
        "worse": np.where(rng.random(len(g)) < 0.25, 1 - g, g),
    }
    pfile = tmp_path / "pred.csv"
    frames = [
        pd.DataFrame({"item": gold.index, "model": k, "prediction": v}) for k, v in models.items()
    ]
    pd.concat(frames).to_csv(pfile, index=False)
    sorted_preds = humanly.data.read_predictions(pfile, classes=ratings.classes)
    assert list(sorted_preds.items) != list(ratings.items)
    # the crowd-majority estimator (the default before the latent-class one): the number
    res = pilot_plan(ratings, sorted_preds, bootstrap=0, estimator="majority")
    assert res.estimates.p_w == pytest.approx(0.7156, abs=1e-3)
    series = {k: pd.Series(v, index=gold.index.astype(str)) for k, v in models.items()}
    assert pilot_plan(ratings, series, bootstrap=0, estimator="majority") == res
    # the latent-class default (this brief changes the default): joined by item id as well
    latent = pilot_plan(ratings, sorted_preds, bootstrap=0)
    assert latent.estimates.p_w == pytest.approx(0.6879, abs=1e-3)
    assert pilot_plan(ratings, series, bootstrap=0) == latent


# --------------------------------------------------------------------------- argument checks
@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: quick_compare(2), InputError, "label_accuracy=2"),
        (lambda: quick_compare(float("nan")), InputError, "label_accuracy=nan"),
        (lambda: quick_compare(0.7, budget=0), InputError, "budget=0"),
        (lambda: quick_compare(0.7, level=1.0), InputError, "level=1"),
        (lambda: quick_compare(0.7, level=1 - 1e-15), InputError, "level=0.999"),
        (lambda: outcome((0.3, 0.2, 0.5), 1.5), TypeError, "n=1.5"),
        (lambda: outcome((0.3, 0.2, 0.5), -1), InputError, "n=-1"),
        (lambda: outcome((float("nan"), 0.2, 0.5), 3), InputError, "x=nan"),
        (lambda: outcomes(np.array([0.3, np.nan]), 0.2, 3), InputError, "NaN"),
        (lambda: win_probability((0.3, 0.2, 0.5), 3, ties="coin"), InputError, "ties='coin'"),
        (lambda: hoeffding_error((0.3, 0.2, 0.5), 2.5), TypeError, "n=2.5"),
        (lambda: hoeffding_error((float("nan"), 0.2, 0.5), 3), InputError, "NaN"),
        (lambda: cramer_error([0.3, float("nan"), 0.5], 3), InputError, "NaN"),
        (lambda: cramer_error((0.3, 0.2, 0.5), "3"), TypeError, "n='3'"),
        (lambda: majority_accuracy(0.8, 0), InputError, "labels_per_item=0"),
        (lambda: majority_accuracy(0.8, 2.5), TypeError, "labels_per_item=2.5"),
        (lambda: majority_accuracy(1.2, 3), InputError, "q"),
        (lambda: majority_accuracy(0.8, 2, vote_ties="half"), InputError, "vote_ties='half'"),
        (lambda: IndependentErrors(0.8, 0.01, 2), InputError, "q=2"),
        (lambda: IndependentErrors(0.8, 0.01, float("nan")), InputError, "q=nan"),
        (lambda: IndependentErrors("0.8", 0.01, 0.8), TypeError, "p='0.8'"),
        (lambda: IndependentErrors(0.8, 0.01, 2, check=False), InputError, "q=2"),
        (lambda: CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 1.5, check=False), InputError, "p_b1=1.5"),
        (lambda: compare(FIG2, 0), InputError, "budget=0"),
        (lambda: compare(FIG2, 1.5), TypeError, "budget=1.5"),
        (lambda: compare(FIG2, 100, labels_per_item=()), InputError, "labels_per_item=()"),
        (lambda: compare(FIG2, 100, labels_per_item=(1, 0)), InputError, "labels_per_item=0"),
        (lambda: compare(FIG2, 100, labels_per_item="3"), TypeError, "labels_per_item='3'"),
        (lambda: compare(FIG2, 100, ties="coin"), InputError, "ties='coin'"),
        (lambda: compare(FIG2, 100, vote_ties="half"), InputError, "vote_ties='half'"),
        (lambda: compare(FIG2, 100, simulations=-1), InputError, "simulations=-1"),
        (lambda: compare(FIG2, 100, simulations=10, seed=-1), InputError, "seed=-1"),
        (lambda: compare(FIG2, 2, labels_per_item=3), InputError, "smaller than labels_per_item=3"),
        (lambda: sample_size(FIG2, 0.0), InputError, "level=0"),
        (lambda: sample_size(FIG2, float("nan")), InputError, "level=nan"),
        (lambda: capacity(FIG2, 1.0), InputError, "level=1"),
        (lambda: capacity(FIG2, 0.95, budget=-3), InputError, "budget=-3"),
        (lambda: error_probability(FIG2, 1, 0.5), TypeError, "n=0.5"),
        (lambda: simulate_win(FIG2, 1, 10, 0), InputError, "simulations=0"),
        (lambda: simulate_win(FIG2, 1, 10.5, 10), TypeError, "n=10.5"),
        (
            lambda: plurality_vs_single(3, 0.7, 0.7, 0.05, 90, simulations=0),
            InputError,
            "simulations=0",
        ),
        (lambda: plurality_vs_single(1, 0.7, 0.7, 0.05, 90), InputError, "n_classes=1"),
        (lambda: plurality_vs_single(3, 0.7, 0.7, 0.05, 90, seed=-2), InputError, "seed=-2"),
        (lambda: adaptive_vs_single(FIG2, 0), InputError, "budget=0"),
        (lambda: SweepSpec(grid_points=0), InputError, "grid_points=0"),
        (lambda: SweepSpec(n_items=(1, 2.5)), TypeError, "n_items=2.5"),
        (lambda: SweepSpec(tolerance=-1.0), InputError, "tolerance=-1"),
    ],
)
def test_checks_name_the_parameter(call, error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_plan_checks_name_the_parameter() -> None:
    data = _pilot(200, 3)
    r, p = data.ratings, data.predictions
    for kwargs, error, fragment in [
        ({"budget": 0}, InputError, "budget=0"),
        ({"level": 1.5}, InputError, "level=1.5"),
        ({"labels_per_item": (1, 2.5)}, TypeError, "labels_per_item=2.5"),
        ({"bootstrap": -1}, InputError, "bootstrap=-1"),
        ({"seed": -1}, InputError, "seed=-1"),
        ({"missing": "keep"}, InputError, "missing='keep'"),
        ({"estimator": "proxy"}, InputError, "estimator='proxy'"),
    ]:
        for verb in (pilot_plan, plan):
            with pytest.raises(error) as info:
                verb(r, p, **{"bootstrap": 0, **kwargs})  # type: ignore[operator]
            assert fragment in str(info.value), (verb, kwargs)


@pytest.mark.parametrize(
    ("knobs", "error", "fragment"),
    [
        ({"ties": "coin"}, InputError, "ties='coin'"),
        ({"vote_ties": "half"}, InputError, "vote_ties='half'"),
        ({"latent_variant": "bogus"}, InputError, "latent_variant='bogus'"),
        ({"better": "worse", "worse": "worse"}, InputError, "better='worse'"),
        ({"better": 3}, TypeError, "better=3"),
        ({"with_pilot": "yes"}, TypeError, "with_pilot='yes'"),
        ({"workers": 0}, InputError, "workers=0"),
        ({"latent_model": "full"}, TypeError, "latent_model"),  # the retired name is gone
    ],
)
def test_plan_options_check_their_fields(knobs: dict, error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        PlanOptions(**knobs)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_plan_checks() -> None:
    three = humanly.Ratings.from_counts([[2, 1, 0], [0, 3, 0]], classes=["a", "b", "c"])
    assert plan(three).n_classes == 3  # issue 33: K classes are planned, no longer refused
    with pytest.raises(InputError, match="no item has two labels"):
        plan(humanly.Ratings.from_counts([[1, 0, 0], [0, 0, 1]], classes=["a", "b", "c"]))
    single = humanly.Ratings.from_counts([[1, 0], [0, 1]], classes=[0, 1])
    with pytest.raises(InputError, match="no item has two labels"):
        plan(single)
    ok = humanly.Ratings.from_counts([[3, 0], [2, 1]] * 5, classes=[0, 1])
    with pytest.raises(InputError, match=r"eps=0\.3"):
        plan(ok, eps=0.3)
    with pytest.raises(InputError, match="budget=0"):
        plan(ok, budget=0)


def test_valid_edge_values_still_accepted() -> None:
    assert outcome((0.3, 0.2, 0.5), 0).tie == 1.0
    exact = outcome(IndependentErrors(0.8, 0.01, 1.0).gap(1), 30).win
    assert math.isclose(quick_compare(1.0, 30).win[0], exact)
    assert compare(FIG2, np.int64(300), labels_per_item=np.array([1, 3])).best_labels_per_item == 1
