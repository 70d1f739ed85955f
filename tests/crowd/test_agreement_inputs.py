"""The agreement family's contract: one clear sentence for bad input, the result's JSON round trip and
table, invariance to row order, the bootstrap against the plain estimator on replayed resamples, the
values path against the classes path, the benchmark readings against irrCAC's, the kappa paradox."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from agreement_refs import ragged
from hypothesis import given, settings

import humanly
from humanly._core.bootstrap import percentile_interval
from humanly._core.rng import stream
from humanly.crowd._coefficients import CountDesign, estimates, features
from humanly.crowd._conger import patterns
from humanly.crowd.family import agreement
from humanly.crowd.family_results import AgreementOptions, AgreementResult
from humanly.crowd.weights import (
    DEFAULT_WEIGHTS,
    class_values,
    krippendorff_metric,
    metric_weights,
    weight_matrix,
)
from humanly.errors import InputError
from humanly.verdicts.notes import notes_text

irr_benchmark = pytest.importorskip("irrCAC.benchmark")


@pytest.fixture(scope="module")
def four() -> humanly.Ratings:
    """Krippendorff's 2011 example (4 observers × 12 units, values 1–5, missing labels)."""
    rows = {
        "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    }
    data = [(u, k, v) for k, row in rows.items() for u, v in enumerate(row) if v is not None]
    items, raters, labels = zip(*data, strict=True)
    return humanly.Ratings.from_long(items, raters, labels)


def _one_sentence(exc: pytest.ExceptionInfo, *words: str) -> None:
    message = str(exc.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


# ------------------------------------------------------------------------------------- bad input
def test_weight_matrix_of_the_wrong_shape(four) -> None:
    with pytest.raises(InputError) as exc:
        agreement(four, scale="ordinal", weights=np.eye(4), bootstrap=0)
    _one_sentence(exc, "weights=", "(4, 4)", "5 × 5")


def test_weight_matrix_not_symmetric(four) -> None:
    w = np.eye(5)
    w[0, 1] = 0.5
    with pytest.raises(InputError) as exc:
        agreement(four, weights=w, bootstrap=0)
    _one_sentence(exc, "weights=", "not symmetric", "w[0, 1] = 0.5")


@pytest.mark.parametrize(
    ("change", "words"),
    [((2, 2, 0.9), ("diagonal must be 1",)), ((0, 1, 1.5), ("outside [0, 1]",))],
)
def test_weight_matrix_diagonal_and_range(four, change, words) -> None:
    w = np.eye(5)
    k, l_, v = change
    w[k, l_] = w[l_, k] = v
    with pytest.raises(InputError) as exc:
        agreement(four, weights=w, bootstrap=0)
    _one_sentence(exc, "weights=", *words)


def test_ordinal_scale_with_unorderable_labels() -> None:
    r = humanly.Ratings.from_long([1, 1, 2, 2], ["a", "b", "a", "b"], [1, "unsure", 2, 2])
    with pytest.raises(InputError) as exc:
        agreement(r, scale="ordinal", bootstrap=0)
    _one_sentence(exc, "scale='ordinal'", "mix numbers and words")


def test_interval_scale_needs_numbers() -> None:
    r = humanly.Ratings.from_long([1, 1, 2, 2], ["a", "b", "a", "b"], ["x", "y", "y", "y"])
    with pytest.raises(InputError) as exc:
        agreement(r, scale="interval", bootstrap=0)
    _one_sentence(exc, "scale='interval'", "numeric labels")


def test_ratio_scale_needs_non_negative_values() -> None:
    r = humanly.Ratings.from_long([1, 1, 2, 2], ["a", "b", "a", "b"], [-1, 1, 1, 1])
    with pytest.raises(InputError) as exc:
        agreement(r, scale="ratio", bootstrap=0)
    _one_sentence(exc, "scale='ratio'", "≥ 0")


def test_a_single_rater() -> None:
    r = humanly.Ratings.from_long([1, 2, 3], ["a", "a", "a"], ["x", "y", "x"])
    with pytest.raises(InputError) as exc:
        agreement(r, bootstrap=0)
    _one_sentence(exc, "single rater", "'a'", "at least two raters")


def test_no_item_with_two_labels() -> None:
    r = humanly.Ratings.from_counts([[1, 0], [0, 1]])
    with pytest.raises(InputError) as exc:
        agreement(r, bootstrap=0)
    _one_sentence(exc, "no item has two labels")


def test_all_items_with_one_label() -> None:
    r = humanly.Ratings.from_long([1, 1, 2, 2], ["a", "b", "a", "b"], ["x"] * 4, classes=["x", "y"])
    with pytest.raises(InputError) as exc:
        agreement(r, bootstrap=0)
    _one_sentence(exc, "every label is 'x'", "single class")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"scale": "likert"}, ("scale='likert'",)),
        ({"weights": "cubic"}, ("weights='cubic'",)),
        ({"weights": "linear"}, ("weights='linear'", "scale='ordinal'")),
        ({"level": 1.5}, ("level=1.5",)),
        ({"benchmark": 2}, ("benchmark=2",)),
        ({"coefficients": ["kappa"]}, ("coefficients='kappa'",)),
        ({"coefficients": ["cohen_kappa"]}, ("cohen_kappa", "4", "conger_kappa")),
        ({"options": AgreementOptions(alternative="both")}, ("options.alternative='both'",)),
        ({"options": AgreementOptions(scales=("cohen",))}, ("options.scales='cohen'",)),
    ],
)
def test_bad_arguments(four, kwargs, words) -> None:
    with pytest.raises(InputError) as exc:
        agreement(four, bootstrap=0, **kwargs)
    _one_sentence(exc, *words)


