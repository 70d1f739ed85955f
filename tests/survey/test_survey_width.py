"""Bootstrap mean of the equivalence and items needed for a target width (``target_width=``).

``items_needed`` assumes the 95% range of the equivalence narrows as 1/√N. Checked by subsampling:
fit on N = 4,000 items of the running example, then measure the range on disjoint subsamples of 1,000
and 2,000 items; the measured widths follow the prediction within 25% (measured on seeds 0–5: ratios
0.95–1.15, the range narrowing a little more slowly than 1/√N at small N).
"""

from __future__ import annotations

import numpy as np
import pytest

from humanly import InputError
from humanly.simulate import running_example
from humanly.survey import equivalence
from humanly.survey.crossing import equivalence_replicates


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_width_follows_one_over_root_n_on_subsamples(seed: int) -> None:
    d = running_example(4000, 10, seed=seed)
    soft = d.predictions["soft"].values
    full = equivalence(
        d.ratings, {"soft": soft}, bootstrap=300, target_width=1.0, progress=False
    ).model("soft")
    assert full.equivalence_low is not None and full.equivalence_high is not None
    w_full = full.equivalence_high - full.equivalence_low
    measured = {}
    for m in (1000, 2000):
        widths = []
        for j in range(4000 // m):
            idx = np.arange(j * m, (j + 1) * m)
            e = equivalence(
                d.ratings.take(idx), {"soft": soft[idx]}, bootstrap=300, progress=False
            ).model("soft")
            widths.append(e.equivalence_high - e.equivalence_low)
        measured[m] = float(np.mean(widths))
        predicted = w_full * np.sqrt(4000 / m)
        assert 0.8 < measured[m] / predicted < 1.25, (m, measured[m], predicted)
    # the items the 4,000-item fit says a 1,000-item width needs: about 1,000
    again = equivalence(
        d.ratings, {"soft": soft}, bootstrap=300, target_width=measured[1000], progress=False
    ).model("soft")
    assert again.items_needed is not None
    assert 1000 / 1.6 < again.items_needed < 1000 * 1.6
    assert full.items_needed == int(np.ceil(4000 * w_full**2 - 1e-9))


def test_bootstrap_mean_and_width_fields() -> None:
    d = running_example(500, 10, seed=4)
    res = equivalence(
        d.ratings, d.predictions, combiner="majority", scorer="agreement", bootstrap=100,
        target_width=0.5, progress=False, seed=2,
    )  # fmt: skip
    m = res.model("soft")
    assert res.curve_samples is not None and res.model_samples is not None
    values = equivalence_replicates(res.ks, res.curve_samples, res.model_samples[:, 1])
    assert m.equivalence_mean == pytest.approx(float(np.mean(values)))
    assert m.equivalence_low <= m.equivalence_mean <= m.equivalence_high
    width = m.equivalence_high - m.equivalence_low
    assert m.items_needed == int(np.ceil(500 * (width / 0.5) ** 2 - 1e-9))
    assert res.target_width == 0.5
    assert any("1/√N" in n and "approximation" in n for n in res.notes)
    out = res.to_dict()
    assert {"equivalence_mean", "items_needed"} <= set(out["models"][0])
    assert out["target_width"] == 0.5
    assert {"equivalence_mean", "items_needed"} <= set(res.to_frame().columns)
    # without a bootstrap there is no mean; target_width needs one
    none = equivalence(d.ratings, d.predictions, bootstrap=0, progress=False).model("soft")
    assert none.equivalence_mean is None and none.items_needed is None
    with pytest.raises(InputError, match="bootstrap"):
        equivalence(d.ratings, d.predictions, bootstrap=0, target_width=1.0)
    with pytest.raises(InputError, match="target_width=0"):
        equivalence(d.ratings, d.predictions, bootstrap=5, target_width=0)
    with pytest.raises(TypeError, match="target_width"):
        equivalence(d.ratings, d.predictions, bootstrap=5, target_width="wide")


def test_mean_is_none_when_a_replicate_is_above_the_curve() -> None:
    from humanly.survey.crossing import equivalence_mean

    curves = np.array([[0.5, 0.6, 0.7], [0.5, 0.6, 0.7], [0.5, 0.6, 0.7]])
    values = equivalence_replicates(np.arange(3), curves, np.array([0.625, 0.4, 0.9]))
    np.testing.assert_allclose(values, [1.25, 0.0, np.inf])
    assert equivalence_mean(values) is None  # unbounded
    assert equivalence_mean(values[:2]) == pytest.approx(0.625)  # below 0 counts as 0
