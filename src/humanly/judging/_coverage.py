"""The coverage table by simulation: how often judge-assisted intervals cover the truth, by the number
of human labels and the judge's quality (docs/judge.md prints it; tests/judge reproduce it).

The setting. A two-class task; each item has one human label, the reference. Model a gives the human
label with probability ``accuracies[0]``, model b with ``accuracies[1]``, independently (a wrong
output is the other class). A study has n labelled items and ``n_unlabelled`` unlabelled ones; the
estimands are model a's accuracy and the difference a − b, whose true values are the accuracies
given. Two kinds of judge, each "right" with probability ``judge_accuracy``:

* ``judge_kind="label"`` (as most LLM judges are used): the judge gives the human label with
  probability ``judge_accuracy``, independently of the models; its score f of a model is 1 when it
  gives the model's class. The unlabelled items enter the estimators only through the mean and
  variance of the judge's scores, which the counts of the 8 kinds of item (a right?, b right?,
  judge right?) give exactly, so a study costs O(n).
* ``judge_kind="proba"``: a calibrated soft judge. Per item it gives class 1 the probability
  c ~ Beta(α, α), and the human label is 1 with probability c (calibration); α is chosen so that its
  most probable class is the human label with probability ``judge_accuracy`` (1 − I_½(α + 1, α) =
  judge_accuracy). Its score f of a model is its probability of the model's class. The unlabelled
  mean of f is drawn from its normal approximation N(μ, σ²/N) with the exact population μ and σ²
  (moments of the Beta distribution), and the unlabelled variance is σ²: at N = 10,000 the unlabelled
  term is a small part of the variance.

Every method is computed on the same studies:

* ``ppi++``, ``ppi``, ``classical`` — the central-limit intervals with λ tuned, 1 and 0;
* ``adjusted`` — the small-sample human-only interval (:mod:`humanly.judging._small`);
* ``auto`` — what the default rule gives at this n (``adjusted`` below :data:`~._small.SMALL_N`,
  else ``ppi++``).

Cell i (judge accuracies outer, n inner) draws from ``stream(seed, i)``, so the table does not depend
on which cells are computed; the studies of a cell are drawn in chunks of 2,000 from that stream.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from .._core.checks import check_choice, check_int, check_probability
from .._core.rng import stream
from ._ppi import Fit, Moments, fit, z_value
from ._small import adjusted, small_n
from .extended import CoverageCell, CoverageTable

__all__ = ["JUDGE_KINDS", "METHODS", "NS", "QUALITIES", "beta_shape", "coverage_table"]

#: the table's rows: labelled items per study, and the judge's accuracy
NS = (25, 50, 100, 200, 500)
QUALITIES = (0.7, 0.8, 0.9, 0.95)
#: the methods compared
METHODS = ("ppi++", "ppi", "classical", "adjusted", "auto")
_CHUNK = 2000
#: the 8 kinds of item: (a right, b right, judge right)
_KINDS = np.array([(a, b, j) for a in (1, 0) for b in (1, 0) for j in (1, 0)], dtype=float)


#: the kinds of judge simulated
JUDGE_KINDS = ("label", "proba")


def beta_shape(judge_accuracy: float) -> float:
    """α such that the most probable class of a judge whose P(class 1) is Beta(α, α) is the human
    label (drawn with that probability) with probability ``judge_accuracy``: 1 − I_½(α + 1, α).

    >>> round(beta_shape(0.9), 3)
    0.197
    """
    from scipy.optimize import brentq
    from scipy.special import betainc

    return float(
        np.exp(
            brentq(
                lambda la: 1 - betainc(np.exp(la) + 1, np.exp(la), 0.5) - judge_accuracy,
                -12.0,
                12.0,
                xtol=1e-14,
            )
        )
    )


def _soft_moments(a: float, acc: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """The population mean and variance of the soft judge's score of model a and of a − b."""
    m1 = (a + 1) / (2 * a + 1)  # E[p], p the judge's probability of the human label
    e_c3 = a * (a + 1) * (a + 2) / ((2 * a) * (2 * a + 1) * (2 * a + 2))
    m2 = 2 * e_c3  # E[p²] = E[c³ + (1 − c)³]
    al, be = acc
    mean_a = al * m1 + (1 - al) * (1 - m1)
    sq_a = al * m2 + (1 - al) * (1 - 2 * m1 + m2)
    split = al * (1 - be) - (1 - al) * be
    either = al * (1 - be) + (1 - al) * be
    mean_d = split * (2 * m1 - 1)
    sq_d = either * (4 * m2 - 4 * m1 + 1)
    return {"accuracy": (mean_a, sq_a - mean_a**2), "difference": (mean_d, sq_d - mean_d**2)}