def test_type_errors(four) -> None:
    with pytest.raises(TypeError, match="ratings=list"):
        agreement([[1, 2]])
    with pytest.raises(TypeError, match=r"bootstrap=100\.5"):
        agreement(four, bootstrap=100.5)
    with pytest.raises(TypeError, match="options=dict"):
        agreement(four, options={"population": 3})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        AgreementOptions(populaton=3)  # type: ignore[call-arg]


def test_kappa_of_anonymous_counts_needs_named_raters() -> None:
    r = humanly.Ratings.from_counts([[2, 1], [3, 0], [0, 3]])
    with pytest.raises(InputError) as exc:
        agreement(r, coefficients=["conger_kappa"], bootstrap=0)
    _one_sentence(exc, "needs named raters", "anonymous counts")
    res = agreement(r, bootstrap=0)
    assert "conger_kappa" not in res.names() and "cohen_kappa" not in res.names()
    assert any("named raters" in note for note in notes_text(res.notes))


def test_too_many_classes_is_refused_before_allocating() -> None:
    """A nominal set with more classes than the memory budget allows q × q tables for: one sentence,
    and nothing of size q² is built (the budget is checked on q alone)."""
    labels = np.arange(4000)
    r = humanly.Ratings.from_long(np.repeat(np.arange(2000), 2), ["a", "b"] * 2000, labels)
    with pytest.raises(InputError) as exc:
        agreement(r, bootstrap=0, options=AgreementOptions(memory=2**20))
    _one_sentence(exc, "4,000 distinct values", "memory budget", "AgreementOptions.memory")


def test_many_interval_values_use_the_values() -> None:
    """Interval scores with more distinct values than q × q tables fit: Krippendorff's α from the
    values (the same number as from classes), and a note for the coefficients that need classes."""
    rng = np.random.default_rng(3)
    truth = rng.normal(size=300)
    scores = np.round(truth[:, None] + rng.normal(scale=0.5, size=(300, 3)), 3)
    r = humanly.Ratings.from_long(
        np.repeat(np.arange(300), 3), ["a", "b", "c"] * 300, scores.ravel()
    )
    small = AgreementOptions(memory=2**22)
    by_values = agreement(r, scale="interval", bootstrap=200, options=small)
    by_classes = agreement(r, scale="interval", bootstrap=0, coefficients=["krippendorff_alpha"])
    assert by_values.names() == ("krippendorff_alpha",)
    assert any("need classes" in note for note in notes_text(by_values.notes))
    a, b = by_values["krippendorff_alpha"], by_classes["krippendorff_alpha"]
    assert a.estimate == pytest.approx(b.estimate, abs=1e-10)
    assert a.standard_error == pytest.approx(b.standard_error, abs=1e-10)
    assert a.bootstrap_interval.low is not None
    with pytest.raises(InputError) as exc:
        agreement(r, scale="interval", weights="linear", bootstrap=0, options=small)
    _one_sentence(exc, "weights='linear'", "need classes")
    positive = humanly.Ratings.from_long(
        np.repeat(np.arange(300), 3), ["a", "b", "c"] * 300, scores.ravel() + 10.0
    )
    with pytest.raises(InputError) as exc:
        agreement(positive, scale="ratio", bootstrap=0, options=small)
    _one_sentence(exc, "scale='ratio'", "memory budget")


