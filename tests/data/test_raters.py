"""Per-rater quality: agreement with the other labels of the same item against a brute-force loop over
labels, Dawid–Skene against a small dense implementation written here (and against the accuracies a
simulated crowd was drawn with), and both on Snow et al.'s RTE data against the expert labels."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly.crowd.dawid_skene import FLOOR, dawid_skene
from humanly.crowd.raters import label_credit, rater_agreement, rater_summary

# ---------------------------------------------------------------------------- agreement, brute force

long_rows = st.lists(
    st.tuples(st.integers(0, 7), st.integers(0, 4), st.sampled_from("abc")),
    min_size=1,
    max_size=30,
    unique_by=lambda t: (t[0], t[1]),
)


def _brute(rows: list[tuple[int, int, str]]) -> tuple[dict[int, list[float]], list[float]]:
    """Per rater, the credit of each of their labels against the plurality of the other labels of
    the item (one loop per label); and every credit of the crowd."""
    per_rater: dict[int, list[float]] = {}
    crowd: list[float] = []
    for pos, (item, rater, label) in enumerate(rows):
        others = [lab for p, (i, _, lab) in enumerate(rows) if i == item and p != pos]
        if not others:
            continue
        tally = Counter(others)
        top = max(tally.values())
        tied = [c for c, v in tally.items() if v == top]
        credit = 1.0 / len(tied) if label in tied else 0.0
        per_rater.setdefault(rater, []).append(credit)
        crowd.append(credit)
    return per_rater, crowd


@settings(max_examples=150, deadline=None)
@given(long_rows)
def test_agreement_matches_a_loop_over_labels(rows):
    frame = pd.DataFrame(rows, columns=["item", "rater", "label"])
    r = humanly.Ratings.from_frame(frame, classes=["a", "b", "c"])
    got = rater_agreement(r)
    per_rater, crowd = _brute(rows)
    for j, rater in enumerate(r.raters):
        credits = per_rater.get(rater, [])
        assert got.n_compared[j] == len(credits)
        if credits:
            assert got.agreement[j] == pytest.approx(np.mean(credits), abs=1e-12)
        else:
            assert np.isnan(got.agreement[j])
    if crowd:
        assert got.crowd == pytest.approx(np.mean(crowd), abs=1e-12)
    else:
        assert np.isnan(got.crowd)
    rows_ = rater_summary(r).rows
    # rows in canonical order (raters sorted by id): compare by rater
    assert {row.rater: row.agreement is None for row in rows_} == {
        x: not per_rater.get(x) for x in r.raters
    }


def test_label_credit_by_hand():
    #  item 0: a a b  → an 'a' faces {a, b} (tie: 1/2), 'b' faces {a, a} (0)
    #  item 1: a b c  → every label faces a tie of two other classes it is not in (0)
    #  item 2: a a a b → an 'a' faces {a, a, b} (1)
    counts = np.array([[2, 1, 0], [1, 1, 1], [3, 1, 0], [1, 0, 0]])
    items = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3])
    labels = np.array([0, 0, 1, 0, 1, 2, 0, 0, 0, 1, 0])
    got = label_credit(counts, items, labels)
    np.testing.assert_array_equal(got[:-1], [0.5, 0.5, 0, 0, 0, 0, 1, 1, 1, 0])
    assert np.isnan(got[-1])  # a lone label: nothing to agree with


# ---------------------------------------------------------------------------- Dawid–Skene


def _dense_dawid_skene(
    matrix: np.ndarray, n_classes: int, tol: float, max_iter: int
) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """Dawid–Skene written plainly on the items × raters label matrix (-1: no label): loops over
    raters and classes, the same initialisation (majority vote, ties shared), floor and stopping rule
    as the library. Returns (prior, accuracy per rater, iterations, converged)."""
    n_items, n_raters = matrix.shape
    seen = matrix >= 0
    counts = np.stack([(matrix == c).sum(axis=1) for c in range(n_classes)], axis=1)
    top = counts.max(axis=1, keepdims=True)
    post = ((counts == top) & (top > 0)).astype(float)
    post /= np.maximum(post.sum(axis=1, keepdims=True), 1)
    labelled = seen.any(axis=1)

    def m_step(post):
        prior = post[labelled].mean(axis=0)
        theta = np.full((n_raters, n_classes, n_classes), 1.0 / n_classes)
        for r in range(n_raters):
            for c in range(n_classes):
                mass = np.array([post[matrix[:, r] == k, c].sum() for k in range(n_classes)])
                if mass.sum() > 0:
                    theta[r, c] = mass / mass.sum()
        return prior, theta

    def e_step(prior, theta):
        log_post = np.tile(np.log(np.maximum(prior, FLOOR)), (n_items, 1))
        for r in range(n_raters):
            rows = np.flatnonzero(seen[:, r])
            for c in range(n_classes):
                log_post[rows, c] += np.log(np.maximum(theta[r, c, matrix[rows, r]], FLOOR))
        log_post -= log_post.max(axis=1, keepdims=True)
        post = np.exp(log_post)
        post /= post.sum(axis=1, keepdims=True)
        post[~labelled] = 0
        return post

    prior, theta = m_step(post)
    iterations, converged, last = 1, False, np.inf
    while iterations < max_iter:
        new_prior, new_theta = m_step(e_step(prior, theta))
        iterations += 1
        change = max(np.abs(new_prior - prior).max(), np.abs(new_theta - theta).max())
        prior, theta = new_prior, new_theta
        # the distance from the fixed point, change / (1 − rate), with rate = change / last change
        rate = change / last
        if change == 0 or (rate < 1 and change / (1 - rate) <= tol):
            converged = True
            break
        last = change
    accuracy = np.array(
        [sum(prior[c] * theta[r, c, c] for c in range(n_classes)) for r in range(n_raters)]
    )
    return prior, accuracy, iterations, converged


def _simulated_crowd(seed: int, n_items: int = 4000, n_raters: int = 15, per_item: int = 5):
    """Items with a true class from prior (0.5, 0.3, 0.2); each labelled by ``per_item`` distinct
    raters drawn uniformly; rater r is right with probability a_r ∈ [0.55, 0.9] and otherwise picks
    one of the two wrong classes at random, so its accuracy is a_r whatever the class."""
    rng = np.random.default_rng(seed)
    truth = rng.choice(3, n_items, p=[0.5, 0.3, 0.2])
    acc = rng.uniform(0.55, 0.9, n_raters)
    who = np.argsort(rng.random((n_items, n_raters)), axis=1)[:, :per_item]
    items = np.repeat(np.arange(n_items), per_item)
    raters = who.reshape(-1)
    right = rng.random(len(items)) < acc[raters]
    wrong = (truth[items] + rng.integers(1, 3, len(items))) % 3
    labels = np.where(right, truth[items], wrong)
    r = humanly.Ratings.from_long(items, raters, labels, classes=[0, 1, 2])
    return r, acc[r.raters.to_numpy()], truth


@pytest.mark.parametrize("seed", [0, 1])
def test_dawid_skene_matches_a_dense_implementation_and_recovers_the_crowd(seed):
    """Plain EM (``accelerate=False``) takes the dense implementation's steps one for one; SQUAREM
    finds the same fixed point (both run to 1e-11 on the EM map: they agree to 1e-8).

    Each rater gives about 4000 · 5 / 15 ≈ 1,333 labels, so even with the true classes known its
    accuracy is estimated with standard deviation √(a (1 − a) / 1333) ≤ 0.0137: we allow 4 of them
    (0.055) for every rater and 0.02 for the mean absolute error (≈ 0.8 · 0.0137 expected)."""
    r, true_acc, truth = _simulated_crowd(seed)
    plain = dawid_skene(r, accelerate=False, starts="plurality")
    prior, acc, iterations, converged = _dense_dawid_skene(r.matrix(), 3, plain.tol, plain.max_iter)
    assert plain.converged and converged and plain.iterations == iterations
    np.testing.assert_allclose(plain.accuracy, acc, atol=1e-9)
    np.testing.assert_allclose(plain.prior, prior, atol=1e-9)
    fit = dawid_skene(r)  # SQUAREM, the default
    assert fit.converged and fit.accelerate and fit.iterations < plain.iterations
    tight = dawid_skene(r, tol=1e-11), dawid_skene(r, tol=1e-11, accelerate=False)
    np.testing.assert_allclose(tight[0].accuracy, tight[1].accuracy, atol=1e-8)
    np.testing.assert_allclose(fit.accuracy, tight[1].accuracy, atol=1e-5)
    assert fit.log_likelihood >= plain.log_likelihood - 1e-6
    assert np.abs(fit.accuracy - true_acc).max() < 0.055
    assert np.abs(fit.accuracy - true_acc).mean() < 0.02
    np.testing.assert_allclose(fit.prior, [0.5, 0.3, 0.2], atol=0.03)
    np.testing.assert_allclose(fit.posterior.sum(axis=1), 1.0)
    np.testing.assert_allclose(fit.confusion.sum(axis=2), 1.0)
    # the posterior mode beats the majority vote at recovering the truth
    majority = np.argmax(r.counts, axis=1)
    assert (fit.posterior.argmax(axis=1) == truth).mean() >= (majority == truth).mean()


def test_squarem_on_a_slow_sparse_design():
    """Three labels per item from 60 raters: plain EM creeps (linear rate near 1); SQUAREM reaches
    the same fixed point in a fraction of the steps and never lowers the likelihood."""
    rng = np.random.default_rng(4)
    n_items, n_raters = 6000, 60
    truth = (rng.random(n_items) < 0.2).astype(int)
    acc = rng.uniform(0.6, 0.95, n_raters)
    items = np.repeat(np.arange(n_items), 3)
    raters = ((np.arange(3) * 7)[None, :] + rng.integers(0, n_raters, n_items)[:, None]) % n_raters
    raters = raters.reshape(-1)
    labels = np.where(rng.random(len(items)) < acc[raters], truth[items], 1 - truth[items])
    r = humanly.Ratings.from_long(items, raters, labels)
    fast = dawid_skene(r, tol=1e-9)
    slow = dawid_skene(r, tol=1e-9, accelerate=False)
    assert fast.converged and slow.converged
    assert fast.iterations * 3 < slow.iterations
    np.testing.assert_allclose(fast.accuracy, slow.accuracy, atol=1e-5)
    assert fast.log_likelihood >= slow.log_likelihood - 1e-6


def test_dawid_skene_is_invariant_to_the_order_of_items_and_raters():
    """Relabelled raters and shuffled labels give the same fit on a well-posed crowd (to rounding:
    the sums run in another order)."""
    r, _, _ = _simulated_crowd(5, n_items=1500)
    frame = r.to_frame()
    rng = np.random.default_rng(0)
    renamed = {x: f"z{rng.permutation(100)[0]}-{x}" for x in r.raters}
    other = frame.sample(frac=1.0, random_state=1).assign(rater=lambda f: f.rater.map(renamed))
    s = humanly.data.read_ratings(other, classes=r.classes)
    a, b = dawid_skene(r), dawid_skene(s)
    assert a.converged and b.converged
    acc_b = dict(zip(s.raters, b.accuracy, strict=True))
    np.testing.assert_allclose(a.accuracy, [acc_b[renamed[x]] for x in r.raters], atol=1e-6)
    np.testing.assert_allclose(a.prior, b.prior, atol=1e-8)
    assert a.log_likelihood == pytest.approx(b.log_likelihood, abs=1e-6)


def test_dawid_skene_fit_is_deterministic_and_reports_non_convergence():
    r, _, _ = _simulated_crowd(3, n_items=300)
    a, b = dawid_skene(r), dawid_skene(r)
    np.testing.assert_array_equal(a.accuracy, b.accuracy)
    for accelerate in (True, False):
        short = dawid_skene(r, max_iter=2, accelerate=accelerate, starts="plurality")
        assert not short.converged and short.iterations == 2
    # screening has its own budget (issue 34): a tolerance no start meets while screened
    table = rater_summary(r, tol=1e-30, max_iter=2)
    assert table.dawid_skene is not None and not table.dawid_skene.converged
    assert all(row.dawid_skene_accuracy is None for row in table.rows)
    assert all(row.agreement is not None for row in table.rows)  # agreement needs no fit
    with pytest.raises(ValueError, match=r"^tol=0: "):
        dawid_skene(r, tol=0)
    with pytest.raises(ValueError, match=r"^max_iter=0: "):
        dawid_skene(r, max_iter=0)
    with pytest.raises(TypeError, match=r"^accelerate='yes': "):
        dawid_skene(r, accelerate="yes")  # type: ignore[arg-type]


def test_memory_follows_labels_not_items_times_raters():
    """100,000 raters each labelling two of 100,000 items: a dense items × raters matrix would hold
    10¹⁰ cells; the coded arrays hold 200,000 labels."""
    n = 100_000
    items = np.repeat(np.arange(n), 2)
    raters = np.concatenate([np.arange(n), np.roll(np.arange(n), 1)]).reshape(2, n).T.reshape(-1)
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, n)
    labels = np.where(rng.random(2 * n) < 0.8, truth[items], 1 - truth[items])
    r = humanly.Ratings.from_long(items, raters, labels)
    s = rater_summary(r, dawid_skene=False)
    assert len(s.rows) == n and s.crowd_agreement is not None
    # the fit's memory: one start here (the default's 22 screened starts take ~1 min at this size)
    fit = dawid_skene(r, max_iter=20, random_starts=1, starts=("plurality",))
    assert fit.accuracy.shape == (n,)


def test_anonymous_counts_have_no_rater_table():
    r = humanly.Ratings.from_counts([[2, 1], [0, 3]])
    s = humanly.inspect(r)
    assert s.raters is None and s.to_dict()["raters"] is None
    with pytest.raises(ValueError, match="needs named raters"):
        rater_summary(r)
    with pytest.raises(TypeError, match=r"^ratings=None: "):
        dawid_skene(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- Snow et al. RTE


@pytest.fixture
def rte(shared_data: Path) -> tuple[humanly.Ratings, np.ndarray]:
    path = shared_data / "snow2008_rte" / "rte.standardized.tsv"
    r = humanly.data.read_ratings(
        path, item_col="orig_id", rater_col="!amt_worker_ids", label_col="response"
    )
    gold = humanly.data.read_gold(path, classes=r.classes, item_col="orig_id", gold_col="gold")
    return r, gold.for_items(r.items)


def test_snow_rte_raters_against_gold(rte):
    """164 Mechanical Turk workers, 10 labels per item, an expert label for every item. For the 9
    workers with ≥ 100 labels the Dawid–Skene accuracy and the accuracy against the expert label are
    measured on the same labels: they can differ only through the items where the posterior mode
    differs from the expert (7.25% of items), so we allow 0.08; measured: at most 0.047 apart,
    correlation 0.994. Five of those workers are near chance (≈ 0.5) and DS says so."""
    r, gold = rte
    fit = dawid_skene(r)
    assert fit.converged
    assert (fit.posterior.argmax(axis=1) == gold).mean() == pytest.approx(0.9275)
    by_id = pd.Series(np.asarray(r.classes)[gold], index=r.items).iloc[::-1]  # joined by item id
    frame = humanly.inspect(r, gold=by_id)
    assert frame.raters is not None
    assert rater_summary(r, gold=by_id) == frame.raters
    table = frame.raters.to_frame()
    assert list(table.columns) == [
        "rater", "n_labels", "n_compared", "agreement", "dawid_skene_accuracy", "gold_accuracy"
    ]  # fmt: skip
    assert len(table) == 164 and table.n_labels.sum() == 8000
    big = table[table.n_labels >= 100]
    assert len(big) == 9
    gap = (big.dawid_skene_accuracy - big.gold_accuracy).abs()
    assert gap.max() < 0.08
    assert np.corrcoef(big.dawid_skene_accuracy, big.gold_accuracy)[0, 1] > 0.97
    assert np.corrcoef(big.agreement, big.gold_accuracy)[0, 1] > 0.9
    assert ((big.dawid_skene_accuracy > 0.4) & (big.dawid_skene_accuracy < 1)).all()
    # the crowd agrees with itself more than its near-chance heavy workers do
    assert frame.raters.crowd_agreement == pytest.approx(0.709)
    assert (big.agreement < 0.6).sum() >= 4


# ---------------------------------------------------------------------------- labelled results


def test_dawid_skene_fit_is_labelled_and_round_trips():
    """The fit's arrays are indexed by the ratings' classes and raters, its tables say so, and its
    JSON reads back to the same JSON (the posteriors stay in memory only)."""
    import json

    from humanly.crowd.dawid_skene import DawidSkeneFit

    r, _, _ = _simulated_crowd(2, n_items=400)
    fit = dawid_skene(r)
    assert fit.classes == r.classes and fit.raters == tuple(r.raters)
    frame = fit.to_frame()
    assert list(frame.index.names) == ["rater", "true_class"] and list(frame.columns) == [0, 1, 2]
    rater = r.raters[3]
    np.testing.assert_array_equal(frame.loc[rater].to_numpy(), fit.confusion[3])
    assert fit.prior_frame()["prior"].to_dict() == dict(
        zip(r.classes, fit.prior.tolist(), strict=True)
    )
    assert fit.accuracy_frame().loc[rater, "accuracy"] == fit.accuracy[3]
    post = fit.posterior_frame()
    assert list(post.index) == list(r.items) and post.shape == (r.n_items, 3)
    data = json.loads(fit.to_json())
    assert "posterior" not in data and "items" not in data
    back = DawidSkeneFit.from_dict(data)
    assert back.to_dict() == data
    np.testing.assert_array_equal(back.confusion, fit.confusion)
    assert back.raters == fit.raters and back.classes == fit.classes
    with pytest.raises(humanly.InputError, match="holds no posteriors"):
        back.posterior_frame()


def test_rater_agreement_is_labelled_by_rater():
    r = humanly.Ratings.from_long(
        ["a", "a", "a", "b", "b"], ["u", "v", "w", "u", "v"], [0, 0, 1, 1, 1]
    )
    res = rater_agreement(r)
    assert res.raters == ("u", "v", "w")
    assert res.to_frame().loc["w"].tolist() == [1.0, 0.0]


def test_rater_summary_takes_a_study_and_gold_by_keyword():
    r = humanly.Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 0])
    gold = pd.Series([0, 1], index=["a", "b"])
    by_keyword = rater_summary(r, gold=gold)
    assert rater_summary(humanly.data.join(r, gold=gold)) == by_keyword
    assert [row.gold_accuracy for row in by_keyword.rows] == [1.0, 0.5]
    with pytest.raises(TypeError):
        rater_summary(r, gold)  # type: ignore[misc]  # gold is keyword-only
    with pytest.raises(humanly.InputError, match="carries its predictions and gold"):
        rater_summary(humanly.data.join(r, gold=gold), gold=gold)
