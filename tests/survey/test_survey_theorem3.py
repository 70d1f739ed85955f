"""Theorem 3 (the ABC maximises the cross-entropy power curve) and Corollary 1 (so it gives the smallest
survey equivalence), checked over random urns — random numbers of states, random state distributions
(label distributions with full support) and random mixing weights — not one instance:

* in the population limit, in closed form (sums over count vectors): the ABC's curve is the Bayesian
  posterior predictive's, ≥ the curve of the frequency, plurality and a random table combiner at every
  k, and every classifier score crosses it first (Corollary 1);
* on 4,000 items drawn from the urn: the exact engine's ABC curve is within its sampling error of its
  limit and not below the frequency or plurality curves beyond their sampling errors, and the
  equivalences of a classifier score keep Corollary 1's order.

The tolerance on samples follows from the sample size, not a constant (issue 26: a fixed 0.02 bits
failed on an urn whose items' scores vary widely). A curve point is a mean over n items of each item's
expected score, so it has standard error SE_k = sd_k/√n, where sd_k is the spread of the per-item
expected score over the urn's count vectors (computed in closed form below, :func:`_spread`); the ABC
also learns its predictions from the same n items, which costs about (C − 1)·N_k/(2 n ln 2) bits at
level k (N_k count vectors of k labels, C − 1 free probabilities each: the usual log-loss penalty of
estimated probabilities). The check allows 4.5 SE_k plus 1.5 times that penalty: over 400 simulated
studies of random urns (2–3 classes, 2–4 states) the largest deviation used 65% of it, and the old
constant was exceeded on urns where SE_k alone was 0.009 bits.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import Ratings
from humanly.survey import equivalence
from humanly.survey.combiners import clip_probs, get_combiner
from humanly.survey.crossing import equivalence_point
from humanly.survey.scorers import get_scorer


@st.composite
def urns(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """States (S × C, every entry ≥ 0.05) and weights (S); 2–4 states over 2–3 classes."""
    n_cls = draw(st.integers(2, 3))
    n_states = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**31 - 1))
    g = np.random.default_rng(seed)
    states = 0.05 + (1 - 0.05 * n_cls) * g.dirichlet(np.ones(n_cls) * 0.6, size=n_states)
    weights = g.dirichlet(np.ones(n_states))
    return states, weights


def _vectors(k: int, n_cls: int) -> list[tuple[int, ...]]:
    return [y for y in itertools.product(range(k + 1), repeat=n_cls) if sum(y) == k]


def _population(
    states: np.ndarray, weights: np.ndarray, k: int
) -> list[tuple[np.ndarray, float, np.ndarray]]:
    """(y, P(counts y), P(next label | y)) for every count vector of k labels."""
    out = []
    for y in _vectors(k, states.shape[1]):
        y_a = np.array(y)
        coef = math.factorial(k) / math.prod(math.factorial(v) for v in y)
        lik = np.prod(states**y_a, axis=1)  # P(one ordered sequence with counts y | state)
        p_y = coef * float(weights @ lik)
        post = weights * lik / float(weights @ lik)
        out.append((y_a, p_y, post @ states))
    return out


def _limit_curve(states: np.ndarray, weights: np.ndarray, comb, k_max: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """lim SPC(COMB, CE)_k = Σ_y P(y) Σ_c P(c | y) log2 COMB(y)_c (proof of Theorem 3, eq. 1)."""
    ce = get_scorer("cross_entropy")
    out = []
    for k in range(k_max + 1):
        total = 0.0
        for y, p_y, nxt in _population(states, weights, k):
            pred = nxt if comb is None else comb(y)
            total += p_y * float(nxt @ ce.terms(pred[None])[0])
        out.append(total)
    return np.array(out)


def _table_combiner(seed: int, n_cls: int):  # type: ignore[no-untyped-def]
    """An arbitrary combiner: a fixed random distribution for every count vector."""
    g = np.random.default_rng(seed)
    table: dict[tuple[int, ...], np.ndarray] = {}

    def comb(y: np.ndarray) -> np.ndarray:
        key = tuple(int(v) for v in y)
        if key not in table:
            table[key] = g.dirichlet(np.ones(n_cls))
        return table[key]

    return comb


def _myopic(name: str):  # type: ignore[no-untyped-def]
    c = get_combiner(name)
    eye_clip = None

    def comb(y: np.ndarray) -> np.ndarray:
        p = c.predict(y[None])[0]
        if c.hard:  # the random label's expected one-hot, clipped as the engine scores it
            nonlocal eye_clip
            if eye_clip is None:
                eye_clip = clip_probs(np.eye(len(p)), (0.02, 0.98))
            return p @ eye_clip
        return p

    return comb


@settings(max_examples=40, deadline=None)
@given(urns(), st.integers(0, 10_000), st.floats(0.05, 0.95))
def test_theorem_3_and_corollary_1_in_the_limit(
    urn: tuple[np.ndarray, np.ndarray], seed: int, where: float
) -> None:
    states, weights = urn
    k_max = 6
    abc = _limit_curve(states, weights, None, k_max)
    assert np.all(np.diff(abc) > -1e-12)  # Corollary 2: the ABC curve does not decrease
    for comb in (
        _myopic("frequency"),
        _myopic("plurality"),
        _table_combiner(seed, states.shape[1]),
    ):
        other = _limit_curve(states, weights, comb, k_max)
        assert np.all(abc >= other - 1e-12)  # Theorem 3
        # Corollary 1: any classifier score the other curve places, the ABC's curve places earlier
        h = other[0] + where * (other.max() - other[0])
        e_other, _ = equivalence_point(np.arange(k_max + 1), other, h)
        e_abc, note = equivalence_point(np.arange(k_max + 1), abc, h)
        if e_other is not None:
            assert note == "below_0" or (e_abc is not None and e_abc <= e_other + 1e-9)


def _spread(states: np.ndarray, weights: np.ndarray, comb, n_labels: int, k: int) -> float:  # type: ignore[no-untyped-def]
    """The standard deviation, over the urn's items (n_labels labels each), of an item's expected score
    at level k: k of its labels surveyed at random, one of the others held out, scored by
    cross-entropy against the combiner's prediction (the posterior predictive when ``comb`` is None)."""
    n_cls = states.shape[1]
    pred = {tuple(y): nxt for y, _, nxt in _population(states, weights, k)}
    ce = get_scorer("cross_entropy")
    probs, values = [], []
    for v in _vectors(n_labels, n_cls):
        v_a = np.array(v)
        coef = math.factorial(n_labels) / math.prod(math.factorial(x) for x in v)
        probs.append(coef * float(weights @ np.prod(states**v_a, axis=1)))
        e = 0.0
        for y in _vectors(k, n_cls):
            y_a = np.array(y)
            if np.any(y_a > v_a):
                continue
            hyp = math.prod(math.comb(int(a), int(b)) for a, b in zip(v, y, strict=True))
            held = (v_a - y_a) / (n_labels - k)
            p = pred[y] if comb is None else comb(y_a)
            e += hyp / math.comb(n_labels, k) * float(held @ ce.terms(p[None])[0])
        values.append(e)
    pv, ev = np.array(probs), np.array(values)
    return math.sqrt(max(float(pv @ ev**2 - (pv @ ev) ** 2), 0.0))


