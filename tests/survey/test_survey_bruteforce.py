"""Brute force: a literal implementation of Algorithms 1–6 (rater-column subsets, every reference rater,
PROBABILITYONEITEM / LABELSEQPROB as written) against the count-based engine, for every combiner ×
scorer on small complete rating matrices. The whole-sample scorers are checked against textbook
definitions written out below (precision/recall/F1 from the confusion counts, AUC from every
positive–negative pair) and scipy's correlations."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import pearsonr, spearmanr

from humanly import Predictions, Ratings
from humanly.survey import EquivalenceOptions, equivalence
from humanly.survey.crossing import equivalence_point

FLOOR = 1e-3
CLIP = (0.02, 0.98)


def _clip(p: np.ndarray, lo: float, hi: float) -> np.ndarray:
    q = np.clip(p, lo, hi)
    return q / q.sum()


# ------------------------------------------------------------------ literal Algorithms 5-6
def prob_one_item(y: list[int], row: list[int], n_cls: int) -> float:
    k = sum(y)
    w = [row.count(c) for c in range(n_cls)]
    n = len(row)
    if n < k or any(w[c] < y[c] for c in range(n_cls)):
        return 0.0
    num = math.prod(math.comb(w[c], y[c]) * math.factorial(y[c]) for c in range(n_cls))
    return num / (math.comb(n, k) * math.factorial(k))


def label_seq_prob(y: list[int], W: list[list[int]], excluded: int, n_cls: int) -> float:
    k = sum(y)
    items = [i for i, row in enumerate(W) if len(row) >= k]
    v = sum(prob_one_item(y, W[i], n_cls) for i in items)
    v -= prob_one_item(y, W[excluded], n_cls)
    return v / (len(items) - 1)


def abc(y: list[int], W: list[list[int]], excluded: int, n_cls: int) -> np.ndarray:
    num = np.array(
        [
            label_seq_prob([y[c] + (c == lab) for c in range(n_cls)], W, excluded, n_cls)
            for lab in range(n_cls)
        ]
    )
    den = num.sum()  # = LABELSEQPROB(y) when every item has > k labels (complete matrix)
    if den <= 0:
        k = sum(y)
        p = (np.array(y) + 1.0) / (k + n_cls)
    else:
        p = num / den
        assert den == pytest.approx(label_seq_prob(y, W, excluded, n_cls), rel=1e-9)
    return _clip(p, FLOOR, 1.0)


def combine(
    name: str, labels: list[int], W: list[list[int]], i: int, n_cls: int
) -> tuple[np.ndarray, bool]:
    """(output, hard): for hard combiners the distribution of the random label."""
    y = [labels.count(c) for c in range(n_cls)]
    if name in ("majority", "plurality"):
        top = max(y)
        q = np.array([1.0 if v == top else 0.0 for v in y])
        return q / q.sum(), True
    if name == "frequency":
        k = len(labels)
        f = np.array(y, dtype=float) / k if k else np.full(n_cls, 1 / n_cls)
        return _clip(f, *CLIP), False
    return abc(y, W, i, n_cls), False


class Tie(Exception):
    pass


# ------------------------------------------------------------------ textbook metrics
def _prf_one(which: str, y: np.ndarray, h: np.ndarray, c: int) -> float:
    """Precision, recall or F1 of class c (0 when undefined, as zero_division=0)."""
    tp = int(((h == c) & (y == c)).sum())
    pp, ap = int((h == c).sum()), int((y == c).sum())
    if which == "precision":
        return tp / pp if pp else 0.0
    if which == "recall":
        return tp / ap if ap else 0.0
    return 2 * tp / (pp + ap) if pp + ap else 0.0


def prf(which: str, y: np.ndarray, h: np.ndarray, n_cls: int) -> float:
    """Binary: the positive class (1); more classes: the macro mean over every class."""
    if n_cls == 2:
        return _prf_one(which, y, h, 1)
    return float(np.mean([_prf_one(which, y, h, c) for c in range(n_cls)]))


def auc_pairs(y: np.ndarray, s: np.ndarray) -> float:
    """ROC AUC: the fraction of (positive, negative) pairs ranked correctly, ties counting half."""
    pos, neg = s[y == 1], s[y == 0]
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    return wins / (len(pos) * len(neg))


def test_textbook_metrics() -> None:
    y = np.array([1, 0, 1, 1, 0, 2])
    h = np.array([1, 1, 0, 1, 0, 2])
    assert prf("precision", y[:5], h[:5], 2) == pytest.approx(2 / 3)
    assert prf("recall", y[:5], h[:5], 2) == pytest.approx(2 / 3)
    assert prf("f1", y, h, 3) == pytest.approx(np.mean([2 * 1 / 4, 2 * 2 / 6, 1.0]))
    assert auc_pairs(np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8])) == 0.75
    assert auc_pairs(np.array([0, 1]), np.array([0.5, 0.5])) == 0.5


def score(name: str, preds: list[np.ndarray], hard: bool, ref: list[int], n_cls: int) -> float:
    """SCORE({(h(i), y_i)}) with expected credit over random labels for the decomposable scorers."""
    ref_a = np.array(ref)
    if name == "agreement":
        vals = []
        for p, c in zip(preds, ref, strict=True):
            q = p if hard else (p >= p.max() - 1e-9).astype(float)
            vals.append(q[c] / q.sum())
        return float(np.mean(vals))
    if name == "cross_entropy":
        vals = []
        for p, c in zip(preds, ref, strict=True):
            if hard:
                vals.append(
                    sum(p[h] * np.log2(_clip(np.eye(n_cls)[h], *CLIP)[c]) for h in range(n_cls))
                )
            else:
                vals.append(np.log2(p[c]))
        return float(np.mean(vals))
    P = np.array([np.eye(n_cls)[int(np.argmax(p))] if hard else p for p in preds])
    hard_lab = np.argmax(P, axis=1)
    if name in ("precision", "recall", "f1"):
        if any((p >= p.max() - 1e-9).sum() > 1 for p in P):
            raise Tie  # a random tie-break: the literal algorithm is not deterministic here
        return prf(name, ref_a, hard_lab, n_cls)
    if name == "auc":
        if len(set(ref)) < 2:
            return float("nan")
        return auc_pairs(ref_a, P[:, 1])
    if name == "dmi":
        M = np.zeros((n_cls, n_cls))
        for p, c in zip(P, ref, strict=True):
            M[:, c] += p
        return float(abs(np.linalg.det(M / len(ref))))
    x = P[:, 1] if n_cls == 2 else P @ np.arange(n_cls)
    t = (ref_a == 1).astype(float) if n_cls == 2 else ref_a.astype(float)
    if np.std(x) == 0 or np.std(t) == 0:
        return float("nan")
    return float((pearsonr if name == "pearson" else spearmanr)(x, t)[0])


def hscore(
    name: str, preds: list[np.ndarray], hard: bool, cols: list[list[int]], n_cls: int
) -> float:
    """Algorithm 1: mean over reference raters (columns)."""
    return float(np.nanmean([score(name, preds, hard, col, n_cls) for col in cols]))


def spc(W: list[list[int]], comb: str, sc: str, n_cls: int, ks: list[int]) -> list[float | None]:
    """Algorithm 3 with every subset (RATERSUBSETS with C(K, k) ≤ 200)."""
    K = len(W[0])
    out: list[float | None] = []  # None: a tie makes the literal algorithm random
    for k in ks:
        try:
            out.append(_spc_level(W, comb, sc, n_cls, k, K))
        except Tie:
            out.append(None)
    return out


def _spc_level(W: list[list[int]], comb: str, sc: str, n_cls: int, k: int, K: int) -> float:
    if True:
        scores = []
        for rs in itertools.combinations(range(K), k):
            preds, hard = [], False
            for i, row in enumerate(W):
                p, hard = combine(comb, [row[j] for j in rs], W, i, n_cls)
                preds.append(p)
            unused = [j for j in range(K) if j not in rs]
            scores.append(hscore(sc, preds, hard, [[row[j] for row in W] for j in unused], n_cls))
        return float(np.nanmean(scores))


def _data(
    n_items: int, K: int, n_cls: int, seed: int
) -> tuple[Ratings, Predictions, list[list[int]], np.ndarray]:
    g = np.random.default_rng(seed)
    theta = g.dirichlet(np.ones(n_cls) * 0.7, size=n_items)
    W = [list(g.choice(n_cls, size=K, p=t)) for t in theta]
    items = np.repeat(np.arange(n_items), K)
    raters = np.tile(np.arange(K), n_items)
    labels = np.array(W).reshape(-1)
    r = Ratings.from_long(items, raters, labels, classes=list(range(n_cls)))
    probs = 0.6 * theta + 0.4 * g.dirichlet(np.ones(n_cls), size=n_items)
    p = Predictions.from_arrays(np.arange(n_items), {"m": probs}, classes=list(range(n_cls)))
    return r, p, [[int(v) for v in row] for row in W], probs


DECOMP = ["agreement", "cross_entropy"]
WHOLE = ["precision", "recall", "f1", "auc", "dmi", "pearson", "spearman"]


@pytest.mark.parametrize("comb", ["majority", "plurality", "frequency", "abc"])
@pytest.mark.parametrize("sc", DECOMP)
def test_exact_engine_equals_literal_algorithms(comb: str, sc: str) -> None:
    r, p, W, probs = _data(14, 5, 2, seed=3)
    res = equivalence(  # the literal algorithms score the outputs as given
        r, p, combiner=comb, scorer=sc, calibrate="none", bootstrap=0,
        options=EquivalenceOptions(max_k=4),
    )  # fmt: skip
    ks = [pt.k for pt in res.power_curve]
    assert ks == [0, 1, 2, 3, 4]
    ref = spc(W, comb, sc, 2, ks)
    np.testing.assert_allclose([pt.score for pt in res.power_curve], ref, rtol=1e-9, atol=1e-12)
    h = hscore(sc, list(probs), False, [[row[j] for row in W] for j in range(5)], 2)
    assert res.models[0].score == pytest.approx(h, rel=1e-9)
    eq, note = equivalence_point(np.array(ks), np.array(ref), h)
    assert (res.models[0].equivalence, res.models[0].equivalence_note) == (
        pytest.approx(eq) if eq is not None else None,
        note,
    )


@pytest.mark.parametrize("comb", ["majority", "frequency", "abc"])
@pytest.mark.parametrize("sc", WHOLE)
def test_sampled_equals_literal_algorithms_when_all_subsets_fit(comb: str, sc: str) -> None:
    # K = 5: C(5, k) ≤ 200 for every k, so Algorithm 2 enumerates every subset; at odd k a binary
    # vote has no ties, so nothing is random.
    r, p, W, probs = _data(16, 5, 2, seed=5)
    res = equivalence(
        r, p, combiner=comb, scorer=sc, bootstrap=0, options=EquivalenceOptions(max_k=3)
    )
    assert res.method == "sampled"
    got = {pt.k: pt.score for pt in res.power_curve}
    ks = [1, 3]
    ref = spc(W, comb, sc, 2, ks)
    assert any(v is not None for v in ref)
    for k, v in zip(ks, ref, strict=True):
        if v is not None:
            assert got[k] == pytest.approx(v, rel=1e-9, abs=1e-12, nan_ok=True)
    h = hscore(sc, list(probs), False, [[row[j] for row in W] for j in range(5)], 2)
    assert res.models[0].score == pytest.approx(h, rel=1e-9, nan_ok=True)


@pytest.mark.parametrize("sc", ["agreement", "cross_entropy", "f1", "dmi", "precision"])
def test_three_classes_plurality_and_abc(sc: str) -> None:
    r, p, W, _ = _data(12, 4, 3, seed=11)
    for comb in ("plurality", "abc", "frequency"):
        res = equivalence(
            r, p, combiner=comb, scorer=sc, bootstrap=0, options=EquivalenceOptions(max_k=1)
        )
        got = {pt.k: pt.score for pt in res.power_curve}
        ks = [1] if sc not in DECOMP else [0, 1]
        ref = spc(W, comb, sc, 3, ks)
        for k, v in zip(ks, ref, strict=True):
            if v is not None:
                assert got[k] == pytest.approx(v, rel=1e-9, abs=1e-12), (comb, k)


def test_equivalence_point_algorithm4() -> None:
    ks = np.arange(4)
    c = np.array([0.5, 0.6, 0.55, 0.8])
    assert equivalence_point(ks, c, 0.5) == (None, "below_0")
    assert equivalence_point(ks, c, 0.4) == (None, "below_0")
    assert equivalence_point(ks, c, 0.9) == (None, "above_max")
    v, note = equivalence_point(ks, c, 0.55)
    assert note is None and v == pytest.approx(0.5)
    v, _ = equivalence_point(ks, c, 0.7)  # leftmost crossing: between k = 2 and 3
    assert v == pytest.approx(2 + (0.7 - 0.55) / 0.25)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(4, 7),
    st.integers(3, 4),
    st.integers(0, 10_000),
    st.sampled_from(
        [("abc", "cross_entropy"), ("majority", "agreement"), ("frequency", "cross_entropy")]
    ),
)
def test_random_small_matrices_match_the_literal_algorithms(
    n_items: int, k_raters: int, seed: int, combo: tuple[str, str]
) -> None:
    comb, sc = combo
    r, p, W, probs = _data(n_items, k_raters, 2, seed=seed)
    res = equivalence(  # the literal algorithms score the outputs as given
        r, p, combiner=comb, scorer=sc, calibrate="none", bootstrap=0,
        options=EquivalenceOptions(max_k=k_raters - 1),
    )  # fmt: skip
    ks = [pt.k for pt in res.power_curve]
    ref = spc(W, comb, sc, 2, ks)
    np.testing.assert_allclose(res.scores, ref, rtol=1e-9, atol=1e-12)
    h = hscore(sc, list(probs), False, [[row[j] for row in W] for j in range(k_raters)], 2)
    assert res.models[0].score == pytest.approx(h, rel=1e-9)
