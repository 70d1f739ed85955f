"""certify() takes inputs as users hold them, joined by item id; bad arguments name their parameter;
the typed results tabulate; the deprecated names still work for one release."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import InputError, simulate
from humanly.certification import (
    BOUNDS,
    BoundCurvePoint,
    CertifyResult,
    FiniteBound,
    Raters,
    bernstein_tail,
    certify,
    certify_summary,
    clopper_pearson_tail,
    hoeffding_tail,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = simulate.oracle(
        250, [0.8, 0.75, 0.7, 0.85], n_classes=3, models={"strong": 0.95, "weak": 0.7}, seed=4
    )
    return d.write(tmp_path_factory.mktemp("inputs") / "sim.csv")


@pytest.fixture(scope="module")
def from_files(files: dict[str, Path]) -> tuple[humanly.Ratings, humanly.Predictions, humanly.Gold]:
    r = humanly.read_ratings(files["ratings"])
    p = humanly.read_predictions(files["predictions"], classes=r.classes)
    g = humanly.read_gold(files["gold"], classes=r.classes)
    return r, p, g


def _same(a: CertifyResult, b: CertifyResult) -> None:
    da, db = a.to_dict(), b.to_dict()
    assert da == db


def _series(values: np.ndarray, items: pd.Index, perm: np.ndarray) -> pd.Series:
    return pd.Series(values[perm], index=items[perm])


KW = {"curve": True, "bound": "exact", "seed": 3}


def test_shuffled_series_frames_and_arrays_match_the_files(from_files) -> None:
    r, p, g = from_files
    ref = certify(r, p, gold=g, **KW)
    perm = np.random.default_rng(0).permutation(r.n_items)
    labels = {m: np.asarray(r.classes)[p.hard(m)] for m in p.names}
    gold_labels = np.asarray(r.classes)[g.codes]
    gold_series = _series(gold_labels, r.items, perm)
    # dict of Series indexed by item id, in a shuffled order
    series = {m: _series(v, r.items, perm) for m, v in labels.items()}
    _same(ref, certify(r, series, gold=gold_series, **KW))
    # DataFrames of probabilities (one column per class) whose argmax is the label
    frames = {}
    for m in p.names:
        proba = np.full((r.n_items, 3), 0.1)
        proba[np.arange(r.n_items), p.hard(m)] = 0.8
        frames[m] = pd.DataFrame(proba[perm], index=r.items[perm], columns=list(r.classes))
    _same(ref, certify(r, frames, gold=gold_series, **KW))
    # numpy arrays in the ratings' item order (gold too)
    _same(ref, certify(r, labels, gold=gold_labels, **KW))
    # the ratings as a long DataFrame and as a path
    _same(ref, certify(r.to_frame(), series, gold=gold_series, **KW))


def test_a_single_array_is_one_model(from_files) -> None:
    r, p, _ = from_files
    res = certify(r, p.hard("strong"))  # raised AttributeError before inputs were joined
    ref = certify(r, p.select(["strong"]))
    assert [m.model for m in res.models] == ["model"]
    assert res.models[0].lower == ref.models[0].lower
    assert res.models[0].confidence == ref.models[0].confidence


def test_same_numbers_as_the_command_line(cli, files, from_files) -> None:
    r, p, g = from_files
    out = cli(
        "certify", files["ratings"], "--predictions", files["predictions"], "--gold",
        files["gold"], "--curve", "--bound", "exact", "--seed", "3", "--json",
    )  # fmt: skip
    assert out.exit_code == 0, out.stderr
    perm = np.random.default_rng(1).permutation(r.n_items)
    series = {m: _series(np.asarray(r.classes)[p.hard(m)], r.items, perm) for m in p.names}
    gold = _series(np.asarray(r.classes)[g.codes], r.items, perm)
    res = certify(r, series, gold=gold, **KW)
    assert out.json() == res.to_dict()


def test_gold_for_unknown_items_is_an_error_unless_dropped(from_files) -> None:
    r, p, g = from_files
    gold = pd.Series(np.asarray(r.classes)[g.codes], index=r.items)
    extra = pd.concat([gold, pd.Series([0], index=["not-rated"])])
    with pytest.raises(InputError, match='missing="drop"'):
        certify(r, p, gold=extra)
    with pytest.raises(InputError, match="no ratings"):
        certify(r, p, gold=humanly.Gold(extra.index, r.classes, np.zeros(len(extra), np.int16)))
    _same(certify(r, p, gold=gold), certify(r, p, gold=extra, missing="drop"))
    # gold on a subset of the items is fine without missing="drop"
    sub = certify(r, p, gold=gold.iloc[:50])
    assert sub.oracle is not None and sub.oracle.n_items == 50


def test_predictions_missing_items(from_files) -> None:
    r, p, _ = from_files
    s = {m: pd.Series(p.hard(m)[10:], index=r.items[10:]) for m in p.names}
    with pytest.raises(InputError, match='missing="drop"'):
        certify(r, s)
    dropped = certify(r, s, missing="drop")
    assert dropped.n_items == r.n_items - 10
    _same(dropped, certify(r.take(np.arange(10, r.n_items)), p.take(np.arange(10, r.n_items))))


def test_gold_with_other_classes(from_files) -> None:
    r, p, g = from_files
    other = humanly.Gold(g.items, ("x", "y", "z"), g.codes, "other")
    with pytest.raises(InputError, match="differ from the ratings' classes"):
        certify(r, p, gold=other)


# ------------------------------------------------------------------------------ argument checks
@pytest.fixture(scope="module")
def small() -> Any:
    return simulate.oracle(60, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)


BAD = [
    ("alpha", 0, InputError),
    ("alpha", 1, InputError),
    ("alpha", 1.5, InputError),
    ("alpha", "0.05", TypeError),
    ("delta", 0.0, InputError),
    ("delta", 1.0, InputError),
    ("t_u", 0.0, InputError),
    ("t_u", -0.1, InputError),
    ("t_u", math.nan, InputError),
    ("t_l", math.inf, InputError),
    ("curve_subsets", 0, InputError),
    ("curve_subsets", 2.5, TypeError),
    ("curve_max_k", 0, InputError),
    ("oms_steps", -1, InputError),
    ("oms_steps", 0, InputError),
    ("oms_lr", math.nan, InputError),
    ("oms_lr", 0.0, InputError),
    ("seed", -1, InputError),
    ("seed", 1.5, TypeError),
    ("bound", "chernoff", InputError),
    ("aggregate", "mean", InputError),
    ("upper", "max", InputError),
    ("raters", "teams", InputError),
    ("missing", "keep", InputError),
    ("workers", 0, InputError),
]


@pytest.mark.parametrize(("name", "value", "error"), BAD)
def test_bad_arguments_name_the_parameter(small, name: str, value, error: type) -> None:
    with pytest.raises(error) as info:
        certify(small.ratings, small.predictions, **{name: value})
    assert str(info.value).startswith(f"{name}=")


BAD_SUMMARY = [
    ({"lower": [1.2]}, "lower=", InputError),
    ({"lower": [-0.1]}, "lower=", InputError),
    ({"upper": 1.5}, "upper=", InputError),
    ({"n": 0}, "n=", InputError),
    ({"n": 1.5}, "n=", TypeError),
    ({"n": [100, 100, 100]}, "n=", InputError),
    ({"k": 0.5}, "k=", InputError),
    ({"upper_kind": "max"}, "upper_kind=", InputError),
    ({"upper_kind": "theoretical"}, "upper_kind=", InputError),  # needs k
    ({"n_upper": 0}, "n_upper=", InputError),
    ({"bound": "exact"}, "bound=", InputError),
    ({"bound": "chernoff"}, "bound=", InputError),
    ({"alpha": 2}, "alpha=", InputError),
    ({"t_u": -1.0}, "t_u=", InputError),
    ({"oms_steps": 0}, "oms_steps=", InputError),
    ({"models": ["a"]}, "models", InputError),
]


@pytest.mark.parametrize(("change", "named", "error"), BAD_SUMMARY)
def test_bad_summary_arguments_name_the_parameter(change: dict, named: str, error: type) -> None:
    args = {"lower": [0.949, 0.971], "upper": 0.939, "n": 1821} | change
    with pytest.raises(error) as info:
        certify_summary(args.pop("lower"), args.pop("upper"), args.pop("n"), **args)
    assert named in str(info.value)


def test_good_edge_arguments_are_accepted(small) -> None:
    res = certify(small.ratings, small.predictions, t_u=1.5, t_l=2.0, oms_steps=1, oms_lr=1e-3)
    assert res.upper_finite.t == 1.5 and res.models[0].lower_finite.t == 2.0
    assert certify_summary(0.97, 0.93, 1821.0, k=3.0).raters == Raters("summary", 3)


# ------------------------------------------------------------------------------ typed results
def test_confidence_curve_matches_what_the_plot_computed(small) -> None:
    from humanly.plots.certify import plot_confidence

    d = simulate.oracle(400, [0.8, 0.75, 0.7], models={"a": 0.97, "b": 0.95}, seed=6)
    for bound in BOUNDS:
        res = certify(d.ratings, d.predictions, bound=bound)
        ub = res.upper_bound
        fig = plot_confidence(res, points=50)
        drawn = iter(line for line in fig.axes[0].get_lines() if len(line.get_xdata()) == 50)
        for m in res.models:
            if not m.confidence.admissible:
                continue
            # the computation plots/certify.py did before the curve became a method of the result
            if bound == "hoeffding":
                tail_u, tail_l = hoeffding_tail(ub.n), hoeffding_tail(m.n)
            elif bound == "bernstein":
                tail_u = bernstein_tail(ub.n, ub.variance or 0.0)
                tail_l = bernstein_tail(m.n, m.lower_variance or 0.0)
            else:
                tail_u = bernstein_tail(ub.n, ub.variance or 0.0)
                tail_l = clopper_pearson_tail(m.n, m.full_credit or 0, m.lower)
            tu = np.linspace(0.0, m.confidence.t_u_max, 50)
            u = ub.upper
            old = [1 - tail_u.delta(t) - tail_l.delta(m.lower - math.sqrt(t + u * u)) for t in tu]
            cc = res.confidence_curve(m.model, points=50)
            assert list(cc.confidence) == old
            assert list(cc.t_u) == tu.tolist()
            assert list(next(drawn).get_ydata()) == old
            frame = cc.to_frame()
            assert len(frame) == 50
            np.testing.assert_allclose(
                1 - frame.delta_u - frame.delta_l, frame.confidence, rtol=0, atol=1e-15
            )
            assert max(cc.confidence) <= m.confidence.oms + 1e-9
            at = res.confidence_curve(m.model, t_u=[m.confidence.t_u])
            assert at.confidence[0] == pytest.approx(m.confidence.oms, abs=1e-15)


def test_confidence_curve_not_admissible() -> None:
    res = certify_summary([0.85, 0.95], 0.879, 10000)
    with pytest.raises(InputError, match="no t_u is admissible"):
        res.confidence_curve("model1")
    assert len(res.confidence_curve("model1", t_u=[0.0, 0.01]).confidence) == 2
    with pytest.raises(KeyError):
        res.confidence_curve("nope")


def test_to_frame_tables(small) -> None:
    res = certify(small.ratings, small.predictions, gold=small.gold, curve=True)
    table = res.to_frame()
    assert table.model.tolist() == ["m"] and table.loc[0, "lower"] == res.models[0].lower
    assert table.loc[0, "upper"] == res.upper_bound.upper
    assert table.loc[0, "true_accuracy"] == res.oracle.models["m"]
    curve = res.curve.to_frame()
    assert curve.k.tolist() == [p.k for p in res.curve]
    assert curve["lower:m"].tolist() == [p.lower["m"] for p in res.curve]


def test_results_are_typed_with_one_name_per_key(small) -> None:
    res = certify(small.ratings, small.predictions, gold=small.gold, curve=True)
    assert isinstance(res.models, tuple) and isinstance(res.notes, tuple)
    assert isinstance(res.curve, tuple) and isinstance(res.curve[0], BoundCurvePoint)
    assert isinstance(res.upper_bound.finite["exact"], FiniteBound)
    assert isinstance(res.oracle.assumptions, tuple)
    d = res.to_dict()
    assert d["raters"] == {"mode": "slots", "k": 3} and "annotators" not in d
    assert d["upper_bound"]["upper"] == res.upper_bound.upper and "value" not in d["upper_bound"]
    m = d["models"][0]
    assert m["lower"] == res.models[0].lower and "lower_bound" not in m
    assert m["lower_finite"] == {
        "delta": res.delta, "t": res.models[0].lower_finite.t,
        "value": res.models[0].lower_finite.value,
    }  # fmt: skip
    b = m["by_bound"]["hoeffding"]
    assert b["upper_finite"]["value"] == res.models[0].by_bound["hoeffding"].upper_finite.value
    assert not {"upper", "lower", "delta_upper", "delta_lower"} & set(b)
    detail = d["oracle"]["assumptions"][1]["detail"]
    assert detail["left_formula"] == "P(l_b = l* | l_a != l*)" and "left" not in detail
    assert isinstance(detail["prediction_distribution"], list)


# ------------------------------------------------------------------------------ retired names
def test_retired_names_are_gone(small) -> None:
    """Before 0.1.0 the names were reset once, without deprecation shims."""
    r, p = small.ratings, small.predictions
    with pytest.raises(TypeError, match="annotators"):
        certify(r, p, annotators="named")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="annotators"):
        certify_summary([0.971], 0.939, 1821, annotators=3)  # type: ignore[call-arg]
    import humanly.certification as c

    assert not hasattr(c, "CurvePoint")
    res = certify(r, p)
    assert not hasattr(res, "annotators") and not hasattr(res.models[0], "lower_bound")
