"""The design check: do the human-labelled items look like a random sample of all items, as far as
the judge's outputs can tell?

PPI's interval is valid when the labelled items are a simple random sample of the items (or drawn with
known probabilities, which the estimate then weights by). Human labels gathered on the hardest items,
the most recent ones or one source only break that, and nothing in the estimate shows it. The judge's
outputs are known on every item, so they can: under random sampling, their distribution on the
labelled items is that on all items up to chance.

The test, per column of the judge's outputs (its label; its score of each model): the values are put
into categories (each distinct value when there are at most ``bins`` of them, else ``bins`` bins at the
quantiles of the values of every k-th item, at most ~100,000 of them: any binning fixed before looking
at which items are labelled keeps the test exact), and the chi-square statistic of the 2 × categories
table (labelled against unlabelled) is compared with its distribution over random designs. Given the
categories' totals and n, a simple random sample's labelled counts are multivariate hypergeometric, so
the null distribution is drawn exactly (numpy's ``multivariate_hypergeometric``, up to ``draws`` times,
from ``stream(seed, column)``, in batches of 100, 200, 400, …) and the p-value (1 + #{draws ≥
observed}) / (1 + draws) is valid at every n and N: a random design gives p < α with probability at
most α. A column whose statistic is exceeded by ``STOP`` = 20 random designs after l draws stops there
with p = 20 / l (Besag & Clifford's sequential p-value, valid in the same sense): such a column's
p-value is at least 0.01, far from firing, and a random-looking design costs a tenth of the draws.
With strata (items sampled at different rates by design) each stratum is compared with itself and the
statistics add up. The columns' p-values are combined by Bonferroni (the smallest times the number of
columns), and the check fires (``not_random_sample``) below ``significance`` — 0.01 by default, so that
at most 1 random design in 100 raises a false alarm, far below the 1 in 20 the check is allowed.

With sampling probabilities (the active design, or a weights column) the labelled items are *meant* to
differ from the others; the estimate weights by 1/π (:func:`humanly.judging._ppi.fit`, as
:func:`humanly.judging.select`'s estimate does) and the check does not apply (``weighted_design``).

References
----------
Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", *Science* 382 (2023)
(the labelled and unlabelled items are i.i.d. draws from one distribution).
Besag & Clifford, "Sequential Monte Carlo p-values", *Biometrika* 78 (1991) 301–304.
Agresti, *Categorical Data Analysis*, 3rd ed. (2013), section 3.5 (exact conditional tests of
independence by Monte Carlo).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._core.rng import stream
from ..errors import InputError
from ._vectors import factorize
from .extended import ColumnTest, DesignCheck

__all__ = ["BINS", "DRAWS", "SIGNIFICANCE", "STOP", "categories", "check"]

#: categories per score column; random designs per column (at most); the p-value below which the
#: check fires; the designs at least as extreme as the observed one after which a column stops
BINS = 10
DRAWS = 1999
SIGNIFICANCE = 0.01
STOP = 20

#: the first batch of random designs (each next batch doubles, up to ``draws`` in all)
_FIRST_BATCH = 100


def categories(values: np.ndarray, bins: int = BINS) -> np.ndarray:
    """Category codes 0 … C − 1 of one column: its distinct values when there are at most ``bins``,
    else bins at the quantiles of the values (bins that coincide are merged).

    >>> categories(np.array([0.1, 0.9, 0.1, 0.5])).tolist()
    [0, 2, 0, 1]
    """
    values = np.ascontiguousarray(values)
    head = np.unique(values[:10_000])
    if len(head) <= bins:  # few values in the first items: perhaps a label or a 0/1 score
        codes = _counted(values, head[1:])
        if np.array_equal(head[codes], values):
            return codes.astype(np.intp)
        codes, distinct = pd.factorize(values, sort=True)
        if len(distinct) <= bins:
            return np.asarray(codes, dtype=np.intp)
    # any binning fixed before looking at which items are labelled keeps the test exact: the
    # quantiles of every k-th item (at most ~100,000 of them) are as good as all items' and cheaper
    sample = values[:: max(1, len(values) // 100_000)]
    edges = np.quantile(sample, np.linspace(0, 1, bins + 1)[1:-1])
    raw = _counted(values, edges)
    present = np.bincount(raw, minlength=bins) > 0
    if present.all():
        return raw.astype(np.intp)
    return (np.cumsum(present) - 1)[raw]


def _counted(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """How many of the (few, sorted) ``edges`` are ≤ each value: a few comparisons per item beat a
    binary search per item on 10⁶ items."""
    raw = np.zeros(len(values), dtype=np.uint8)
    for edge in edges:
        raw += values >= edge
    return raw


def _statistic(labelled: np.ndarray, totals: np.ndarray, n: int) -> np.ndarray:
    """Chi-square of labelled against unlabelled counts (rows of ``labelled``: one table each)."""
    m = totals.sum()
    if n == 0 or n == m:
        return np.zeros(labelled.shape[:-1])
    present = totals > 0
    expected = n * totals[present] / m
    scale = m**2 / (n * (m - n) * totals[present])
    return (((labelled[..., present] - expected) ** 2) * scale).sum(axis=-1)


def _counts(codes: np.ndarray, strata: np.ndarray | None, k: int, c: int) -> np.ndarray:
    """Items per stratum and category (k × c)."""
    if strata is None:
        return np.bincount(codes, minlength=c).reshape(1, c)
    return np.bincount(strata * c + codes, minlength=k * c).reshape(k, c)


def _column(
    codes: np.ndarray, rows: np.ndarray, strata: np.ndarray | None, k: int, draws: int, seed, index
) -> tuple[float, float, int, int]:
    """The column's statistic, p-value, number of categories and random designs drawn (``rows``: the
    labelled items)."""
    c = int(codes.max()) + 1
    totals = _counts(codes, strata, k, c)
    seen = _counts(codes[rows], None if strata is None else strata[rows], k, c)
    rng = stream(seed, index)
    sizes = [int(n_s) for n_s in seen.sum(axis=1)]
    observed = sum(float(_statistic(seen[s][None, :], totals[s], sizes[s])[0]) for s in range(k))
    varies = [s for s in range(k) if 0 < sizes[s] < totals[s].sum()]
    cats = int((totals.sum(axis=0) > 0).sum())
    done, exceed, batch = 0, 0, _FIRST_BATCH
    while done < draws:
        size = min(batch, draws - done)
        null = np.zeros(size)
        for s in varies:
            drawn = rng.multivariate_hypergeometric(totals[s], sizes[s], size=size)
            null += _statistic(drawn, totals[s], sizes[s])
        over = null >= observed * (1 - 1e-12)
        if exceed + int(over.sum()) >= STOP:  # stop at the STOP-th design as extreme: p = STOP / l
            at = int(np.flatnonzero(over)[STOP - exceed - 1]) + 1
            return observed, STOP / (done + at), cats, done + at
        exceed += int(over.sum())
        done += size
        batch *= 2
    return observed, (1 + exceed) / (1 + draws), cats, draws


def check(
    columns: Any,
    labelled: Any,
    *,
    strata: Any = None,
    names: Any = None,
    bins: int = BINS,
    draws: int = DRAWS,
    significance: float = SIGNIFICANCE,
    seed: int | None = 0,
    weighted: bool = False,
) -> DesignCheck:
    """Compare the judge's outputs on the labelled and the unlabelled items (see the module
    docstring): ``columns`` items × C, one column, or a list of C columns (not copied into one
    matrix), ``labelled`` a boolean per item."""
    if isinstance(columns, (list, tuple)):
        x = [np.asarray(c).reshape(-1) for c in columns]
    else:
        matrix = np.asarray(columns)
        matrix = matrix[:, None] if matrix.ndim == 1 else matrix
        x = [matrix[:, j] for j in range(matrix.shape[1])]
    mask = np.asarray(labelled, dtype=bool).reshape(-1)
    if any(len(c) != len(mask) for c in x):
        raise InputError(
            f"labelled: {len(mask)} flags for {len(x[0])} items; give one per item, in the same "
            "order"
        )
    rows = np.flatnonzero(mask)
    n, big_n = len(rows), len(mask) - len(rows)
    if weighted:
        return DesignCheck("weighted", "weighted_design", None, significance, 0, seed, n, big_n)
    codes_s: np.ndarray | None = None
    k = 1
    if strata is not None:
        codes_s, names_s = factorize(strata)
        k = len(names_s)
        if len(codes_s) != len(mask):
            raise InputError(
                f"strata: {len(codes_s)} strata for {len(mask)} items; give one per item, in order"
            )
    labels = [f"column {j}" for j in range(len(x))] if names is None else list(names)
    tests = []
    for j, column in enumerate(x):
        stat, p, cats, drawn = _column(categories(column, bins), rows, codes_s, k, draws, seed, j)
        tests.append(ColumnTest(str(labels[j]), stat, p, cats, drawn))
    p_all = min(1.0, min(t.p_value for t in tests) * len(tests))
    fired = p_all < significance
    return DesignCheck(
        status="not random" if fired else "random-looking",
        code="not_random_sample" if fired else None,
        p_value=p_all,
        significance=float(significance),
        draws=int(draws),
        seed=seed,
        n=n,
        n_unlabelled=big_n,
        columns=tuple(tests),
    )
