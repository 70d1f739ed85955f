"""Compare studies after aligning by item id (helpers for the data tests)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humanly import Study

__all__ = ["assert_same", "canon"]


def canon(study: Study) -> pd.DataFrame:
    """The study as one row per item, indexed by item id as text and sorted: counts, each model's
    outputs, gold code — so studies compare after aligning by item id."""
    r = study.ratings
    out = pd.DataFrame(r.counts, columns=[f"n_{c}" for c in r.classes])
    if study.predictions is not None:
        for m in study.predictions.models:
            values = m.values if m.values.ndim == 2 else m.values[:, None]
            for j in range(values.shape[1]):
                out[f"{m.name}:{m.kind}:{j}"] = values[:, j]
    if study.gold is not None:
        out["gold"] = study.gold.codes
    out.index = pd.Index([str(i) for i in r.items])
    return out.sort_index()[sorted(out.columns)]


def assert_same(a: Study, b: Study, *, by_position: bool = False) -> None:
    """Equal counts, classes, predictions and gold; by item id (or in order when the items' ids differ,
    as for an array whose items are the row numbers)."""
    assert a.ratings.classes == b.ratings.classes
    if by_position:
        ca, cb = canon(a).reset_index(drop=True), canon(b).reset_index(drop=True)
        ca = _in_order(a, ca)
        cb = _in_order(b, cb)
    else:
        ca, cb = canon(a), canon(b)
    pd.testing.assert_frame_equal(ca, cb, check_dtype=False)


def _in_order(study: Study, frame: pd.DataFrame) -> pd.DataFrame:
    order = np.argsort(np.argsort([str(i) for i in study.ratings.items]))
    return frame.iloc[order].reset_index(drop=True)
