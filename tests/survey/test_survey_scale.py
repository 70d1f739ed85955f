"""The composition path of the exact survey engine (humanly.survey._scale) and the fit before starting
(humanly.survey._fit), issue 25 part 1:

* on random small count matrices (ragged, 2–4 classes, r = 1 and 2, the ABC and the fixed combiners,
  agreement and cross-entropy, the data and bootstrap replicates) the composition path, the subvector
  path and a brute force over every k-subset of each item's labels (Algorithm 6 with Python integers)
  give the same curve (rtol 1e-9);
* a replicate's numbers do not depend on its batch, on the threads or on how an item's pairs are cut;
* ChaosNLI-like data (many labels per item) runs over every k within a time budget;
* the fit: a refusal names a max_k that then runs; a combiner that does not learn falls back to
  sampling with its error stated; progress is reported per level.
"""

from __future__ import annotations

import contextlib
import itertools
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from survey_brute import abc as brute_abc

from humanly import InputError, Ratings
from humanly._core.counts import unique_rows
from humanly.simulate import running_example, urn
from humanly.survey import EquivalenceOptions, _fit, _levels, _scale, equivalence
from humanly.survey import _engine as eng
from humanly.survey.combiners import ABC, get_combiner
from humanly.survey.scorers import get_scorer
from humanly.verdicts.notes import notes_text

CLIP = (0.02, 0.98)
QUIET = EquivalenceOptions(progress=False)


def _opts(**kw: object) -> EquivalenceOptions:
    return EquivalenceOptions(**{"progress": False, **kw})  # type: ignore[arg-type]


# ------------------------------------------------------------------ brute force
def brute_curve(
    items: list[list[int]], n_cls: int, comb: str, sc: str, r: int, floor: float = 1e-3
) -> list[float]:
    """c_k: every k-subset of each item's labels, every r-subset of the rest as reference (its
    plurality, ties uniform), mean over subsets, then over items with at least k + r labels; the ABC
    as Algorithm 6 (tests/survey/survey_brute.py) over the other items of the list."""
    combiner, scorer = get_combiner(comb), get_scorer(sc)
    assert scorer.terms is not None
    out = []
    for k in range(max(len(x) for x in items) - r + 1):
        per_item = []
        for i, labels in enumerate(items):
            if len(labels) < k + r:
                continue
            vals = []
            for s in itertools.combinations(range(len(labels)), k):
                y = [sum(labels[j] == c for j in s) for c in range(n_cls)]
                if comb == "abc":
                    t = scorer.terms(brute_abc(y, items, i, floor)[None])[0]
                else:
                    p = combiner.predict(np.array([y]))
                    t = eng.output_terms(scorer, p, combiner.hard, CLIP)[0]
                rest = [j for j in range(len(labels)) if j not in s]
                for ref in itertools.combinations(rest, r):
                    z = np.bincount([labels[j] for j in ref], minlength=n_cls)
                    top = z == z.max()
                    vals.append(float((t * top).sum() / top.sum()))
            per_item.append(np.mean(vals))
        if not per_item:
            break
        out.append(float(np.mean(per_item)))
    return out


def _items(counts: np.ndarray) -> list[list[int]]:
    return [[c for c in range(len(row)) for _ in range(int(row[c]))] for row in counts]


def _curves(counts: np.ndarray, comb: str, sc: str, r: int, mults: np.ndarray, floor: float):
    """(subvector, composition) curves (B, L) of the replicates ``mults`` over the distinct vectors."""
    max_k = int(counts.sum(1).max()) - r
    is_abc = comb == "abc"
    old = eng.make_plan(counts, max_k, r, abc=is_abc, abc_floor=floor)
    new = _scale.make_scale_plan(counts, max_k, r, abc=is_abc, abc_floor=floor)
    assert old.ks.tolist() == new.ks.tolist()
    scorer = get_scorer(sc)
    c = None if is_abc else get_combiner(comb)
    fo = None if is_abc else eng.fixed_terms(old, c, scorer, CLIP)
    fn = None if is_abc else _scale.fixed_terms(new, c, scorer, CLIP)
    a, na = eng.curves(old, mults, fo, scorer, CLIP)
    b, nb = _scale.curves(new, mults, fn, scorer, CLIP)
    np.testing.assert_array_equal(na, nb)
    return a, b


