"""Exact scenario mode (issue 33): survey equivalence in the population against target panels of t
raters, checked against the revised paper's counter-example (to 1e-6), against the authors' notebook
written out (``../shared/papers/rater-equivalence-simulations.ipynb``, MIT: its ``Scenario`` class,
reduced to the functions used here), and against a simulation of 10⁶ items."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.errors import InputError
from humanly.survey import ScenarioResult, scenario_equivalence

# ---------------------------------------------------------------------------- the counter-example
#: The paper's Table (cell 10 of the notebook): cross-entropy in bits, classifier c_1 and one rater
#: c_2, against one rater, a 3-rater panel and the truth.
CLASSIFIER = {1: 0.705982, 3: 0.575480, "inf": 0.500656}
ONE_RATER = {1: 0.705773, 3: 0.576897, "inf": 0.492504}
#: The calibrated predictions of the classifier (P(target + | c says +), P(target + | c says −)).
CALIBRATED = {1: (0.715517, 0.107143), 3: (0.779727, 0.058073), "inf": (0.827586, 0.047619)}
#: Cell 11: the inter-panel κ.
KAPPA = {1: 0.6123188405797101, 3: 0.857935604711521, "inf": 1.0}


def test_the_counter_example_to_1e_6() -> None:
    res = scenario_equivalence(
        prior=0.5,
        rater=(0.85, 0.07),
        classifier=(0.96, 0.2),
        scorer="cross_entropy",
        combiner="majority",
        targets=(1, 3, "inf"),
        max_sources=10,
    )
    for t in (1, 3, "inf"):
        entry = res.target(t)
        # humanly scores are higher-is-better: the mean log2 probability, minus the cross-entropy
        assert -entry.classifier_score == pytest.approx(CLASSIFIER[t], abs=1e-6)
        assert -entry.power_curve[1].score == pytest.approx(ONE_RATER[t], abs=1e-6)
        assert entry.kappa == pytest.approx(KAPPA[t], abs=1e-12)
        pos, neg = CALIBRATED[t]
        assert entry.calibrated[1][1] == pytest.approx(pos, abs=1e-6)  # class 1 is "+"
        assert entry.calibrated[0][1] == pytest.approx(neg, abs=1e-6)
    # the classifier beats one rater against a 3-rater panel, and loses against one rater and the truth
    assert res.flips.status == "flips" and 1 in res.flips.flips_at
    assert res.flips.orders[0].sign == (-1, 1, -1)
    # the equivalences straddle 1 accordingly
    eq = [res.target(t).equivalence for t in (1, 3, "inf")]
    assert eq[0] < 1 < eq[1] and eq[2] < 1


# ---------------------------------------------------------------------------- the notebook
def _comb(n: int, m: int) -> float:
    return math.comb(n, m) if m <= n else 0.0


def _panel_noise(p_pos: float, p_neg: float, size: int | str) -> np.ndarray:
    """The notebook's ``calc_panel_noise_matrix`` (majority; half the tied mass to each side); rows
    truth (+, −), columns output (+, −)."""
    if size == "inf":
        return np.eye(2)
    pp = pn = 0.0
    for i in range(size // 2 + 1, size + 1):
        pp += _comb(size, i) * p_pos**i * (1 - p_pos) ** (size - i)
        pn += _comb(size, i) * p_neg**i * (1 - p_neg) ** (size - i)
    if size % 2 == 0:
        i = size // 2
        pp += 0.5 * _comb(size, i) * p_pos**i * (1 - p_pos) ** (size - i)
        pn += 0.5 * _comb(size, i) * p_neg**i * (1 - p_neg) ** (size - i)
    return np.array([[pp, 1 - pp], [pn, 1 - pn]])


def _notebook_confusion(
    prior: float, rater: tuple[float, float], source: np.ndarray, t: int | str
) -> np.ndarray:
    gt = np.array([[prior, 0], [0, 1 - prior]])
    return source.T.dot(gt).dot(_panel_noise(*rater, t))


def _nb_cross_entropy(u: np.ndarray) -> float:
    tp, fn, fp, tn = u[0, 0], u[0, 1], u[1, 0], u[1, 1]
    cp, cn = (tp + fn) / u.sum(), (fp + tn) / u.sum()
    p, q = tp / (tp + fn), tn / (tn + fp)
    return -(
        cp * (p * np.log2(p) + (1 - p) * np.log2(1 - p))
        + cn * (q * np.log2(q) + (1 - q) * np.log2(1 - q))
    )


def _nb_precision(u: np.ndarray) -> float:  # the notebook's: column sums (the target's positives)
    return u[0][0] / (u[0][0] + u[1][0])


def _nb_recall(u: np.ndarray) -> float:  # the notebook's: row sums (the source's positives)
    return u[0][0] / (u[0][0] + u[0][1])


def _nb_scores(u: np.ndarray) -> dict[str, float]:
    p, r = _nb_precision(u), _nb_recall(u)
    return {
        "cross_entropy": -_nb_cross_entropy(u),
        "agreement": float(np.trace(u)),
        # the notebook's confusion matrices have the *source* in the rows, so its "precision" is the
        # recall against the target and its "recall" the precision (F1 is the same either way)
        "precision": r,
        "recall": p,
        "f1": 2 * p * r / (p + r),
    }


SCENARIOS = [
    (0.5, (0.85, 0.07), (0.96, 0.2)),
    (0.3, (0.8, 0.1), (0.9, 0.15)),
    (0.7, (0.7, 0.3), (0.75, 0.2)),
]


@pytest.mark.parametrize(("prior", "rater", "clf"), SCENARIOS)
@pytest.mark.parametrize("scorer", ["cross_entropy", "agreement", "precision", "recall", "f1"])
def test_every_scorer_equals_the_notebook_written_out(prior, rater, clf, scorer) -> None:
    targets = (1, 2, 3, 4, 5, "inf")
    res = scenario_equivalence(prior, rater, clf, scorer=scorer, targets=targets, max_sources=8)
    noise_c = np.array([[clf[0], 1 - clf[0]], [clf[1], 1 - clf[1]]])
    for t in targets:
        entry = res.target(t)
        want = _nb_scores(_notebook_confusion(prior, rater, noise_c, t))[scorer]
        assert entry.classifier_score == pytest.approx(want, rel=1e-12, abs=1e-13)
        for s in range(1, 9):
            u = _notebook_confusion(prior, rater, _panel_noise(*rater, s), t)
            assert entry.power_curve[s].score == pytest.approx(_nb_scores(u)[scorer], rel=1e-12)


def test_kappa_equals_the_notebook() -> None:
    for prior, rater, clf in SCENARIOS:
        res = scenario_equivalence(prior, rater, clf, targets=(1, 2, 3, 7))
        for t in (1, 2, 3, 7):
            pp, pn = _panel_noise(*rater, t)[:, 0]
            a = prior * pp * pp + (1 - prior) * pn * pn
            b = prior * pp * (1 - pp) + (1 - prior) * pn * (1 - pn)
            d = prior * (1 - pp) ** 2 + (1 - prior) * (1 - pn) ** 2
            p_e = (a + b) ** 2 + (b + d) ** 2
            assert res.target(t).kappa == pytest.approx((a + d - p_e) / (1 - p_e), rel=1e-12)


def test_equivalence_is_read_off_the_curve_as_the_survey_package_does() -> None:
    """Leftmost crossing, linear interpolation; c_0 is the combiner's output from no labels (for
    cross-entropy: the target's marginal entropy); flat between odd k for majority votes."""
    res = scenario_equivalence()
    t3 = res.target(3)
    c = t3.scores
    assert c[1] == pytest.approx(c[2], rel=1e-12) and c[3] == pytest.approx(c[4], rel=1e-12)
    h = t3.classifier_score
    assert c[2] < h < c[3]
    assert t3.equivalence == pytest.approx(2 + (h - c[2]) / (c[3] - c[2]), rel=1e-12)
    marg = 0.5 * 0.85 + 0.5 * 0.07
    assert res.target(1).power_curve[0].score == pytest.approx(
        marg * math.log2(marg) + (1 - marg) * math.log2(1 - marg), rel=1e-12
    )
    assert res.target("inf").ideal_score == 0.0  # knowing the truth, against the truth: 0 bits lost
    worse = scenario_equivalence(classifier=(0.5, 0.5))
    assert all(t.equivalence is None and t.equivalence_note == "below_0" for t in worse.targets)
    better = scenario_equivalence(classifier=(0.999, 0.001), max_sources=3)
    assert better.target("inf").equivalence_note == "above_max"


