"""More than two classes exactly (section 5): the aggregated label's distribution against enumeration of
every sequence of m labels, the win probability against simulation (the package's plurality_vs_single
and a direct simulation with class-conditional confusion matrices), and the binary special case."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import InputError
from humanly.budget import (
    IndependentErrors,
    aggregated_label_distribution,
    majority_accuracy,
    multiclass_compare,
    multiclass_gap,
    multiclass_setting,
    outcome,
    plurality_vs_single,
    symmetric_confusion,
)

ASYM = np.array([[0.7, 0.2, 0.1], [0.15, 0.6, 0.25], [0.05, 0.15, 0.8]])
BETTER = np.array([[0.85, 0.1, 0.05], [0.1, 0.8, 0.1], [0.05, 0.05, 0.9]])
WORSE = np.array([[0.75, 0.15, 0.1], [0.2, 0.65, 0.15], [0.1, 0.1, 0.8]])
PRIOR = np.array([0.5, 0.3, 0.2])


def brute_distribution(conf: np.ndarray, m: int, rule: str) -> np.ndarray:
    """Every sequence of m labels, its probability and the aggregated label (plurality ties shared
    equally — a uniformly random tie-break; absolute majority: none unless > m/2)."""
    k = conf.shape[0]
    out = np.zeros((k, k + 1))
    for truth in range(k):
        for seq in itertools.product(range(k), repeat=m):
            pr = math.prod(conf[truth, j] for j in seq)
            counts = np.bincount(seq, minlength=k)
            if rule == "plurality":
                top = np.flatnonzero(counts == counts.max())
                out[truth, top] += pr / len(top)
            else:
                win = np.flatnonzero(2 * counts > m)
                out[truth, win[0] if len(win) else k] += pr
    return out


@pytest.mark.parametrize("rule", ["plurality", "majority"])
@pytest.mark.parametrize("m", [1, 2, 3, 4, 5, 6])
def test_aggregated_distribution_matches_enumeration(rule: str, m: int) -> None:
    ours = aggregated_label_distribution(ASYM, m, rule)  # type: ignore[arg-type]
    np.testing.assert_allclose(ours, brute_distribution(ASYM, m, rule), atol=1e-14)
    np.testing.assert_allclose(ours.sum(axis=1), 1.0, atol=1e-12)


def test_gap_by_enumerating_classifiers_and_labels() -> None:
    """x, y from the closed sums against enumerating (true class, c_b, c_w, aggregated label)."""
    setting = multiclass_setting(ASYM, BETTER, WORSE, PRIOR)
    for m, rule in itertools.product((1, 3, 4), ("plurality", "majority")):
        dist = brute_distribution(ASYM, m, rule)
        x = y = 0.0
        for t, b, w, lab in itertools.product(range(3), range(3), range(3), range(4)):
            pr = PRIOR[t] * BETTER[t, b] * WORSE[t, w] * dist[t, lab]
            g = (lab == b) - (lab == w)  # "no label" (3) matches neither
            x += pr * (g == 1)
            y += pr * (g == -1)
        gap = multiclass_gap(setting, m, rule)  # type: ignore[arg-type]
        assert (gap.x, gap.y) == pytest.approx((x, y), abs=1e-14)


def test_symmetric_case_matches_plurality_vs_single_simulation() -> None:
    """The exact plurality win probability against the package's Monte Carlo (K = 4, q = p = 0.7,
    ε = 0.05, k = 300), within 4 standard errors; plurality_vs_single now reports it as ``exact``."""
    k, q, p, eps = 4, 0.7, 0.7, 0.05
    exact = multiclass_compare(
        symmetric_confusion(k, q),
        symmetric_confusion(k, p + eps),
        symmetric_confusion(k, p),
        300,
        (1, 3, 4),
        rules=("plurality",),
    )
    mc = plurality_vs_single(k, q, p, eps, 300, (1, 3, 4), simulations=6000, seed=11)
    for e, s in zip(exact.rows, mc.rows, strict=True):
        assert abs(e.win - s.win) < 4 * s.se
        assert s.exact == pytest.approx(e.win, abs=1e-12)


def _simulate(budget: int, m: int, rule: str, reps: int, seed: int) -> float:
    """Direct simulation with the asymmetric setting: items, both classifiers, m labels, the rule."""
    rng = np.random.default_rng(seed)
    n = budget // m
    k = 3

    def draw(conf: np.ndarray, truth: np.ndarray, size: tuple[int, ...]) -> np.ndarray:
        cum = np.cumsum(conf[truth], axis=-1)
        u = rng.random((*size, 1))
        return (u > cum).sum(axis=-1)

    truth = rng.choice(k, size=(reps, n), p=PRIOR)
    cb, cw = draw(BETTER, truth, (reps, n)), draw(WORSE, truth, (reps, n))
    labels = np.stack([draw(ASYM, truth, (reps, n)) for _ in range(m)], axis=-1)
    counts = np.stack([(labels == j).sum(axis=-1) for j in range(k)], axis=-1)
    if rule == "plurality":
        agg = np.argmax(counts + rng.random(counts.shape) * 0.5, axis=-1)
    else:
        agg = np.where((2 * counts > m).any(axis=-1), np.argmax(counts, axis=-1), -1)
    g = (cb == agg).astype(int) - (cw == agg).astype(int)
    return float((g.sum(axis=1) > 0).mean())


@pytest.mark.parametrize(
    ("m", "rule"), [(1, "plurality"), (3, "plurality"), (3, "majority"), (4, "majority")]
)
def test_class_conditional_case_matches_direct_simulation(m: int, rule: str) -> None:
    res = multiclass_compare(ASYM, BETTER, WORSE, 120, (m,), prior=PRIOR, rules=(rule,))  # type: ignore[arg-type]
    reps = 5000
    sim = _simulate(120, m, rule, reps, seed=m)
    se = math.sqrt(res.rows[0].win * (1 - res.rows[0].win) / reps)
    assert abs(res.rows[0].win - sim) < 4 * se


def test_two_classes_reduce_to_the_binary_model() -> None:
    """K = 2: plurality is the m-majority with a fair-coin tie, so the gap equals Proposition 1's with
    M_m(q); absolute majority with even m drops tied items (P(no label) = the tie probability)."""
    q, p, eps = 0.8, 0.7, 0.1
    setting = multiclass_setting(
        symmetric_confusion(2, q), symmetric_confusion(2, p + eps), symmetric_confusion(2, p)
    )
    for m in (1, 2, 3, 4, 5):
        g = multiclass_gap(setting, m, "plurality")
        ref = IndependentErrors(p, eps, q).gap(m)
        assert (g.x, g.y) == pytest.approx((ref.x, ref.y), abs=1e-14)
        dist = aggregated_label_distribution(symmetric_confusion(2, q), m, "majority")
        strict = majority_accuracy(q, m, "failure")
        tie = math.comb(m, m // 2) * (q * (1 - q)) ** (m // 2) if m % 2 == 0 else 0.0
        assert dist[0, 0] == pytest.approx(strict) and dist[0, 2] == pytest.approx(tie)
    res = multiclass_compare(
        symmetric_confusion(2, q),
        symmetric_confusion(2, p + eps),
        symmetric_confusion(2, p),
        600,
        (1, 3),
    )
    assert res.rows[0].win == pytest.approx(outcome(IndependentErrors(p, eps, q).gap(1), 600).win)
    assert res.best.startswith("m = 1")


def test_multiclass_result_is_a_table_and_checks_its_input() -> None:
    res = multiclass_compare(ASYM, BETTER, WORSE, 300, (1, 3), prior=PRIOR)
    frame = res.to_frame()
    assert list(frame.columns) == [
        "labels_per_item",
        "rule",
        "n",
        "label_accuracy",
        "no_label",
        "x",
        "y",
        "win",
    ]
    assert len(frame) == 4 and res.to_dict()["setting"]["n_classes"] == 3
    with pytest.raises(InputError, match="summing to 1"):
        multiclass_compare(ASYM * 0.9, BETTER, WORSE, 300)
    with pytest.raises(InputError, match="3 × 3"):
        multiclass_compare(ASYM, symmetric_confusion(4, 0.8), WORSE, 300)
    with pytest.raises(InputError, match="prior"):
        multiclass_compare(ASYM, BETTER, WORSE, 300, prior=[0.5, 0.5])
    with pytest.raises(InputError, match="rules="):
        multiclass_compare(ASYM, BETTER, WORSE, 300, rules=("mode",))  # type: ignore[arg-type]
    with pytest.raises(InputError, match="count vectors"):
        aggregated_label_distribution(symmetric_confusion(30, 0.5), 25)


@settings(max_examples=30, deadline=None)
@given(
    k=st.integers(2, 5),
    m=st.integers(1, 7),
    acc=st.floats(0.0, 1.0),
    rule=st.sampled_from(["plurality", "majority"]),
)
def test_distribution_is_probabilities_and_label_permutation_invariant(
    k: int, m: int, acc: float, rule: str
) -> None:
    conf = symmetric_confusion(k, acc)
    dist = aggregated_label_distribution(conf, m, rule)  # type: ignore[arg-type]
    assert np.all(dist >= -1e-15) and np.allclose(dist.sum(axis=1), 1.0)
    # relabelling the classes permutes the rows and columns the same way
    perm = np.random.default_rng(k * 10 + m).permutation(k)
    rng = np.random.default_rng(m)
    asym = rng.dirichlet(np.ones(k), size=k)
    base = aggregated_label_distribution(asym, m, rule)  # type: ignore[arg-type]
    moved = aggregated_label_distribution(asym[np.ix_(perm, perm)], m, rule)  # type: ignore[arg-type]
    np.testing.assert_allclose(moved[:, :k], base[np.ix_(perm, perm)], atol=1e-12)
    np.testing.assert_allclose(moved[:, k], base[perm, k], atol=1e-12)