def _soft_studies(
    rng: np.random.Generator, n: int, runs: int, acc: tuple[float, float], q: float, big_n: int
) -> dict[str, tuple[np.ndarray, np.ndarray, Moments]]:
    """(y, f, unlabelled moments) per estimand for ``runs`` studies with a calibrated soft judge."""
    a = beta_shape(q)
    c = rng.beta(a, a, (n, runs))
    human = rng.random((n, runs)) < c
    p = np.where(human, c, 1 - c)
    right_a = rng.random((n, runs)) < acc[0]
    right_b = rng.random((n, runs)) < acc[1]
    f_a, f_b = np.where(right_a, p, 1 - p), np.where(right_b, p, 1 - p)
    y_a, y_b = right_a.astype(float), right_b.astype(float)
    pop = _soft_moments(a, acc)
    out = {}
    for name, y, f in (("accuracy", y_a, f_a), ("difference", y_a - y_b, f_a - f_b)):
        mu, var = pop[name]
        mean = rng.normal(mu, np.sqrt(var / big_n), runs)
        unl = Moments(np.full(runs, float(big_n)), mean, np.full(runs, var / big_n), False)
        out[name] = (y, f, unl)
    return out


def _kind_probabilities(acc_a: float, acc_b: float, q: float) -> np.ndarray:
    p = [acc_a, acc_b, q]
    return np.prod(np.where(_KINDS == 1, p, 1 - np.array(p)), axis=1)


def _studies(
    rng: np.random.Generator, n: int, runs: int, acc: tuple[float, float], q: float, big_n: int
) -> dict[str, tuple[np.ndarray, np.ndarray, Moments]]:
    """(y, f, unlabelled moments) per estimand for ``runs`` studies (one per column)."""
    right_a = rng.random((n, runs)) < acc[0]
    right_b = rng.random((n, runs)) < acc[1]
    right_j = rng.random((n, runs)) < q
    f_a, f_b = (right_a == right_j).astype(float), (right_b == right_j).astype(float)
    y_a, y_b = right_a.astype(float), right_b.astype(float)
    counts = rng.multinomial(big_n, _kind_probabilities(acc[0], acc[1], q), size=runs)
    kind_f_a = (_KINDS[:, 0] == _KINDS[:, 2]).astype(float)
    kind_f_b = (_KINDS[:, 1] == _KINDS[:, 2]).astype(float)
    out = {}
    for name, y, f, kf in (
        ("accuracy", y_a, f_a, kind_f_a),
        ("difference", y_a - y_b, f_a - f_b, kind_f_a - kind_f_b),
    ):
        mean = counts @ kf / big_n
        var = np.maximum(counts @ kf**2 / big_n - mean**2, 0.0)
        out[name] = (y, f, Moments(np.full(runs, float(big_n)), mean, var / big_n, weighted=False))
    return out


def _covers(
    low: np.ndarray, high: np.ndarray, truth: float, floor: float
) -> tuple[np.ndarray, ...]:
    lo, hi = np.clip(low, floor, 1.0), np.clip(high, floor, 1.0)
    return (lo <= truth) & (truth <= hi), hi - lo