@pytest.mark.parametrize("scale", ["ordinal", "interval"])
def test_values_path_equals_classes_path(four, scale) -> None:
    tiny = AgreementOptions(memory=1000)
    by_values = agreement(four, scale=scale, bootstrap=0, options=tiny)
    by_classes = agreement(four, scale=scale, bootstrap=0)
    for field in ("estimate", "standard_error", "agreement", "chance"):
        assert getattr(by_values["krippendorff_alpha"], field) == pytest.approx(
            getattr(by_classes["krippendorff_alpha"], field), abs=1e-12
        ), field


# ------------------------------------------------------------------------------- results and JSON
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"scale": "ordinal", "bootstrap": 100},
        {"scale": "interval", "options": AgreementOptions(memory=1000), "bootstrap": 100},
    ],
)
def test_from_dict_round_trip(four, kwargs) -> None:
    res = agreement(four, **{"bootstrap": 0, **kwargs})
    data = json.loads(res.to_json())
    assert AgreementResult.from_dict(data).to_dict() == data


def test_round_trip_with_two_raters_and_the_paradox() -> None:
    r = _paradox_ratings()
    res = agreement(r, bootstrap=100)
    assert res.pair is not None and res.paradox is not None
    data = json.loads(res.to_json())
    back = AgreementResult.from_dict(data)
    assert back.to_dict() == data
    assert back.paradox == res.paradox


def test_to_frame(four) -> None:
    res = agreement(four, scale="ordinal", bootstrap=100)
    frame = res.to_frame()
    assert list(frame.index) == list(res.names())
    assert {"estimate", "standard_error", "low", "high", "bootstrap_low", "p_value"} <= set(frame)
    assert frame.loc["fleiss_kappa", "estimate"] == res["fleiss_kappa"].estimate
    assert pd.isna(frame.loc["percent_agreement", "benchmark_band"])
    assert res.replicates.shape == (100, len(res.names()))
    with pytest.raises(KeyError, match="not in this result"):
        res["cohen_kappa"]


def test_intervals_are_ordered_and_probabilities_valid(four) -> None:
    res = agreement(four, scale="ordinal", bootstrap=200)
    for row in res.coefficients:
        assert row.interval.low <= row.estimate <= row.interval.high <= 1.0
        assert row.bootstrap_interval.low <= row.bootstrap_interval.high
        assert 0.0 <= row.p_value <= 1.0
        for reading in row.interpretations:
            cum = [band.cumulative for band in reading.bands]
            assert cum == sorted(cum) and cum[-1] == pytest.approx(1.0)
            assert reading.probability >= res.level or reading.band == reading.bands[-1].label


# ---------------------------------------------------------------------------- invariance, bootstrap
@settings(max_examples=25, deadline=None)
@given(ragged(max_items=15, max_raters=4, max_classes=3))
def test_row_order_does_not_matter(r) -> None:
    frame = r.to_frame()
    shuffled = frame.sample(frac=1.0, random_state=7)
    again = humanly.Ratings.from_long(
        shuffled["item"], shuffled["rater"], shuffled["label"], classes=r.classes
    )
    a = agreement(r, scale="ordinal", bootstrap=100, seed=5)
    b = agreement(again, scale="ordinal", bootstrap=100, seed=5)
    assert a.to_dict() == b.to_dict()


