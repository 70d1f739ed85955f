"""Engine properties (hypothesis), ragged and anonymous data, sampled → exact convergence,
calibration, user combiners/scorers, seeds and dask workers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import InputError, Predictions, Ratings
from humanly.simulate import running_example, urn
from humanly.survey import (
    EquivalenceOptions,
    EquivalenceResult,
    equivalence,
    make_scorer,
    power_curve,
)
from humanly.survey._engine import abc_row_probs, make_plan
from humanly.survey.calibration import calibrate_outputs

counts_st = st.lists(
    st.lists(st.integers(0, 6), min_size=3, max_size=3).filter(lambda r: sum(r) >= 2),
    min_size=3,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(counts_st, st.integers(1, 2))
def test_weights_are_distributions_and_abc_is_a_distribution(rows: list[list[int]], r: int) -> None:
    counts = np.array(rows)
    plan = make_plan(counts, int(counts.sum(1).max()) - r, r, abc=True)
    for lvl in plan.levels:
        # P(y, reference class | v) summed over the vector's reference triplets
        tot = np.bincount(lvl.row_owner[lvl.ref_row], weights=lvl.ref_w, minlength=len(plan.v))
        np.testing.assert_allclose(tot[lvl.elig], 1.0, rtol=1e-9)
        assert np.all(tot[~lvl.elig] == 0)
        p = abc_row_probs(lvl, plan.mult.astype(float), plan.abc_floor, plan.n_classes)
        assert np.all((p >= 0) & (p <= 1))
        np.testing.assert_allclose(p.sum(-1), 1.0, rtol=1e-9)


@settings(max_examples=25, deadline=None)
@given(counts_st, st.sampled_from(["abc", "frequency", "plurality"]), st.randoms())
def test_item_order_does_not_matter(rows: list[list[int]], comb: str, rnd) -> None:  # type: ignore[no-untyped-def]
    counts = np.array(rows)
    perm = list(range(len(rows)))
    rnd.shuffle(perm)
    a = equivalence(Ratings.from_counts(counts), combiner=comb, bootstrap=0)
    b = equivalence(Ratings.from_counts(counts[perm]), combiner=comb, bootstrap=0)
    np.testing.assert_allclose(a.scores, b.scores, rtol=1e-10)
    if comb != "frequency":
        ag = equivalence(
            Ratings.from_counts(counts),
            combiner=comb,
            scorer="agreement",
            bootstrap=0,
        )
        assert np.all((ag.scores >= -1e-12) & (ag.scores <= 1 + 1e-12))


def test_ragged_named_equals_anonymous_and_reports_items_per_k() -> None:
    d = running_example(400, (3, 9), seed=2)
    named = equivalence(d.ratings, d.predictions, bootstrap=100)
    anon = equivalence(d.ratings.anonymous(), d.predictions, bootstrap=100)
    np.testing.assert_allclose(named.scores, anon.scores)
    n = [p.n_items for p in named.power_curve]
    lab = d.ratings.labels_per_item
    assert n == [int((lab >= k + 1).sum()) for k in named.ks]
    assert n[0] == 400 and n[-1] < 400
    assert named.to_dict()["models"] == anon.to_dict()["models"]


@pytest.mark.parametrize("comb", ["abc", "majority", "frequency"])
def test_sampled_converges_to_exact_on_ragged_anonymous_data(comb: str) -> None:
    d = running_example(300, (4, 8), seed=4)
    r = d.ratings.anonymous()
    sc = "agreement" if comb == "majority" else "cross_entropy"
    exact = equivalence(r, combiner=comb, scorer=sc, bootstrap=0)
    errs = []
    for draws in (20, 800):
        s = equivalence(
            r,
            combiner=comb,
            scorer=sc,
            bootstrap=0,
            options=EquivalenceOptions(method="sampled", draws=draws),
        )
        errs.append(np.max(np.abs(s.scores - exact.scores)))
    assert errs[1] < 0.01
    assert errs[1] < errs[0]


def test_bootstrap_is_seeded_and_ranges_are_ordered() -> None:
    d = running_example(300, 6, seed=3)
    a = equivalence(d.ratings, d.predictions, bootstrap=100, seed=5)
    b = equivalence(d.ratings, d.predictions, bootstrap=100, seed=5)
    c = equivalence(d.ratings, d.predictions, bootstrap=100, seed=6)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()
    for p in a.power_curve:
        lo, hi = p.score_interval
        assert lo is not None and hi is not None and lo <= hi
    for m in a.models:
        assert m.score_interval.low <= m.score_interval.high
        assert m.equivalence_interval.low is not None
    d2 = a.to_dict()
    assert set(d2) >= {
        "combiner",
        "scorer",
        "method",
        "n_items",
        "bootstrap",
        "level",
        "power_curve",
        "models",
    }
    assert set(d2["power_curve"][0]) == {"k", "score", "score_interval", "n_items", "computed",
                                         "fallback_share", "flags"}  # fmt: skip
    assert set(d2["models"][0]) >= {
        "model",
        "score",
        "score_interval",
        "equivalence",
        "equivalence_note",
        "equivalence_interval",
    }
    # the flat ends of the ranges are gone (no aliases before 0.1.0)
    assert not {"low", "high", "equivalence_low", "equivalence_high", "items_needed"} & set(
        d2["models"][0]
    )
    assert "target_width" not in d2
    assert "EquivalenceResult(" in repr(a)


def test_workers_give_identical_numbers() -> None:
    pytest.importorskip("distributed")  # the humanly[dask] extra
    d = running_example(200, 5, seed=8)
    kw = dict(combiner="abc", scorer="cross_entropy", bootstrap=100, seed=3)
    local = equivalence(d.ratings, d.predictions, **kw)
    dist = equivalence(d.ratings, d.predictions, options=EquivalenceOptions(workers=2), **kw)
    assert local.to_dict() == dist.to_dict()


def test_power_curve_and_errors() -> None:
    d = running_example(100, 5, seed=1)
    pc = power_curve(d.ratings, combiner="majority", scorer="agreement", bootstrap=100)
    assert list(pc.ks) == [0, 1, 2, 3, 4]
    assert pc.power_curve[0].score == pytest.approx(0.5)
    with pytest.raises(InputError, match="sampled"):
        equivalence(
            d.ratings, scorer="auc", bootstrap=0, options=EquivalenceOptions(method="exact")
        )
    with pytest.raises(InputError, match="combiner"):
        equivalence(d.ratings, combiner="median", bootstrap=0)
    three = Ratings.from_counts(np.array([[1, 2, 3], [3, 3, 0]]))
    with pytest.raises(InputError, match="plurality"):
        equivalence(three, combiner="majority", scorer="agreement", bootstrap=0)
    with pytest.raises(InputError, match="reference"):
        equivalence(d.ratings, bootstrap=0, options=EquivalenceOptions(reference_size=9))


def test_user_combiner_and_scorer() -> None:
    d = running_example(150, 5, seed=1)

    def half_frequency(y: np.ndarray) -> np.ndarray:
        k = y.sum(axis=1, keepdims=True)
        f = np.where(k > 0, y / np.maximum(k, 1), 0.5)
        return 0.5 * f + 0.25

    res = equivalence(d.ratings, d.predictions, combiner=half_frequency, bootstrap=0)
    assert res.combiner == "half_frequency"
    assert np.isfinite(res.scores).all()

    def brier(y_true: np.ndarray, y_prob: np.ndarray) -> float:
        return -float(np.mean((y_prob[np.arange(len(y_true)), y_true] - 1) ** 2))

    res = equivalence(
        d.ratings,
        d.predictions,
        combiner="frequency",
        scorer=make_scorer(brier, "brier"),
        bootstrap=0,
        options=EquivalenceOptions(draws=5),
    )
    assert res.scorer == "brier" and res.method == "sampled"


def test_calibration_per_value_and_isotonic_cross_fitted() -> None:
    d = urn(
        2000,
        10,
        states=[[0.9, 0.1], [0.5, 0.5], [0.2, 0.8]],
        weights=[0.5, 0.3, 0.2],
        hard_classifiers={"h": [[0.8, 0.2], [0.5, 0.5], [0.1, 0.9]]},
        seed=2,
    )
    r, p = d.ratings, d.predictions
    counts = r.counts
    cal = calibrate_outputs("label", p["h"].values, counts, "per-value", positive=1)
    frac = counts / counts.sum(1, keepdims=True)
    for c in (0, 1):
        sel = p["h"].values == c
        np.testing.assert_allclose(cal[sel][0], frac[sel].mean(0))
    res = equivalence(r, p, calibrate="per-value", bootstrap=0)
    raw = equivalence(r, p, calibrate="none", bootstrap=0)
    assert res.calibration == "per-value (in-sample)"
    assert res.models[0].score > raw.models[0].score
    five = EquivalenceOptions(calibration_folds=5)
    cv = equivalence(r, p, calibrate="per-value", bootstrap=0, options=five)
    assert cv.calibration == "per-value (5-fold cross-fitted)"
    assert cv.models[0].score <= res.models[0].score + 1e-12  # in-sample is optimistic
    x = np.random.default_rng(0).random(2000)
    iso = calibrate_outputs("score", x, counts, "isotonic", positive=1)
    order = np.argsort(x)
    assert np.all(np.diff(iso[order, 1]) >= -1e-12)
    with pytest.raises(InputError, match="calibrate"):
        equivalence(
            r,
            Predictions.from_arrays(r.items, {"s": x}, classes=r.classes, kind="score"),
            calibrate="none",
            bootstrap=0,
        )


def test_reference_size_levels_stop_at_k_minus_r() -> None:
    d = running_example(200, 7, seed=1)
    res = equivalence(
        d.ratings,
        d.predictions,
        bootstrap=0,
        options=EquivalenceOptions(reference_size=3, max_k=10),
    )
    assert res.ks[-1] == 4
    assert isinstance(res, EquivalenceResult)


def test_predictions_are_aligned_by_item_id() -> None:
    d = running_example(120, 5, seed=9)
    order = np.random.default_rng(0).permutation(120)
    shuffled = d.predictions.take(order)
    a = equivalence(d.ratings, d.predictions, bootstrap=100)
    b = equivalence(d.ratings, shuffled, bootstrap=100)
    assert a.to_dict() == b.to_dict()
    with pytest.raises(InputError, match="no prediction"):
        equivalence(d.ratings, d.predictions.take(np.arange(100)), bootstrap=0)
