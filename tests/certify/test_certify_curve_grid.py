"""The thinned curve (``CertifyOptions(curve_every_k=False)``, what analyze and the report draw): k up
to 20, then every fifth k and the largest; each point it computes is the point of the every-k curve at
that k, bit for bit, in slots mode and with named raters."""

from __future__ import annotations

import numpy as np
import pytest

from humanly import Predictions, Ratings
from humanly.certification import CertifyOptions, certify
from humanly.certification.curves import curve_ks


def _study(n_items: int, k: int, seed: int) -> tuple[Ratings, Predictions]:
    g = np.random.default_rng(seed)
    truth = g.integers(0, 3, n_items)
    right = g.random((n_items, k)) < 0.7
    labels = np.where(right, truth[:, None], g.integers(0, 3, (n_items, k)))
    counts = np.stack([(labels == c).sum(axis=1) for c in range(3)], axis=1)
    r = Ratings.from_counts(counts, classes=["a", "b", "c"])
    pred = np.where(g.random(n_items) < 0.8, truth, g.integers(0, 3, n_items))
    p = Predictions.from_arrays(r.items, {"m": np.array(["a", "b", "c"])[pred]}, classes=r.classes)
    return r, p


def test_the_grid() -> None:
    assert curve_ks(20, every_k=False) == tuple(range(1, 21))
    assert curve_ks(26, every_k=False) == (*range(1, 21), 25, 26)
    assert curve_ks(100, every_k=False) == (*range(1, 21), *range(25, 101, 5))
    assert curve_ks(7) == tuple(range(1, 8))


@pytest.mark.parametrize("k", [12, 37])
def test_thinned_points_are_the_every_k_points(k: int) -> None:
    r, p = _study(150, k, seed=k)
    every = certify(r, p, curve=True)
    thin = certify(r, p, curve=True, options=CertifyOptions(curve_every_k=False))
    assert every.curve is not None and thin.curve is not None
    by_k = {pt.k: pt.to_dict() for pt in every.curve}
    assert [pt.k for pt in thin.curve] == list(curve_ks(k, every_k=False))
    for pt in thin.curve:
        assert pt.to_dict() == by_k[pt.k]
    # everything but the curve is the same result
    a, b = every.to_dict(), thin.to_dict()
    a.pop("curve"), b.pop("curve")
    assert a == b


def test_named_raters_too() -> None:
    g = np.random.default_rng(5)
    n, raters = 80, 24
    truth = g.integers(0, 2, n)
    lab = np.where(g.random((n, raters)) < 0.75, truth[:, None], 1 - truth[:, None])
    r = Ratings.from_long(
        np.repeat(np.arange(n), raters),
        np.tile([f"r{j}" for j in range(raters)], n),
        lab.ravel(),
    )
    p = Predictions.from_arrays(r.items, {"m": truth}, classes=r.classes)
    every = certify(r, p, curve=True, rater_mode="named")
    thin = certify(
        r, p, curve=True, rater_mode="named", options=CertifyOptions(curve_every_k=False)
    )
    assert every.curve is not None and thin.curve is not None
    by_k = {pt.k: pt.to_dict() for pt in every.curve}
    assert len(thin.curve) < len(every.curve)
    for pt in thin.curve:
        assert pt.to_dict() == by_k[pt.k]
