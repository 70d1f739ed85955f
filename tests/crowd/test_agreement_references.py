"""The agreement family against the reference packages, to 1e-10: irrCAC 0.4.4 (Gwet's coefficients
and their standard errors, intervals and p-values), krippendorff 0.9.0 (α at every scale), statsmodels
0.15.0 (Cohen's and Fleiss' κ, Brennan–Prediger as Randolph's κ) — on the shared data sets and on random
ragged ratings."""

from __future__ import annotations

import importlib.metadata

import numpy as np
import pytest
from agreement_refs import (
    VERSIONS,
    cac,
    credbank,
    estimate,
    gwet_alpha,
    kripp,
    product,
    ragged,
    snow,
    wide,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly.crowd.family import agreement
from humanly.crowd.weights import class_values, weight_matrix

inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

TOL = 1e-10
GWET = {
    "gwet_ac": "gwet",
    "fleiss_kappa": "fleiss",
    "brennan_prediger": "bp",
    "conger_kappa": "conger",
}


def test_reference_versions() -> None:
    """The numbers below were checked against these versions; a new version may move them."""
    for package, version in VERSIONS.items():
        assert importlib.metadata.version(package) == version, package


def _row(res, name):
    if name == "gwet_ac":
        return res["gwet_ac1"] if "gwet_ac1" in res.names() else res["gwet_ac2"]
    if name == "conger_kappa" and "cohen_kappa" in res.names():
        return res["cohen_kappa"]
    return res[name]


def _check_irrcac(r: humanly.Ratings, scale: str, weights: str, *, intervals: bool = False) -> None:
    res = agreement(r, scale=scale, weights=weights, bootstrap=0)
    ref = cac(r, weights, scale)
    for name, method in GWET.items():
        if name == "conger_kappa" and not r.has_raters:
            continue
        out = getattr(ref, method)()
        value, se = estimate(out)
        row = _row(res, name)
        assert row.estimate == pytest.approx(value, abs=TOL), name
        assert row.standard_error == pytest.approx(se, abs=TOL), name
        if intervals:
            low, high = out["est"]["confidence_interval"]
            assert row.interval.low == pytest.approx(float(low), abs=TOL), name
            assert row.interval.high == pytest.approx(float(high), abs=TOL), name
            if name != "brennan_prediger":  # irrCAC's bp() reports a one-sided p-value
                assert row.p_value == pytest.approx(float(out["est"]["p_value"]), abs=TOL), name
    pa = float(np.asarray(ref.gwet()["est"]["pa"]).reshape(-1)[0])
    assert res["percent_agreement"].estimate == pytest.approx(pa, abs=TOL)
    alpha_w = estimate(ref.krippendorff())[0]
    both = agreement(
        r, scale=scale, weights=weights, bootstrap=0, coefficients=["krippendorff_alpha_weighted"]
    )
    assert both["krippendorff_alpha_weighted"].estimate == pytest.approx(alpha_w, abs=TOL)


def _check_alpha(r: humanly.Ratings, scale: str) -> None:
    res = agreement(r, scale=scale, bootstrap=0, coefficients=["krippendorff_alpha"])
    assert res["krippendorff_alpha"].estimate == pytest.approx(kripp(r, scale), abs=TOL)
    if scale != "ordinal":  # the rank metric's variance is checked against a numerical delta method
        values = class_values(r.classes, scale)
        name = {"nominal": "identity", "interval": "quadratic", "ratio": "ratio"}[scale]
        w = weight_matrix(name, values)
        _, se = gwet_alpha(wide(r, scale), w, list(values), prime=True)
        assert res["krippendorff_alpha"].standard_error == pytest.approx(se, abs=TOL, nan_ok=True)


SNOW = ["rte", "temp", "wsd"]


@pytest.mark.parametrize("name", SNOW)
def test_snow_against_irrcac_and_krippendorff(name) -> None:
    r = snow(name)
    _check_irrcac(r, "nominal", "identity", intervals=True)
    _check_alpha(r, "nominal")


def test_product_against_irrcac_and_krippendorff() -> None:
    r = product()
    _check_irrcac(r, "nominal", "identity", intervals=True)
    _check_alpha(r, "nominal")


@pytest.mark.parametrize(
    ("scale", "weights"),
    [
        ("nominal", "identity"),
        ("ordinal", "ordinal"),
        ("ordinal", "linear"),
        ("interval", "quadratic"),
        ("interval", "radical"),
        ("ratio", "ratio"),
        ("ordinal", "circular"),
        ("ordinal", "bipolar"),
    ],
)
def test_credbank_counts_at_every_scale(scale, weights) -> None:
    """CredBank: anonymous counts, 29–30 labels per item (an uneven design), 5-point ratings; the
    ratio scale on the ratings shifted to 1…5."""
    r = credbank(shift=3 if scale == "ratio" else 0)
    _check_irrcac(r, scale, weights)
    _check_alpha(r, scale)


def test_fleiss_two_definitions_differ_on_uneven_designs_and_match_their_references() -> None:
    """On CredBank (29–30 labels per item) irrCAC's per-item shares and the pooled shares give two
    numbers, 0.055495 and 0.055458; fleiss_kappa is irrCAC's, fleiss_kappa_pooled is humanly's
    inspect before 0.1."""
    from humanly.crowd.agreement import fleiss_kappa as inspect_fleiss

    r = credbank()
    res = agreement(r, bootstrap=0)
    assert res["fleiss_kappa"].estimate == pytest.approx(estimate(cac(r).fleiss())[0], abs=TOL)
    assert res["fleiss_kappa_pooled"].estimate == pytest.approx(inspect_fleiss(r.counts), abs=TOL)
    assert round(res["fleiss_kappa"].estimate, 6) == 0.055495
    assert round(res["fleiss_kappa_pooled"].estimate, 6) == 0.055458


@pytest.mark.parametrize("name", SNOW)
def test_statsmodels_fleiss_and_randolph_on_full_designs(name) -> None:
    r = snow(name)
    res = agreement(r.anonymous(), bootstrap=0)
    table = np.asarray(r.counts)
    assert res["fleiss_kappa"].estimate == pytest.approx(inter_rater.fleiss_kappa(table), abs=TOL)
    assert res["fleiss_kappa_pooled"].estimate == pytest.approx(
        inter_rater.fleiss_kappa(table), abs=TOL
    )
    assert res["brennan_prediger"].estimate == pytest.approx(
        inter_rater.fleiss_kappa(table, method="randolph"), abs=TOL
    )


@pytest.mark.parametrize("name", SNOW)
def test_statsmodels_cohen_on_two_slots(name) -> None:
    """Two 'raters' made of each item's first and second label (a two-rater data set for the
    comparison): Cohen's κ, unweighted and with linear weights, against statsmodels."""
    r = snow(name)
    first = np.searchsorted(r.item_codes, np.arange(r.n_items))
    lab = r.label_codes
    items = np.repeat(np.arange(r.n_items), 2)
    labels = np.column_stack([lab[first], lab[first + 1]]).ravel()
    two = humanly.Ratings.from_long(
        items.tolist(), ["A", "B"] * r.n_items, [r.classes[c] for c in labels]
    )
    q = len(r.classes)
    table = np.zeros((q, q))
    np.add.at(table, (lab[first], lab[first + 1]), 1)
    res = agreement(two, bootstrap=0)
    assert res["cohen_kappa"].estimate == pytest.approx(
        inter_rater.cohens_kappa(table).kappa, abs=TOL
    )
    weighted = agreement(two, scale="ordinal", weights="linear", bootstrap=0)
    sm = inter_rater.cohens_kappa(table, wt="linear").kappa
    assert weighted["cohen_kappa"].estimate == pytest.approx(sm, abs=TOL)


# --------------------------------------------------------------------------------- random, ragged
@settings(max_examples=60, deadline=None)
@given(
    ragged(),
    st.sampled_from(
        ["identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"]
    ),
)
def test_random_ragged_against_irrcac(r, weights) -> None:
    scale = "nominal" if weights == "identity" else "ordinal"
    _check_irrcac(r, scale, weights)


@settings(max_examples=60, deadline=None)
@given(ragged(), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_random_ragged_alpha_against_krippendorff(r, scale) -> None:
    _check_alpha(r, scale)