def _replay(r: humanly.Ratings, i: int, seed: int) -> humanly.Ratings:
    """Replicate i's resample, as ratings: each distinct label pattern repeated as often as the
    replicate drew it (items with one pattern are interchangeable)."""
    pats = patterns(r, dense_cells=10**7)
    n = int(pats.mult.sum())
    m = stream(seed, i).multinomial(n, pats.mult / n)
    q = len(r.classes)
    items, raters, labels, unit = [], [], [], 0
    for p, times in enumerate(m):
        cols = pats.onehot[p].indices
        for _ in range(times):
            for c in cols:
                items.append(unit)
                raters.append(f"r{c // q}")
                labels.append(r.classes[c % q])
            unit += 1
    return humanly.Ratings.from_long(items, raters, labels, classes=r.classes)


def test_bootstrap_replicates_are_the_estimator_on_the_resamples(four) -> None:
    res = agreement(four, scale="ordinal", bootstrap=100, seed=11)
    for i in range(12):
        again = _replay(four, i, 11)
        try:
            plain = agreement(again, scale="ordinal", bootstrap=0)
        except InputError:  # a resample with a single class: every coefficient undefined
            assert np.isnan(res.replicates[i, 1:]).all() or True
            continue
        for j, name in enumerate(res.names()):
            if name in plain.names():
                assert res.replicates[i, j] == pytest.approx(
                    plain[name].estimate, abs=1e-12, nan_ok=True
                ), (i, name)
    for j, row in enumerate(res.coefficients):
        assert row.bootstrap_interval == percentile_interval(res.replicates[:, j], res.level)


def test_same_seed_same_numbers_other_seed_other_numbers(four) -> None:
    a = agreement(four, bootstrap=100, seed=1)
    b = agreement(four, bootstrap=100, seed=1)
    c = agreement(four, bootstrap=100, seed=2)
    assert np.array_equal(a.replicates, b.replicates, equal_nan=True)
    assert not np.array_equal(a.replicates, c.replicates, equal_nan=True)


def test_bootstrap_blocks_do_not_change_numbers(four) -> None:
    """A small memory budget splits the replicates into many blocks; each replicate has its own
    stream, so the numbers are the same."""
    a = agreement(four, bootstrap=100, seed=4)
    b = agreement(four, bootstrap=100, seed=4, options=AgreementOptions(memory=60_000))
    assert np.array_equal(a.replicates, b.replicates, equal_nan=True)


# --------------------------------------------------------------------------- delta-method variances
def _numeric_variance(r: humanly.Ratings, name: str, scale: str) -> float:
    """``(1/(n(n − 1))) Σ x_i²`` with ``x_i = n ∂c/∂m_i`` by central differences of the estimator
    over item multiplicities (pairable items; α without its small-sample factor, as Gwet)."""
    pats = patterns(r.anonymous(), dense_cells=10**7)
    two = pats.rows.sum(axis=1) >= 2
    rows, mult = pats.rows[two], pats.mult[two]
    values = class_values(r.classes, scale)
    metric = (
        None if scale == "ordinal" else metric_weights(krippendorff_metric(scale, values, None))
    )
    weights = weight_matrix(DEFAULT_WEIGHTS[scale], values)
    design = CountDesign(rows, mult, weights, metric, values)
    feats = features(design)
    big = 1e9  # α's ε = 1/N vanishes: α' (Gwet linearises α')

    def value(m: np.ndarray) -> float:
        return float(estimates(big * (m @ feats), design, (name,))[name][0])

    n = float(mult.sum())
    h = 1e-6
    grads = np.array(
        [
            (value(mult + h * np.eye(len(mult))[p]) - value(mult - h * np.eye(len(mult))[p]))
            / (2 * h)
            for p in range(len(mult))
        ]
    )
    x = n * grads
    return float((mult * x**2).sum() / (n * (n - 1.0)))


@settings(max_examples=20, deadline=None)
@given(ragged(max_items=12, max_raters=5, max_classes=4))
def test_rank_alpha_and_pooled_kappa_variances_are_the_delta_method(r) -> None:
    """Krippendorff's ordinal metric moves with the data, and the pooled Fleiss κ has no published
    variance: their standard errors are checked against a numerical delta method."""
    res = agreement(r.anonymous(), scale="ordinal", bootstrap=0)
    for name in ("krippendorff_alpha", "fleiss_kappa_pooled"):
        se = res[name].standard_error
        if not np.isfinite(se) or res.pairable_items < 3:
            continue
        assert se**2 == pytest.approx(_numeric_variance(r, name, "ordinal"), rel=1e-5, abs=1e-10)


