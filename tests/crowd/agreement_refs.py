"""Test helpers for the agreement family (humanly.crowd.family): humanly Ratings in the layouts of the
reference packages, the shared data sets, independent transcriptions of Gwet's formulas, and random
ragged ratings for hypothesis.

Reference versions tested against (test-only; irrCAC and krippendorff are GPL and never imported by
humanly): irrCAC 0.4.4 (Python port of Gwet's R package), krippendorff 0.9.0, statsmodels 0.15.0.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import strategies as st

import humanly
from humanly.crowd.weights import class_values

irr_raw = pytest.importorskip("irrCAC.raw")
krippendorff = pytest.importorskip("krippendorff")

#: the versions the tests were written against (checked by test_reference_versions)
VERSIONS = {"irrCAC": "0.4.4", "krippendorff": "0.9.0", "statsmodels": "0.15.0"}

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


# ------------------------------------------------------------------------------------------- layouts
def wide(r: humanly.Ratings, scale: str = "nominal") -> pd.DataFrame:
    """Items × raters of class values (NaN: no label), items without a label left out — irrCAC's
    raw layout. Anonymous counts become items × slots (the k-th label of an item in slot k)."""
    values = class_values(r.classes, scale)
    if r.has_raters:
        mat = np.full((r.n_items, len(r.raters)), np.nan)
        mat[r.item_codes, r.rater_codes] = values[r.label_codes]
        frame = pd.DataFrame(mat, columns=[f"r{j}" for j in range(len(r.raters))])
    else:
        width = int(r.labels_per_item.max())
        mat = np.full((r.n_items, width), np.nan)
        for i, row in enumerate(r.counts):
            labels = np.repeat(values, row)
            mat[i, : len(labels)] = labels
        frame = pd.DataFrame(mat, columns=[f"s{j}" for j in range(width)])
    frame = frame.loc[r.labels_per_item > 0]
    return frame.loc[:, frame.notna().any(axis=0)].reset_index(drop=True)


def cac(r: humanly.Ratings, weights: object = "identity", scale: str = "nominal") -> object:
    """irrCAC's raw-ratings object on ``r``, every class of ``r`` declared, no rounding."""
    values = class_values(r.classes, scale)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return irr_raw.CAC(
            wide(r, scale), weights=weights, categories=[float(v) for v in values], digits=20
        )


def kripp(r: humanly.Ratings, scale: str) -> float:
    """The krippendorff package's α on ``r``'s counts, values in increasing order."""
    values = class_values(r.classes, scale)
    order = np.argsort(values)
    counts = np.asarray(r.counts)[:, order]
    return float(
        krippendorff.alpha(
            value_counts=counts, value_domain=values[order], level_of_measurement=scale
        )
    )


def estimate(ref: dict) -> tuple[float, float]:
    """(coefficient, standard error) from an irrCAC result."""
    est = ref["est"]
    value, se = (
        np.asarray(est[k], dtype=float).reshape(-1)[0] for k in ("coefficient_value", "se")
    )
    return float(value), float(se)


# -------------------------------------------------------------------------------------- shared data
def snow(name: str) -> humanly.Ratings:
    path = SHARED / f"snow2008_{name}" / f"{name}.standardized.tsv"
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    study = humanly.read_study(
        path, item_col="orig_id", rater_col="!amt_worker_ids", label_col="response"
    )
    return study.ratings


def product() -> humanly.Ratings:
    path = SHARED / "product" / "answer.csv"
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    return humanly.read_study(path).ratings


def credbank(shift: int = 0) -> humanly.Ratings:
    """CredBank's 5-point ratings (−2 … 2, plus ``shift``) as anonymous counts, 29–30 per item."""
    path = SHARED / "credbank_se" / "credweb.csv"
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    frame = pd.read_csv(path)
    cols = [f"credCount{v}_ret" for v in (-2, -1, 0, 1, 2)]
    return humanly.Ratings.from_counts(
        frame[cols].to_numpy(), items=frame["event"], classes=[v + shift for v in (-2, -1, 0, 1, 2)]
    )


# ------------------------------------------------------------------- Gwet's α variance, transcribed
def gwet_alpha(frame: pd.DataFrame, weights: np.ndarray, categories: list[float], *, prime: bool):
    """Krippendorff's α and Gwet's standard error, transcribed line by line from irrCAC's R function
    ``krippen.alpha.raw``. ``prime=True``: the 2021 revision (kgwet/irrCAC on GitHub), which centres
    the items' agreement terms on p'_a; ``prime=False``: the CRAN release and the Python port 0.4.4,
    which centre them on p_a."""
    ratings = frame.to_numpy(dtype=float)
    q = len(categories)
    agree = np.stack([(ratings == c).sum(axis=1) for c in categories], axis=1).astype(float)
    agree_w = agree @ weights.T
    ri = agree.sum(axis=1)
    keep = ri >= 2
    agree, agree_w, ri = agree[keep], agree_w[keep], ri[keep]
    ri_mean = ri.mean()
    n = len(agree)
    epsi = 1.0 / ri.sum()
    sum_q = (agree * (agree_w - 1.0)).sum(axis=1)
    paprime = (sum_q / (ri_mean * (ri - 1.0))).sum() / n
    pa = (1.0 - epsi) * paprime + epsi
    pi = (agree / ri_mean).sum(axis=0) / n
    pe = float((weights * np.outer(pi, pi)).sum())
    alpha = (pa - pe) / (1.0 - pe)
    alpha_prime = (paprime - pe) / (1.0 - pe)
    centre = paprime if prime else pa
    pa_i = sum_q / (ri_mean * (ri - 1.0)) - centre * (ri - ri_mean) / ri_mean
    k_i = (pa_i - pe) / (1.0 - pe)
    pi_w = (weights @ pi + weights.T @ pi) / 2.0
    pe_i = agree @ pi_w / ri_mean - pe * (ri - ri_mean) / ri_mean
    x = k_i - 2.0 * (1.0 - alpha_prime) * (pe_i - pe) / (1.0 - pe)
    var = ((x - alpha_prime) ** 2).sum() / (n * (n - 1.0))
    del q
    return alpha, float(np.sqrt(var))


# --------------------------------------------------------------------------------- random ratings
@st.composite
def ragged(draw: st.DrawFn, *, max_items: int = 25, max_raters: int = 6, max_classes: int = 5):
    """Named ragged ratings: some raters skip some items; at least one item with two labels and two
    classes in use; classes 1…q (numbers, so every scale applies)."""
    n = draw(st.integers(3, max_items))
    k = draw(st.integers(2, max_raters))
    q = draw(st.integers(2, max_classes))
    seen = draw(st.lists(st.booleans(), min_size=n * k, max_size=n * k))
    labels = draw(st.lists(st.integers(1, q), min_size=n * k, max_size=n * k))
    present = np.array(seen).reshape(n, k)
    present[:3, :2] = True  # three pairable items (irrCAC needs two items or more)
    lab = np.array(labels).reshape(n, k)
    lab[0, 0], lab[0, 1] = 1, 2  # two classes in use
    item, rater = np.nonzero(present)
    return humanly.Ratings.from_long(
        item.tolist(),
        [f"r{j}" for j in rater],
        lab[item, rater].tolist(),
        classes=list(range(1, q + 1)),
    )
