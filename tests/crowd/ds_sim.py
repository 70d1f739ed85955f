"""A seeded analogue of the TREC relevance crowd (used by test_dawid_skene.py and
benchmarks/dawid_skene_bench.py): many ragged items, a few hundred raters of very unequal activity,
graded classes, and raters of several kinds whose confusion matrices give Dawid–Skene's likelihood
several local maxima.

Item ``i`` has a true grade drawn from a skewed prior (most items not relevant) and 1–``max_labels``
labels from distinct raters drawn by Pareto activity weights. A rater is one of

* *careful* — right with probability 0.55–0.95, a miss one grade away (as graders miss);
* *lenient* / *strict* — a careful rater who also moves half of their labels one grade up (down);
* *spammer* — labels drawn from one fixed distribution, whatever the grade;
* *swapper* — a careful rater who reads the two middle grades the other way round.

Lenient and strict raters, swappers and spammers who label the same items can each be explained two
ways (the rater is off, or the crowd is), which is what gives EM several optima to end in.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import humanly

KINDS = ("careful", "lenient", "strict", "spammer", "swapper")
SHARES = (0.5, 0.13, 0.13, 0.14, 0.1)


def _confusion(rng: np.random.Generator, kind: str, q: int) -> np.ndarray:
    """One rater's q × q confusion matrix (rows: true grade, columns: label)."""
    if kind == "spammer":
        return np.tile(rng.dirichlet(np.full(q, 0.7)), (q, 1))
    right = rng.uniform(0.55, 0.95)
    theta = np.zeros((q, q))
    for c in range(q):
        near = [k for k in (c - 1, c + 1) if 0 <= k < q]
        theta[c, c] = right
        theta[c, near] += (1.0 - right) * 0.8 / len(near)
        theta[c] += (1.0 - right) * 0.2 / q
    if kind in ("lenient", "strict"):
        step = 1 if kind == "lenient" else -1
        moved = np.zeros_like(theta)
        for k in range(q):
            moved[:, min(max(k + step, 0), q - 1)] += theta[:, k]
        theta = 0.5 * theta + 0.5 * moved
    if kind == "swapper" and q >= 3:
        a, b = q // 2 - 1, q // 2
        theta[:, [a, b]] = theta[:, [b, a]]
    return theta / theta.sum(axis=1, keepdims=True)


def relevance_like(
    seed: int = 0,
    n_items: int = 20_000,
    n_raters: int = 766,
    n_classes: int = 4,
    max_labels: int = 9,
) -> humanly.Ratings:
    """Named ratings of the relevance analogue (item, rater and label ids are ints; classes
    ``0 … n_classes − 1`` with 0 the most common). The defaults have the shape of the TREC 2010
    relevance-feedback crowd (about 20,000 items, 766 raters, 10⁵ labels); ``n_items=100_000,
    n_raters=400, max_labels=5`` gives 10⁵ items and about 3 × 10⁵ labels."""
    rng = np.random.default_rng(seed)
    prior = np.array([0.55, 0.25, 0.13, 0.07, 0.05, 0.03][:n_classes])
    truth = rng.choice(n_classes, n_items, p=prior / prior.sum())
    kinds = rng.choice(len(KINDS), n_raters, p=SHARES)
    theta = np.stack([_confusion(rng, KINDS[k], n_classes) for k in kinds])
    items = np.repeat(np.arange(n_items), rng.integers(1, max_labels + 1, n_items))
    activity = rng.pareto(1.0, n_raters) + 0.05
    raters = rng.choice(n_raters, len(items), p=activity / activity.sum())
    frame = pd.DataFrame({"item": items, "rater": raters}).drop_duplicates()
    items, raters = frame["item"].to_numpy(), frame["rater"].to_numpy()
    cum = theta[raters, truth[items]].cumsum(axis=1)
    labels = (rng.random(len(items))[:, None] > cum).sum(axis=1).clip(0, n_classes - 1)
    return humanly.Ratings.from_long(items, raters, labels, classes=list(range(n_classes)))
