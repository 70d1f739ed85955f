"""Lemma 2's condition P(ℓᵢ = ℓⱼ) ≥ 1/N_c and the advice of more raters per item than classes."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from humanly import Ratings, simulate
from humanly.certification import certify, certify_summary
from humanly.verdicts.notes import notes_text


@pytest.mark.parametrize(
    ("upper", "k", "n_classes", "holds", "more"),
    [(0.660, 3, 5, True, False), (0.939, 3, 2, True, True), (0.879, 5, 3, True, True)],
    ids=["SST-5", "SST-2", "SNLI"],
)
def test_table3_datasets(upper: float, k: int, n_classes: int, holds: bool, more: bool) -> None:
    res = certify_summary([0.9], upper, 1000, labels_per_item=k, n_classes=n_classes)
    c = res.upper_bound.lemma2
    assert c.agreement == pytest.approx(upper**2) and c.chance == pytest.approx(1 / n_classes)
    assert c.holds is holds and c.more_raters_than_classes is more
    # Lemma 2's proof: U⁽ᵗ⁾/U⁽ᵉ⁾ ≤ sqrt((K − 1 + N_c)/K) when agreement ≥ 1/N_c
    assert c.ratio == pytest.approx(res.upper_bound.theoretical / upper)
    assert c.ratio <= c.ratio_bound
    assert any("advises more raters" in n for n in notes_text(res.notes)) is (not more)
    # without N_c nothing is claimed
    blind = certify_summary([0.9], upper, 1000, labels_per_item=k).upper_bound.lemma2
    assert blind.holds is None and blind.more_raters_than_classes is None


def test_ratio_bound_holds_and_tends_to_one_under_lemma2() -> None:
    for k, n_c in itertools.product(range(2, 40), range(2, 8)):
        for agree in np.linspace(1 / n_c, 1, 7):
            theo = math.sqrt(1 / k + (k - 1) / k * agree)
            ratio = theo / math.sqrt(agree)
            assert ratio <= math.sqrt((k - 1 + n_c) / k) + 1e-12
    assert math.sqrt((10_000 - 1 + 3) / 10_000) == pytest.approx(1, abs=1e-3)


def test_raters_below_chance_are_reported() -> None:
    # raters who agree less often than chance: each labels class (item + rater) mod 3
    items, raters, labels = [], [], []
    for i in range(60):
        for r in range(4):
            items.append(i)
            raters.append(f"r{r}")
            labels.append((i + r) % 3)
    r = Ratings.from_long(items, raters, labels, classes=[0, 1, 2])
    for mode in ("slots", "named"):
        res = certify(r, rater_mode=mode)
        c = res.upper_bound.lemma2
        assert c.holds is False and c.agreement < 1 / 3
        assert any(n.startswith("Lemma 2:") for n in notes_text(res.notes))
    named = certify(r, rater_mode="named").upper_bound.lemma2
    a = certify(r, rater_mode="named").upper_bound.agreement_matrix
    below = sum(a[i, j] < 1 / 3 for i, j in itertools.combinations(range(4), 2))
    assert (named.pairs, named.pairs_below_chance) == (6, below)
    assert any(
        "rater pairs agree less often than chance" in n
        for n in notes_text(certify(r, rater_mode="named").notes)
    )


def test_ragged_items_share_with_more_raters() -> None:
    d = simulate.oracle(400, [0.8] * 6, n_classes=3, labels_per_item=(2, 6), seed=2)
    res = certify(d.ratings)
    c = res.upper_bound.lemma2
    n = d.ratings.labels_per_item
    assert c.share_more_raters == pytest.approx(np.mean(n[n >= 2] > 3))
    assert c.more_raters_than_classes is False and c.ratio_bound is None
    assert c.labels_per_item == pytest.approx(np.mean(n[n >= 2]))
    assert any("of the items have more raters" in s for s in notes_text(res.notes))
    full = certify(simulate.oracle(200, [0.8] * 6, n_classes=3, seed=2).ratings).upper_bound.lemma2
    assert full.more_raters_than_classes is True and full.ratio <= full.ratio_bound


def test_bad_n_classes_names_the_parameter() -> None:
    from humanly import InputError

    with pytest.raises(InputError, match="n_classes=1"):
        certify_summary([0.9], 0.8, 100, n_classes=1)
    with pytest.raises(TypeError, match="n_classes="):
        certify_summary([0.9], 0.8, 100, n_classes="3")  # type: ignore[arg-type]
