"""The active design's weights (Zrnic & Candès 2024): a comparison sent to human voters with
probability π weighs 1/π when it came back labelled and 1/(1 − π) when it stayed judge-only, so the
self-normalised (Hájek) means of :mod:`._winrate` and :mod:`._bt` are unbiased for the population's.
With one π for every comparison the weights cancel: the estimates are the uniform design's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import show_value
from ..data.matching import align_index
from ..data.votes import VoteStudy
from ..errors import InputError

__all__ = ["comparison_weights"]


def comparison_weights(study: VoteStudy, probabilities: Any) -> np.ndarray | None:
    """One weight per comparison of ``study`` (``None`` without an active design).

    ``probabilities`` is a Series of π by comparison id, or a
    :class:`~humanly.ranking.ComparisonSelection` (its :meth:`to_series`). A human-voted comparison
    without a π was sent for sure (π = 1); every judge-only comparison needs a π in (0, 1).
    """
    if probabilities is None:
        return None
    series = probabilities.to_series() if hasattr(probabilities, "to_series") else probabilities
    if not isinstance(series, pd.Series):
        raise TypeError(
            f"options.probabilities={type(probabilities).__name__}: give a pandas Series of "
            "probabilities by comparison id (or the ComparisonSelection that sent them)"
        )
    pos = align_index(study.ids, pd.Index(series.index))
    values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float)
    pi = np.where(pos >= 0, values[np.maximum(pos, 0)], np.nan)
    labelled = study.labelled
    bad = (pos >= 0) & ~((pi > 0) & (pi <= 1))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"options.probabilities: comparison {show_value(study.ids[i])} has probability "
            f"{show_value(pi[i])}; give each comparison a probability in (0, 1]"
        )
    unl = ~labelled
    lacking = unl & ((pos < 0) | ~(pi < 1))
    if lacking.any():
        i = int(np.flatnonzero(lacking)[0])
        raise InputError(
            f"options.probabilities: judge-only comparison {show_value(study.ids[i])} has "
            + ("no probability" if pos[i] < 0 else f"probability {show_value(pi[i])}")
            + "; every comparison left without a human vote needs its probability, in (0, 1)"
        )
    pi = np.where(labelled & (pos < 0), 1.0, pi)
    with np.errstate(divide="ignore"):  # each side's other branch may divide by 0; never kept
        return np.where(labelled, 1.0 / pi, 1.0 / (1.0 - pi))
