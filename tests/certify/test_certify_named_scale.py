"""Many named raters in bounded memory (issue 17.2): pairs that share items, never an R × R matrix."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import humanly.certification._agreement as agreement
import humanly.certification._assumptions as assumptions
import humanly.certification.curves as curves
import humanly.certification.upper as upper
from humanly import Predictions, Ratings
from humanly.certification import MATRIX_MAX_RATERS, CertifyOptions, certify
from humanly.certification._agreement import rater_pairs

LIMIT = 3 * 2**30  # address space, bytes

SCRIPT = textwrap.dedent(
    """
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    import numpy as np
    from humanly import Predictions, Ratings
    from humanly.certification import CertifyOptions, certify
    rng = np.random.default_rng(0)
    design = sys.argv[1]
    if design == "one_item":  # issue 17.2: 10,005 raters on one item, plus a small crowd elsewhere
        R = 10_005
        items = np.r_[np.zeros(R, int), np.repeat(np.arange(1, 200), 3)]
        raters = np.r_[np.arange(R), R + np.tile([0, 1, 2], 199)]
    else:  # 20,000 raters, 4 labels each, on 5,000 items
        R = 20_000
        raters = np.repeat(np.arange(R), 4)
        items = rng.integers(0, 5000, size=len(raters))
    labels = rng.integers(0, 2, size=len(items))
    r = Ratings.from_long(items, raters, labels, classes=[0, 1], duplicates="first")
    truth = rng.integers(0, 2, size=r.n_items)
    p = Predictions.from_arrays(r.items, {{"m": truth}}, classes=[0, 1])
    t = time.perf_counter()
    res = certify(r, p, truth, rater_mode="named", curve=True, options=CertifyOptions(curve_subsets=20))
    took = time.perf_counter() - t
    print(json.dumps({{"seconds": took, "empirical": res.upper_bound.empirical,
                      "matrix": res.upper_bound.agreement_matrix is None,
                      "k": res.raters.labels_per_item, "curve": len(res.curve),
                      "th1": res.oracle.assumptions[0].status}}))
    """
)


@pytest.mark.parametrize("design", ["one_item", "sparse"])
def test_many_raters_in_seconds_under_3_gb(design: str) -> None:
    code = SCRIPT.format(limit=LIMIT)
    out = subprocess.run(
        [sys.executable, "-c", code, design], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["seconds"] < 30, got  # seconds on a quiet machine; generous for a shared CI box
    assert got["matrix"] is True and got["k"] > MATRIX_MAX_RATERS
    assert 0 < got["empirical"] < 1 and got["curve"] >= 2
    assert got["th1"] in ("consistent", "evidence_against", "vacuous")


def _sparse_design(seed: int = 1) -> tuple[Ratings, Predictions]:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(300):
        for r in rng.choice(60, size=int(rng.integers(2, 7)), replace=False):
            rows.append((i, f"r{r}", int(rng.integers(0, 3))))
    for s in range(15):  # raters who give a single label
        rows.append((int(rng.integers(0, 300)), f"s{s}", int(rng.integers(0, 3))))
    it, ra, la = zip(*rows, strict=True)
    r = Ratings.from_long(list(it), list(ra), list(la), classes=[0, 1, 2])
    p = Predictions.from_arrays(
        r.items, {"m": rng.integers(0, 3, size=r.n_items)}, classes=[0, 1, 2]
    )
    return r, p


def test_sparse_path_gives_the_dense_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    r, p = _sparse_design()
    gold = np.random.default_rng(2).integers(0, 3, size=r.n_items)
    ref = certify(
        r, p, gold, rater_mode="named", curve=True, options=CertifyOptions(curve_subsets=20)
    )
    assert ref.upper_bound.agreement_matrix is not None
    for mod in (agreement, upper, curves):
        monkeypatch.setattr(mod, "MATRIX_MAX_RATERS", 5)
    monkeypatch.setattr(curves, "_DENSE_CURVE_CELLS", 0)
    monkeypatch.setattr(assumptions, "_DENSE_WORK", 0)
    new = certify(
        r, p, gold, rater_mode="named", curve=True, options=CertifyOptions(curve_subsets=20)
    )
    assert new.upper_bound.agreement_matrix is None
    assert new.upper_bound.empirical == pytest.approx(ref.upper_bound.empirical, rel=1e-13)
    assert new.upper_bound.theoretical == pytest.approx(ref.upper_bound.theoretical, rel=1e-13)
    l_ref, l_new = ref.upper_bound.lemma2, new.upper_bound.lemma2
    assert (l_new.pairs, l_new.pairs_below_chance) == (l_ref.pairs, l_ref.pairs_below_chance)
    assert [x.to_dict() for x in new.curve] == [x.to_dict() for x in ref.curve]
    a_ref, a_new = ref.oracle.assumptions[0], new.oracle.assumptions[0]
    for f in ("left", "right", "difference"):
        assert getattr(a_new, f) == pytest.approx(getattr(a_ref, f), abs=1e-12)
    assert a_new.interval == pytest.approx(a_ref.interval, abs=1e-12)
    assert a_new.n == a_ref.n and a_new.status == a_ref.status
    assert new.models[0].to_dict() == ref.models[0].to_dict()


def test_pair_counts_match_brute_force_including_single_raters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    r, _ = _sparse_design(3)
    mat = r.matrix()
    n_r = mat.shape[1]
    total, agree_sum, below = 0, 0.0, 0
    for i in range(n_r):
        for j in range(i + 1, n_r):
            both = (mat[:, i] >= 0) & (mat[:, j] >= 0)
            if both.any():
                a = float((mat[both, i] == mat[both, j]).mean())
                total += 1
                agree_sum += a
                below += a < 1 / 3
    for threshold in (MATRIX_MAX_RATERS, 5):  # the matrix path and the pair-list path
        monkeypatch.setattr(agreement, "MATRIX_MAX_RATERS", threshold)
        pairs = rater_pairs(r)
        assert pairs.n_pairs == total and pairs.below(1 / 3) == below
        assert pairs.mean_agreement() == pytest.approx(agree_sum / total, rel=1e-13)
    monkeypatch.setattr(agreement, "MATRIX_MAX_RATERS", MATRIX_MAX_RATERS)
    monkeypatch.setattr(agreement, "DENSE_CELLS", 1)  # the matrix from sparse products
    sparse_matrix = rater_pairs(r).matrix
    monkeypatch.setattr(agreement, "DENSE_CELLS", 2**22)
    np.testing.assert_array_equal(sparse_matrix, rater_pairs(r).matrix)


def test_duplicate_labels_count_once_as_in_the_matrix() -> None:
    r = Ratings.from_long(
        [0, 0, 0, 1, 1, 1], ["a", "a", "b", "a", "b", "b"], [0, 1, 1, 1, 1, 0], duplicates="keep"
    )
    pairs = rater_pairs(r)
    mat = r.matrix()
    assert pairs.matrix[0, 1] == pytest.approx(np.mean(mat[:, 0] == mat[:, 1]))