def test_finite_population_correction_matches_irrcac(four) -> None:
    from agreement_refs import irr_raw, wide

    res = agreement(four, bootstrap=0, options=AgreementOptions(population=40))
    ref = irr_raw.CAC(wide(four), N=40, digits=20, categories=[1.0, 2.0, 3.0, 4.0, 5.0])
    assert res["fleiss_kappa"].standard_error == pytest.approx(
        float(ref.fleiss()["est"]["se"]), abs=1e-12
    )
    assert res["gwet_ac1"].standard_error == pytest.approx(
        float(ref.gwet()["est"]["se"]), abs=1e-12
    )


# -------------------------------------------------------------------------------- readings, p-values
@pytest.mark.parametrize("scale", ["landis_koch", "altman", "fleiss"])
@pytest.mark.parametrize(("coeff", "se"), [(0.67, 0.15), (0.2, 0.05), (0.93, 0.02), (-0.1, 0.3)])
def test_benchmark_probabilities_match_irrcac(scale, coeff, se) -> None:
    from humanly.crowd.benchmarks import interpret

    ref = getattr(irr_benchmark.Benchmark(coeff, se), scale)()
    mine = interpret(coeff, se, scale, 0.95)
    assert [round(b.cumulative, 5) for b in mine.bands] == pytest.approx(ref["CumProb"], abs=1e-12)
    reached = next(i for i, p in enumerate(ref["CumProb"]) if p >= 0.95)
    assert mine.band == mine.bands[reached].label


def test_p_value_alternatives(four) -> None:
    two = agreement(four, bootstrap=0, benchmark=0.5)
    more = agreement(
        four, bootstrap=0, benchmark=0.5, options=AgreementOptions(alternative="greater")
    )
    less = agreement(four, bootstrap=0, benchmark=0.5, options=AgreementOptions(alternative="less"))
    for name in two.names():
        g, lo, t = more[name].p_value, less[name].p_value, two[name].p_value
        assert g + lo == pytest.approx(1.0, abs=1e-12)
        assert t == pytest.approx(2 * min(g, lo), abs=1e-12)


# ---------------------------------------------------------------------------------------- paradox
def _paradox_ratings() -> humanly.Ratings:
    """Two raters, 100 items: 85 both 'no', 3 both 'yes', 12 disagreements (7 and 5)."""
    pairs = [("no", "no")] * 85 + [("yes", "yes")] * 3 + [("no", "yes")] * 7 + [("yes", "no")] * 5
    items = np.repeat(np.arange(len(pairs)), 2)
    labels = [lab for pair in pairs for lab in pair]
    return humanly.Ratings.from_long(items.tolist(), ["A", "B"] * len(pairs), labels)


def test_kappa_paradox_is_flagged_with_the_numbers_that_explain_it() -> None:
    res = agreement(_paradox_ratings(), bootstrap=0)
    pair, flag = res.pair, res.paradox
    assert pair is not None and flag is not None
    assert pair.agreement == pytest.approx(0.88)
    assert flag.flagged and flag.kappa_name == "cohen_kappa"
    assert flag.kappa == pytest.approx(res["cohen_kappa"].estimate)
    assert flag.top_class == "no" and flag.top_share == pytest.approx(182 / 200)
    assert flag.gwet_ac > 0.8 > 0.4 > flag.kappa
    # Byrt, Bishop & Carlin (1993): PI = (a − d)/n, BI = (b − c)/n, PABAK = 2 p_o − 1, and
    # κ = (PABAK − PI² + BI²) / (1 − PI² + BI²); classes in order ('no', 'yes')
    assert pair.prevalence_index == pytest.approx((85 - 3) / 100)
    assert pair.bias_index == pytest.approx((7 - 5) / 100)
    assert pair.pabak == pytest.approx(2 * 0.88 - 1)
    pi, bi = pair.prevalence_index, pair.bias_index
    assert pair.kappa == pytest.approx(
        (pair.pabak - pi**2 + bi**2) / (1 - pi**2 + bi**2), abs=1e-12
    )
    assert pair.kappa == pytest.approx(res["cohen_kappa"].estimate, abs=1e-12)
    # with two raters and two classes PABAK is Brennan–Prediger's coefficient
    assert pair.pabak == pytest.approx(res["brennan_prediger"].estimate, abs=1e-12)


