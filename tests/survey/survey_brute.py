"""Brute-force Anonymous Bayesian Combiner for the survey tests (written from the paper's Algorithms 5–6
with Python integers, independent of humanly's engine): tests/survey/test_survey_engine.py and
tests/survey/test_survey_truth.py check the engine's curves against it."""

from __future__ import annotations

import math

import numpy as np

from humanly.survey.combiners import clip_probs


def seq_prob(y: list[int], labels: list[int]) -> float:
    """PROBABILITYONEITEM (Algorithm 5): P(an ordered draw of sum(y) labels has counts y)."""
    k, w = sum(y), [labels.count(c) for c in range(len(y))]
    if len(labels) < k or any(w[c] < y[c] for c in range(len(y))):
        return 0.0
    num = math.prod(math.comb(w[c], y[c]) * math.factorial(y[c]) for c in range(len(y)))
    return num / (math.comb(len(labels), k) * math.factorial(k))


def abc(y: list[int], items: list[list[int]], i: int, floor: float = 1e-3) -> np.ndarray:
    """ABC (Algorithm 6) for item i, the other items' sequence probabilities normalised over l."""
    n_cls = len(y)
    num = np.array(
        [
            sum(
                seq_prob([y[c] + (c == lab) for c in range(n_cls)], row)
                for u, row in enumerate(items)
                if u != i
            )
            for lab in range(n_cls)
        ]
    )
    p = num / num.sum() if num.sum() > 0 else (np.array(y) + 1.0) / (sum(y) + n_cls)
    return clip_probs(p, (floor, 1.0))
