"""Simulated judge studies with a known truth, all studies of a setting at once (numpy, vectorised).

Items come in a few *types*; a type fixes each model's chance of being right (p_a, p_b) and the judge's
scores (f_a, f_b), so the population's true accuracies, their difference and the correlation ρ between
the human reference and the judge's score are known exactly. A study draws n labelled items (types,
then each model's correctness) and N unlabelled items; the judge's scores on the unlabelled items enter
the estimators only through their mean and variance, which a multinomial count of types gives exactly,
so N may be huge at no cost. The active design draws a pool of items, sends each to raters with the
probability :func:`humanly.judging.sampling_probabilities` gives its type, and weights by 1/π.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from humanly.judging import sampling_probabilities
from humanly.judging._ppi import Moments, fit, moments

P_TYPE = np.full(6, 1 / 6)
P_A = np.array([0.98, 0.95, 0.9, 0.6, 0.1, 0.05])
P_B = np.array([0.95, 0.55, 0.9, 0.3, 0.2, 0.05])


@dataclasses.dataclass(frozen=True)
class Setting:
    """A judge: its scores for models a and b per item type."""

    name: str
    f_a: np.ndarray
    f_b: np.ndarray


def settings() -> dict[str, Setting]:
    """good (calibrated), poor (mostly unrelated to the truth), adversarial (anti-calibrated)."""
    perm = np.array([3, 5, 0, 4, 1, 2])
    return {
        "good": Setting("good", P_A, P_B),
        "poor": Setting("poor", 0.3 * P_A + 0.7 * P_A[perm], 0.3 * P_B + 0.7 * P_B[perm]),
        "adversarial": Setting("adversarial", 1 - P_A, 1 - P_B),
    }


def truth(estimand: str) -> float:
    """The population value of ``"a"`` (accuracy of model a) or ``"a-b"`` (the difference)."""
    return float(P_TYPE @ P_A) if estimand == "a" else float(P_TYPE @ (P_A - P_B))


def _score(setting: Setting, estimand: str) -> np.ndarray:
    return setting.f_a if estimand == "a" else setting.f_a - setting.f_b


def rho(setting: Setting, estimand: str) -> float:
    """The population correlation between Y and f (Y's conditional variance included)."""
    f = _score(setting, estimand)
    if estimand == "a":
        ey, ey2 = P_A, P_A
    else:  # Y = Y_a − Y_b with independent draws given the type
        ey, ey2 = P_A - P_B, P_A + P_B - 2 * P_A * P_B
    mean_y, mean_f = P_TYPE @ ey, P_TYPE @ f
    var_y = P_TYPE @ ey2 - mean_y**2
    var_f = P_TYPE @ f**2 - mean_f**2
    cov = P_TYPE @ (ey * f) - mean_y * mean_f
    return float(cov / np.sqrt(var_y * var_f))


def _labelled(rng: np.random.Generator, shape: tuple[int, int], estimand: str, setting: Setting):
    types = rng.choice(len(P_TYPE), size=shape, p=P_TYPE)
    y_a = rng.random(shape) < P_A[types]
    if estimand == "a":
        return y_a.astype(float), setting.f_a[types], types
    y_b = rng.random(shape) < P_B[types]
    return y_a.astype(float) - y_b, _score(setting, estimand)[types], types


def uniform_studies(
    setting: Setting,
    estimand: str,
    n: int,
    big_n: int,
    studies: int,
    lam: float | None,
    seed: int,
    chunk: int = 2000,
):
    """(low, high, se, classical_se) arrays of ``studies`` simulated uniform designs at level 0.95."""
    rng = np.random.default_rng(seed)
    f_type = _score(setting, estimand)
    out = []
    for start in range(0, studies, chunk):
        s = min(chunk, studies - start)
        y, f, _ = _labelled(rng, (n, s), estimand, setting)
        counts = rng.multinomial(big_n, P_TYPE, size=s)
        mean = counts @ f_type / big_n
        var = counts @ f_type**2 / big_n - mean**2
        unl = Moments(np.full(s, float(big_n)), mean, np.maximum(var, 0) / big_n, weighted=False)
        r = fit(y, f, unl, lam=lam)
        low, high = r.interval(0.95)
        out.append((low, high, r.se, r.classical_se))
    return tuple(np.concatenate(parts) for parts in zip(*out, strict=True))


def active_probabilities(setting: Setting, budget_share: float) -> np.ndarray:
    """Each type's probability of being sent to raters, from :func:`sampling_probabilities` on a
    pool in the population's proportions (a rule that depends on the item only)."""
    pool = np.repeat(np.arange(len(P_TYPE)), 1000)
    scores = np.column_stack([setting.f_a[pool], setting.f_b[pool]])
    pi = sampling_probabilities(scores, budget_share * len(pool))
    return np.array([pi[pool == k][0] for k in range(len(P_TYPE))])


def active_studies(
    setting: Setting,
    estimand: str,
    n: int,
    pool: int,
    studies: int,
    lam: float | None,
    seed: int,
    chunk: int = 500,
):
    """(low, high, n_labelled) of ``studies`` active designs: a pool of ``pool`` items, ``n`` of them
    sent to raters in expectation, with probabilities from the judge's uncertainty."""
    rng = np.random.default_rng(seed)
    pi_type = active_probabilities(setting, n / pool)
    out = []
    for start in range(0, studies, chunk):
        s = min(chunk, studies - start)
        y, f, types = _labelled(rng, (pool, s), estimand, setting)
        pi = pi_type[types]
        sent = rng.random((pool, s)) < pi
        unl: Moments = moments(f, np.where(sent, 0.0, 1.0 / (1.0 - pi)))
        r = fit(y, f, unl, lam=lam, weights=np.where(sent, 1.0 / pi, 0.0))
        low, high = r.interval(0.95)
        out.append((low, high, sent.sum(axis=0)))
    return tuple(np.concatenate(parts) for parts in zip(*out, strict=True))
