"""Items needed to certify (issue 18.1) and the typed evidence (issue 15)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from humanly import simulate
from humanly.certification import BOUNDS, Sample, certify, certify_summary
from humanly.certification.evidence import REASONS, STATUSES
from humanly.certification.needed import _max_score, confidence_at, items_needed, sample_at

# every row of Table 4 as (L_N, U⁽ᵉ⁾_N, N, K), as in test_certify_paper.py
TABLE4_ALL = {
    "BERT/SST-2": (0.949, 0.939, 1821, 3),
    "StructBERT/SST-2": (0.971, 0.939, 1821, 3),
    "GPT/SNLI": (0.899, 0.879, 10000, 5),
    "SemBERT/SNLI": (0.919, 0.879, 10000, 5),
}


def _certified(n: int, lower: float, upper: float, k: float | None = None, **kw) -> bool:
    return certify_summary([lower], upper, n, labels_per_item=k, **kw).models[0].superhuman


def test_table4_structbert_sst2() -> None:
    res = certify_summary([0.971], 0.939, 1821)
    m = res.models[0]
    assert round(m.confidence.oms, 4) == 0.6208 and not m.superhuman
    assert round(certify_summary([0.971], 0.939, 5000).models[0].confidence.oms, 3) == 0.976
    n = m.items_needed
    assert 1821 < n < 5000
    assert _certified(n, 0.971, 0.939) and not _certified(n - 1, 0.971, 0.939)
    assert m.evidence.status == "not_certified" and m.evidence.reason == "margin_small_for_n"
    assert m.evidence.items_needed == n and m.by_bound["hoeffding"].items_needed == n


@pytest.mark.parametrize("name", sorted(TABLE4_ALL))
@pytest.mark.parametrize("kind", ["empirical", "theoretical"])
def test_table4_items_needed_agrees_with_the_certificate(name: str, kind: str) -> None:
    lower, upper, n, k = TABLE4_ALL[name]
    v = certify_summary([lower], upper, n, labels_per_item=k).models[0].by_upper[kind]
    needed = v.items_needed
    if needed is None:
        assert lower <= v.upper
        return
    again = certify_summary([lower], upper, needed, labels_per_item=k, upper_kind=kind).models[0]
    before = certify_summary([lower], upper, needed - 1, labels_per_item=k, upper_kind=kind).models[
        0
    ]
    assert again.superhuman and not before.superhuman
    assert (needed <= n) == v.superhuman


@settings(max_examples=50, deadline=None)
@given(
    upper=st.floats(0.3, 0.97),
    gap=st.floats(0.002, 0.15),
    n=st.integers(10, 20_000),
    level=st.sampled_from([0.99, 0.95, 0.8]),
    tau=st.sampled_from([0.0, 0.0, 0.005]),
    bound=st.sampled_from(["hoeffding", "bernstein", "exact"]),
    rate_shift=st.floats(-0.01, 0.01),
)
def test_items_needed_on_a_grid(
    upper: float, gap: float, n: int, level: float, tau: float, bound: str, rate_shift: float
) -> None:
    lower = min(upper + gap, 1.0)
    b = BOUNDS[bound]
    rate = min(max(lower + rate_shift, 0.0), 1.0)
    su = Sample(n, upper**2, 0.04)
    sl = Sample(n, lower, lower * (1 - lower), round(rate * n))
    needed = items_needed(lower, upper, b, su, sl, level=level, tau=tau)

    def ok(m: int) -> bool:
        c = confidence_at(m, lower, upper, b, su, sl, tau=tau)
        return c.oms is not None and c.oms >= level

    if needed is None:
        q = sl.successes / n
        assert lower - tau <= upper or (bound == "exact" and q - tau <= upper)
        return
    assert needed >= 1 and ok(needed) and not ok(needed - 1)
    # and at every larger N we look at
    for m in (needed + 1, needed + 7, 2 * needed, 10 * needed):
        assert ok(m)


def test_s_oms_is_monotone_in_n_for_every_bound() -> None:
    """Proved for Hoeffding and Bernstein (see humanly.certification.needed); checked for all three."""
    rng = np.random.default_rng(0)
    ns = np.unique(np.r_[np.arange(2, 100), np.geomspace(100, 200_000, 150).astype(int)])
    for _ in range(25):
        upper = rng.uniform(0.4, 0.95)
        lower = min(upper + rng.uniform(0.005, 0.1), 0.999)
        rate = min(max(lower + rng.uniform(-0.02, 0.02), 0.01), 1.0)
        su = Sample(100, upper**2, rng.uniform(0.001, 0.1))
        sl = Sample(100, lower, lower * (1 - lower), rate * 100)
        for bound in ("hoeffding", "bernstein", "exact"):
            s = [_max_score(int(m), lower, upper, BOUNDS[bound], su, sl, 0.0) for m in ns]
            assert np.all(np.diff(s) >= -1e-9), (bound, upper, lower, rate)


def test_sample_at_keeps_mean_variance_and_rate() -> None:
    s = Sample(200, 0.85, 0.1, 171)
    assert sample_at(s, 200) is s
    t = sample_at(s, 1000)
    assert (t.n, t.mean, t.variance, t.successes) == (1000, 0.85, 0.1, 855.0)
    # at its own N the exact tail of the scaled sample is the binomial tail
    tail = BOUNDS["exact"].lower(sample_at(Sample(100, 0.9, None, 90), 100))
    assert tail.delta(0.1) == pytest.approx(
        BOUNDS["exact"].lower(Sample(100, 0.9, None, 90)).delta(0.1)
    )


def test_data_mode_items_needed_for_every_bound() -> None:
    d = simulate.oracle(600, [0.8, 0.75, 0.7, 0.85], n_classes=3, models={"m": 0.9}, seed=11)
    res = certify(d.ratings, d.predictions, level=0.95)
    m = res.models[0]
    su = res.upper_bound.sample()
    sl = m.sample()
    assert res.upper_bound.n == m.n == 600
    for name, summary in m.by_bound.items():
        needed = summary.items_needed
        b = BOUNDS[name]
        c_at = confidence_at(needed, m.lower, res.upper_bound.upper, b, su, sl)
        c_before = confidence_at(needed - 1, m.lower, res.upper_bound.upper, b, su, sl)
        assert c_at.oms >= 0.95 > c_before.oms
        # at the data's own N the recomputed confidence is the certificate's
        own = confidence_at(600, m.lower, res.upper_bound.upper, b, su, sl)
        assert own.oms == summary.confidence.oms
        assert (needed <= 600) == summary.superhuman


def test_evidence_statuses() -> None:
    res = certify_summary(
        [0.919, 0.89, 0.85, 0.885], 0.879, [10000, 10000, 10000, 100],
        models=["cert", "notcert", "none", "small"], n_upper=10000,
    )  # fmt: skip
    ev = {m.model: m.evidence for m in res.models}
    assert ev["cert"].status == "certified" and ev["cert"].reason == "confidence_reached"
    assert ev["cert"].items_needed <= 10000
    assert ev["notcert"].status == "not_certified" and ev["notcert"].reason == "margin_small_for_n"
    assert ev["notcert"].items_needed > 10000
    assert ev["none"].status == "not_applicable" and ev["none"].reason == "no_margin"
    assert ev["none"].items_needed is None and ev["none"].confidence is None
    assert ev["small"].status == "no_evidence"
    assert ev["small"].reason == "deviations_exceed_margin" and ev["small"].items_needed > 100
    assert ev["small"].confidence < 0 < ev["small"].margin
    for e in ev.values():
        assert e.status in STATUSES and e.reason in REASONS and e.level == 0.95
    row = res.to_frame().set_index("model")
    assert row.loc["small", "evidence"] == "no_evidence"
    assert row.loc["cert", "items_needed"] == ev["cert"].items_needed


def test_negative_s_beside_a_positive_margin_is_no_evidence() -> None:
    """The demo's "S −0.1495, not certified" beside L_N − U_N = +0.0118 (wiki attack sample)."""
    from humanly.datasets import wiki_attack

    r, p = wiki_attack()
    m = certify(r, p).models[0]
    assert round(m.margin, 4) == 0.0118 and round(m.confidence.oms, 4) == -0.1495
    d = m.to_dict()["evidence"]
    assert d == {
        "status": "no_evidence",
        "reason": "deviations_exceed_margin",
        "confidence": m.confidence.oms,
        "level": 0.95,
        "margin": m.margin,
        "n": 2000,
        "items_needed": m.items_needed,
    }
    assert m.items_needed > 2000
    assert math.isclose(m.to_dict()["confidence"]["oms"], m.confidence.oms)  # the raw S stays