# ---------------------------------------------------------------------------- simulation
def _majority(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Majority of each row of 0/1 labels, a tie broken by a fair coin."""
    s, n = labels.sum(axis=1), labels.shape[1]
    coin = rng.random(len(s)) < 0.5
    return np.where(2 * s > n, 1, np.where(2 * s < n, 0, coin.astype(int)))


def _plug_in(source: np.ndarray, target: np.ndarray) -> tuple[float, float]:
    """The empirical score −H(target | source) in bits (calibrated predictions from the sample) and
    its standard error (delta method: the sd of the per-item log terms / √n)."""
    n = len(source)
    joint = np.zeros((2, 2))
    np.add.at(joint, (source, target), 1.0)
    q = joint / joint.sum(axis=1, keepdims=True)
    terms = np.log2(q[source, target])
    return float(terms.mean()), float(terms.std() / math.sqrt(n))


def test_a_simulation_of_a_million_items_agrees_within_its_standard_error() -> None:
    """An independent check: draw 10⁶ items of the counter-example (truth, classifier, a source panel
    of s raters, a target panel of t raters, majority with fair-coin ties), score the sample, and
    compare with the exact numbers (within 3 standard errors; each is ~6e-4 bits)."""
    rng = np.random.default_rng(20250101)
    n = 1_000_000
    truth = rng.random(n) < 0.5
    p_rater = np.where(truth, 0.85, 0.07)
    clf = (rng.random(n) < np.where(truth, 0.96, 0.2)).astype(int)
    raters = (rng.random((n, 12)) < p_rater[:, None]).astype(int)
    exact = scenario_equivalence(targets=(1, 2, 3, "inf"), max_sources=4)
    targets = {
        1: raters[:, 0],
        2: _majority(raters[:, 0:2], rng),
        3: _majority(raters[:, 0:3], rng),
    }
    targets["inf"] = truth.astype(int)
    checked = 0
    for t, target in targets.items():
        entry = exact.target(t)
        got, se = _plug_in(clf, target)
        assert abs(got - entry.classifier_score) < 3 * se, (t, got, entry.classifier_score, se)
        for s in (1, 2, 3, 4):
            source = _majority(raters[:, 4 : 4 + s], rng)  # other raters than the target's
            got, se = _plug_in(source, target)
            assert abs(got - entry.power_curve[s].score) < 3 * se, (t, s, got, se)
            checked += 1
    assert checked == 16


# ---------------------------------------------------------------------------- K classes
def test_two_classes_as_matrices_and_plurality_equal_the_binary_form() -> None:
    binary = scenario_equivalence(0.3, (0.8, 0.1), (0.9, 0.15), targets=(1, 4, "inf"))
    matrices = scenario_equivalence(
        [0.7, 0.3],
        [[0.9, 0.1], [0.2, 0.8]],
        [[0.85, 0.15], [0.1, 0.9]],
        combiner="plurality",
        targets=(1, 4, "inf"),
    )
    for a, b in zip(binary.targets, matrices.targets, strict=True):
        assert np.allclose(a.scores, b.scores, rtol=1e-13)
        assert a.classifier_score == pytest.approx(b.classifier_score, rel=1e-13)
        assert a.kappa == pytest.approx(b.kappa, rel=1e-13)


def _k_class_setting() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    prior = np.array([0.5, 0.3, 0.2])
    rater = np.array([[0.7, 0.2, 0.1], [0.15, 0.7, 0.15], [0.1, 0.3, 0.6]])
    clf = np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])
    return prior, rater, clf


def test_three_classes_by_simulation() -> None:
    """Plurality panels over three classes (ties uniform) against a simulation of 4·10⁵ items."""
    prior, rater, clf = _k_class_setting()
    exact = scenario_equivalence(
        prior, rater, clf, combiner="plurality", targets=(2, "inf"), max_sources=3
    )
    rng = np.random.default_rng(7)
    n = 400_000
    g = rng.choice(3, size=n, p=prior)
    cum = np.cumsum(rater, axis=1)[g]
    labels = (rng.random((n, 5))[:, :, None] > cum[:, None, :]).sum(axis=2)

    def plurality(lab: np.ndarray) -> np.ndarray:
        counts = np.stack([(lab == c).sum(axis=1) for c in range(3)], axis=1)
        top = counts == counts.max(axis=1, keepdims=True)
        keys = rng.random(top.shape) + top
        return np.argmax(keys, axis=1)

    out = (rng.random(n)[:, None] > np.cumsum(clf, axis=1)[g]).sum(axis=1)
    for t, target in ((2, plurality(labels[:, :2])), ("inf", g)):
        for name, source, want in (
            ("clf", out, exact.target(t).classifier_score),
            ("k=3", plurality(labels[:, 2:5]), exact.target(t).power_curve[3].score),
        ):
            joint = np.zeros((3, 3))
            np.add.at(joint, (source, target), 1.0)
            q = joint / joint.sum(axis=1, keepdims=True)
            terms = np.log2(q[source, target])
            se = terms.std() / math.sqrt(n)
            assert abs(terms.mean() - want) < 3 * se, (t, name)


def test_abc_against_one_rater_is_the_population_abc() -> None:
    """combiner="abc": the count vector of k labels, calibrated; for t = 1 its prediction is
    P(next label | counts), the Anonymous Bayesian Combiner's population limit — written out here
    over every count vector."""
    prior, rater, clf = _k_class_setting()
    res = scenario_equivalence(prior, rater, clf, combiner="abc", targets=(1,), max_sources=4)
    for k in range(5):
        total = 0.0
        for y in _vectors(k, 3):
            coef = math.factorial(k) / math.prod(math.factorial(v) for v in y)
            like = np.array([coef * np.prod(rater[g] ** np.array(y)) for g in range(3)])
            joint = (prior * like) @ rater  # P(counts, next label)
            pred = joint / joint.sum()
            total += float((joint * np.log2(pred)).sum())
        assert res.targets[0].power_curve[k].score == pytest.approx(total, rel=1e-12)


def _vectors(k: int, n: int) -> list[tuple[int, ...]]:
    if n == 1:
        return [(k,)]
    return [(i, *rest) for i in range(k + 1) for rest in _vectors(k - i, n - 1)]


@settings(max_examples=40, deadline=None)
@given(
    prior=st.floats(0.05, 0.95),
    a=st.floats(0.05, 0.95),
    b=st.floats(0.05, 0.95),
    c=st.floats(0.05, 0.95),
    d=st.floats(0.05, 0.95),
    scorer=st.sampled_from(["cross_entropy", "agreement", "precision", "recall", "f1"]),
)
def test_scores_are_in_range_and_the_classes_can_be_relabelled(prior, a, b, c, d, scorer) -> None:
    res = scenario_equivalence(
        prior, (a, b), (c, d), scorer=scorer, targets=(1, 2, "inf"), max_sources=4
    )
    for t in res.targets:
        values = [*t.scores, t.classifier_score, t.ideal_score]
        if scorer == "cross_entropy":
            assert all(v <= 1e-12 for v in values)
        else:
            assert all(-1e-12 <= v <= 1 + 1e-12 for v in values)
        assert -1.0 <= t.kappa <= 1.0 + 1e-12
        if t.equivalence is not None:
            assert 0 <= t.equivalence <= 4
    if scorer in ("cross_entropy", "agreement"):  # symmetric in the classes: swap them
        pi = [1 - prior, prior]
        r = [[1 - b, b], [1 - a, a]]
        cl = [[1 - d, d], [1 - c, c]]
        swapped = scenario_equivalence(
            pi[::-1],
            [row[::-1] for row in r[::-1]],
            [row[::-1] for row in cl[::-1]],
            scorer=scorer,
            combiner="plurality",
            targets=(1, 2, "inf"),
            max_sources=4,
        )
        for x, y in zip(res.targets, swapped.targets, strict=True):
            assert np.allclose(x.scores, y.scores, rtol=1e-10, atol=1e-12)
            assert x.classifier_score == pytest.approx(y.classifier_score, rel=1e-10, abs=1e-12)


# ---------------------------------------------------------------------------- result and errors
def test_the_result_round_trips_and_has_tables() -> None:
    res = scenario_equivalence(targets=(1, 3, "inf"), max_sources=5)
    data = res.to_dict()
    assert ScenarioResult.from_dict(data).to_dict() == data
    assert data["targets"][2]["target"] == "inf" and data["flips"]["status"] == "flips"
    assert res.to_frame().shape == (18, 3)
    assert res.targets_frame()["target"].tolist() == ["1", "3", "inf"]
    assert "ScenarioResult" in res._repr_html_()
    with pytest.raises(KeyError):
        res.target(2)


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"prior": 1.5}, InputError, "prior=1.5"),
        ({"rater": (0.85, 1.2)}, InputError, "rater=1.2"),
        ({"rater": [[0.9, 0.2], [0.1, 0.9]]}, InputError, "rater"),
        ({"prior": [0.2, 0.3, 0.5]}, InputError, "rater"),
        (
            {"prior": [0.2, 0.3, 0.5], "rater": np.eye(3), "classifier": np.eye(3)},
            InputError,
            "majority",
        ),
        ({"scorer": "auc"}, InputError, "scorer='auc'"),
        ({"combiner": "frequency"}, InputError, "combiner='frequency'"),
        ({"targets": (0,)}, InputError, "targets"),
        ({"targets": (3, 3)}, InputError, "given twice"),
        ({"targets": ("all",)}, InputError, "targets"),
        ({"max_sources": 0}, InputError, "max_sources=0"),
        ({"max_sources": 2.5}, TypeError, "max_sources"),
    ],
)
def test_bad_input_is_one_sentence_naming_the_parameter(kwargs, error, fragment) -> None:
    with pytest.raises(error) as info:
        scenario_equivalence(**kwargs)
    assert fragment in str(info.value) and "\n" not in str(info.value)
