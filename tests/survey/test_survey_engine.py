"""The exact engine (humanly.survey._levels / _engine): memory that follows what the items contain.

* the same numbers as the wave-1 dense engine (tests/survey/survey_dense_engine.py) on a grid of
  small data sets (ragged, r = 1 and 2, every combiner × decomposable scorer, bootstrap replicates);
* the same numbers as a brute force over every k-subset of each item's labels (and every reference
  subset), with the ABC as written in Algorithms 5–6, on items over many classes;
* a replicate's numbers do not depend on the batch it is computed in;
* 200 classes × 5 labels and 2,000 items × 60 classes run under a 3 GB address-space limit;
* a plan over the memory budget stops before allocating, with one sentence saying what to change.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest
from survey_brute import abc
from survey_dense_engine import curve_from_terms as dense_curve
from survey_dense_engine import curve_terms as dense_terms
from survey_dense_engine import make_plan as dense_plan

from humanly import InputError, Ratings
from humanly.survey import EquivalenceOptions, equivalence
from humanly.survey import _engine as eng
from humanly.survey.combiners import get_combiner
from humanly.survey.scorers import get_scorer

CLIP = (0.02, 0.98)
COMBOS = [
    (c, s)
    for c in ("abc", "frequency", "plurality", "majority")
    for s in ("cross_entropy", "agreement")
]


def _counts(g: np.random.Generator, n: int, n_cls: int, lo: int, hi: int) -> np.ndarray:
    theta = g.dirichlet(np.ones(n_cls) * 0.7, size=n)
    labels = g.integers(lo, hi + 1, size=n)
    return np.array([g.multinomial(m, t) for m, t in zip(labels, theta, strict=True)])


@pytest.mark.parametrize("seed", range(12))
def test_same_numbers_as_the_dense_engine(seed: int) -> None:
    g = np.random.default_rng(seed)
    n_cls, r = int(g.integers(2, 5)), 1 + seed % 2
    counts = _counts(g, int(g.integers(4, 25)), n_cls, 1, int(g.integers(3, 9)))
    if (counts.sum(1) < r + 1).all():
        counts[0, 0] += r + 1
    max_k = int(counts.sum(1).max()) - r
    worst = 0.0
    for comb, sc in COMBOS:
        if comb == "majority" and n_cls != 2:
            continue
        c, scorer = get_combiner(comb), get_scorer(sc)
        old = dense_plan(counts, max_k, r, abc=comb == "abc")
        new = eng.make_plan(counts, max_k, r, abc=comb == "abc")
        assert new.ks.tolist() == old.ks.tolist()
        np.testing.assert_array_equal(new.v, old.v)
        np.testing.assert_allclose(new.qref, old.qref, rtol=0, atol=1e-15)
        n = len(old.inv)
        mults = [old.mult.astype(float)] + [
            np.bincount(old.inv[g.integers(0, n, n)], minlength=len(old.v)).astype(float)
            for _ in range(3)
        ]
        fixed = None if comb == "abc" else eng.fixed_terms(new, c, scorer, CLIP)
        got, got_n = eng.curves(new, np.array(mults), fixed, scorer, CLIP)
        for i, m in enumerate(mults):
            want, want_n = dense_curve(old, dense_terms(old, c, scorer, CLIP, m), m)
            np.testing.assert_array_equal(got_n[i], want_n)
            np.testing.assert_array_equal(np.isfinite(got[i]), np.isfinite(want))
            ok = np.isfinite(want)
            np.testing.assert_allclose(got[i][ok], want[ok], rtol=0, atol=1e-12)
            worst = max(worst, float(np.max(np.abs(got[i][ok] - want[ok]), initial=0.0)))
    assert worst < 1e-12  # measured: at most 3e-15 over 300 random data sets


# ------------------------------------------------------------------ brute force over label subsets
def _brute_curve(items: list[list[int]], n_cls: int, comb: str, sc: str, r: int) -> list[float]:
    """c_k: every k-subset of each item's labels, every r-subset of the rest as reference (its
    plurality, ties uniform), mean over subsets, then over items with at least k + r labels."""
    combiner, scorer = get_combiner(comb), get_scorer(sc)
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
                    t = scorer.terms(abc(y, items, i)[None])[0]
                else:
                    t = eng.output_terms(
                        scorer, combiner.predict(np.array([y])), combiner.hard, CLIP
                    )[0]
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


@pytest.mark.parametrize("seed", range(4))
def test_same_numbers_as_brute_force_over_label_subsets_with_many_classes(seed: int) -> None:
    g = np.random.default_rng(100 + seed)
    n_cls = 30
    items = []
    for _ in range(7):
        fav = g.integers(0, n_cls, size=2)  # labels cluster on a few classes per item
        n_lab = int(g.integers(2, 6))
        items.append([int(fav[0] if u < 0.5 else fav[1] if u < 0.8 else g.integers(n_cls))
                      for u in g.random(n_lab)])  # fmt: skip
    counts = np.array([np.bincount(x, minlength=n_cls) for x in items])
    ratings = Ratings.from_counts(counts)
    for (comb, sc), r in itertools.product(COMBOS[:6], (1, 2)):
        res = equivalence(
            ratings,
            combiner=comb,
            scorer=sc,
            bootstrap=0,
            options=EquivalenceOptions(reference_size=r, max_k=5),
        )
        want = _brute_curve(items, n_cls, comb, sc, r)
        np.testing.assert_allclose(res.scores, want, rtol=1e-10, atol=1e-12, err_msg=comb + sc)


def test_a_replicate_does_not_depend_on_its_batch() -> None:
    g = np.random.default_rng(3)
    counts = _counts(g, 60, 4, 2, 8)
    plan = eng.make_plan(counts, 6, 1, abc=True)
    n = len(plan.inv)
    mults = np.array(
        [np.bincount(plan.inv[g.integers(0, n, n)], minlength=len(plan.v)) for _ in range(7)],
        dtype=float,
    )
    for sc in ("cross_entropy", "agreement"):
        scorer = get_scorer(sc)
        batch, _ = eng.curves(plan, mults, None, scorer, CLIP)
        one = np.vstack([eng.curves(plan, m[None], None, scorer, CLIP)[0] for m in mults])
        np.testing.assert_array_equal(batch, one)


@pytest.mark.slow
def test_memory_follows_the_data_under_a_3_gb_address_space_limit() -> None:
    # the wave-1 engine needed 23.8 GB (200 classes) and a (1846, 60, 60, 60) int64 array (60)
    script = textwrap.dedent(
        """
        import resource, sys, time
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        import numpy as np
        from humanly import Predictions, Ratings
        from humanly.survey import equivalence
        for n, n_cls in ((200, 200), (2000, 60)):
            g = np.random.default_rng(0)
            fav = g.integers(0, n_cls, size=n)
            lab = np.where(g.random((n, 5)) < 0.6, fav[:, None], g.integers(0, n_cls, (n, 5)))
            counts = np.zeros((n, n_cls), dtype=np.int64)
            np.add.at(counts, (np.repeat(np.arange(n), 5), lab.ravel()), 1)
            r = Ratings.from_counts(counts)
            p = np.full((n, n_cls), 0.4 / (n_cls - 1))
            p[np.arange(n), fav] = 0.6
            preds = Predictions.from_arrays(r.items, {"m": p}, classes=r.classes)
            t = time.perf_counter()
            res = equivalence(r, preds, bootstrap=100)
            assert np.isfinite(res.scores).all() and np.isfinite(res.models[0].score)
            print(n, n_cls, round(time.perf_counter() - t, 2), flush=True)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert len(out.stdout.split("\n")) >= 2


