"""``humanly.judge`` on a study equals the array functions of :mod:`humanly.judging.arrays` on the same
arrays (the human reference y, the judge's score f of each model on the labelled and the unlabelled
items, in the study's canonical item order) to 1e-12 — the array functions are the ones cross-checked
against ppi-python 0.2.3 in ``test_judge_strata.py``, ``test_judge_multi.py``,
``test_judge_crossfit.py`` and ``test_judge_scores.py``. With one stratum and the default options the
verb is today's PPI++ bit for bit. Simulated data only (no ../shared)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import Ratings
from humanly.data import join_ratings
from humanly.judging import JudgeOptions
from humanly.judging._parts import estimate_of
from humanly.judging._ppi import fit, moments
from humanly.judging.arrays import (
    combine_judges,
    crossfit_mean,
    paired_difference,
    rating_mean,
    rating_quantile,
    share_at_least,
    small_sample_mean,
    stratified_mean,
)

TOL = 1e-12
N, SEED = 3000, 7


def _world():
    """Items with sorted ids (so row order = canonical order), one human label on ~20% of them, two
    models, two judges that give labels, three strata."""
    rng = np.random.default_rng(SEED)
    items = np.array([f"i{k:05d}" for k in range(N)])
    truth = rng.integers(0, 2, N)
    models = {
        name: np.where(rng.random(N) < acc, truth, 1 - truth)
        for name, acc in (("a", 0.85), ("b", 0.75))
    }
    judges = {
        name: np.where(rng.random(N) < acc, truth, 1 - truth)
        for name, acc in (("big", 0.92), ("small", 0.8))
    }
    stratum = rng.choice(["chat", "code", "math"], N, p=[0.5, 0.2, 0.3])
    lab = rng.random(N) < 0.2
    ratings = Ratings.from_long(items[lab], ["r"] * int(lab.sum()), truth[lab], classes=[0, 1])
    return {
        "items": items,
        "truth": truth,
        "models": models,
        "judges": judges,
        "stratum": stratum,
        "lab": lab,
        "ratings": ratings,
        "preds": {m: pd.Series(v, index=items) for m, v in models.items()},
        "judge_series": {j: pd.Series(v, index=items) for j, v in judges.items()},
    }


W = _world()


def _arrays(judge: str, model: str):
    """y, f on the labelled items and f on the unlabelled ones, for one model and one judge."""
    lab, m = W["lab"], W["models"][model]
    y = (m == W["truth"]).astype(float)[lab]
    f = (W["judges"][judge] == m).astype(float)
    return y, f[lab], f[~lab]


def _diff_arrays(judge: str):
    ya, fa, fua = _arrays(judge, "a")
    yb, fb, fub = _arrays(judge, "b")
    return ya - yb, fa - fb, fua - fub


def _close(e, ref) -> None:
    """Every number of two :class:`~humanly.judging.Estimate` within TOL."""
    for field in ("point", "se", "lam", "classical_point", "sd"):
        assert getattr(e, field) == pytest.approx(getattr(ref, field), abs=TOL), field
    for a, b in ((e.interval, ref.interval), (e.classical_interval, ref.classical_interval)):
        assert a.low == pytest.approx(b.low, abs=TOL) and a.high == pytest.approx(b.high, abs=TOL)
    assert e.n == ref.n
    if ref.effective_n is not None:
        assert e.effective_n == pytest.approx(ref.effective_n, rel=TOL)


def test_one_stratum_and_defaults_are_todays_ppi_plus_plus_bit_for_bit():
    res = humanly.judge(W["ratings"], W["preds"], judge=W["judge_series"]["big"])
    # today's PPI++ (main before issue 32): one fit of the columns a, b, a − b at once
    cols = [_arrays("big", "a"), _arrays("big", "b"), _diff_arrays("big")]
    y, f, fu = (np.column_stack([c[i] for c in cols]) for i in range(3))
    today = fit(y, f, moments(fu))
    for k, e in enumerate([res.model("a").accuracy, res.model("b").accuracy]):
        ref = estimate_of(today, k, 0.95)
        assert (e.point, e.interval, e.se, e.lam, e.classical_interval, e.effective_n) == (
            ref.point,
            ref.interval,
            ref.se,
            ref.lam,
            ref.classical_interval,
            ref.effective_n,
        )
    d, ref = res.comparison("a", "b").difference, estimate_of(today, 2, 0.95, -1.0)
    assert (d.point, d.interval, d.se, d.lam) == (ref.point, ref.interval, ref.se, ref.lam)
    e = res.model("a").accuracy
    assert e.interval_method == "clt" and e.strata == () and e.judges == ()
    # a single stratum given explicitly is the same numbers too
    one = pd.Series("all", index=W["items"])
    alone = humanly.judge(
        W["ratings"], W["preds"], judge=W["judge_series"]["big"], options=JudgeOptions(strata=one)
    )
    assert alone.model("a").accuracy.point == e.point
    assert alone.model("a").accuracy.interval == e.interval


def test_strata_equal_stratified_mean():
    strata = pd.Series(W["stratum"], index=W["items"])
    res = humanly.judge(
        W["ratings"],
        W["preds"],
        judge=W["judge_series"]["big"],
        # stratified_mean is PPI++'s central-limit interval per stratum; the default would take the
        # small-sample interval within the strata of fewer than 500 labels (docs/judge.md)
        options=JudgeOptions(strata=strata, interval="clt"),
    )
    assert res.design == "stratified"
    lab = W["lab"]
    for e, (y, f, fu) in (
        (res.model("a").accuracy, _arrays("big", "a")),
        (res.model("b").accuracy, _arrays("big", "b")),
        (res.comparison("a", "b").difference, _diff_arrays("big")),
    ):
        ref = stratified_mean(y, f, fu, W["stratum"][lab], W["stratum"][~lab])
        _close(e, ref.estimate)
        assert [s.stratum for s in e.strata] == [s.stratum for s in ref.strata]
        for mine, theirs in zip(e.strata, ref.strata, strict=True):
            assert mine.share == pytest.approx(theirs.share, abs=TOL)
            assert (mine.n, mine.n_unlabelled) == (theirs.n, theirs.n_unlabelled)
            _close(mine.estimate, theirs.estimate)


def test_several_judges_equal_combine_judges():
    res = humanly.judge(W["ratings"], W["preds"], judge=W["judge_series"])
    assert res.judges == ("big", "small")
    for e, pieces in (
        (res.model("a").accuracy, [_arrays(j, "a") for j in ("big", "small")]),
        (res.comparison("a", "b").difference, [_diff_arrays(j) for j in ("big", "small")]),
    ):
        y = pieces[0][0]
        f = np.column_stack([p[1] for p in pieces])
        fu = np.column_stack([p[2] for p in pieces])
        ref = combine_judges(y, f, fu, judges=["big", "small"])
        _close(e, ref.estimate)
        for mine, theirs in zip(e.judges, ref.judges, strict=True):
            assert mine.judge == theirs.judge
            assert mine.weight == pytest.approx(theirs.weight, abs=TOL)
            _close(mine.alone, theirs.alone)


@pytest.mark.parametrize("folds", [5, 10])
def test_a_fitted_judge_equals_crossfit_mean(folds):
    opts = JudgeOptions(fitted_on_labels=True, folds=folds)
    res = humanly.judge(
        W["ratings"], W["preds"], judge=W["judge_series"]["small"], seed=3, options=opts
    )
    assert res.folds == folds and "crossfit" in res.codes
    y, f, fu = _arrays("small", "a")
    ref = crossfit_mean(y, f, fu, folds=folds, seed=3)
    _close(res.model("a").accuracy, ref.estimate)


def test_sampling_weights_equal_the_weighted_arrays_and_the_probabilities_option():
    rng = np.random.default_rng(11)
    pi = np.clip(rng.random(N), 0.05, 0.6)
    weights = pd.Series(1 / pi, index=W["items"])
    res = humanly.judge(
        W["ratings"],
        W["preds"],
        judge=W["judge_series"]["big"],
        options=JudgeOptions(sampling_weights=weights),
    )
    assert res.design == "active" and res.codes[0] == "weighted_design"
    lab = W["lab"]
    y, f, fu = _arrays("big", "a")
    ref = stratified_mean(
        y,
        f,
        fu,
        np.zeros(lab.sum()),
        np.zeros((~lab).sum()),
        weights=1 / pi[lab],
        weights_unlabelled=1 / (1 - pi[~lab]),
    )
    _close(res.model("a").accuracy, ref.estimate)
    given = humanly.judge(
        W["ratings"],
        W["preds"],
        judge=W["judge_series"]["big"],
        options=JudgeOptions(probabilities=pd.Series(pi, index=W["items"])),
    )
    assert given.model("a").accuracy.point == pytest.approx(res.model("a").accuracy.point, abs=TOL)


@pytest.mark.parametrize("interval", ["adjusted", "auto"])
def test_the_small_sample_interval_equals_small_sample_mean(interval):
    res = humanly.judge(
        W["ratings"],
        W["preds"],
        judge=W["judge_series"]["big"],
        options=JudgeOptions(interval=interval),
    )
    y, f, fu = _arrays("big", "a")
    ref = small_sample_mean(y, f, fu, interval=interval)
    e = res.model("a").accuracy
    assert e.interval_method == ref.method
    assert e.point == pytest.approx(ref.estimate.point, abs=TOL)
    assert e.interval.low == pytest.approx(ref.estimate.interval.low, abs=TOL)
    assert e.interval.high == pytest.approx(ref.estimate.interval.high, abs=TOL)
    yd, fd, fud = _diff_arrays("big")
    ref_d = small_sample_mean(yd, fd, fud, kind="difference", scale=(0, 1), interval=interval)
    d = res.comparison("a", "b").difference
    assert d.interval_method == ref_d.method
    assert d.interval.low == pytest.approx(ref_d.estimate.interval.low, abs=TOL)
    assert ("small_sample" in res.codes) == (ref.method == "adjusted")


def test_ratings_equal_the_rating_functions():
    rng = np.random.default_rng(5)
    items = np.array([f"i{k:05d}" for k in range(N)])
    levels = np.arange(1, 6)
    shares = {"a": [0.05, 0.1, 0.2, 0.35, 0.3], "b": [0.1, 0.15, 0.25, 0.3, 0.2]}
    human = {m: rng.choice(levels, N, p=p) for m, p in shares.items()}
    judged = {m: np.clip(h + rng.choice([-1, 0, 0, 0, 1], N), 1, 5) for m, h in human.items()}
    lab = rng.random(N) < 0.2
    study = join_ratings(
        pd.DataFrame({m: h[lab] for m, h in human.items()}, index=items[lab]),
        pd.DataFrame(judged, index=items),
        scale=(1, 5),
    )
    opts = JudgeOptions(threshold=4, quantile=0.5, scale=(1, 5))
    res = humanly.judge(study, options=opts)
    a, b = res.ratings
    ha, hb, ja, jb = human["a"], human["b"], judged["a"], judged["b"]
    _close(a.mean, rating_mean(ha[lab], ja[lab], ja[~lab]))
    _close(a.share, share_at_least(ha[lab], ja[lab], ja[~lab], 4))
    diff = paired_difference(ha[lab], hb[lab], ja[lab], jb[lab], ja[~lab], jb[~lab])
    _close(res.rating_comparisons[0].mean_difference, diff)
    q = rating_quantile(ha[lab], ja[lab], ja[~lab], 0.5)
    assert (a.quantile.point, a.quantile.interval, a.quantile.method) == (
        q.point,
        q.interval,
        q.method,
    )
    assert b.model == "b"


def test_several_judges_with_sampling_weights_reduce_to_the_weighted_ppi_plus_plus():
    """The weighted multi-judge form (sampling weights and several judges) with one judge is the
    weighted PPI++ fit of one judge — the active design's estimator — to 1e-12."""
    from humanly.judging._multi import fit_judges_weighted

    rng = np.random.default_rng(1)
    n, big_n = 300, 3000
    y = rng.random((n, 2))
    f = y[:, :, None] + rng.normal(0, 0.3, (n, 2, 1))
    fu = rng.random((big_n, 2, 1))
    v, w = 1 / rng.uniform(0.1, 0.9, n), 1 / (1 - rng.uniform(0.1, 0.9, big_n))
    one = fit_judges_weighted(y, f, fu, v, w)
    ref = fit(y, f[:, :, 0], moments(fu[:, :, 0], w[:, None]), weights=v[:, None])
    for field in ("point", "se", "lam", "classical_point", "sd", "rho"):
        assert np.allclose(getattr(one, field), getattr(ref, field), rtol=0, atol=TOL), field
