"""Gold checks with intervals (Table 2): each side with its uncertainty, never FAIL on two point
estimates; a model that copies the crowd's bias is evidence against Theorem 3."""

from __future__ import annotations

import numpy as np
import pytest

from humanly import simulate
from humanly.certification import _assumptions as A
from humanly.certification import certify


def _bootstrap_se(stat, n: int, reps: int = 600, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    vals = [stat(rng.integers(0, n, size=n)) for _ in range(reps)]
    return float(np.nanstd(vals, ddof=1))


def test_slots_theorem1_interval_matches_a_bootstrap_over_items() -> None:
    d = simulate.oracle(800, [0.8, 0.7, 0.75, 0.85, 0.6], n_classes=3, seed=1)
    counts, g = d.ratings.counts, d.gold.codes.astype(np.int64)
    _, _, _, est = A.slots_theorem1(counts, g)

    def stat(idx: np.ndarray) -> float:
        out = A.slots_theorem1(counts[idx], g[idx])
        return out[3].value

    assert est.se == pytest.approx(_bootstrap_se(stat, len(g)), rel=0.15)


def test_named_theorem1_interval_matches_a_bootstrap_and_the_sparse_path() -> None:
    d = simulate.oracle(500, [0.8, 0.7, 0.75, 0.85], n_classes=2, labels_per_item=(2, 4), seed=3)
    r, g = d.ratings, d.gold.codes.astype(np.int64)
    item, rater, label = r.item_codes, r.rater_codes, r.label_codes
    hit = (label == g[item]).astype(float)
    dense = A._named_dense(item, rater, hit, r.n_items, 4)
    sparse = A._named_sparse(item, rater, hit, r.n_items, 4)
    for f in ("left", "right", "pairs_passed", "n_pairs"):
        assert getattr(sparse, f) == pytest.approx(getattr(dense, f), abs=1e-12)
    assert sparse.difference.se == pytest.approx(dense.difference.se, rel=1e-9)

    def stat(idx: np.ndarray) -> float:
        # resample items: relabel the drawn copies as new items
        pos = np.concatenate([np.flatnonzero(item == i) for i in idx])
        new_item = np.repeat(np.arange(len(idx)), [np.sum(item == i) for i in idx])
        out = A._named_dense(new_item, rater[pos], hit[pos], len(idx), 4)
        return out.difference.value

    assert dense.difference.se == pytest.approx(_bootstrap_se(stat, r.n_items, 300), rel=0.2)


def test_named_theorem1_sparse_path_with_single_label_raters() -> None:
    rng = np.random.default_rng(5)
    item = np.r_[np.repeat(np.arange(80), 3), np.arange(80)]
    rater = np.r_[np.tile([0, 1, 2], 80), np.arange(80) + 3]  # raters 3… give one label each
    hit = (rng.random(len(item)) < 0.75).astype(float)
    dense = A._named_dense(item, rater, hit, 80, 83)
    sparse = A._named_sparse(item, rater, hit, 80, 83)
    assert sparse.left == pytest.approx(dense.left, abs=1e-12)
    assert sparse.right == pytest.approx(dense.right, abs=1e-12)
    assert sparse.pairs_passed == pytest.approx(dense.pairs_passed, abs=1e-12)
    assert sparse.n_pairs == dense.n_pairs
    assert sparse.difference.se == pytest.approx(dense.difference.se, rel=1e-9)


def test_theorem3_interval_matches_a_bootstrap() -> None:
    d = simulate.oracle(1500, [0.7, 0.65, 0.75], n_classes=3, models={"m": 0.8}, seed=2)
    res = certify(d.ratings, d.predictions, gold=d.gold)
    th3 = res.oracle.assumptions[1]
    counts = d.ratings.counts
    g = d.gold.codes.astype(np.int64)
    p = d.predictions.hard("m").astype(np.int64)
    from humanly._core.counts import plurality_credit

    wrong = 1 - plurality_credit(counts, g)
    credit = plurality_credit(counts, p)
    _, _, _, _, est = A.theorem3(p, g, wrong, 3)
    assert est.value == pytest.approx(th3.difference)
    assert th3.interval == pytest.approx(est.interval())

    def stat(idx: np.ndarray) -> float:
        return A.theorem3(p[idx], g[idx], wrong[idx], 3)[4].value

    assert est.se == pytest.approx(_bootstrap_se(stat, len(g)), rel=0.15)
    concl = A.theorem3_conclusion(credit, (p == g).astype(float))
    assert th3.conclusion == pytest.approx(concl.value)
    assert th3.conclusion == pytest.approx(res.models[0].lower - res.oracle.models["m"])


def test_independent_raters_are_consistent_at_the_nominal_rate() -> None:
    """Named raters of equal accuracy, independent: Theorem 1's assumption holds with equality, so a
    point comparison "fails" half the time; the 95 % interval covers 0 about 95 % of the time."""
    covered, failed_points = 0, 0
    runs = 150
    for seed in range(runs):
        d = simulate.oracle(300, [0.75] * 4, n_classes=2, seed=seed)
        a = certify(d.ratings, gold=d.gold, rater_mode="named").oracle.assumptions[0]
        low, high = a.interval
        covered += low <= 0 <= high
        failed_points += not a.passed
        assert a.status in ("consistent", "evidence_against")
        assert a.difference == pytest.approx(a.left - a.right)
    assert 0.89 <= covered / runs <= 0.99
    assert failed_points > 0.3 * runs  # what a FAIL on two point estimates would have reported


def test_the_point_fail_of_issue_15_is_now_consistent() -> None:
    d = simulate.oracle(150, [0.8, 0.75, 0.7, 0.85], models={"a": 0.85, "b": 0.75}, seed=8)
    a = certify(d.ratings, d.predictions, gold=d.gold).oracle.assumptions[0]
    assert not a.passed  # 0.7994 vs 0.8033 by point estimates
    assert a.status == "consistent" and a.interval[0] < 0 < a.interval[1]
    assert a.method == A.METHOD
    d = a.to_dict()
    assert d["passed"] is False and d["status"] == "consistent" and len(d["interval"]) == 2


def test_a_model_that_copies_the_crowds_bias_fails_theorem3() -> None:
    # a crowd that often labels class 1 as 0; the model copies the crowd's plurality 90 % of the time
    conf = np.array([[[0.9, 0.1], [0.45, 0.55]]] * 5)
    d = simulate.oracle(
        3000, conf, models={"copy": 0.8, "honest": 0.9}, copy_crowd={"copy": 0.9}, seed=0
    )
    res = certify(d.ratings, d.predictions, gold=d.gold)
    acc = res.oracle.models
    copy = res.model("copy")
    assert copy.lower > acc["copy"] + 0.1  # the lower bound exceeds the true accuracy …
    assert not res.oracle.held["lower:copy"]
    th3 = {a.name: a for a in res.oracle.assumptions}
    bad = th3["theorem3:copy"]
    assert bad.status == "evidence_against"  # … reported as Theorem 3's assumption failing
    assert bad.conclusion_interval[0] > 0 and bad.conclusion == pytest.approx(
        copy.lower - acc["copy"], abs=1e-12
    )
    assert bad.interval[1] < 0  # and Table 2(b) itself says so
    good = th3["theorem3:honest"]
    assert good.status == "consistent" and good.conclusion_interval[1] < 0
    # the model's own accuracy is unchanged by copy_crowd for the other model
    plain = simulate.oracle(3000, conf, models={"copy": 0.8, "honest": 0.9}, seed=0)
    assert np.array_equal(plain.predictions.hard("honest"), d.predictions.hard("honest"))
    assert np.array_equal(plain.ratings.label_codes, d.ratings.label_codes)


def test_vacuous_and_undetermined() -> None:
    d = simulate.oracle(50, [1.0, 1.0, 1.0], models={"m": 0.9}, seed=1)
    th3 = certify(d.ratings, d.predictions, gold=d.gold).oracle.assumptions[1]
    assert th3.status == "vacuous" and th3.passed and th3.n == 0
    assert th3.conclusion <= 0


def test_a_few_identical_items_are_no_evidence() -> None:
    """Two items where the aggregate is wrong and the model says the same wrong class: the spread is 0,
    but the standard error is floored at 1.5/n, so this is not evidence against at 95 %."""
    p, g = np.array([1, 1, 0, 0]), np.array([0, 0, 0, 0])
    wrong = np.array([1.0, 1.0, 0.0, 0.0])
    left, _, _, _, d = A.theorem3(p, g, wrong, 2)
    assert left == 0.0 and d.value == -1.0
    assert d.interval()[1] > 0
    many = A.theorem3(np.ones(200, int), np.zeros(200, int), np.ones(200), 2)[4]
    assert many.interval()[1] < 0  # 200 such items are
