"""Bootstrap mean of the equivalence and the items needed for a target width
(``EquivalenceResult.items_needed(width)``, read off the stored ranges).

``items_needed`` assumes the 95% interval of the equivalence narrows as 1/√N. Checked by subsampling:
fit on N = 4,000 items of the running example, then measure the range on disjoint subsamples of 1,000
and 2,000 items; the measured widths follow the prediction within 25% (measured on seeds 0–5: ratios
0.95–1.15, the range narrowing a little more slowly than 1/√N at small N).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from humanly import InputError
from humanly.simulate import running_example
from humanly.survey import EquivalenceResult, equivalence
from humanly.survey.crossing import equivalence_replicates


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_width_follows_one_over_root_n_on_subsamples(seed: int) -> None:
    d = running_example(4000, 10, seed=seed)
    # probabilities by class name (an items × classes array does not say its class order)
    soft = pd.DataFrame(
        d.predictions["soft"].values, index=d.ratings.items, columns=list(d.ratings.classes)
    )
    full = equivalence(d.ratings, {"soft": soft}, bootstrap=300).model("soft")
    w_full = full.equivalence_interval.width
    assert w_full is not None
    measured = {}
    for m in (1000, 2000):
        widths = []
        for j in range(4000 // m):
            idx = np.arange(j * m, (j + 1) * m)
            e = equivalence(d.ratings.take(idx), {"soft": soft.iloc[idx]}, bootstrap=300)
            e = e.model("soft")
            widths.append(e.equivalence_interval.width)
        measured[m] = float(np.mean(widths))
        predicted = w_full * np.sqrt(4000 / m)
        assert 0.8 < measured[m] / predicted < 1.25, (m, measured[m], predicted)
    # the items the 4,000-item fit says a 1,000-item width needs: about 1,000
    again = full.items_needed(measured[1000])
    assert again is not None
    assert 1000 / 1.6 < again < 1000 * 1.6
    assert full.items_needed(1.0) == int(np.ceil(4000 * w_full**2 - 1e-9))


def test_bootstrap_mean_and_items_needed() -> None:
    d = running_example(500, 10, seed=4)
    res = equivalence(
        d.ratings, d.predictions, combiner="majority", scorer="agreement", bootstrap=100, seed=2
    )
    m = res.model("soft")
    assert res.curve_samples is not None and res.model_samples is not None
    values = equivalence_replicates(res.ks, res.curve_samples, res.model_samples[:, 1])
    assert m.equivalence_mean == pytest.approx(float(np.mean(values)))
    lo, hi = m.equivalence_interval
    assert lo <= m.equivalence_mean <= hi
    assert m.items_needed(0.5) == int(np.ceil(500 * ((hi - lo) / 0.5) ** 2 - 1e-9))
    assert res.items_needed(0.5) == tuple(x.items_needed(0.5) for x in res.models)
    # a wider target needs fewer items; one wider than the range, fewer than there are
    assert m.items_needed(1.0) < m.items_needed(0.5)
    assert m.items_needed(2 * (hi - lo)) < 500
    # a saved result answers the same (the ranges are in its JSON)
    back = EquivalenceResult.from_dict(json.loads(res.to_json()))
    assert back.items_needed(0.5) == res.items_needed(0.5)
    assert {"equivalence_mean", "equivalence_interval"} <= set(res.to_dict()["models"][0])
    assert "items_needed" not in res.to_dict()["models"][0]
    assert "equivalence_mean" in res.to_frame().columns
    # without a bootstrap there is no mean and no range to narrow
    none = equivalence(d.ratings, d.predictions, bootstrap=0)
    assert none.model("soft").equivalence_mean is None
    assert none.model("soft").items_needed(1.0) is None
    with pytest.raises(InputError, match="bootstrap"):
        none.items_needed(1.0)
    with pytest.raises(InputError, match="width=0"):
        res.items_needed(0)
    with pytest.raises(TypeError, match="width"):
        res.items_needed("wide")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="target_width"):
        equivalence(d.ratings, d.predictions, bootstrap=100, target_width=0.5)  # type: ignore[call-arg]


def test_mean_is_none_when_a_replicate_is_above_the_curve() -> None:
    from humanly.survey.crossing import equivalence_mean

    curves = np.array([[0.5, 0.6, 0.7], [0.5, 0.6, 0.7], [0.5, 0.6, 0.7]])
    values = equivalence_replicates(np.arange(3), curves, np.array([0.625, 0.4, 0.9]))
    np.testing.assert_allclose(values, [1.25, 0.0, np.inf])
    assert equivalence_mean(values) is None  # unbounded
    assert equivalence_mean(values[:2]) == pytest.approx(0.625)  # below 0 counts as 0
