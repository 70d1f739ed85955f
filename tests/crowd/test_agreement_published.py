"""The agreement family against published worked examples: Krippendorff (2011), Fleiss (1971), Cohen
(1960), and Gwet's Handbook data sets as shipped with irrCAC (the values printed in the R package's
README, Gwet's own runs)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from agreement_refs import cac, estimate, gwet_alpha, wide

import humanly
from humanly.crowd.family import agreement
from humanly.crowd.weights import class_values, weight_matrix

irr_datasets = pytest.importorskip("irrCAC.datasets")
irr_table = pytest.importorskip("irrCAC.table")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: observers A–D × 12 units
KRIPPENDORFF_2011 = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
}

# Fleiss (1971), Table 1: 30 patients × 6 psychiatrists, 5 diagnoses (as in R's irr::diagnoses)
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]  # fmt: skip

# Cohen (1960): two judges, 200 units, 3 categories; p_o = .70, p_c = .41, κ = .492
COHEN_1960 = np.array([[88, 14, 18], [10, 40, 10], [2, 6, 12]])


def _long(table: dict[str, list]) -> humanly.Ratings:
    items, raters, labels = [], [], []
    for rater, row in table.items():
        for unit, value in enumerate(row, start=1):
            if value is not None:
                items.append(unit)
                raters.append(rater)
                labels.append(value)
    return humanly.Ratings.from_long(items, raters, labels)


def _two_raters(table: np.ndarray) -> humanly.Ratings:
    items, raters, labels = [], [], []
    unit = 0
    for a in range(len(table)):
        for b in range(len(table)):
            for _ in range(int(table[a, b])):
                items += [unit, unit]
                raters += ["A", "B"]
                labels += [a + 1, b + 1]
                unit += 1
    return humanly.Ratings.from_long(items, raters, labels)


def _raw4raters() -> humanly.Ratings:
    """irrCAC's cac.raw4raters (Gwet's Handbook): 12 units × 4 raters with missing labels."""
    stacked = irr_datasets.raw_4raters().stack().dropna()  # pandas 3 keeps NaN in stack()
    units = [unit for unit, _ in stacked.index]
    raters = [rater for _, rater in stacked.index]
    return humanly.Ratings.from_long(units, raters, [int(v) for v in stacked])


@pytest.fixture(scope="module")
def kripp2011() -> humanly.Ratings:
    return _long(KRIPPENDORFF_2011)


@pytest.mark.parametrize(
    ("scale", "published"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff_2011_alpha_at_each_scale(kripp2011, scale, published) -> None:
    res = agreement(kripp2011, scale=scale, bootstrap=0)
    assert round(res["krippendorff_alpha"].estimate, 3) == published


def test_krippendorff_2011_rank_metric_and_gwet_ordinal_weights_differ(kripp2011) -> None:
    """Krippendorff's ordinal metric (rank-based) gives 0.815; α with Gwet's ordinal weights 0.834
    (irrCAC). Both are offered, each under its own name."""
    res = agreement(kripp2011, scale="ordinal", bootstrap=0)
    assert round(res["krippendorff_alpha"].estimate, 3) == 0.815
    assert round(res["krippendorff_alpha_weighted"].estimate, 3) == 0.834
    assert res["krippendorff_alpha_weighted"].weights == "ordinal"
    irr = cac(kripp2011, "ordinal", "ordinal").krippendorff()
    assert res["krippendorff_alpha_weighted"].estimate == pytest.approx(estimate(irr)[0], abs=1e-12)


def test_on_interval_and_ratio_data_gwet_weights_give_krippendorff_alpha(kripp2011) -> None:
    """Quadratic weights are the interval metric and ratio weights the ratio metric (up to an affine
    map, which α ignores): the weighted α is the same number, so it is not listed twice."""
    for scale in ("interval", "ratio"):
        res = agreement(kripp2011, scale=scale, bootstrap=0)
        assert "krippendorff_alpha_weighted" not in res.names()
        both = agreement(
            kripp2011,
            scale=scale,
            bootstrap=0,
            coefficients=["krippendorff_alpha", "krippendorff_alpha_weighted"],
        )
        assert both["krippendorff_alpha_weighted"].estimate == pytest.approx(
            both["krippendorff_alpha"].estimate, abs=1e-12
        )


def test_fleiss_1971_table() -> None:
    data = np.array(FLEISS_1971)
    items = np.repeat(np.arange(30), 6)
    raters = np.tile(np.arange(6), 30)
    r = humanly.Ratings.from_long(items.tolist(), raters.tolist(), data.ravel().tolist())
    res = agreement(r.anonymous(), bootstrap=0)
    # Fleiss (1971) reports κ = .430; R irr::kappam.fleiss 0.4302445 (statsmodels' test value)
    assert round(res["fleiss_kappa"].estimate, 3) == 0.430
    assert res["fleiss_kappa"].estimate == pytest.approx(0.4302445, abs=5e-8)
    # a full design: the two definitions of chance agreement are one number
    assert res["fleiss_kappa_pooled"].estimate == pytest.approx(
        res["fleiss_kappa"].estimate, abs=1e-14
    )
    table, _ = inter_rater.aggregate_raters(data)
    assert res["fleiss_kappa"].estimate == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)


def test_cohen_1960_example() -> None:
    r = _two_raters(COHEN_1960)
    res = agreement(r, bootstrap=0)
    kappa = res["cohen_kappa"]
    assert kappa.agreement == pytest.approx(0.70, abs=1e-12)
    assert kappa.chance == pytest.approx(0.41, abs=1e-12)
    assert kappa.estimate == pytest.approx(0.29 / 0.59, abs=1e-12)
    assert round(kappa.estimate, 3) == 0.492
    sm = inter_rater.cohens_kappa(COHEN_1960)
    assert kappa.estimate == pytest.approx(sm.kappa, abs=1e-12)
    assert res.pair is not None and res.pair.kappa == pytest.approx(kappa.estimate, abs=1e-12)


# Gwet's Handbook data sets as shipped with irrCAC: R README values (Gwet's runs of irrCAC)
RAW4RATERS_R = {
    "percent_agreement": (0.8181818, 0.12561),
    "gwet_ac1": (0.77544, 0.14295),
    "fleiss_kappa": (0.76117, 0.15302),
    "conger_kappa": (0.76282, 0.14917),
    "brennan_prediger": (0.77273, 0.14472),
    "krippendorff_alpha": (0.74342, 0.14557),
}


def test_gwet_raw4raters_published_values() -> None:
    r = _raw4raters()
    res = agreement(r, bootstrap=0)
    for name, (value, se) in RAW4RATERS_R.items():
        row = res[name]
        assert row.estimate == pytest.approx(value, abs=5e-6), name
        if name != "krippendorff_alpha":
            assert row.standard_error == pytest.approx(se, abs=5e-6), name
    # α's standard error: the README's 0.14557 centres the items' p_a terms on p_a (CRAN irrCAC, the
    # Python port); Gwet's 2021 revision centres them on p'_a, the exact linearisation, which humanly
    # follows: 0.14548. Both transcriptions are checked, and the difference is only that.
    frame = wide(r)
    values = class_values(r.classes, "nominal")
    w = weight_matrix("identity", values)
    _, se_old = gwet_alpha(frame, w, list(values), prime=False)
    _, se_new = gwet_alpha(frame, w, list(values), prime=True)
    assert se_old == pytest.approx(0.14557, abs=5e-6)
    assert res["krippendorff_alpha"].standard_error == pytest.approx(se_new, abs=1e-12)
    assert round(se_new, 5) == 0.14548


def test_gwet_bipolar_ac2_published() -> None:
    """irrCAC's documented AC2 with bipolar weights on raw_4raters: 0.90037, se 0.10582."""
    r = _raw4raters()
    row = agreement(r, scale="ordinal", weights="bipolar", bootstrap=0)["gwet_ac2"]
    assert row.estimate == pytest.approx(0.90037, abs=5e-6)
    assert row.standard_error == pytest.approx(0.10582, abs=5e-6)


