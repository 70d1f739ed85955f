"""The crowd-majority proxy estimate of the correlated model (``plan(estimator="majority")``).

The majority of an item's pilot labels is taken as its true label (items with a tied majority or fewer
than 2 labels are left out):

* p_w = P(c_w = truth), p_b⁰ = P(c_b = truth | c_w ≠ truth), p_b¹ = P(c_b = truth | c_w = truth);
* q(x): the accuracy of one crowd label on item x, estimated leave-one-out — a label is right when it
  agrees with the majority of the item's *other* labels (a tie among them counts ½); q_b / q_w average
  q(x) over the items where only c_b / only c_w agrees with the proxy truth;
* assumption 2 (eq. 3) with E[M_m(q(x)) | E] estimated per item by the probability that the majority of
  m of its labels drawn without replacement agrees with the proxy truth (needs m ≤ labels per item, else
  M_m(q̂(x)) is used and noted).

Bias: the proxy truth is itself noisy, so the estimates lean towards agreement with the crowd — on a
simulated pilot with q = 0.75, p = 0.70, ε = 0.10 and 3 labels per item (true q_b = q_w = 0.75,
p_w = 0.70, p_b⁰ = p_b¹ = 0.80) it gives q_b ≈ 0.65, q_w ≈ 0.61, p_w ≈ 0.63, p_b⁰ ≈ 0.62,
p_b¹ ≈ 0.76. The latent-class estimate (:mod:`humanly.budget.latent`) has no such bias and is the
default; this one is kept as a documented option and for comparison.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._core.result import Note
from ._args import VoteTies
from .models import majority_accuracy, subset_majority

__all__ = ["assumption2_statistic", "estimate_parameters", "loo_accuracy"]


def loo_accuracy(counts: np.ndarray) -> np.ndarray:
    """Per item: share of its labels that agree with the majority of the item's other labels."""
    total = counts.sum(axis=1).astype(float)
    score = np.zeros(len(counts))
    for k in (0, 1):
        mine, other = counts[:, k] - 1, counts[:, 1 - k]
        agree = np.where(mine > other, 1.0, np.where(mine == other, 0.5, 0.0))
        score += counts[:, k] * agree
    return score / total


def estimate_parameters(
    counts: np.ndarray, truth: np.ndarray, right_b: np.ndarray, right_w: np.ndarray
) -> dict[str, float]:
    """Plug-in estimates of (q_b, q_w, p_w, p_b0, p_b1) against the crowd majority (see the module
    docstring); NaN for a parameter no item informs (e.g. in a bootstrap replicate).

    >>> counts = np.array([[3, 0], [0, 3], [2, 1], [1, 2]])
    >>> truth = np.array([0, 1, 0, 1])
    >>> est = estimate_parameters(counts, truth, np.array([1, 1, 1, 0], bool), np.array([1, 0, 0, 1], bool))
    >>> {k: round(v, 3) for k, v in est.items()}
    {'q_b': 0.667, 'q_w': 0.333, 'p_w': 0.5, 'p_b0': 1.0, 'p_b1': 0.5}
    """
    del truth  # the proxy truth enters through right_b / right_w; q(x) is leave-one-out
    q_item = loo_accuracy(counts)
    only_b, only_w = right_b & ~right_w, right_w & ~right_b
    p_w = float(right_w.mean())
    p_b0 = float(right_b[~right_w].mean()) if (~right_w).any() else float("nan")
    p_b1 = float(right_b[right_w].mean()) if right_w.any() else float("nan")
    q_b = float(q_item[only_b].mean()) if only_b.any() else float("nan")
    q_w = float(q_item[only_w].mean()) if only_w.any() else float("nan")
    return {"q_b": q_b, "q_w": q_w, "p_w": p_w, "p_b0": p_b0, "p_b1": p_b1}


def assumption2_statistic(
    est: Mapping[str, float],
    counts: np.ndarray,
    right_b: np.ndarray,
    right_w: np.ndarray,
    m: int,
    vote_ties: VoteTies,
    notes: list[Note] | None = None,
) -> float:
    """The quantity that decides assumption 2 (eq. 3) against the proxy truth:
    (1 − p_w)p_b⁰ / (p_w(1 − p_b¹)) · (M_m(q_b) − E[M_m(q(x)) | E_b]) − (M_m(q_w) − E[M_m(q(x)) | E_w]);
    the assumption holds when it is ≥ 0. NaN when E_b or E_w has no item, a parameter is undefined or
    p_w(1 − p_b¹) = 0. ``est`` maps the parameter names to values."""
    only_b, only_w = right_b & ~right_w, right_w & ~right_b
    if not only_b.any() or not only_w.any() or not all(np.isfinite(list(est.values()))):
        return float("nan")
    total = counts.sum(axis=1)
    correct = counts.max(axis=1)
    if np.all(total >= m):
        mm = subset_majority(correct, total, m, vote_ties)
    else:
        if notes is not None:
            notes.append(Note("assumption2_proxy_majority", {"m": m}))
        mm = np.asarray(majority_accuracy(np.clip(loo_accuracy(counts), 0, 1), m, vote_ties))
    a = (1 - est["p_w"]) * est["p_b0"]
    b = est["p_w"] * (1 - est["p_b1"])
    if not b > 0:
        return float("nan")
    lhs_gap = float(majority_accuracy(est["q_b"], m, vote_ties)) - float(np.mean(mm[only_b]))
    rhs = float(majority_accuracy(est["q_w"], m, vote_ties)) - float(np.mean(mm[only_w]))
    return float((a / b) * lhs_gap - rhs)