@st.composite
def count_matrices(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    n_cls = draw(st.integers(2, 4))
    r = draw(st.integers(1, 2))
    n = draw(st.integers(2, 6))
    rows = [
        draw(
            st.lists(st.integers(0, 3), min_size=n_cls, max_size=n_cls).filter(
                lambda x: sum(x) <= 7
            )
        )
        for _ in range(n)
    ]
    counts = np.array(rows, dtype=np.int64)
    if (counts.sum(1) < r + 1).all():
        counts[0, 0] += r + 1
    return counts, r


COMBOS = [("abc", "cross_entropy"), ("abc", "agreement"), ("frequency", "cross_entropy"),
          ("plurality", "agreement"), ("plurality", "cross_entropy")]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(count_matrices(), st.sampled_from(COMBOS), st.sampled_from([1e-3, 0.0]), st.integers(0, 99))
def test_composition_equals_subvector_and_brute_force(
    data: tuple[np.ndarray, int], combo: tuple[str, str], floor: float, seed: int
) -> None:
    counts, r = data
    comb, sc = combo
    g = np.random.default_rng(seed)
    n = len(counts)
    draws = [np.arange(n)] + [g.integers(0, n, n) for _ in range(2)]  # the data, two replicates
    v, inv, _ = unique_rows(counts)
    mults = np.array([np.bincount(inv[d], minlength=len(v)) for d in draws], dtype=float)
    old, new = _curves(counts, comb, sc, r, mults, floor)
    np.testing.assert_array_equal(np.isfinite(old), np.isfinite(new))
    ok = np.isfinite(old)
    np.testing.assert_allclose(new[ok], old[ok], rtol=1e-9, atol=1e-12)
    for row, d in zip(new, draws, strict=True):
        want = brute_curve(_items(counts[d]), counts.shape[1], comb, sc, r, floor)
        got = row[: len(want)]
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
        assert not np.isfinite(row[len(want) :]).any()


def test_brute_force_with_a_dominant_item_and_empty_columns() -> None:
    # one item holds most of a rare label sequence (the no-cancellation case), items with exactly
    # k labels (ragged columns), a class no other item has (floored predictions)
    counts = np.array([[9, 0, 1], [1, 1, 0], [0, 2, 2], [5, 0, 0], [3, 3, 0], [0, 0, 4]])
    mults = np.array([[1, 1, 1, 1, 1, 1], [2, 0, 1, 3, 0, 1], [1, 2, 0, 0, 1, 1]], dtype=float)
    v, inv, _ = unique_rows(counts)
    per_vec = np.array([np.bincount(inv, weights=m, minlength=len(v)) for m in mults])
    for comb, sc in COMBOS:
        for r in (1, 2):
            old, new = _curves(counts, comb, sc, r, per_vec, 1e-3)
            ok = np.isfinite(old)
            np.testing.assert_allclose(new[ok], old[ok], rtol=1e-9, atol=1e-12)
            for row, m in zip(new, mults, strict=True):
                items = _items(np.repeat(counts, m.astype(int), axis=0))
                want = brute_curve(items, 3, comb, sc, r)
                np.testing.assert_allclose(row[: len(want)], want, rtol=1e-9, atol=1e-12)


# ------------------------------------------------------------------ batches and threads
def _chaos_counts(n: int, k: int, seed: int = 0) -> np.ndarray:
    d = urn(n, k, dirichlet=[[8, 3, 1], [3, 8, 2], [1, 3, 8]], weights=[0.4, 0.3, 0.3], seed=seed)
    return d.ratings.counts


def test_a_replicate_does_not_depend_on_its_batch_threads_or_cuts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counts = _chaos_counts(80, 12)
    plan = _scale.make_scale_plan(counts, 11, 1, abc=True)
    g = np.random.default_rng(1)
    n = len(plan.inv)
    mults = np.array(
        [np.bincount(plan.inv[g.integers(0, n, n)], minlength=len(plan.v)) for _ in range(9)],
        dtype=float,
    )
    for sc in ("cross_entropy", "agreement"):
        scorer = get_scorer(sc)
        batch, _ = _scale.abc_curves(plan, mults, scorer)
        one = np.vstack([_scale.abc_curves(plan, m[None], scorer)[0] for m in mults])
        np.testing.assert_array_equal(batch, one)
        with monkeypatch.context() as mp:
            mp.setattr(_scale, "_threads", lambda plan, n_rep: 3)
            mp.setattr(_scale, "BLOCK_CELLS", 1 << 9)  # blocks of a few owners
            mp.setattr(_scale, "SPLIT", 16)  # every owner's pairs cut in pieces
            threaded, _ = _scale.abc_curves(plan, mults, scorer)
            cut_one = _scale.abc_curves(plan, mults[4:5], scorer)[0]
        np.testing.assert_allclose(threaded, batch, rtol=1e-13)  # other cuts: other roundings
        np.testing.assert_array_equal(threaded[4:5], cut_one)


@pytest.mark.parametrize("comb", ["abc", "frequency"])
def test_both_paths_give_the_same_equivalence(monkeypatch: pytest.MonkeyPatch, comb: str) -> None:
    d = running_example(300, 8, seed=2)
    res = {}
    for path in ("subvector", "composition"):
        monkeypatch.setattr(_fit, "PATH", path)
        res[path] = equivalence(
            d.ratings, d.predictions, combiner=comb, bootstrap=100, seed=3, options=QUIET
        )
    a, b = res["subvector"], res["composition"]
    assert isinstance(b.curve_samples, np.ndarray) and a.method == b.method == "exact"
    np.testing.assert_allclose(b.scores, a.scores, rtol=1e-9)
    np.testing.assert_allclose(b.curve_samples, a.curve_samples, rtol=1e-9)
    for ma, mb in zip(a.models, b.models, strict=True):
        assert mb.equivalence_note == ma.equivalence_note
        ends = zip(ma.equivalence_interval, mb.equivalence_interval, strict=True)
        pairs = [(ma.equivalence, mb.equivalence), *ends]
        for x, y in pairs:
            assert (x is None and y is None) or y == pytest.approx(x, rel=1e-9)
    assert comb != "abc" or any(m.equivalence is not None for m in a.models)


# ------------------------------------------------------------------ many labels per item
def test_many_labels_per_item_run_over_every_k_within_budget() -> None:
    # ChaosNLI-like at test size: 300 items × 60 labels × 3 classes, every k, 100 bootstraps (the
    # subvector path: 330 MB and 14 s here; the composition path: 17 MB and 2 s)
    counts = _chaos_counts(300, 60)
    v, _, _ = unique_rows(counts)
    assert _fit.choose(v, 59, 1, True, 101).path == "composition"
    ratings = Ratings.from_counts(counts)
    tracemalloc.start()
    t = time.perf_counter()
    try:
        res = equivalence(ratings, bootstrap=100, options=QUIET)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    took = time.perf_counter() - t
    assert [p.k for p in res.power_curve] == list(range(60))
    assert np.isfinite(res.scores).all() and res.curve_samples.shape == (100, 60)
    assert peak < 200 << 20  # measured: see the comment above
    assert took < 30  # measured: 2.2 s on the shared 2-core machine at load 8 (tracemalloc off)


def test_the_chosen_path_follows_the_data() -> None:
    small = running_example(1000, 10, seed=0).ratings.counts
    v, _, _ = unique_rows(small)
    assert _fit.choose(v, 9, 1, True, 501).path == "subvector"  # unchanged numbers and speed
    big = _chaos_counts(1500, 100)
    v, _, _ = unique_rows(big)
    choice = _fit.choose(v, 99, 1, True, 201)
    assert choice.path == "composition"
    assert choice.bytes < 1 << 30


# ------------------------------------------------------------------ fit before starting
def test_a_refusal_names_a_max_k_that_then_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    ratings = Ratings.from_counts(_chaos_counts(120, 40))
    monkeypatch.setattr(_levels, "EXACT_MEMORY_BUDGET", 2 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as err:
            equivalence(ratings, bootstrap=100, options=QUIET)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(err.value)
    assert "\n" not in msg and "(budget 2 MiB); pass max_k=" in msg
    assert peak < 30 << 20  # it stopped before building anything
    fits = int(msg.split("pass max_k=")[1].rstrip("."))
    assert 0 < fits < 39
    res = equivalence(ratings, bootstrap=100, options=_opts(max_k=fits))
    assert [p.k for p in res.power_curve] == list(range(fits + 1))
    with pytest.raises(InputError, match="pass max_k="):
        equivalence(ratings, bootstrap=100, options=_opts(max_k=fits + 1))


def test_a_refusal_on_time_names_a_max_k_that_then_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    ratings = Ratings.from_counts(_chaos_counts(120, 40))
    monkeypatch.setattr(_fit, "EXACT_TIME_BUDGET", 0.05)
    with pytest.raises(InputError, match="of work") as err:
        equivalence(ratings, bootstrap=100, options=QUIET)
    fits = int(str(err.value).split("pass max_k=")[1].rstrip("."))
    res = equivalence(ratings, bootstrap=100, options=_opts(max_k=fits))
    assert len(res.power_curve) == fits + 1


def test_a_fixed_combiner_falls_back_to_sampling_with_its_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ratings = Ratings.from_counts(_chaos_counts(60, 30))
    with monkeypatch.context() as mp:
        mp.setattr(_levels, "EXACT_MEMORY_BUDGET", 1 << 16)
        res = equivalence(ratings, combiner="frequency", bootstrap=0, options=_opts(draws=100))
    assert res.method == "sampled"
    note = next(n for n in notes_text(res.notes) if "Monte Carlo" in n)
    bound = float(note.split("at most ")[1].split(" ")[0])
    assert 0 < bound < 0.1
    exact = equivalence(ratings, combiner="frequency", bootstrap=0, options=_opts(max_k=3))
    assert exact.method == "exact"
    # the sampled curve is within a few standard errors of the exact one where both exist
    assert np.abs(res.scores[:4] - exact.scores).max() < 6 * bound


def test_progress_is_reported_per_level(monkeypatch: pytest.MonkeyPatch) -> None:
    # the curve's progress is one task weighted by each level's estimated cost (issue 34): its total
    # is the cost of the levels planned, and what is advanced adds up to it
    from humanly._core import progress as pg
    from humanly.survey import _adaptive

    seen: list[tuple[str, bool, float, float]] = []
    real = pg.task

    @contextlib.contextmanager
    def spy(description, total=None, *, enabled=True, **kw):  # type: ignore[no-untyped-def]
        with real(description, total, enabled=False, **kw) as t:
            yield t
            seen.append((description, enabled, float(t.total or 0.0), t.done))

    monkeypatch.setattr(_adaptive, "task", spy)
    monkeypatch.setattr(_fit, "PATH", "composition")
    ratings = Ratings.from_counts(_chaos_counts(50, 12))
    for show in (True, False):
        seen.clear()
        equivalence(ratings, bootstrap=100, options=_opts(progress=show, every_k=True))
        ((what, enabled, total, done),) = seen
        assert (what, enabled) == ("survey curve", show)
        assert total > 0 and done == pytest.approx(total, rel=1e-12)


def test_the_abc_floor_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = _chaos_counts(40, 9)
    plan = _scale.make_scale_plan(counts, 8, 1, abc=True, abc_floor=0.05)
    old = eng.make_plan(counts, 8, 1, abc=True, abc_floor=0.05)
    m = plan.mult.astype(float)[None]
    for sc in ("cross_entropy", "agreement"):
        a, _ = eng.curves(old, m, None, get_scorer(sc), CLIP)
        b, _ = _scale.abc_curves(plan, m, get_scorer(sc))
        np.testing.assert_allclose(b, a, rtol=1e-9)
    assert ABC(floor=0.05).floor == plan.abc_floor


# ------------------------------------------------------------------ many classes, 1,000 labels
@pytest.mark.parametrize("dense", [True, False])
def test_many_classes_equal_brute_force(monkeypatch: pytest.MonkeyPatch, dense: bool) -> None:
    # 30 classes: columns are the distinct sub-count vectors (not ranks among 278,256 compositions);
    # without the dense (vector, column) table pairs are found by binary search
    from humanly.survey import _compositions

    if not dense:
        monkeypatch.setattr(_compositions, "_DENSE_MAX", 0)
    g = np.random.default_rng(7)
    items = []
    for _ in range(7):
        fav = g.integers(0, 30, size=2)
        items.append([int(fav[0] if u < 0.5 else fav[1] if u < 0.8 else g.integers(30))
                      for u in g.random(int(g.integers(2, 6)))])  # fmt: skip
    counts = np.array([np.bincount(x, minlength=30) for x in items])
    v, inv, _ = unique_rows(counts)
    assert not _compositions.level_pairs(v, v.sum(1), 3).ranked
    mults = np.bincount(inv, minlength=len(v)).astype(float)[None]
    for comb, sc in COMBOS:
        for r in (1, 2):
            old, new = _curves(counts, comb, sc, r, mults, 1e-3)
            ok = np.isfinite(old)
            np.testing.assert_allclose(new[ok], old[ok], rtol=1e-9, atol=1e-12)
            want = brute_curve(items, 30, comb, sc, r)
            np.testing.assert_allclose(new[0, : len(want)], want, rtol=1e-9, atol=1e-12)


def _reference_ce(counts: list[list[int]], k: int, floor: float = 1e-3) -> float:
    """c_k of the ABC scored by cross-entropy for two classes, r = 1, with 40-digit arithmetic
    (mpmath) from exact binomials: every held-out item, every k-sub-count of its labels."""
    import math

    import mpmath as mp

    mp.mp.dps = 40

    def hyp(v: list[int], y: list[int]) -> mp.mpf:
        if any(a > b for a, b in zip(y, v, strict=True)):
            return mp.mpf(0)
        num = math.prod(math.comb(a, b) for a, b in zip(v, y, strict=True))
        return mp.mpf(num) / math.comb(sum(v), sum(y))

    total, n_items = mp.mpf(0), 0
    for d, v in enumerate(counts):
        if sum(v) < k + 1:
            continue
        n_items += 1
        for y0 in range(max(0, k - v[1]), min(k, v[0]) + 1):
            y = [y0, k - y0]
            num = []
            for lab in range(2):
                z = [y[0] + (lab == 0), y[1] + (lab == 1)]
                others = (hyp(u, z) for i, u in enumerate(counts) if i != d and sum(u) > k)
                num.append((y[lab] + 1) * mp.fsum(others))
            den = mp.fsum(num)
            if den > 0:  # the floor, then renormalised (Algorithm 6 with the engine's floor)
                p = [max(x, floor * den) for x in num]
            else:  # no other item: (y + 1) / (k + C), clipped to the floor
                p = [max(mp.mpf(c + 1) / (k + 2), mp.mpf(floor)) for c in y]
            p = [q / mp.fsum(p) for q in p]
            for c in range(2):
                q = mp.mpf(v[c] - y[c]) / (sum(v) - k)
                total += hyp(v, y) * q * mp.log(max(p[c], mp.mpf(1e-12)), 2)
    return float(total / n_items)


def test_a_thousand_labels_per_item_against_a_40_digit_reference() -> None:
    # shares within a column span more than the float range: flagged columns summed in log space
    counts = [[600, 400], [7, 3], [2, 8], [5, 5], [990, 10], [1, 999], [520, 480]]
    c = np.array(counts)
    plan = _scale.make_scale_plan(c, 400, 1, abc=True)
    got, _ = _scale.abc_curves(plan, plan.mult.astype(float)[None], get_scorer("cross_entropy"))
    for k in (0, 1, 10, 364, 400):
        # measured: 1e-12 at most (the subvector path: 9e-13); log-factorials near ln(1000!) ≈ 5,912
        # are rounded to ~1e-12, which the cross-entropy route's ratios of consecutive sizes keep
        assert got[0, k] == pytest.approx(_reference_ce(counts, k), rel=0, abs=2e-11)
    from humanly.survey._compositions import level_pairs

    v, _, _ = unique_rows(c)
    assert any(level_pairs(v, v.sum(1), j).tiny for j in (364, 400))  # the log-space route ran


def test_chunks_of_replicates_equal_the_one_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    # in-process the composition path runs the data and every replicate in one sweep; on dask the
    # replicates go in chunks (_boot_chunk): the numbers must be the same
    from humanly.survey import _replicates
    from humanly.survey._prepare import check_options, prepare

    monkeypatch.setattr(_fit, "PATH", "composition")
    ratings = Ratings.from_counts(_chaos_counts(60, 14))
    opts = check_options(
        combiner="abc", scorer="cross_entropy", calibrate="none", seed=5, options=QUIET
    )
    e = prepare(ratings, None, opts).engine
    swept = _replicates.run(e, 7, 5)
    assert isinstance(e.plan, _scale.ScalePlan) and swept.curves is not None
    parts = [_replicates._boot_chunk(e, b0, min(7, b0 + 3), 5) for b0 in range(0, 7, 3)]
    np.testing.assert_array_equal(np.vstack([p[0] for p in parts]), swept.curves)
    point, _ = _replicates._curve(e, None, np.random.default_rng(0))
    np.testing.assert_array_equal(point, swept.curve)