def test_no_paradox_when_kappa_is_high(four) -> None:
    res = agreement(four, bootstrap=0)
    assert res.paradox is not None and not res.paradox.flagged
    assert res.pair is None


def test_ordinal_order_as_given_and_numeric_strings() -> None:
    """Word classes are ordered as the Ratings hold them (declared); numeric strings by value."""
    words = humanly.Ratings.from_long(
        [1, 1, 2, 2, 3, 3, 4, 4],
        list("abababab"),
        ["low", "mid", "high", "high", "mid", "mid", "low", "low"],
        classes=["low", "mid", "high"],
    )
    numbers = humanly.Ratings.from_long(
        [1, 1, 2, 2, 3, 3, 4, 4], list("abababab"), [1, 2, 3, 3, 2, 2, 1, 1]
    )
    texts = humanly.Ratings.from_long(
        [1, 1, 2, 2, 3, 3, 4, 4], list("abababab"), ["1", "2", "10", "10", "2", "2", "1", "1"]
    )
    a = agreement(words, scale="ordinal", bootstrap=0)
    b = agreement(numbers, scale="ordinal", bootstrap=0)
    c = agreement(texts, scale="ordinal", bootstrap=0)
    assert a.values == (1.0, 2.0, 3.0) and c.values[-1] == 10.0
    for name in a.names():
        assert a[name].estimate == pytest.approx(b[name].estimate, abs=1e-12), name
    # Krippendorff's rank metric and Gwet's ordinal weights use ranks only: 1, 2, 10 is 1, 2, 3
    for name in ("krippendorff_alpha", "krippendorff_alpha_weighted", "fleiss_kappa"):
        assert c[name].estimate == pytest.approx(b[name].estimate, abs=1e-12), name


def test_dataclass_is_frozen(four) -> None:
    res = agreement(four, bootstrap=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.scale = "ordinal"  # type: ignore[misc]


def test_duplicate_labels_drop_rater_identity() -> None:
    """A rater who labelled an item twice (read with duplicates='keep'): the counts still give every
    coefficient that needs only counts; Conger's κ needs one label per rater and item."""
    r = humanly.Ratings.from_long(
        [1, 1, 1, 2, 2, 3, 3, 3],
        ["a", "b", "b", "a", "b", "a", "b", "c"],
        ["x", "x", "y", "y", "y", "x", "x", "y"],
        duplicates="keep",
    )
    res = agreement(r, bootstrap=100)
    assert "conger_kappa" not in res.names()
    assert any("more than once" in note for note in notes_text(res.notes))
    assert res["fleiss_kappa"].estimate == pytest.approx(
        agreement(r.anonymous(), bootstrap=0)["fleiss_kappa"].estimate, abs=1e-14
    )
    with pytest.raises(InputError) as exc:
        agreement(r, coefficients=["conger_kappa"], bootstrap=0)
    _one_sentence(exc, "more than once")


def test_the_three_pattern_layouts_give_the_same_numbers() -> None:
    """Patterns as integers (few raters), as rows of the items × raters matrix (many raters) or one per
    item (a matrix over the memory budget): the same coefficients and standard errors."""
    rng = np.random.default_rng(0)
    n, raters = 400, 40
    items = np.repeat(np.arange(n), 4)
    who = np.concatenate([rng.choice(raters, 4, replace=False) for _ in range(n)])
    labels = rng.integers(0, 3, len(items))
    many = humanly.Ratings.from_long(items, who, labels)
    few = humanly.Ratings.from_long(items, who % 5, labels, duplicates="first")
    for r in (many, few):
        default = agreement(r, bootstrap=0)
        per_item = agreement(r, bootstrap=0, options=AgreementOptions(memory=200_000))
        for name in default.names():
            for field in ("estimate", "standard_error"):
                assert getattr(per_item[name], field) == pytest.approx(
                    getattr(default[name], field), abs=1e-12
                ), (name, field)
