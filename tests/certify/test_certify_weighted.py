"""aggregate="weighted" and "soft" (footnote 2's weighted averaging): L_N against a soft aggregate."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import Predictions, Ratings, simulate
from humanly.certification import certify
from humanly.certification.lower import aggregate_of, rater_weights
from humanly.verdicts.notes import notes_text


def _brute_lower(rows: list[tuple[int, str, int]], pred: dict[int, int], weighted: bool) -> float:
    """L_N by loops: rater weights = pooled agreement with the other labels of its items; π_n(c) the
    weighted share of class c among item n's labels; L_N the mean of π_n(prediction)."""
    by_item: dict[int, list[tuple[str, int]]] = {}
    for i, r, lab in rows:
        by_item.setdefault(i, []).append((r, lab))
    agree: dict[str, float] = {}
    others: dict[str, float] = {}
    for labs in by_item.values():
        for a, (r, lab) in enumerate(labs):
            for b, (_, lab2) in enumerate(labs):
                if a != b:
                    agree[r] = agree.get(r, 0.0) + (lab == lab2)
                    others[r] = others.get(r, 0.0) + 1
    raters = {r for _, r, _ in rows}
    w = {r: agree[r] / others[r] for r in raters if others.get(r, 0) > 0}
    fill = float(np.mean(list(w.values()))) if w else 1.0
    w.update({r: fill for r in raters if r not in w})
    credits = []
    for i, labs in by_item.items():
        ws = [(w[r] if weighted else 1.0) for r, _ in labs]
        if sum(ws) <= 0:
            ws = [1.0] * len(labs)
        credits.append(
            sum(x for x, (_, lab) in zip(ws, labs, strict=True) if lab == pred[i]) / sum(ws)
        )
    return float(np.mean(credits))


def _random_rows(rng: np.random.Generator, n_items: int, n_raters: int, n_cls: int):
    rows = []
    for i in range(n_items):
        k = int(rng.integers(1, 5))
        for r in rng.choice(n_raters, size=min(k, n_raters), replace=False):
            rows.append((i, f"r{r}", int(rng.integers(0, n_cls))))
    return rows


@pytest.mark.parametrize("seed", range(5))
def test_weighted_and_soft_lower_match_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = _random_rows(rng, 40, 7, 3)
    it, ra, la = zip(*rows, strict=True)
    r = Ratings.from_long(list(it), list(ra), list(la), classes=[0, 1, 2])
    pred = rng.integers(0, 3, size=r.n_items)
    p = Predictions.from_arrays(r.items, {"m": pred}, classes=[0, 1, 2])
    pmap = {int(i): int(x) for i, x in zip(r.items, pred, strict=True)}
    for agg, weighted in (("weighted", True), ("soft", False)):
        res = certify(r, p, aggregate=agg)
        assert res.aggregate == agg
        assert res.models[0].lower == pytest.approx(_brute_lower(rows, pmap, weighted), abs=1e-12)
        assert 0 <= res.models[0].lower <= 1


def test_rater_weights_by_hand() -> None:
    r = Ratings.from_long([0, 0, 0, 1, 1, 2], ["a", "b", "c", "a", "b", "d"], [0, 0, 1, 1, 1, 0])
    w = dict(zip(r.raters, rater_weights(r), strict=True))
    assert w["a"] == pytest.approx(2 / 3) and w["b"] == pytest.approx(2 / 3) and w["c"] == 0.0
    assert w["d"] == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)  # shares no item: the mean weight
    agg = aggregate_of(r, "weighted")
    assert agg.soft and np.allclose(agg.weights.sum(axis=1), 1.0)
    assert agg.weights[0].tolist() == pytest.approx([1.0, 0.0])  # c's weight is 0


def test_weighted_favours_the_raters_who_agree() -> None:
    """With one near-random rater among good ones, weighting raises L_N towards the majority's."""
    d = simulate.oracle(3000, [0.9, 0.88, 0.92, 0.4], n_classes=3, models={"m": 0.95}, seed=4)
    soft = certify(d.ratings, d.predictions, aggregate="soft").models[0].lower
    weighted = certify(d.ratings, d.predictions, aggregate="weighted")
    w = weighted.models[0].lower
    assert soft < w < certify(d.ratings, d.predictions).models[0].lower
    acc = d.truth["model_accuracy"]["m"]
    assert w <= acc  # Theorem 3 with the drawn label as ℓ_a
    gold = certify(d.ratings, d.predictions, aggregate="weighted", gold=d.gold).oracle
    assert gold.held["lower:m"] and gold.held["finite_lower:m"]
    th3 = gold.assumptions[-1]
    assert th3.status == "consistent" and th3.conclusion < 0


def test_soft_on_anonymous_counts_and_exact_bound() -> None:
    r = Ratings.from_counts([[2, 1], [1, 1], [0, 3], [3, 0]], classes=[0, 1])
    p = Predictions.from_arrays(r.items, {"m": np.array([0, 0, 1, 0])}, classes=[0, 1])
    soft = certify(r, p, aggregate="soft", bound="exact")
    assert soft.models[0].lower == pytest.approx(np.mean([2 / 3, 1 / 2, 1, 1]))
    weighted = certify(r, p, aggregate="weighted")
    assert weighted.models[0].lower == soft.models[0].lower
    assert any("every rater weighs the same" in n for n in notes_text(weighted.notes))
    # the exact bound draws each item's success with probability π_n(prediction)
    assert 2 <= soft.models[0].full_credit <= 4


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_weighted_is_invariant_to_permuting_items_and_raters(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = _random_rows(rng, 25, 5, 3)
    df = pd.DataFrame(rows, columns=["item", "rater", "label"])
    r = Ratings.from_frame(df, classes=[0, 1, 2])
    pred = pd.Series(rng.integers(0, 3, size=r.n_items), index=r.items)
    base = certify(r, {"m": pred}, aggregate="weighted").models[0].lower
    shuffled = df.sample(frac=1.0, random_state=seed % 2**32)
    rename = {f"r{i}": f"z{4 - i}" for i in range(5)}
    r2 = Ratings.from_frame(shuffled.assign(rater=shuffled.rater.map(rename)), classes=[0, 1, 2])
    again = certify(r2, {"m": pred.sample(frac=1.0, random_state=1)}, aggregate="weighted")
    assert again.models[0].lower == pytest.approx(base, abs=1e-12)
