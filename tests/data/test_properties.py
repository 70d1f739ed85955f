"""Invariants of the data model (hypothesis): counts equal brute force, permutations change nothing,
memory-light coded arrays agree with the dense matrix."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly.crowd.inspect import inspect

long_frames = st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 6), st.sampled_from(["a", "b", "c"])),
    min_size=2,
    max_size=80,
    unique_by=lambda t: (t[0], t[1]),
).filter(lambda rows: len({r[2] for r in rows}) >= 2)


def _frame(rows):
    return pd.DataFrame(
        {
            "item": [f"i{r[0]}" for r in rows],
            "rater": [f"w{r[1]}" for r in rows],
            "label": [r[2] for r in rows],
        }
    )


@settings(max_examples=100, deadline=None)
@given(long_frames)
def test_counts_equal_brute_force(rows):
    r = humanly.data.read_ratings(_frame(rows))
    brute = Counter((f"i{i}", lab) for i, _, lab in rows)
    for i, item in enumerate(r.items):
        for j, cls in enumerate(r.classes):
            assert r.counts[i, j] == brute.get((item, cls), 0)
    m = r.matrix()
    for i, w, lab in rows:
        assert r.classes[m[list(r.items).index(f"i{i}"), list(r.raters).index(f"w{w}")]] == lab
    assert (m >= 0).sum() == len(rows) == r.n_labels


def _comparable(summary):
    d = summary.to_dict()
    d.pop("source")
    return d


def _close(x, y) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return bool(np.isclose(x, y, equal_nan=True))


def _same_family(fa, fb) -> None:
    """The agreement family under renamed items and raters: every number the same up to summation
    order; the two-rater table may be transposed (the raters' canonical order follows their names),
    which flips the bias index's sign."""
    if fa is None or fb is None:
        assert fa is None and fb is None
        return
    for ca, cb in zip(fa.pop("coefficients"), fb.pop("coefficients"), strict=True):
        assert ca["name"] == cb["name"]
        for k in ("estimate", "agreement", "chance", "standard_error", "p_value"):
            assert _close(ca[k], cb[k]), (ca["name"], k)
        for k in ("interval", "bootstrap_interval"):
            assert all(_close(x, y) for x, y in zip(ca[k], cb[k], strict=True)), (ca["name"], k)
    pa, pb = fa.pop("pair"), fb.pop("pair")
    if pa is not None or pb is not None:
        for k in ("agreement", "kappa", "pabak", "prevalence_index"):
            assert _close(pa[k], pb[k]), k
        ba, bb = pa["bias_index"], pb["bias_index"]  # None when undefined (found by hypothesis)
        assert _close(None if ba is None else abs(ba), None if bb is None else abs(bb))
    xa, xb = fa.pop("paradox"), fb.pop("paradox")
    if xa is not None or xb is not None:
        assert xa["flagged"] == xb["flagged"] and _close(xa["kappa"], xb["kappa"])
    assert fa == fb


@settings(max_examples=60, deadline=None)
@given(long_frames, st.randoms(use_true_random=False))
def test_permutation_invariance(rows, rnd):
    base = inspect(humanly.data.read_ratings(_frame(rows)))
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    item_perm = list(range(13))
    rater_perm = list(range(7))
    rnd.shuffle(item_perm)
    rnd.shuffle(rater_perm)
    renamed = [(item_perm[i], rater_perm[w], lab) for i, w, lab in shuffled]
    other = inspect(humanly.data.read_ratings(_frame(renamed)))
    a, b = _comparable(base), _comparable(other)
    for key in ("agreement",):
        for k, v in a[key].items():
            assert (v is None and b[key][k] is None) or np.isclose(v, b[key][k])
        a.pop(key), b.pop(key)
    _same_family(a.pop("family"), b.pop("family"))
    # the rater table: the same rows under the new rater names (floats up to summation order).
    # Dawid–Skene is defined up to its convergence tolerance: sums in another order take EM along a
    # slightly different path, and on the flat likelihoods of tiny data (maxima on the boundary of θ)
    # the stopping point moves by up to tol / (1 − rate) and whether the step limit suffices can
    # differ; its invariance on a well-posed crowd is tested in test_raters.py. Renamed items also
    # get other draws of the seeded random start (drawn in sorted-id order), which on tiny data can
    # find another optimum, so accuracies are compared where every start of both fits ends at the same
    # point (accuracy_shift ≤ 1e-3; above 0.05 the fit notes that its starts disagree). Row order
    # alone changes nothing: tests/crowd/test_dawid_skene.py.
    ra, rb = a.pop("raters"), b.pop("raters")
    rows_b = {row["rater"]: row for row in rb.pop("rows")}
    shifts = [(r["dawid_skene"] or {}).get("accuracy_shift") or 0.0 for r in (ra, rb)]
    identified = max(shifts) <= 1e-3
    for row in ra.pop("rows"):
        other_row = rows_b.pop(f"w{rater_perm[int(row['rater'][1:])]}")
        ds_a, ds_b = row.pop("dawid_skene_accuracy"), other_row.pop("dawid_skene_accuracy")
        if ds_a is not None and ds_b is not None and identified:
            assert abs(ds_a - ds_b) < 1e-3
        for k, v in row.items():
            if k != "rater":
                assert (v is None and other_row[k] is None) or np.isclose(v, other_row[k])
    assert not rows_b
    ra.pop("dawid_skene"), rb.pop("dawid_skene")
    ds_a, ds_b = ra.pop("dawid_skene_spread"), rb.pop("dawid_skene_spread")
    if ds_a is not None and ds_b is not None and identified:
        assert all(abs(ds_a[k] - ds_b[k]) < 1e-3 for k in ("min", "q1", "median", "q3", "max"))
    for key in ("agreement_spread", "gold_spread"):  # order statistics over the same raters
        sa, sb = ra.pop(key), rb.pop(key)
        assert (sa is None and sb is None) or all(np.isclose(sa[k], sb[k]) for k in sa)
    ca, cb = ra.pop("crowd_agreement"), rb.pop("crowd_agreement")
    assert (ca is None and cb is None) or np.isclose(ca, cb)
    assert ra == rb == {}
    assert a == b


@settings(max_examples=60, deadline=None)
@given(long_frames)
def test_take_and_anonymous_keep_counts(rows):
    r = humanly.data.read_ratings(_frame(rows))
    idx = np.arange(r.n_items)[::-1]
    t = r.take(idx)
    np.testing.assert_array_equal(t.counts, r.counts[idx])
    assert list(t.items) == list(r.items[idx])
    np.testing.assert_array_equal(r.anonymous().counts, r.counts)
    off = r.item_offsets
    for i in range(r.n_items):
        labs = r.label_codes[off[i] : off[i + 1]]
        np.testing.assert_array_equal(np.bincount(labs, minlength=r.n_classes), r.counts[i])
