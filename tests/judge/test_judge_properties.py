"""Invariants of ``judge()`` (hypothesis): a perfect judge gives the pooled answer of n + N human labels,
a pure-noise judge gives back the classical interval, accuracies stay in [0, 1], intervals are ordered,
and neither the order of the input rows nor the item ids change the numbers."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from humanly import Ratings
from humanly.judging import JudgeOptions, JudgeResult, judge
from humanly.judging._ppi import fit, moments

#: the tests of PPI's math ask for its central-limit interval: with fewer than 500 labels the default
#: is the human labels' small-sample interval (docs/judge.md's coverage table)
CLT = JudgeOptions(interval="clt")


def _study(seed: int, n: int, big_n: int, judge_acc: float, n_classes: int = 2, soft: bool = False):
    rng = np.random.default_rng(seed)
    total = n + big_n
    ids = np.array([f"x{k}" for k in rng.permutation(total)])
    truth = rng.integers(0, n_classes, total)

    def noisy(acc: float) -> np.ndarray:
        return np.where(rng.random(total) < acc, truth, rng.integers(0, n_classes, total))

    models = {"a": pd.Series(noisy(0.8), index=ids), "b": pd.Series(noisy(0.65), index=ids)}
    j = noisy(judge_acc)
    if soft:
        proba = rng.dirichlet(np.ones(n_classes), total) * 0.5
        proba[np.arange(total), j] += 0.5
        llm = pd.DataFrame(proba, index=ids, columns=list(range(n_classes)))
    else:
        llm = pd.Series(j, index=ids)
    frame = pd.DataFrame({"item": ids[:n], "rater": "r", "label": truth[:n]})
    human = Ratings.from_frame(frame, classes=list(range(n_classes)))
    return human, models, llm, truth, ids


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(30, 300), ratio=st.integers(2, 40))
@example(seed=475765, n=30, ratio=2)  # halves whose means differ: 0.969 of the pooled error
def test_a_perfect_judge_gives_the_pooled_answer(seed: int, n: int, ratio: int) -> None:
    """A judge that equals the human label on every item: the PPI++ estimate is a weighted mean of
    the n + N human labels, λ̂·mean(unlabelled) + (1 − λ̂)·mean(labelled), with λ̂ = N/(n + N) up to
    the variance estimates (ppi-python's λ̂ divides the labelled items' variance by the pooled one, a
    noisy ratio when n is small and the accuracy near 1), and its standard error is never above that of
    the n labels alone; with λ at its ideal N/(n + N) the estimate is the pooled mean and its standard
    error that of n + N labels."""
    big_n = ratio * n
    human, models, _, truth, ids = _study(seed, n, big_n, 0.9)
    llm = pd.Series(truth, index=ids)  # the judge gives the truth, which the humans also give
    # PPI++'s estimate is the point (with n < 500 the default is the human labels' small-sample one)
    res = judge(human, models, judge=llm, options=CLT)
    for name, preds in models.items():
        y = (preds.to_numpy() == truth).astype(float)
        y_lab, y_unl = y[:n], y[n:]
        if y_lab.std() == 0:
            continue
        a = res.model(name).accuracy
        pooled_var = y.var(ddof=1)
        lam = min(1.0, big_n / (n + big_n) * y_lab.var() / pooled_var)
        assert a.lam == pytest.approx(lam, rel=1e-12)
        assert a.point == pytest.approx(lam * y_unl.mean() + (1 - lam) * y_lab.mean(), abs=1e-12)
        pooled_se = y.std() / np.sqrt(n + big_n)
        # no better than the best mix of the two halves' (estimated) variances, no worse than humans
        best = 1 / np.sqrt(big_n / y_unl.var() + n / y_lab.var()) if y_unl.var() > 0 else 0.0
        assert best * (1 - 1e-9) <= a.se <= y_lab.std() / np.sqrt(n) * (1 + 1e-12)
        ideal = fit(y_lab, y_lab, moments(y_unl), lam=big_n / (n + big_n))
        assert ideal.point[0] == pytest.approx(y.mean(), abs=1e-12)
        # exactly the n + N labels' standard error less the part the halves' means differ by:
        # pooled variance = within the halves + n·N·(mean gap)² / (n + N)² (divisors n, N, n + N)
        gap = y_unl.mean() - y_lab.mean()
        within = pooled_se**2 - n * big_n * gap**2 / (n + big_n) ** 3
        assert ideal.se[0] ** 2 == pytest.approx(within, rel=1e-9, abs=1e-15)
        assert ideal.se[0] <= pooled_se * (1.0 + 1e-12)


def test_a_perfect_judge_with_matching_halves_gives_the_pooled_mean_exactly() -> None:
    """When the labelled and the unlabelled items have the same mean, the estimate is the pooled mean
    of all n + N labels, with the standard error of n + N labels to within the divisors."""
    n, big_n = 40, 400
    ids = [f"i{k}" for k in range(n + big_n)]
    truth = np.array(([1, 1, 1, 0] * 10) + ([1, 1, 1, 0] * 100))
    human = Ratings.from_long(ids[:n], ["r"] * n, truth[:n], classes=[0, 1])
    model = pd.Series(1, index=ids)
    res = judge(human, {"m": model}, judge=pd.Series(truth, index=ids), options=CLT)
    a = res.model("m").accuracy
    assert a.point == pytest.approx(0.75, abs=1e-15)
    assert a.se == pytest.approx(np.sqrt(0.75 * 0.25 / (n + big_n)), rel=0.01)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(100, 1000), big_n=st.integers(200, 20000))
def test_a_pure_noise_judge_gives_back_the_classical_interval(
    seed: int, n: int, big_n: int
) -> None:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(float)
    f, f_unl = rng.random(n), rng.random(big_n)  # independent of y
    r = fit(y, f, moments(f_unl))
    sd_ratio = y.std() / f.std()
    assert abs(r.lam[0]) <= 5 * sd_ratio / np.sqrt(n)  # λ̂ → 0 (five standard errors)
    assert r.se[0] <= 1.01 * r.classical_se[0]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 120),
    big_n=st.integers(1, 600),
    judge_acc=st.floats(0.0, 1.0),
    n_classes=st.integers(2, 4),
    soft=st.booleans(),
    estimator=st.sampled_from(["ppi++", "ppi", "classical"]),
    level=st.sampled_from([0.5, 0.9, 0.95, 0.999]),
)
def test_estimates_in_range_and_intervals_ordered(
    seed, n, big_n, judge_acc, n_classes, soft, estimator, level
) -> None:
    human, models, llm, _, _ = _study(seed, n, big_n, judge_acc, n_classes, soft)
    res = judge(human, models, judge=llm, estimator=estimator, level=level)
    estimates = [(m.accuracy, 0.0) for m in res.models]
    estimates += [(c.difference, -1.0) for c in res.comparisons]
    for e, floor in estimates:
        human = e.classical_interval
        for low, point, high in (
            (e.interval.low, e.point, e.interval.high),
            (human.low, e.classical_point, human.high),
        ):
            assert floor <= low <= point <= high <= 1.0
        assert 0.0 <= e.lam <= 1.0
    fr = res.frontier
    assert 0.0 <= fr.judge_interval.low <= fr.judge_accuracy <= fr.judge_interval.high <= 1.0
    for row in fr.models:
        assert 0.0 <= row.model_interval.low <= row.model_accuracy <= row.model_interval.high <= 1.0
        d = row.judge_minus_model_interval
        assert -1.0 <= d.low <= row.judge_minus_model <= d.high <= 1.0


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), soft=st.booleans(), n_classes=st.integers(2, 3))
def test_input_row_order_does_not_matter(seed: int, soft: bool, n_classes: int) -> None:
    human, models, llm, _, _ = _study(seed, 60, 400, 0.85, n_classes, soft)
    base = judge(human, models, judge=llm).to_dict()
    rng = np.random.default_rng(seed + 1)

    def shuffled(x):
        return x.iloc[rng.permutation(len(x))]

    frame = human.to_frame()
    again = judge(
        shuffled(frame), {k: shuffled(v) for k, v in models.items()}, judge=shuffled(llm)
    ).to_dict()
    assert json.dumps(again) == json.dumps(base)  # the same numbers, to the last digit


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), soft=st.booleans())
def test_item_ids_do_not_matter(seed: int, soft: bool) -> None:
    """Renaming the items (so that their sorted order changes) permutes the items only."""
    human, models, llm, _, ids = _study(seed, 80, 500, 0.85, 3, soft)
    base = judge(human, models, judge=llm)
    rng = np.random.default_rng(seed + 2)
    rename = dict(zip(ids, [f"y{k}" for k in rng.permutation(len(ids))], strict=True))
    frame = human.to_frame()
    human2 = Ratings.from_frame(frame.assign(item=frame["item"].map(rename)), classes=[0, 1, 2])
    models2 = {k: v.rename(index=rename) for k, v in models.items()}
    again = judge(human2, models2, judge=llm.rename(index=rename))
    a, b = base.to_frame(), again.to_frame()
    numeric = a.select_dtypes("number").columns
    np.testing.assert_allclose(a[numeric].to_numpy(float), b[numeric].to_numpy(float), rtol=1e-10,
                               atol=1e-12)  # fmt: skip


def test_ratings_as_a_study_with_unlabelled_items() -> None:
    """A Study whose ratings hold items with no label (zero counts) carries the unlabelled items."""
    from humanly.data import Predictions, join

    human, models, llm, _, ids = _study(5, 50, 300, 0.9)
    counts = np.zeros((len(ids), 2), dtype=int)
    frame = human.to_frame()
    labelled = pd.Series(frame["label"].to_numpy(), index=frame["item"])
    pos = pd.Index(ids).get_indexer(labelled.index)
    counts[pos, labelled.to_numpy().astype(int)] = 1
    ratings = Ratings.from_counts(counts, items=ids, classes=[0, 1])
    preds = Predictions.from_arrays(
        ids, {k: v.loc[ids].to_numpy() for k, v in models.items()}, classes=[0, 1]
    )
    from_study = judge(join(ratings, preds, judge=llm))
    direct = judge(human, models, judge=llm)
    assert from_study.to_dict() == direct.to_dict()
    assert isinstance(JudgeResult.from_dict(from_study.to_dict()), JudgeResult)