def test_gwet_distrib_6raters_published_values() -> None:
    """Counts only (15 patients × 6 psychiatrists): R README values of the .dist functions."""
    r = humanly.Ratings.from_counts(irr_datasets.distrib_6raters().to_numpy())
    res = agreement(r, bootstrap=0)
    assert res["gwet_ac1"].estimate == pytest.approx(0.4448007, abs=5e-8)
    assert res["gwet_ac1"].standard_error == pytest.approx(0.08418757, abs=5e-9)
    assert res["fleiss_kappa"].estimate == pytest.approx(0.4139265, abs=5e-8)
    assert res["fleiss_kappa"].standard_error == pytest.approx(0.08119291, abs=5e-9)
    assert res["brennan_prediger"].estimate == pytest.approx(0.4388889, abs=5e-8)
    assert res["brennan_prediger"].standard_error == pytest.approx(0.08312142, abs=5e-9)
    assert res["krippendorff_alpha"].estimate == pytest.approx(0.4204384, abs=5e-8)


def test_gwet_contingency_table_two_raters() -> None:
    """cont3x3abstractors (100 units, 2 raters): the estimates are the table functions'; Gwet's table
    variances divide by n where the raw-data ones (used here, for missing labels) divide by n − 1, so
    the standard errors differ by exactly √(n / (n − 1))."""
    table = irr_datasets.table_cont3x3abstractors()
    r = _two_raters(table.to_numpy())
    res = agreement(r, bootstrap=0)
    ref = irr_table.CAC(table, digits=20)
    factor = math.sqrt(100 / 99)
    pairs = {
        "cohen_kappa": ref.cohen(),
        "gwet_ac1": ref.gwet(),
        "brennan_prediger": ref.bp(),
        "fleiss_kappa": ref.scott(),  # Fleiss' κ for two raters is Scott's π
    }
    for name, out in pairs.items():
        value, se = estimate(out)
        assert res[name].estimate == pytest.approx(value, abs=1e-12), name
        assert res[name].standard_error == pytest.approx(se * factor, abs=1e-12), name
    # R README: Cohen's κ 0.7964094, Scott's π 0.7962397, AC1 0.8493305, BP 0.835, α 0.7972585
    assert res["cohen_kappa"].estimate == pytest.approx(0.7964094, abs=5e-8)
    assert res["krippendorff_alpha"].estimate == pytest.approx(0.7972585, abs=5e-8)