def test_a_plan_over_budget_stops_before_allocating(monkeypatch: pytest.MonkeyPatch) -> None:
    g = np.random.default_rng(0)
    counts = np.array([g.multinomial(30, g.dirichlet(np.ones(30))) for _ in range(500)])
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as err:
            equivalence(Ratings.from_counts(counts), bootstrap=100)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(err.value)
    # (no method="sampled" for the ABC: sampling needs the same per-level tables)
    assert "GiB" in msg and "pass max_k=2" in msg
    assert "\n" not in msg
    assert peak < 50 << 20  # it stopped before building the levels
    # the suggested max_k fits (a smaller budget, to keep the test fast)
    from humanly.survey import _levels

    monkeypatch.setattr(_levels, "EXACT_MEMORY_BUDGET", 16 << 20)
    small = Ratings.from_counts(counts[:60])
    with pytest.raises(InputError, match=r"pass max_k=(\d+)") as err:
        equivalence(small, bootstrap=0)
    fits = int(err.value.args[0].split("max_k=")[1].split(" ")[0].rstrip(";."))
    res = equivalence(small, bootstrap=100, options=EquivalenceOptions(max_k=fits))
    assert res.ks.tolist() == list(range(fits + 1))


@pytest.mark.slow
def test_expert_equivalence_stops_before_allocating_too() -> None:
    from humanly.survey import expert_equivalence

    g = np.random.default_rng(0)

    def group(n: int, k: int, n_cls: int) -> Ratings:
        return Ratings.from_counts(
            np.array([g.multinomial(k, g.dirichlet(np.ones(n_cls))) for _ in range(n)])
        )

    with pytest.raises(InputError, match=r"max_k_amateurs=\d+ or fewer classes") as err:
        expert_equivalence(group(2000, 5, 60), group(2000, 8, 60), bootstrap=0)
    assert "\n" not in str(err.value)


@pytest.mark.slow
def test_same_numbers_as_the_dense_engine_with_a_thousand_labels() -> None:
    # sequence probabilities spread over more than 600 nats at large k: the per-entry scaling path
    counts = np.array([[600, 400], [7, 3], [2, 8], [5, 5], [990, 10], [1, 999], [520, 480]])
    old = dense_plan(counts, 999, 1, abc=True)
    new = eng.make_plan(counts, 999, 1, abc=True)
    paths = {lvl.abc.e_scale is None for lvl in new.levels if lvl.abc is not None}
    assert paths == {True, False}
    sc = get_scorer("cross_entropy")
    m = old.mult.astype(float)
    want, _ = dense_curve(old, dense_terms(old, None, sc, CLIP, m), m)
    got, _ = eng.curves(new, m[None], None, sc, CLIP)
    np.testing.assert_allclose(got[0], want, rtol=0, atol=1e-12)  # measured: 2e-14