def _chunk(
    rng, n, runs, acc, q, big_n, level, judge_kind="label"
) -> dict[tuple[str, str], tuple[np.ndarray, ...]]:
    """Per (estimand, method): whether each study's interval covered, and its width."""
    make = _soft_studies if judge_kind == "proba" else _studies
    studies = make(rng, n, runs, acc, q, big_n)
    out = {}
    for estimand, (y, f, unl) in studies.items():
        truth = acc[0] if estimand == "accuracy" else acc[0] - acc[1]
        floor = 0.0 if estimand == "accuracy" else -1.0
        kind = "mean" if estimand == "accuracy" else "difference"
        fits: dict[str, Fit] = {
            m: fit(y, f, unl, lam=lam)
            for m, lam in (("ppi++", None), ("ppi", 1.0), ("classical", 0.0))
        }
        for method, r in fits.items():
            out[estimand, method] = _covers(*r.interval(level), truth, floor)
        point, se = adjusted(y, kind=kind, level=level)
        z = z_value(level)
        out[estimand, "adjusted"] = _covers(point - z * se, point + z * se, truth, floor)
        use = "adjusted" if n < small_n(kind, judge_kind) else "ppi++"
        out[estimand, "auto"] = out[estimand, use]
    return out


def coverage_table(
    ns: Sequence[int] = NS,
    judge_accuracies: Sequence[float] = QUALITIES,
    *,
    runs: int = 10_000,
    accuracies: tuple[float, float] = (0.85, 0.80),
    n_unlabelled: int = 10_000,
    level: float = 0.95,
    seed: int | None = 0,
    judge_kind: str = "label",
) -> CoverageTable:
    """How often the intervals of PPI++, PPI, the human labels alone, the small-sample interval and
    the default rule cover the truth, by simulation (docs/judge.md).

    Parameters
    ----------
    ns : sequence of int
        Labelled items per study.
    judge_accuracies : sequence of float
        How often the judge gives the human label.
    runs : int
        Studies per cell.
    accuracies : tuple of float
        The two models' accuracies (model a's accuracy and a − b are estimated).
    n_unlabelled : int
        Unlabelled items per study.
    level : float
        The intervals' level.
    seed : int or None
        The seed (cell i draws from ``stream(seed, i)``).
    judge_kind : {"label", "proba"}
        A judge that gives labels, or a calibrated soft judge (class probabilities): see the module
        :mod:`humanly.judging._coverage`.

    Returns
    -------
    CoverageTable

    Examples
    --------
    >>> t = coverage_table([50], [0.9], runs=400)
    >>> sorted(set(t.to_frame()["method"]))
    ['adjusted', 'auto', 'classical', 'ppi', 'ppi++']
    """
    runs = check_int("runs", runs, minimum=1)
    big_n = check_int("n_unlabelled", n_unlabelled, minimum=1)
    level = check_probability("level", level, open_low=True, open_high=True)
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    check_choice("judge_kind", judge_kind, JUDGE_KINDS)
    for q in judge_accuracies:
        check_probability("judge_accuracies", q)
    for a in accuracies:
        check_probability("accuracies", a)
    for n in ns:
        check_int("ns", n, minimum=2)
    cells = []
    index = 0
    for q in judge_accuracies:
        for n in ns:
            cells += _cell(
                stream(seed, index), int(n), float(q), runs, accuracies, big_n, level, judge_kind
            )
            index += 1
    pair = (float(accuracies[0]), float(accuracies[1]))
    return CoverageTable(pair, int(big_n), float(level), seed, tuple(cells), judge_kind)


def _cell(
    rng: np.random.Generator,
    n: int,
    q: float,
    runs: int,
    accuracies: tuple[float, float],
    big_n: int,
    level: float,
    judge_kind: str = "label",
) -> list[CoverageCell]:
    """One (judge accuracy, n) cell: every estimand and method, ``runs`` studies in chunks."""
    parts: dict[tuple[str, str], list[tuple[np.ndarray, ...]]] = {}
    for start in range(0, runs, _CHUNK):
        size = min(_CHUNK, runs - start)
        chunk = _chunk(rng, n, size, accuracies, q, big_n, level, judge_kind)
        for key, value in chunk.items():
            parts.setdefault(key, []).append(value)
    cells = []
    for (estimand, method), chunks in parts.items():
        covered = np.concatenate([c[0] for c in chunks])
        width = np.concatenate([c[1] for c in chunks])
        cell = CoverageCell(q, n, estimand, method, float(covered.mean()), 0.0, int(runs))
        cells.append(dataclasses.replace(cell, width=float(width.mean())))
    return cells