def _tolerance(states: np.ndarray, weights: np.ndarray, comb, n: int, n_labels: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Per level: 4.5 standard errors plus 1.5 times the learning penalty (see the module docstring)."""
    n_cls = states.shape[1]
    out = []
    for k in range(n_labels):
        se = _spread(states, weights, comb, n_labels, k) / math.sqrt(n)
        penalty = (n_cls - 1) * math.comb(k + n_cls - 1, n_cls - 1) / (2 * n * math.log(2))
        out.append(4.5 * se + 1.5 * penalty)
    return np.array(out)


@settings(max_examples=8, deadline=None)
@given(urns(), st.integers(0, 10_000))
def test_theorem_3_on_samples_from_random_urns(
    urn: tuple[np.ndarray, np.ndarray], seed: int
) -> None:
    states, weights = urn
    g = np.random.default_rng(seed)
    n, k_labels = 4000, 6
    comp = g.choice(len(weights), size=n, p=weights)
    counts = np.array([g.multinomial(k_labels, states[s]) for s in comp])
    r = Ratings.from_counts(counts)
    abc = equivalence(r, bootstrap=0).scores
    tol = _tolerance(states, weights, None, n, k_labels)
    limit = _limit_curve(states, weights, None, k_labels - 1)
    assert np.all(np.abs(abc - limit) <= tol), (abc - limit, tol)
    for name in ("frequency", "plurality"):
        other = equivalence(r, combiner=name, bootstrap=0).scores
        # Theorem 3 holds in the population; on the sample each curve moves by its own error
        margin = tol + 4.5 * np.array(
            [_spread(states, weights, _myopic(name), k_labels, k) for k in range(k_labels)]
        ) / math.sqrt(n)
        assert np.all(abc[1:] >= other[1:] - margin[1:]), name
        h = other[0] + 0.5 * (other.max() - other[0])
        e_other, _ = equivalence_point(np.arange(k_labels), other, h)
        e_abc, note = equivalence_point(np.arange(k_labels), abc, h)
        if e_other is not None and note != "below_0":
            assert e_abc is not None and e_abc <= e_other + 0.1
