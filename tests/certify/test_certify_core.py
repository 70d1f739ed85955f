"""certify() on data: cross-checks against slow references, properties, curves, gold checks."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from humanly import InputError, Predictions, Ratings, simulate
from humanly.certification import (
    CertifyOptions,
    bernstein_tail,
    certify,
    clopper_pearson_tail,
    confidence,
    hoeffding_delta,
    hoeffding_t,
    hoeffding_tail,
)


def _labels_to_ratings(rows: list[list[int]], n_classes: int) -> Ratings:
    items, raters, labels = [], [], []
    for i, row in enumerate(rows):
        for j, lab in enumerate(row):
            if lab >= 0:
                items.append(i)
                raters.append(f"r{j}")
                labels.append(lab)
    return Ratings.from_long(items, raters, labels, classes=list(range(n_classes)))


def _brute_slots(rows: list[list[int]]) -> tuple[float, float]:
    emp, theo = [], []
    for row in rows:
        labs = [x for x in row if x >= 0]
        n = len(labs)
        if n < 2:
            continue
        pairs = [labs[a] == labs[b] for a in range(n) for b in range(n) if a != b]
        emp.append(sum(pairs) / len(pairs))
        theo.append(sum(labs[a] == labs[b] for a in range(n) for b in range(n)) / n**2)
    return math.sqrt(np.mean(emp)), math.sqrt(np.mean(theo))


def _brute_plurality_credit(labs: list[int], pred: int, n_classes: int) -> float:
    cnt = [labs.count(c) for c in range(n_classes)]
    top = max(cnt)
    tied = [c for c in range(n_classes) if cnt[c] == top]
    return (pred in tied) / len(tied)


def _data(seed: int = 3, k: int = 5, n: int = 300, n_classes: int = 3):
    return simulate.oracle(
        n,
        [0.8, 0.7, 0.75, 0.85, 0.65, 0.9, 0.7][:k],
        n_classes=n_classes,
        models={"strong": 0.95, "weak": 0.7},
        seed=seed,
    )


def test_slots_and_named_match_brute_force() -> None:
    rng = np.random.default_rng(0)
    rows = rng.integers(-1, 3, size=(40, 5)).tolist()
    rows = [r if sum(x >= 0 for x in r) >= 2 else [0, 1, -1, -1, -1] for r in rows]
    r = _labels_to_ratings(rows, 3)
    pred = rng.integers(0, 3, size=40)
    preds = Predictions.from_arrays(r.items, {"m": pred[: r.n_items]}, classes=[0, 1, 2])
    res = certify(r, preds)
    emp, theo = _brute_slots(rows)
    assert res.upper_bound.empirical == pytest.approx(emp, abs=1e-12)
    assert res.upper_bound.theoretical == pytest.approx(theo, abs=1e-12)
    low = np.mean(
        [
            _brute_plurality_credit([x for x in row if x >= 0], p, 3)
            for row, p in zip(rows, pred, strict=True)
        ]
    )
    assert res.models[0].lower == pytest.approx(low, abs=1e-12)
    # named: per-pair agreement over common items, eqs. 2 and 8
    named = certify(r, preds, rater_mode="named")
    k = 5
    a = np.full((k, k), np.nan)
    for i, j in itertools.product(range(k), range(k)):
        common = [(row[i], row[j]) for row in rows if row[i] >= 0 and row[j] >= 0]
        if common:
            a[i, j] = np.mean([x == y for x, y in common])
    off = [a[i, j] for i in range(k) for j in range(k) if i != j and not np.isnan(a[i, j])]
    assert named.upper_bound.empirical == pytest.approx(math.sqrt(np.mean(off)), abs=1e-12)
    assert named.upper_bound.theoretical == pytest.approx(
        math.sqrt(1 / k + (k - 1) / k * np.mean(off)), abs=1e-12
    )
    np.testing.assert_allclose(named.upper_bound.agreement_matrix, a, equal_nan=True)


def test_named_complete_design_eq2_diagonal_equals_one() -> None:
    d = _data(k=4)
    res = certify(d.ratings, d.predictions, rater_mode="named")
    a = res.upper_bound.agreement_matrix.copy()
    assert np.allclose(np.diag(a), 1.0)
    assert res.upper_bound.theoretical == pytest.approx(math.sqrt(a.sum() / 16))
    # in a complete design the slots reading gives the same numbers
    slots = certify(d.ratings, d.predictions)
    assert slots.upper_bound.empirical == pytest.approx(res.upper_bound.empirical)
    assert slots.upper_bound.theoretical == pytest.approx(res.upper_bound.theoretical)


def test_hoeffding_inverse_and_tails() -> None:
    for n, d in [(10, 0.1), (1821, 0.025), (10**6, 1e-9)]:
        assert hoeffding_delta(n, hoeffding_t(n, d)) == pytest.approx(d)
        tb = bernstein_tail(n, 0.05)
        assert tb.delta(tb.t(d)) == pytest.approx(d)
    assert hoeffding_delta(100, 0.0) == 1.0


def test_clopper_pearson_against_statsmodels_and_mpmath() -> None:
    from statsmodels.stats.proportion import proportion_confint

    n, k, delta = 200, 170, 0.025
    tail = clopper_pearson_tail(n, k, k / n)
    lo = k / n - tail.t(delta)
    ref = proportion_confint(k, n, alpha=2 * delta, method="beta")[0]
    assert lo == pytest.approx(ref, abs=1e-10)
    # δ(p) = P(Binom(n, p) ≥ k), summed exactly with mpmath
    p = 0.8
    exact = mpmath.fsum(
        mpmath.binomial(n, j) * mpmath.mpf(p) ** j * mpmath.mpf(1 - p) ** (n - j)
        for j in range(k, n + 1)
    )
    assert tail.delta(k / n - p) == pytest.approx(float(exact), rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(
        st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(lambda r: sum(r) >= 2),
        min_size=2,
        max_size=25,
    ),
    preds=st.lists(st.integers(0, 2), min_size=25, max_size=25),
    seed=st.integers(0, 10**6),
)
def test_properties_on_random_counts(counts: list[list[int]], preds: list[int], seed: int) -> None:
    r = Ratings.from_counts(np.array(counts), classes=[0, 1, 2])
    p = Predictions.from_arrays(r.items, {"m": preds[: r.n_items]}, classes=[0, 1, 2])
    res = certify(r, p)
    ub = res.upper_bound
    assert 0 <= ub.empirical <= ub.theoretical <= 1 + 1e-12
    m = res.models[0]
    assert 0 <= m.lower <= 1
    for b in m.by_bound.values():
        c = b.confidence
        if c.admissible:
            assert -1 <= c.oms <= 1
            assert 0 <= c.t_u <= c.t_u_max + 1e-15 and c.t_l >= -1e-12
            if c.hms is not None:
                assert c.oms >= c.hms - 1e-9
        else:
            assert m.lower <= ub.upper and c.oms is None
    # finite-sample bounds are ordered around the point estimates
    assert ub.finite["hoeffding"].value >= ub.upper
    assert m.finite_lower.value <= m.lower
    # permutation invariance over items
    perm = np.random.default_rng(seed).permutation(r.n_items)
    r2 = r.take(perm)
    p2 = Predictions.from_arrays(
        r2.items, {"m": np.array(preds[: r.n_items])[perm]}, classes=[0, 1, 2]
    )
    res2 = certify(r2, p2)
    assert res2.upper_bound.empirical == pytest.approx(ub.empirical)
    assert res2.models[0].lower == pytest.approx(m.lower)
    assert (
        res2.models[0].confidence.oms == pytest.approx(m.confidence.oms, abs=1e-9)
        if (m.confidence.oms is not None)
        else res2.models[0].confidence.oms is None
    )


def test_permutation_of_raters_named() -> None:
    d = _data(k=4)
    df = d.ratings.to_frame()
    rename = {"a1": "z", "a2": "y", "a3": "x", "a4": "w"}
    r2 = Ratings.from_long(df.item, df.rater.map(rename), df.label, classes=d.ratings.classes)
    a = certify(d.ratings, d.predictions, rater_mode="named")
    b = certify(r2, d.predictions, rater_mode="named")
    assert a.upper_bound.empirical == pytest.approx(b.upper_bound.empirical)
    assert a.upper_bound.theoretical == pytest.approx(b.upper_bound.theoretical)


def test_slots_curve_exact_against_subset_enumeration() -> None:
    d = _data(k=5, n=60)
    res = certify(d.ratings, d.predictions, gold=d.gold, curve=True)
    mat = d.ratings.matrix()
    pred = d.predictions.hard("strong")
    gold = d.gold.codes
    for point in res.curve:
        k = point.k
        per_item, acc_item = [], []
        for i in range(d.ratings.n_items):
            labs = [x for x in mat[i] if x >= 0]
            subs = list(itertools.combinations(labs, k))
            per_item.append(np.mean([_brute_plurality_credit(list(s), pred[i], 3) for s in subs]))
            acc_item.append(np.mean([_brute_plurality_credit(list(s), gold[i], 3) for s in subs]))
        assert point.lower["strong"] == pytest.approx(np.mean(per_item), abs=1e-12)
        assert point.aggregate_accuracy == pytest.approx(np.mean(acc_item), abs=1e-12)
    # named curve with every subset enumerated gives the same L_N (complete design)
    named = certify(
        d.ratings, d.predictions, rater_mode="named", curve=True,
        options=CertifyOptions(curve_subsets=100),
    )  # fmt: skip
    for a, b in zip(res.curve, named.curve, strict=True):
        assert b.exact
        assert a.lower["strong"] == pytest.approx(b.lower["strong"], abs=1e-12)


def test_fig3_behaviour_on_simulated_oracle() -> None:
    d = simulate.oracle(
        3000, [0.75] * 9, n_classes=3, models={"strong": 0.95, "weak": 0.8}, seed=11
    )
    res = certify(d.ratings, d.predictions, gold=d.gold, curve=True)
    gaps = [p.theoretical - p.empirical for p in res.curve if p.empirical is not None]
    assert all(a > b for a, b in itertools.pairwise(gaps))  # U⁽ᵗ⁾ − U⁽ᵉ⁾ shrinks as K grows
    odd = [p.lower["strong"] for p in res.curve if p.k % 2 == 1]
    assert all(a < b for a, b in itertools.pairwise(odd))  # L_N rises with more annotators
    acc = res.oracle.models["strong"]
    assert odd[-1] <= acc and acc - odd[-1] < acc - odd[0]  # …toward the model's accuracy
    assert res.oracle.held["lower:strong"] and res.oracle.held["theoretical_upper"]
    assert res.model("strong").superhuman


def test_gold_checks_and_true_accuracies() -> None:
    d = _data(k=5, n=2000)
    res = certify(d.ratings, d.predictions, gold=d.gold, rater_mode="named")
    o = res.oracle
    assert o.average_rater == pytest.approx(d.truth["average_annotator_accuracy"])
    assert o.models == pytest.approx(d.truth["model_accuracy"])
    names = [c.name for c in o.assumptions]
    assert names == ["theorem1_positive_correlation", "theorem3:strong", "theorem3:weak"]
    strong = o.assumptions[1]
    assert strong.passed and strong.left + strong.right == pytest.approx(1.0)
    # gold on a subset of items only
    sub = d.gold.__class__(d.gold.items[:100], d.gold.classes, d.gold.codes[:100], "sub")
    res2 = certify(d.ratings, d.predictions, gold=sub)
    assert res2.oracle.n_items == 100


def test_bernstein_and_exact_tighter_when_agreement_is_high() -> None:
    d = simulate.oracle(4000, [0.95, 0.93, 0.96], n_classes=2, models={"m": 0.98}, seed=5)
    res = certify(d.ratings, d.predictions)
    bb = res.models[0].by_bound
    assert bb["bernstein"].certified_margin > bb["hoeffding"].certified_margin
    assert bb["exact"].finite_lower.value > bb["hoeffding"].finite_lower.value


def test_errors() -> None:
    one = Ratings.from_long([0, 1, 2], ["a", "b", "c"], [0, 1, 0])
    with pytest.raises(InputError, match="at most one label"):
        certify(one)
    disjoint = Ratings.from_long([0, 0, 1, 1], ["a", "b", "c", "d"], [0, 1, 0, 0])
    assert certify(disjoint).upper_bound.n == 2  # the slots reading is fine
    with pytest.raises(InputError, match="no two named raters"):
        certify(_no_overlap(), rater_mode="named")
    with pytest.raises(InputError, match="anonymous counts"):
        certify(disjoint.anonymous(), rater_mode="named")
    preds = Predictions.from_arrays([0, 1, 2], {"m": ["x", "y", "x"]}, classes=["x", "y"])
    with pytest.raises(InputError, match="not among the ratings' classes"):
        certify(Ratings.from_long([0, 0, 1, 1, 2, 2], list("abcdef"), [0, 1, 0, 0, 1, 1]), preds)
    with pytest.raises(InputError, match="bound"):
        certify(disjoint, bound="chernoff")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="level"):
        certify(disjoint, level=1.5)


def _no_overlap() -> Ratings:
    """Items labelled twice, but by one rater each time (duplicates kept): no pair of distinct
    raters shares an item."""
    return Ratings.from_long([0, 0, 1, 1], ["a", "a", "b", "b"], [0, 1, 0, 0], duplicates="keep")


def test_confidence_direct() -> None:
    t = hoeffding_tail(1000)
    assert not confidence(0.8, 0.8, t, t).admissible
    c = confidence(0.95, 0.8, t, t)
    assert c.admissible and c.oms > 0.99


def test_report_section_builder() -> None:
    from humanly.verdicts.certify import headline as certify_line
    from study_sections import section as study_section

    d = _data(k=5, n=300)
    section, res = study_section("certify", d.ratings, d.predictions, d.gold, bootstrap=0)
    assert section.id == "certify" and len(section.figures) == 2 and res is not None
    line = certify_line(res)
    assert line is not None and "strong" in line and "superhuman" in line
    one = Ratings.from_long([0, 1], ["a", "b"], [0, 1])
    section, res = study_section("certify", one, bootstrap=0)
    assert res is None and "Not applicable" in section.note


def test_dawid_skene_aggregate_is_the_posterior_mode() -> None:
    from humanly._core.counts import plurality_credit
    from humanly.crowd.dawid_skene import dawid_skene

    d = simulate.oracle(300, [0.8, 0.7, 0.75], n_classes=2, models={"m": 0.9}, seed=8)
    ds = certify(d.ratings, d.predictions, aggregate="dawid_skene")
    assert ds.aggregate == "dawid_skene"
    # independently: the model's agreement with each item's most probable Dawid-Skene label
    mode = dawid_skene(d.ratings).posterior.argmax(axis=1)
    onehot = np.eye(2, dtype=np.int64)[mode]
    expected = plurality_credit(onehot, d.predictions.hard("m").astype(np.int64)).mean()
    assert ds.models[0].lower == pytest.approx(expected, abs=1e-15)
    with pytest.raises(InputError, match="named raters"):
        certify(d.ratings.anonymous(), d.predictions, aggregate="dawid_skene")


def test_aggregator_object_with_crowd_kit_interface() -> None:
    import pandas as pd

    class Majority:  # crowd-kit's interface: fit_predict(task, worker, label frame) -> labels by task
        def fit_predict(self, frame: pd.DataFrame) -> pd.Series:
            return frame.groupby("task").label.agg(lambda s: s.value_counts().idxmax())

    d = simulate.oracle(300, [0.8, 0.7, 0.75], n_classes=2, models={"m": 0.9}, seed=8)
    obj = certify(d.ratings, d.predictions, aggregate=Majority())
    mv = certify(d.ratings, d.predictions)
    assert obj.aggregate == "Majority"
    assert obj.models[0].lower == pytest.approx(mv.models[0].lower, abs=1e-15)  # K = 3: no ties

    class Broken:
        def fit_predict(self, frame: pd.DataFrame) -> list[int]:
            return [0] * 3

    with pytest.raises(TypeError, match="fit_predict must return"):
        certify(d.ratings, d.predictions, aggregate=Broken())


def test_dawid_skene_labels_agree_with_crowd_kit() -> None:
    """The optional crowd-kit (``humanly[crowdkit]``) as an independent implementation."""
    aggregation = pytest.importorskip("crowdkit.aggregation")
    import pandas as pd

    from humanly.crowd.dawid_skene import dawid_skene

    d = simulate.oracle(400, [0.85, 0.6, 0.7, 0.75, 0.55], n_classes=3, models={"m": 0.8}, seed=3)
    r = d.ratings
    frame = pd.DataFrame({"task": r.item_codes, "worker": r.rater_codes, "label": r.label_codes})
    theirs = aggregation.DawidSkene(n_iter=500, tol=1e-8).fit_predict(frame)
    ours = dawid_skene(r).posterior.argmax(axis=1)
    same = ours[theirs.index.to_numpy(dtype=np.int64)] == theirs.to_numpy(dtype=np.int64)
    assert same.mean() >= 0.99
    # and crowd-kit's aggregator used directly as certify's aggregate
    res = certify(r, d.predictions, aggregate=aggregation.DawidSkene(n_iter=500, tol=1e-8))
    ours_res = certify(r, d.predictions, aggregate="dawid_skene")
    for a, b in zip(res.models, ours_res.models, strict=True):
        assert abs(a.lower - b.lower) <= 0.01
    assert len(res.models) == 1


@settings(max_examples=40, deadline=None)
@given(
    upper=st.floats(0.3, 0.95),
    gap=st.floats(0.001, 0.2),
    n=st.integers(50, 20_000),
)
@example(
    upper=0.4827336797683769, gap=0.001, n=88
)  # L·L − U·U and L**2 − U**2 differ in the last bit
def test_oms_maximises_over_the_admissible_range(upper: float, gap: float, n: int) -> None:
    lower = min(upper + gap, 1.0)
    t = hoeffding_tail(n)
    c = confidence(lower, upper, t, t)
    assert c.admissible
    t_max = lower**2 - upper**2
    # t_u_max is L_N² − U_N² as the library computes it (L·L, not L**2: the two can differ in the
    # last bit, so t_u is checked against the result's own bound, and that bound against ours)
    assert c.t_u_max == pytest.approx(t_max, rel=1e-12)
    assert 0 <= c.t_u <= c.t_u_max and c.t_l >= -1e-12
    grid = np.linspace(0, t_max, 20_001)
    s = 1 - np.exp(-2 * n * grid**2) - np.exp(-2 * n * (lower - np.sqrt(grid + upper**2)) ** 2)
    assert c.oms >= s.max() - 1e-9
    assert c.oms <= 1
    # the paper's ascent, clipped, never beats the maximum and stays admissible
    a = confidence(lower, upper, t, t, oms_steps=100, oms_lr=1e-4)
    assert a.oms <= c.oms + 1e-12 and 0 <= a.t_u <= a.t_u_max == c.t_u_max


def test_plots_return_figures() -> None:
    from humanly.plots.certify import plot_confidence, plot_curve

    d = _data(k=5, n=300)
    for bound in ("hoeffding", "bernstein", "exact"):
        res = certify(d.ratings, d.predictions, gold=d.gold, curve=True, bound=bound)
        fig = plot_confidence(res)
        assert fig.axes and fig.axes[0].get_lines()
        # the drawn curve peaks at the reported OMS
        ys = max(max(line.get_ydata()) for line in fig.axes[0].get_lines()[:1])
        assert ys <= res.models[0].confidence.oms + 1e-9
        assert plot_curve(res).axes
    with pytest.raises(InputError, match="curve"):
        plot_curve(certify(d.ratings, d.predictions))


def test_ragged_slots_upper_and_curve_population() -> None:
    d = simulate.oracle(
        400, [0.8, 0.7, 0.75, 0.85, 0.65, 0.9], n_classes=2, models={"m": 0.9},
        labels_per_item=(2, 6), seed=12,
    )  # fmt: skip
    res = certify(d.ratings, d.predictions, curve=True)
    n = d.ratings.labels_per_item
    assert res.raters.ragged and res.raters.min_labels_per_item == 2
    # U⁽ᵗ⁾² is the mean over items of 1/K_n + (K_n − 1)/K_n · agreement_n
    c = d.ratings.counts
    agree = (c * (c - 1)).sum(1) / (n * (n - 1))
    assert res.upper_bound.theoretical**2 == pytest.approx(np.mean(1 / n + (n - 1) / n * agree))
    k_max = int(np.median(n))
    assert [p.k for p in res.curve] == list(range(1, k_max + 1))
    assert all(p.n_items == int((n >= k_max).sum()) for p in res.curve)
    # the curve at k_max: mean over the population of the plurality credit over all k_max-subsets
    mat = d.ratings.matrix()
    pred = d.predictions.hard("m")
    vals = []
    for i in np.flatnonzero(n >= k_max):
        labs = [x for x in mat[i] if x >= 0]
        subs = list(itertools.combinations(labs, k_max))
        vals.append(np.mean([_brute_plurality_credit(list(t), pred[i], 2) for t in subs]))
    assert res.curve[-1].lower["m"] == pytest.approx(np.mean(vals), abs=1e-12)
    with pytest.raises(InputError, match="no item has"):
        certify(d.ratings, d.predictions, curve=True, options=CertifyOptions(curve_max_k=99))
