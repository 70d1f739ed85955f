"""K-class budget planning (issue 33): the pooled latent-class pilot recovers the crowd's and the two
models' confusion matrices (within 0.03 at 3,000 items × 3 labels), the exact K-class win probabilities
equal a Monte Carlo of the same model (within 3 standard errors), ``plan`` runs end to end on
ChaosNLI-like three-class data, and weakly identified pilots say so without a bootstrap."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import InputError, Predictions, Ratings, plan
from humanly.budget import (
    ConfusionErrors,
    IndependentErrors,
    MulticlassPilotPlan,
    PlanOptions,
    PlanResult,
    compare,
    label_accuracy_from_agreement,
    multiclass_pilot_plan,
    pilot_plan,
    quick_compare,
    sample_size,
    symmetric_errors,
    win_curve,
)
from humanly.budget.multiclass_pilot import fit_multiclass_pilot
from humanly.budget.multiclass_plan import VERDICTS
from humanly.crowd.latent_class import fit_latent_classes, latent_patterns
from humanly.simulate import oracle, pair
from humanly.verdicts.pilot import weak_sentence

PRIOR = np.array([0.4, 0.35, 0.25])
CROWD = np.array([[0.8, 0.12, 0.08], [0.1, 0.8, 0.1], [0.08, 0.12, 0.8]])
BETTER = np.array([[0.9, 0.06, 0.04], [0.05, 0.9, 0.05], [0.04, 0.06, 0.9]])
WORSE = np.array([[0.85, 0.1, 0.05], [0.1, 0.8, 0.1], [0.05, 0.1, 0.85]])
TRUTH = {"labels": CROWD, "better": BETTER, "worse": WORSE}


def _pilot(seed: int, n: int = 3000, crowd: np.ndarray = CROWD) -> tuple:
    d = oracle(
        n,
        np.stack([crowd] * 3),
        n_classes=3,
        prior=PRIOR,
        models={"a": BETTER, "b": WORSE},
        seed=seed,
    )
    return d.ratings, d.predictions


def _errors(fit) -> dict[str, float]:
    out = {}
    for p in fit.parameters:
        if p.parameter == "prior":
            out[p.name] = abs(p.estimate - PRIOR[p.true_class])
        elif p.parameter in TRUTH:
            out[p.name] = abs(p.estimate - TRUTH[p.parameter][p.true_class, p.label])
    return out


def test_three_class_pilots_recover_every_parameter_within_0_03() -> None:
    """20 pilots of 3,000 items × 3 labels: every entry of the prior and of the three confusion
    matrices within 0.03 of the truth in ≥ 18 of them (measured: 30 pilots, 29 within 0.03, the
    worst 0.0304; the largest standard error, a model's accuracy on the rarest class, is 0.011), and
    the mean absolute error below 0.01."""
    within, means = 0, []
    for seed in range(20):
        ratings, preds = _pilot(seed)
        fit = fit_multiclass_pilot(ratings, preds)
        assert fit.better == "a" and fit.converged
        err = _errors(fit)
        assert len(err) == 3 + 27
        within += max(err.values()) <= 0.03
        means.append(np.mean(list(err.values())))
    assert within >= 18 and np.mean(means) < 0.01


def test_four_class_pilots_recover_the_parameters_within_their_wald_ranges() -> None:
    """Any number of classes: 20 four-class pilots (3,000 items × 3 labels): every prior entry and
    per-class accuracy within 4 of its own standard error (the 95% Wald half-width / 1.96; measured
    at most 3.1) and no entry of the 52 further than 0.05 from the truth (measured at most 0.042)."""
    k = 4
    prior = np.array([0.3, 0.3, 0.2, 0.2])

    def even(acc: float) -> np.ndarray:
        return np.full((k, k), (1 - acc) / (k - 1)) + np.eye(k) * (acc - (1 - acc) / (k - 1))

    truth = {"labels": even(0.8), "better": even(0.9), "worse": even(0.8)}
    for seed in range(20):
        d = oracle(
            3000,
            np.stack([truth["labels"]] * 3),
            n_classes=k,
            prior=prior,
            models={"a": truth["better"], "b": truth["worse"]},
            seed=seed,
        )
        fit = fit_multiclass_pilot(d.ratings, d.predictions)
        assert fit.converged and fit.better == "a"
        checked = 0
        for p in fit.parameters:
            if p.parameter == "prior":
                want = prior[p.true_class]
            elif p.parameter in truth:
                want = truth[p.parameter][p.true_class, p.label]
            else:
                continue
            assert abs(p.estimate - want) <= 0.05, (seed, p)
            lo, hi = p.information_interval
            if lo is not None and hi is not None:
                assert abs(p.estimate - want) <= 4 * (hi - lo) / (2 * 1.96), (seed, p)
            checked += 1
        assert checked == k + 3 * k * k


def _monte_carlo(
    errors: ConfusionErrors, m: int, n: int, reps: int, seed: int
) -> tuple[float, float]:
    """P(ΣG > 0) over ``reps`` test sets of n items (truth, both models, m crowd labels, plurality
    with a random tie-break), and its standard error."""
    rng = np.random.default_rng(seed)
    pi, lab, b, w = (
        np.asarray(x) for x in (errors.prior, errors.labels, errors.better, errors.worse)
    )
    k = len(pi)

    def draw(conf: np.ndarray, g: np.ndarray, size: tuple) -> np.ndarray:
        u = rng.random((*g.shape, *size))
        cum = np.cumsum(conf, axis=1)[g]
        return (u[..., None] > cum[..., None, :] if size else u[..., None] > cum).sum(axis=-1)

    g = rng.choice(k, size=(reps, n), p=pi)
    pb, pw = draw(b, g, ()), draw(w, g, ())
    labels = draw(lab, g, (m,))
    counts = np.stack([(labels == c).sum(axis=-1) for c in range(k)], axis=-1)
    top = counts == counts.max(axis=-1, keepdims=True)
    test = np.argmax(rng.random(top.shape) + top, axis=-1)
    gap = (pb == test).astype(int) - (pw == test).astype(int)
    win = (gap.sum(axis=1) > 0).astype(float)
    return float(win.mean()), float(win.std() / math.sqrt(reps))


@pytest.mark.parametrize("m", [1, 2, 3, 5])
def test_win_probabilities_equal_a_monte_carlo_of_the_same_model(m: int) -> None:
    errors = ConfusionErrors(tuple(PRIOR), *(tuple(map(tuple, x)) for x in (CROWD, BETTER, WORSE)))
    budget = 150
    exact = compare(errors, budget, (m,)).rows[0]
    mc, se = _monte_carlo(errors, m, exact.n, 20_000, seed=m)
    assert abs(mc - exact.exact) < 3 * se, (m, mc, exact.exact, se)


@pytest.mark.parametrize("m", [1, 3])
def test_the_budget_per_m_is_the_smallest_that_reaches_the_level(m: int) -> None:
    """The K-class sample size (plurality votes): at its items the exact win probability reaches the
    level and a Monte Carlo of the same model agrees within 3 standard errors; no smaller number of
    items reaches it (a linear scan of the exact values)."""
    errors = ConfusionErrors(tuple(PRIOR), *(tuple(map(tuple, x)) for x in (CROWD, BETTER, WORSE)))
    level = 0.9
    row = sample_size(errors, level, (m,)).rows[0]
    assert row.budget_exact is not None and row.budget_exact % m == 0
    n = row.budget_exact // m
    wins = [r.exact for r in (compare(errors, k * m, (m,)).rows[0] for k in range(1, n + 1))]
    assert wins[-1] >= level and max(wins[:-1]) < level
    mc, se = _monte_carlo(errors, m, n, 20_000, seed=10 + m)
    assert abs(mc - wins[-1]) < 3 * se, (m, mc, wins[-1], se)
    for bound in (row.budget_cramer_bound, row.budget_hoeffding_bound):
        assert bound is not None and bound >= row.budget_exact


def test_the_binary_special_case_is_the_independent_error_model() -> None:
    """K = 2 with symmetric confusions and a uniform prior: exactly the paper's independent errors
    (coin for tied even votes)."""
    for m in (1, 2, 3, 4, 5):
        a = symmetric_errors(2, 0.75, 0.7, 0.1).gap(m)
        b = IndependentErrors(0.7, 0.1, 0.75).gap(m)
        assert (a.x, a.y) == pytest.approx((b.x, b.y), rel=1e-12)
    e = symmetric_errors(2, 0.75, 0.7, 0.1)
    assert [r.budget_exact for r in sample_size(e, 0.9, (1, 3)).rows] == [
        r.budget_exact for r in sample_size(IndependentErrors(0.7, 0.1, 0.75), 0.9, (1, 3)).rows
    ]
    with pytest.raises(InputError, match="vote_ties='failure'"):
        e.gap(2, "failure")


def test_label_accuracy_from_agreement_inverts_the_k_class_agreement() -> None:
    for k in (2, 3, 5):
        for q in (1 / k + 0.05, 0.6, 0.9):
            a = q * q + (1 - q) ** 2 / (k - 1)
            assert label_accuracy_from_agreement(a, k) == pytest.approx(q, rel=1e-12)
        assert label_accuracy_from_agreement(0.1, k) == pytest.approx(1 / k)


def _chaosnli_like(seed: int, n: int = 1500, labels: int = 100) -> tuple[Ratings, Predictions]:
    """ChaosNLI's shape (entailment, neutral, contradiction; 100 anonymous labels per item; two
    models), simulated: each item's label distribution scatters around its class's row (a Dirichlet
    with concentration 20), so items are heterogeneous as real NLI items are."""
    g = np.random.default_rng(seed)
    classes = ["entailment", "neutral", "contradiction"]
    truth = g.choice(3, size=n, p=[0.35, 0.3, 0.35])
    base = np.array([[0.75, 0.18, 0.07], [0.15, 0.65, 0.2], [0.06, 0.2, 0.74]])
    counts = np.stack([g.multinomial(labels, g.dirichlet(20 * base[c])) for c in truth])
    ratings = Ratings.from_counts(counts, items=[f"pair{i}" for i in range(n)], classes=classes)
    preds = {}
    for name, conf in (("roberta", BETTER), ("bert", WORSE)):
        codes = (g.random(n)[:, None] > np.cumsum(conf, axis=1)[truth]).sum(axis=1)
        preds[name] = np.array(classes)[codes]
    return ratings, Predictions.from_arrays(ratings.items, preds, classes=classes)


def test_plan_runs_end_to_end_on_chaosnli_like_data() -> None:
    ratings, preds = _chaosnli_like(0)
    res = plan(ratings, preds, bootstrap=100, seed=1)
    assert res.n_classes == 3 and res.pilot is None and res.pilot_skipped is None
    mp = res.multiclass_pilot
    assert isinstance(mp, MulticlassPilotPlan)
    assert mp.better == "roberta" and mp.classes == ("entailment", "neutral", "contradiction")
    assert mp.verdict in VERDICTS and [r.labels_per_item for r in mp.sizes] == [1, 3, 5]
    assert mp.curve is not None and mp.curve.scenario == "confusion"
    assert res.curve is not None and res.comparison.best_labels_per_item in (1, 3, 5)
    b, w = mp.estimates.accuracies()
    assert b > w
    data = json.loads(res.to_json())
    assert data["multiclass_pilot"]["verdict"] == mp.verdict and data["n_classes"] == 3
    assert PlanResult.from_dict(data).to_dict() == data
    assert len(mp.estimates_frame()) == 3 + 27 + 3


def test_the_k_class_pilot_is_deterministic_and_seeded() -> None:
    ratings, preds = _pilot(3, n=600)
    a = multiclass_pilot_plan(ratings, preds, bootstrap=100, seed=5)
    b = multiclass_pilot_plan(ratings, preds, bootstrap=100, seed=5)
    c = multiclass_pilot_plan(ratings, preds, bootstrap=100, seed=6)
    assert a.to_json() == b.to_json() and a.to_json() != c.to_json()
    assert 0.0 <= a.bootstrap_converged <= 1.0


def test_wald_ranges_agree_with_the_bootstrap_on_a_well_identified_pilot() -> None:
    """The observed information and the bootstrap measure the same spread (width ratio within
    0.7–1.4 on the prior, the per-class accuracies and the summaries; measured 0.94–1.12)."""
    ratings, preds = _pilot(4)
    fit = fit_multiclass_pilot(ratings, preds, bootstrap=300, seed=2)
    ratios = [
        p.information_interval.width / p.interval.width
        for p in fit.parameters
        if p.information_interval.width is not None and p.interval.width
    ]
    assert len(ratios) == 3 + 9 + 3
    assert 0.7 < min(ratios) and max(ratios) < 1.4
    assert fit.warnings == ()


def test_weak_k_class_pilots_say_so_without_a_bootstrap() -> None:
    """A crowd barely above chance (accuracy 0.45 over three classes) with 3 labels per item on 400
    items: the per-class accuracies are flat in the likelihood — flagged with bootstrap=0."""
    weak = np.array([[0.45, 0.3, 0.25], [0.28, 0.45, 0.27], [0.25, 0.3, 0.45]])
    ratings, preds = _pilot(1, n=400, crowd=weak)
    res = multiclass_pilot_plan(ratings, preds, bootstrap=0)
    assert res.warnings and "weak_estimates" in res.codes
    assert all(w.reason in ("flat", "boundary") for w in res.warnings)
    strong = multiclass_pilot_plan(*_pilot(1), bootstrap=0)
    assert strong.warnings == () and "weak_estimates" not in strong.codes


def test_ragged_pilots_and_a_crowd_at_chance_on_a_class_are_said() -> None:
    """Items with fewer than 3 labels and a crowd label at or below chance on one class carry their
    codes, and the verdicts floor says what they mean."""
    from humanly.verdicts.multiclass import multiclass_notes

    ratings, preds = _pilot(1, n=600)
    counts = np.asarray(ratings.counts).copy()
    for i in range(100):  # one label fewer on the first 100 items
        counts[i, np.flatnonzero(counts[i])[0]] -= 1
    ragged = Ratings.from_counts(counts, items=list(ratings.items), classes=ratings.classes)
    res = multiclass_pilot_plan(ragged, preds, bootstrap=0)
    assert "items_with_fewer_than_3_labels" in res.codes and res.n_few_labels == 100
    assert "100 of the 600 pilot items have fewer than 3 labels" in " ".join(multiclass_notes(res))
    chance = np.array([[0.8, 0.12, 0.08], [0.45, 0.3, 0.25], [0.08, 0.12, 0.8]])
    res = multiclass_pilot_plan(*_pilot(1, n=2000, crowd=chance), bootstrap=0)
    assert "crowd_at_or_below_chance" in res.codes
    assert "at or below chance (1/3)" in " ".join(multiclass_notes(res))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_two_class_pilot_warns_without_a_bootstrap_at_q_0_6(seed: int) -> None:
    """The issue: at q = 0.6, three of four seeds gave no warning with bootstrap=0 although the
    estimates were far off; the observed information now flags them (reason "flat"), and a
    well-identified pilot (q = 0.8) stays quiet."""
    d = pair(2000, 3, q=0.6, p=0.7, eps=0.1, seed=seed)
    res = pilot_plan(d.ratings, d.predictions, bootstrap=0)
    assert res.warnings and weak_sentence(res) is not None
    for w in res.warnings:
        assert w.reason in ("boundary", "flat")
        if w.reason == "flat":
            assert w.interval.width is None or w.interval.width > 0.2
    good = pair(2000, 3, q=0.8, p=0.7, eps=0.1, seed=seed)
    assert pilot_plan(good.ratings, good.predictions, bootstrap=0).warnings == ()


def test_em_with_and_without_squarem_reach_the_same_fit() -> None:
    ratings, preds = _pilot(7, n=1000)
    counts = ratings.counts
    pat = latent_patterns(counts, [preds.hard("a"), preds.hard("b")], levels=(3, 3))
    fast = fit_latent_classes(pat, tol=1e-10)
    slow = fit_latent_classes(pat, tol=1e-10, accelerate=False)
    assert fast.converged[0] and slow.converged[0]
    assert np.abs(fast.crowd - slow.crowd).max() < 1e-7
    assert fast.loglik[0] == pytest.approx(slow.loglik[0], rel=1e-10)
    for x in (fast.prior, fast.crowd, *fast.sources):
        assert np.allclose(x.sum(axis=-1), 1.0)


def test_k_class_plan_checks() -> None:
    ratings, preds = _pilot(1, n=300)
    with pytest.raises(InputError, match="vote_ties='failure'"):
        multiclass_pilot_plan(ratings, preds, options=PlanOptions(vote_ties="failure"))
    with pytest.raises(InputError, match="latent_variant='full'"):
        multiclass_pilot_plan(ratings, preds, options=PlanOptions(latent_variant="full"))
    one = Predictions.from_arrays(ratings.items, {"a": preds.hard("a")}, classes=ratings.classes)
    with pytest.raises(InputError, match="two models"):
        multiclass_pilot_plan(ratings, one)
    res = plan(ratings, one, bootstrap=0)
    assert res.multiclass_pilot is None and res.pilot_skipped is not None
    assert res.pilot_skipped.reason == "one_model"
    few = Ratings.from_counts([[1, 1, 0]] * 30, classes=ratings.classes)
    two = Predictions.from_arrays(few.items, {"a": [0] * 30, "b": [1] * 30}, classes=few.classes)
    with pytest.raises(InputError, match="≥ 3 labels"):
        multiclass_pilot_plan(few, two)
    q = quick_compare(0.6, 600, n_classes=3)
    assert q.best_labels_per_item == 1 and len(q.win) == 3
    curve = win_curve(symmetric_errors(4, 0.7, 0.7, 0.05), (1, 3), [600])
    assert [round(p.win, 3) for p in curve.points] == [
        0.894,
        0.802,
    ]  # docs/budget.md's K = 4 example


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    k=st.integers(2, 4),
    n=st.integers(20, 200),
    labels=st.integers(1, 5),
)
def test_the_pooled_fit_is_a_distribution_and_ignores_the_item_order(seed, k, n, labels) -> None:
    """Any counts and predictions: every fitted row is a probability vector, the posteriors too, the
    log-likelihood is finite, and shuffling the items changes nothing."""
    g = np.random.default_rng(seed)
    counts = g.multinomial(labels, np.full(k, 1.0 / k), size=n)
    preds = [g.integers(0, k, n), g.integers(0, k, n)]
    em = fit_latent_classes(latent_patterns(counts, preds, levels=(k, k)), max_iter=500)
    for x in (em.prior, em.crowd, *em.sources, em.posterior):
        assert np.all(x >= -1e-12) and np.allclose(x.sum(axis=-1), 1.0)
    assert np.isfinite(em.loglik[0])
    perm = g.permutation(n)
    again = fit_latent_classes(
        latent_patterns(counts[perm], [p[perm] for p in preds], levels=(k, k)), max_iter=500
    )
    assert np.array_equal(again.crowd, em.crowd) and np.array_equal(again.prior, em.prior)
