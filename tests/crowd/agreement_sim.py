"""Coverage of the agreement family's intervals by simulation (used by test_agreement_coverage.py).

A population of items with a true class (prevalences ``prevalence``) is labelled by fixed raters, each
right with its own accuracy and otherwise uniform over the other classes; a rater may skip an item
(``present``). Every possible label pattern (which rater gave which label, or none) is enumerated with
its probability, so the *population* coefficients — the limits of the estimators, raters fixed — are
exact: the estimators evaluated on the pattern probabilities (α with its small-sample factor gone).
A simulated data set of n items is a multinomial draw of pattern counts; Gwet's intervals and the
percentile bootstrap (items redrawn with replacement: the law of the multinomial pattern counts
:func:`agreement` draws) are computed with the same machinery as :func:`humanly.crowd.family.agreement`.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import scipy.sparse as sp

from humanly._core.bootstrap import percentile_interval
from humanly.crowd._coefficients import CountDesign, estimates, features, variances
from humanly.crowd._conger import Patterns, conger_estimates, conger_variance
from humanly.crowd.benchmarks import t_interval
from humanly.crowd.weights import krippendorff_metric, metric_weights

COEFFS = ("fleiss_kappa", "conger_kappa", "krippendorff_alpha", "gwet_ac")
COUNT = ("fleiss_kappa", "krippendorff_alpha", "gwet_ac")


def population(prevalence, accuracy, present):
    """All label patterns (−1: no label) with their probabilities."""
    q, k = len(prevalence), len(accuracy)
    options = list(range(-1, q)) if present < 1 else list(range(q))
    pats = np.array(list(itertools.product(options, repeat=k)))
    prob = np.zeros(len(pats))
    for t, pt in enumerate(prevalence):
        p = np.ones(len(pats)) * pt
        for g, a in enumerate(accuracy):
            lab = pats[:, g]
            like = np.where(lab == t, a, (1 - a) / (q - 1))
            like = np.where(lab < 0, 1 - present, present * like)
            p *= like
        prob += p
    keep = (pats >= 0).sum(axis=1) >= 1
    return pats[keep], prob[keep] / prob[keep].sum()


def design(pats, q, mult):
    """Count rows and the rater one-hot of patterns, as the family's Patterns."""
    k = pats.shape[1]
    rows = np.stack([(pats == c).sum(axis=1) for c in range(q)], axis=1).astype(float)
    where = np.argwhere(pats >= 0)
    cols = where[:, 1] * q + pats[where[:, 0], where[:, 1]]
    onehot = sp.csr_matrix((np.ones(len(where)), (where[:, 0], cols)), shape=(len(pats), k * q))
    return Patterns(rows, np.asarray(mult, dtype=float), onehot, k)


def coefficient_values(pats: Patterns, q, m):
    """Each coefficient for each row of multiplicities ``m`` (replicates × patterns)."""
    values = np.arange(1.0, q + 1.0)
    cd = CountDesign(
        pats.rows,
        pats.mult,
        np.eye(q),
        metric_weights(krippendorff_metric("nominal", values, None)),
        values,
    )
    feats = features(cd)
    est = estimates(m @ feats, cd, COUNT)
    sums = np.asarray(pats.onehot.T @ m.T).T
    est["conger_kappa"] = conger_estimates(est["pa"], sums, pats.raters, np.eye(q))[0]
    return est


def truth(prevalence, accuracy, present):
    q = len(prevalence)
    pats, prob = population(prevalence, accuracy, present)
    p = design(pats, q, prob)
    est = coefficient_values(p, q, 1e12 * prob[None, :])
    return {c: float(est[c][0]) for c in COEFFS}


def coverage(
    prevalence, accuracy, present, *, n=100, sims=1000, bootstrap=1000, level=0.95, seed=0
):
    """Share of simulated data sets whose analytic and bootstrap intervals cover the population
    coefficient, per coefficient: ``{name: (analytic, bootstrap)}``."""
    q = len(prevalence)
    pats, prob = population(prevalence, accuracy, present)
    target = truth(prevalence, accuracy, present)
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n, prob, size=sims)
    hits = {c: [0, 0] for c in COEFFS}
    values = np.arange(1.0, q + 1.0)
    for s in range(sims):
        used = counts[s] > 0
        p = design(pats[used], q, counts[s][used])
        cd = CountDesign(
            p.rows,
            p.mult,
            np.eye(q),
            metric_weights(krippendorff_metric("nominal", values, None)),
            values,
        )
        est = estimates(p.mult @ features(cd), cd, COUNT)
        var = variances(cd, est, COUNT, math.inf)
        sums = np.asarray(p.onehot.T @ p.mult)[None, :]
        kap, pe = conger_estimates(est["pa"], sums, p.raters, np.eye(q))
        est["conger_kappa"] = kap
        var["conger_kappa"] = conger_variance(
            p, np.eye(q), float(est["pa"][0]), float(pe[0]), float(kap[0]), math.inf
        )
        # resample the n items (the law of multinomial pattern counts, drawn faster)
        item_pattern = np.repeat(np.arange(len(p.mult)), p.mult.astype(int))
        draws = item_pattern[rng.integers(0, n, size=(bootstrap, n))]
        offsets = np.arange(bootstrap)[:, None] * len(p.mult)
        m = np.bincount((draws + offsets).ravel(), minlength=bootstrap * len(p.mult))
        m = m.reshape(bootstrap, len(p.mult)).astype(float)
        reps = coefficient_values(p, q, m)
        for c in COEFFS:
            value, se = float(est[c][0]), math.sqrt(var[c])
            low, high = t_interval(value, se, n - 1.0, level)
            hits[c][0] += low is not None and low <= target[c] <= high
            b_low, b_high = percentile_interval(reps[c], level)
            hits[c][1] += b_low is not None and b_low <= target[c] <= b_high
    return target, {c: (h[0] / sims, h[1] / sims) for c, h in hits.items()}
