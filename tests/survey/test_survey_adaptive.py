"""The ABC's survey sizes chosen for the verdicts (humanly.survey._adaptive, issue 34 items 1 and 3):

* every number at a computed size — the data's c_k, every replicate's, the ranges — and every model's
  equivalence, range and mean equal the full run's (``every_k=True``) bit for bit, with models
  inside the curve and one above it (whose replicates need the whole curve);
* the share of fallback draws per k equals a brute force over every item and every k-sub-count of its
  labels (no other item holds the sequence), and at large k on a 100-label set the fallback flag, the
  fall of the curve (``informative_max_k``) and the estimate outside its own range are flagged.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from humanly import Predictions, Ratings
from humanly.simulate import urn
from humanly.survey import EquivalenceOptions, _fit, equivalence
from humanly.verdicts.notes import notes_text


def _study(n: int, k: int, sharp: tuple[float, ...], seed: int = 0):  # type: ignore[no-untyped-def]
    d = urn(n, k, dirichlet=[[8, 3, 1], [3, 8, 2], [1, 3, 8]], weights=[0.4, 0.3, 0.3], seed=seed)
    g = np.random.default_rng(seed + 1)
    st = np.log(d.truth["states"])
    out = {}
    for i, a in enumerate(sharp):
        z = a * st + 0.8 * g.normal(size=st.shape)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        out[f"m{i}"] = p / p.sum(axis=1, keepdims=True)
    if not out:
        return d.ratings, None
    return d.ratings, Predictions.from_arrays(d.ratings.items, out, classes=d.ratings.classes)


def _both(ratings, preds, calibrate="auto"):  # type: ignore[no-untyped-def]
    return [
        equivalence(ratings, preds, bootstrap=100, seed=4, calibrate=calibrate,
                    options=EquivalenceOptions(progress=False, every_k=every))
        for every in (True, False)
    ]  # fmt: skip


@pytest.mark.parametrize("case", ["inside", "above"])
def test_computed_sizes_and_verdicts_equal_the_full_run(
    monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    monkeypatch.setattr(_fit, "PATH", "composition")
    ratings, preds = _study(150, 40, (1.2, 1.4))
    # "above": a model given the item's label shares themselves scores above most of the curve
    if case == "above":
        shares = ratings.counts / ratings.counts.sum(axis=1, keepdims=True)
        preds = Predictions.from_arrays(ratings.items, {"oracle": 0.9 * shares + 0.1 / 3},
                                        classes=ratings.classes)  # fmt: skip
    full, fast = _both(ratings, preds, calibrate="none" if case == "above" else "auto")
    what = [p.computed for p in fast.power_curve]
    assert set(what) <= {"exact", "score", "interpolated"} and what[:4] == ["exact"] * 4
    assert all(p.computed == "exact" for p in full.power_curve)
    exact = [j for j, w in enumerate(what) if w == "exact"]
    known = [j for j, w in enumerate(what) if w != "interpolated"]
    # inside: something was saved; above: the replicates above the curve need all of it
    assert (len(exact) < len(what)) == (case == "inside")
    np.testing.assert_array_equal(fast.scores[known], full.scores[known])
    assert full.curve_samples is not None and fast.curve_samples is not None
    np.testing.assert_array_equal(fast.curve_samples[:, exact], full.curve_samples[:, exact])
    for j in exact:
        assert fast.power_curve[j] == full.power_curve[j]
    for a, b in zip(full.models, fast.models, strict=True):
        assert (a.equivalence, a.equivalence_note, a.equivalence_interval, a.equivalence_mean) == (
            b.equivalence,
            b.equivalence_note,
            b.equivalence_interval,
            b.equivalence_mean,
        )
        assert (a.score, a.score_interval, a.information_interval) == (
            b.score,
            b.score_interval,
            b.information_interval,
        )
    if case == "above":
        assert full.models[0].equivalence_note == "above_max"
    else:
        assert all(m.equivalence is not None for m in fast.models)
        # the crossings are inside the exact part, with the replicates' ranges
        top = max(m.equivalence_interval.high for m in fast.models)  # type: ignore[type-var]
        assert all(what[j] == "exact" for j in range(math.ceil(top) + 1))
    # interpolated points lie on the straight line between their computed neighbours
    s = fast.scores
    for j, w in enumerate(what):
        if w == "interpolated":
            a = max(i for i in known if i < j)
            b = min(i for i in known if i > j)
            assert s[j] == pytest.approx(s[a] + (s[b] - s[a]) * (j - a) / (b - a), rel=1e-12)
    assert any(
        "computed with every bootstrap replicate at" in n for n in notes_text(fast.notes)
    ) == (case == "inside")


def _brute_fallback(counts: np.ndarray, k: int, r: int = 1) -> float:
    """The share of draws at size k (items with ≥ k + r labels, each k-sub-count y of an item weighted
    by its hypergeometric probability) for which no other item with ≥ k + 1 labels holds y."""
    n_lab = counts.sum(axis=1)
    total, weight = 0.0, 0
    for d, v in enumerate(counts):
        if n_lab[d] < k + r:
            continue
        weight += 1
        for y0 in range(min(k, v[0]) + 1):
            for y1 in range(min(k - y0, v[1]) + 1):
                y = np.array([y0, y1, k - y0 - y1])
                if y[2] < 0 or y[2] > v[2]:
                    continue
                p = math.prod(math.comb(int(a), int(b)) for a, b in zip(v, y, strict=True))
                p /= math.comb(int(n_lab[d]), k)
                others = [
                    u for u in range(len(counts)) if u != d and n_lab[u] >= k + 1
                ]  # other items, other copies of the same counts included
                if not any((counts[u] >= y).all() for u in others):
                    total += p
    return total / weight


def test_fallback_share_and_flags_at_large_k_on_100_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fit, "PATH", "composition")
    ratings, _ = _study(60, 100, ())
    res = equivalence(
        ratings, bootstrap=100, options=EquivalenceOptions(progress=False, every_k=True)
    )
    pts = res.power_curve
    assert [p.k for p in pts] == list(range(100))
    for k in (0, 10, 50, 90, 98, 99):
        assert pts[k].fallback_share == pytest.approx(_brute_fallback(ratings.counts, k), abs=1e-12)
    assert pts[99].fallback_share > 0.5 and "fallback" in pts[99].flags
    assert pts[0].fallback_share == 0.0 and "fallback" not in pts[0].flags
    # the curve falls at large k: informative up to its first fall, every later point flagged
    assert res.informative_reason == "falls" and res.informative_max_k is not None
    reach = res.informative_max_k
    assert 0 < reach < 99 and pts[reach + 1].score < max(p.score for p in pts[: reach + 1])
    assert all(("not_informative" in p.flags) == (p.k > reach) for p in pts)
    # an estimate outside its own bootstrap range is flagged, and only then
    for p in pts:
        low, high = p.score_interval
        outside = (low is not None and p.score < low) or (high is not None and p.score > high)
        assert ("outside_range" in p.flags) == outside
    assert any("outside_range" in p.flags for p in pts[reach:])  # bootstrap copies of an item
    # the flags and fields survive the JSON
    back = type(res).from_dict(res.to_dict())
    assert back.power_curve == res.power_curve and back.informative_max_k == reach
    # a combiner that does not learn has neither
    plain = equivalence(ratings, combiner="frequency", bootstrap=0, options=EquivalenceOptions(
        progress=False, max_k=10))  # fmt: skip
    assert plain.informative_max_k is None and plain.power_curve[5].fallback_share is None


def test_a_replicate_above_the_curve_everywhere_keeps_every_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a score above every replicate's curve: the full curve is needed for each, so every size is
    # computed (the price of an exact "above the curve")
    monkeypatch.setattr(_fit, "PATH", "composition")
    ratings = Ratings.from_counts(_study(60, 20, ())[0].counts)
    preds = Predictions.from_arrays(ratings.items, {"m": np.tile([1.0, 0.0, 0.0], (60, 1))},
                                    classes=ratings.classes)  # fmt: skip
    res = equivalence(ratings, preds, calibrate="none", bootstrap=0,
                      options=EquivalenceOptions(progress=False))  # fmt: skip
    assert res.models[0].equivalence_note == "below_0"
    assert all(p.computed in ("exact", "score", "interpolated") for p in res.power_curve)


@pytest.mark.parametrize(("n", "k"), [(120, 100), (300, 40)])
def test_progress_expects_the_adaptive_work_within_a_factor_of_1_5(
    monkeypatch: pytest.MonkeyPatch, n: int, k: int
) -> None:
    # the adaptive grid plans its sizes as it goes; progress measures it against an expected cost
    # from the start (the dense part, the marks, the data alone) — within 1.5× of the cost of what
    # is then computed (costs are modelled, not timed: deterministic) — where adding each planned
    # sweep's whole range and taking back what was not done started 2.6 min off on ChaosNLI-size data
    from humanly._core import progress as p
    from humanly.survey import _adaptive

    monkeypatch.setattr(_fit, "PATH", "composition")
    seen: list[tuple[float, float]] = []
    real = p.task

    def spy(description, total=None, **kw):  # type: ignore[no-untyped-def]
        cm = real(description, total, **kw)

        class Wrap:
            def __enter__(self):  # type: ignore[no-untyped-def]
                self.t = cm.__enter__()
                self.first = self.t.total
                return self.t

            def __exit__(self, *exc):  # type: ignore[no-untyped-def]
                seen.append((float(self.first or 0.0), self.t.done))
                return cm.__exit__(*exc)

        return Wrap()

    monkeypatch.setattr(_adaptive, "task", spy)
    ratings, preds = _study(n, k, (1.2, 1.4))
    res = equivalence(
        ratings, preds, bootstrap=200, seed=1, options=EquivalenceOptions(progress=False)
    )
    assert any(p.computed == "interpolated" for p in res.power_curve)  # the adaptive path ran
    [(expected, done)] = seen
    assert done > 0 and 1 / 1.5 <= expected / done <= 1.5, (expected, done)
