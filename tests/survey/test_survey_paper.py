"""Paper numbers and theory (Survey Equivalence): worked examples of sections 3.1 and 4, Theorem 1's
mutual information on the running-example urn in closed form, Theorem 2's calibrated classifier, and
Theorem 5's invariance of DMI equivalence to the number of reference raters."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from humanly import Predictions, Ratings
from humanly._core.counts import lnfall
from humanly.simulate import RUNNING_EXAMPLE, running_example, urn
from humanly.survey import EquivalenceOptions, equivalence
from humanly.survey.scorers import get_scorer

STATES = np.array(RUNNING_EXAMPLE["states"])
WEIGHTS = np.array(RUNNING_EXAMPLE["weights"])


def test_cross_entropy_worked_example_section_3_1() -> None:
    # last rater: C on items 1-8, D on 9-10; soft classifier .32 on item 1, .77 on 2-8, .32 on 9-10
    p_c = np.array([0.32] + [0.77] * 7 + [0.32] * 2)
    ref = np.array([0] * 8 + [1] * 2)  # C = 0, D = 1
    ce = get_scorer("cross_entropy")
    assert ce.score(np.column_stack([p_c, 1 - p_c]), ref, 1) == pytest.approx(-0.54, abs=0.005)
    base = np.full(10, 0.63)
    assert ce.score(np.column_stack([base, 1 - base]), ref, 1) == pytest.approx(-0.82, abs=0.005)
    # the same through Algorithm 1 on a one-rater data set
    r = Ratings.from_long(
        range(10), ["last"] * 10, np.where(ref == 0, "C", "D"), classes=["C", "D"]
    )
    preds = Predictions.from_arrays(
        range(10),
        {"soft": np.column_stack([p_c, 1 - p_c]), "prior": np.column_stack([base, 1 - base])},
        classes=["C", "D"],
    )
    res = equivalence(r, preds, calibrate="none", bootstrap=0)  # the section's outputs as given
    got = {m.model: m.score for m in res.models}
    assert got["soft"] == pytest.approx(-0.540, abs=5e-4)
    assert got["prior"] == pytest.approx(-0.820, abs=5e-4)
    assert got["soft"] - got["prior"] == pytest.approx(0.28, abs=0.005)  # ".28 bits"


def test_abc_sequence_probability_by_enumeration() -> None:
    # section 4: item with 7 C and 2 D labels; probability of the ordered sequence (D, C, D, C, C)
    labels = ["C"] * 7 + ["D"] * 2
    target = ("D", "C", "D", "C", "C")
    hits = total = 0
    for seq in itertools.permutations(range(9), 5):
        total += 1
        hits += tuple(labels[i] for i in seq) == target
    brute = hits / total
    formula = (math.comb(2, 2) * 2 * math.comb(7, 3) * 6) / (math.comb(9, 5) * 120)
    assert brute == pytest.approx(formula)
    ours = math.exp(lnfall(np.array([7, 2]), np.array([3, 2])).sum() - lnfall(9, 5))
    assert ours == pytest.approx(brute, rel=1e-12)


def mi_closed_form(k: int, states: np.ndarray = STATES, w: np.ndarray = WEIGHTS) -> float:
    """MI(Y_{k+1}; Y_1..Y_k) in bits for a binary urn, by summing over the count of C among k labels."""
    prior = w @ states[:, 0]
    h_y = -(prior * math.log2(prior) + (1 - prior) * math.log2(1 - prior))
    h_cond = 0.0
    for j in range(k + 1):
        lik = math.comb(k, j) * states[:, 0] ** j * states[:, 1] ** (k - j)
        pj = float(w @ lik)
        pc = float(w @ (lik * states[:, 0])) / pj
        h_cond -= pj * (pc * math.log2(pc) + (1 - pc) * math.log2(1 - pc))
    return h_y - h_cond


def test_theorem_1_abc_cross_entropy_tends_to_mutual_information() -> None:
    d = running_example(20_000, 10, seed=7)
    res = equivalence(d.ratings, d.predictions, bootstrap=0)
    assert res.information is not None
    for k, gain in zip(res.ks, res.information, strict=True):
        assert gain == pytest.approx(mi_closed_form(int(k)), abs=0.01), k
    # the paper (section 4): 0.223 bits with nine raters on its 1,000-item sample (closed form 0.226)
    # and an asymptote of 0.252 bits (the omniscient classifier)
    assert mi_closed_form(9) == pytest.approx(0.223, abs=0.005)
    ent = -(STATES * np.log2(STATES)).sum(axis=1)
    prior = float(WEIGHTS @ STATES[:, 0])
    asym = -(prior * math.log2(prior) + (1 - prior) * math.log2(1 - prior)) - float(WEIGHTS @ ent)
    assert asym == pytest.approx(0.252, abs=0.001)
    assert mi_closed_form(200) == pytest.approx(asym, abs=0.002)
    # Theorem 2 + Corollary: the calibrated soft classifier's information and equivalence
    p_hard_c = np.array(RUNNING_EXAMPLE["hard_p_c"])
    p_out = WEIGHTS @ p_hard_c
    p_c_given = (WEIGHTS * p_hard_c) @ STATES[:, 0] / p_out
    p_c_given_d = (WEIGHTS * (1 - p_hard_c)) @ STATES[:, 0] / (1 - p_out)

    def h2(p: float) -> float:
        return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))

    prior = WEIGHTS @ STATES[:, 0]
    mi_h = h2(prior) - p_out * h2(p_c_given) - (1 - p_out) * h2(p_c_given_d)
    soft = res.model("soft")
    assert soft.information == pytest.approx(mi_h, abs=0.01)
    curve = [mi_closed_form(k) for k in range(10)]
    j = next(k for k in range(1, 10) if curve[k] > mi_h)
    eq_closed = j - 1 + (mi_h - curve[j - 1]) / (curve[j] - curve[j - 1])
    assert 1.8 < eq_closed < 2.1  # the paper's 1.96 on one 1,000-item sample
    assert soft.equivalence == pytest.approx(eq_closed, abs=0.15)


def test_running_example_paper_numbers_1000_items() -> None:
    """Figure 5: soft classifier ≈ 1.96 raters [1.63, 2.54] with ABC + CE (one 1,000 × 10 sample);
    frequency + CE inflates it (6.32 in the paper). Different random samples, so wide tolerances."""
    d = running_example(1000, 10, seed=1)
    abc = equivalence(d.ratings, d.predictions, bootstrap=200).model("soft")
    assert abc.equivalence == pytest.approx(1.96, abs=0.35)
    assert abc.equivalence_interval.low < 1.96 < abc.equivalence_interval.high
    freq = equivalence(d.ratings, d.predictions, combiner="frequency", bootstrap=0).model("soft")
    assert freq.equivalence > abc.equivalence + 3  # Corollary 1: ABC gives the smallest value


def _thousand_labels() -> tuple[Ratings, Predictions]:
    counts = np.array([[600, 400], [7, 3], [2, 8], [5, 5], [990, 10], [1, 999]])
    r = Ratings.from_counts(counts, classes=["a", "b"])
    probs = np.array([[0.6, 0.4], [0.7, 0.3], [0.2, 0.8], [0.5, 0.5], [0.9, 0.1], [0.05, 0.95]])
    return r, Predictions.from_arrays(r.items, {"m": probs}, classes=["a", "b"])


@pytest.mark.slow
def test_no_overflow_with_1000_labels_on_an_item_and_the_bootstrap() -> None:
    """The ABC curve to k = 999 with 100 bootstrap replicates (about a minute on 2 cores; the
    default run has the same curve without replicates below)."""
    r, p = _thousand_labels()
    res = equivalence(
        r,
        p,
        combiner="abc",
        scorer="cross_entropy",
        bootstrap=100,
        options=EquivalenceOptions(max_k=999),
    )
    scores = np.array([pt.score for pt in res.power_curve])
    assert len(scores) == 1000 and np.isfinite(scores).all()
    assert np.isfinite(res.models[0].score)
    assert res.models[0].equivalence_interval is not None


def test_no_overflow_with_1000_labels_on_an_item() -> None:
    r, p = _thousand_labels()
    for comb, sc, mk in (
        ("abc", "cross_entropy", 999),
        ("frequency", "cross_entropy", 300),
        ("majority", "agreement", 300),
    ):
        res = equivalence(
            r,
            p,
            combiner=comb,
            scorer=sc,
            bootstrap=0,
            options=EquivalenceOptions(max_k=mk),
        )
        scores = np.array([pt.score for pt in res.power_curve])
        assert len(scores) == mk + 1
        assert np.isfinite(scores).all(), (comb, sc)
        assert [pt.n_items for pt in res.power_curve][-1] == 3  # the items with > k labels
        assert np.isfinite(res.models[0].score)
    # the 1,000-label item alone: the frequency curve is the exact hypergeometric expectation
    one = Ratings.from_counts(np.array([[600, 400]]), classes=["a", "b"])
    res = equivalence(
        one,
        combiner="majority",
        scorer="agreement",
        bootstrap=0,
        options=EquivalenceOptions(max_k=999),
    )
    assert res.power_curve[-1].score == pytest.approx(0.6)  # 999 of 1000: majority is always "a"
    assert res.power_curve[1].score == pytest.approx(0.6 * 599 / 999 + 0.4 * 399 / 999)


def test_theorem_5_dmi_equivalence_does_not_depend_on_reference_size() -> None:
    # uniform noise: one state per label (80 % / 30 % "a"); a hard classifier of the state
    d = urn(
        4000,
        9,
        states=[[0.8, 0.2], [0.3, 0.7]],
        weights=[0.6, 0.4],
        hard_classifiers={"h": [[0.85, 0.15], [0.2, 0.8]]},
        seed=3,
    )
    eqs, scores = [], []
    for r in (1, 3):
        res = equivalence(
            d.ratings.anonymous(), d.predictions, combiner="majority", scorer="dmi", bootstrap=0,
            seed=1, options=EquivalenceOptions(reference_size=r, max_k=5, draws=60),
        )  # fmt: skip
        eqs.append(res.models[0].equivalence)
        scores.append(res.models[0].score)
        assert res.power_curve[-1].k == 5
    assert eqs[0] is not None and eqs[1] is not None
    assert 2.0 < eqs[0] < 3.5
    # Lemma 1: every score scales by the same lambda_r ...
    assert scores[1] > 1.2 * scores[0]
    # ... so the equivalence does not move (Theorem 5); measured 2.709 vs 2.703
    assert eqs[0] == pytest.approx(eqs[1], abs=0.15)


def test_headroom_npmle_recovers_the_urn_asymptote() -> None:
    from humanly.survey.headroom import headroom, urn_information

    exact = urn_information(STATES, WEIGHTS)
    assert exact == pytest.approx(0.252, abs=0.001)  # section 4: 0.252 bits
    d = running_example(5000, 10, seed=2)
    h = headroom(d.ratings)
    assert h.information == pytest.approx(exact, abs=0.015)
    assert h.baseline_score == pytest.approx(-0.951, abs=0.01)  # c_0: the .63 prior
    assert h.ideal_score == pytest.approx(-0.699, abs=0.015)  # the omniscient classifier
    res = equivalence(
        d.ratings, d.predictions, bootstrap=0, options=EquivalenceOptions(headroom=True)
    )
    soft = res.model("soft")
    assert soft.performance_ratio == pytest.approx(soft.information / h.information)
    assert 0.4 < soft.performance_ratio < 0.7
    assert res.headroom.information == h.information


def _group(
    states: np.ndarray, n_items: int, labels: int, state_idx: np.ndarray, seed: int
) -> np.ndarray:
    g = np.random.default_rng(seed)
    c = g.binomial(labels, states[state_idx, 0])
    return np.column_stack([c, labels - c])


def test_expert_vs_amateur_section_7() -> None:
    from humanly.survey.experts import expert_equivalence

    g = np.random.default_rng(0)
    n = 3000
    s = g.choice(2, size=n, p=[0.6, 0.4])
    expert_states = np.array([[0.9, 0.1], [0.15, 0.85]])
    amateur_states = np.array([[0.7, 0.3], [0.4, 0.6]])  # noisier view of the same states
    experts = Ratings.from_counts(_group(expert_states, n, 6, s, 1), classes=["a", "b"])
    amateurs = Ratings.from_counts(_group(amateur_states, n, 8, s, 2), classes=["a", "b"])
    res = expert_equivalence(experts, amateurs, bootstrap=100, seed=1)
    worth = {w.amateurs: w for w in res.worth}
    assert worth[0].note == "below_0" or worth[0].experts is None or worth[0].experts < 0.2
    xs = [worth[k].experts for k in range(1, 9) if worth[k].experts is not None]
    assert len(xs) >= 6
    assert all(b >= a - 0.05 for a, b in itertools.pairwise(xs))  # more amateurs, more worth
    assert xs[-1] < 5  # eight noisy amateurs are worth a few experts
    # closed form: 1 amateur vs experts, via the amateur's posterior on the state
    assert res.amateur_curve[1].n_items == n
    # "amateurs" who are really experts (independent labels from the same states) are worth k experts
    twins = Ratings.from_counts(_group(expert_states, n, 8, s, 3), classes=["a", "b"])
    # (ABC + cross-entropy: a strictly increasing curve, Corollary 2)
    same = expert_equivalence(experts, twins, bootstrap=0)
    for w in same.worth[1:5]:
        assert w.experts == pytest.approx(w.amateurs, abs=0.3)