def test_exact_bound_with_a_low_success_rate_needs_no_n() -> None:
    b = BOUNDS["exact"]
    sl = Sample(200, 0.9, 0.09, 170)  # tie-broken rate 0.85 ≤ U_N
    assert items_needed(0.9, 0.86, b, Sample(200, 0.86**2, 0.05), sl, level=0.95) is None


@settings(max_examples=40, deadline=None)
@given(
    counts=st.lists(
        st.lists(st.integers(0, 5), min_size=3, max_size=3).filter(lambda r: sum(r) >= 2),
        min_size=3,
        max_size=30,
    ),
    preds=st.lists(st.integers(0, 2), min_size=30, max_size=30),
    tau=st.sampled_from([0.0, 0.01]),
)
@example(counts=[[0, 1, 1]] * 3, preds=[0] * 30, tau=0.0)  # no two labels of an item agree
def test_new_fields_are_valid_on_random_counts(counts, preds, tau) -> None:
    from humanly import Predictions, Ratings

    r = Ratings.from_counts(np.array(counts), classes=[0, 1, 2])
    p = Predictions.from_arrays(r.items, {"m": preds[: r.n_items]}, classes=[0, 1, 2])
    for aggregate in ("plurality", "soft"):
        res = certify(r, p, aggregate=aggregate, tau=tau)
        m = res.models[0]
        lemma = res.upper_bound.lemma2
        assert 0 <= lemma.agreement <= 1 and 0 <= lemma.share_more_raters <= 1
        # U⁽ᵗ⁾ ≥ U⁽ᵉ⁾; the ratio is undefined when no two labels of an item agree (U⁽ᵉ⁾ = 0)
        assert lemma.ratio >= 1 - 1e-12 if lemma.agreement > 0 else lemma.ratio is None
        for v in (*m.by_bound.values(), *m.by_upper.values()):
            e = v.evidence
            assert e.status in STATUSES and e.reason in REASONS
            assert v.items_needed is None or v.items_needed >= 1
            assert (e.status == "certified") == v.superhuman
            if v.confidence.oms is not None:
                assert -1 <= v.confidence.oms <= 1
        emp, theo = m.by_upper["empirical"], m.by_upper["theoretical"]
        if theo.confidence.oms is not None:  # U⁽ᵗ⁾ ≥ U⁽ᵉ⁾: never a higher confidence (Hoeffding)
            assert emp.confidence.oms >= theo.confidence.oms - 1e-9
        if theo.items_needed is not None:
            assert emp.items_needed is not None and emp.items_needed <= theo.items_needed
