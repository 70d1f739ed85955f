"""HSCORE* and SEQ* (Survey Equivalence, section 6 and footnotes 9, 11, 17): scores against the true
item states of a simulation, checked against the paper's definitions written out literally (every
k-subset of each item's labels combined, scored against the item's state; Algorithm 1 against the
state; the ABC of Algorithms 5–6 with the item left out)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from survey_brute import abc

from humanly import InputError, Predictions, Ratings
from humanly.simulate import running_example, urn
from humanly.survey import EquivalenceOptions, equivalence, truth_equivalence
from humanly.survey.combiners import clip_probs, get_combiner
from humanly.survey.scorers import get_scorer


def _predict(comb: str, y: list[int], items: list[list[int]], i: int) -> np.ndarray:
    if comb != "abc":
        return get_combiner(comb).predict(np.array([y]))[0]
    return abc(y, items, i)


def _literal(items: list[list[int]], states: np.ndarray, comb: str, sc: str, ks: list[int]):  # type: ignore[no-untyped-def]
    scorer = get_scorer(sc)
    hard = get_combiner(comb).hard
    curve = []
    for k in ks:
        per_item = []
        for i, labels in enumerate(items):
            if len(labels) < k:
                continue
            vals = []
            for sub in itertools.combinations(range(len(labels)), k):
                y = [sum(labels[j] == c for j in sub) for c in range(states.shape[1])]
                p = _predict(comb, y, items, i)
                if hard:  # expected credit of the random label, as a one-hot prediction
                    eye = clip_probs(np.eye(len(p)), (0.02, 0.98))
                    t = p @ scorer.terms(eye)
                else:
                    t = scorer.terms(p[None])[0]
                vals.append(float(t @ states[i]))  # line 8 of Algorithm 3 against the state
            per_item.append(np.mean(vals))
        curve.append(float(np.mean(per_item)))
    return curve


@pytest.mark.parametrize(
    "comb,sc",
    [("abc", "cross_entropy"), ("frequency", "cross_entropy"), ("plurality", "agreement"),
     ("abc", "agreement")],
)  # fmt: skip
def test_matches_the_definitions_written_out(comb: str, sc: str) -> None:
    d = urn(9, (2, 5), states=[[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]], weights=[0.5, 0.5],
            soft_classifiers={"m": [[0.6, 0.3, 0.1], [0.2, 0.2, 0.6]]}, seed=4)  # fmt: skip
    counts = d.ratings.counts
    items = [[c for c in range(3) for _ in range(int(row[c]))] for row in counts]
    states = d.truth["states"]
    res = truth_equivalence(  # the definitions score the outputs as given
        d, combiner=comb, scorer=sc, calibrate="none", options=EquivalenceOptions(max_k=3)
    )
    ks = res.ks.tolist()
    assert ks == [0, 1, 2, 3]
    np.testing.assert_allclose(res.scores, _literal(items, states, comb, sc, ks), rtol=1e-10)
    scorer = get_scorer(sc)
    probs = d.predictions["m"].values
    h = float((scorer.terms(probs) * states).sum(axis=1).mean())  # Algorithm 1 against the state
    assert res.model("m").score == pytest.approx(h, rel=1e-12)
    ideal = float((scorer.terms(states) * states).sum(axis=1).mean())
    assert res.ideal_score == pytest.approx(ideal, rel=1e-12)


def test_running_example_seq_star_beside_the_rater_based_equivalence() -> None:
    # section 4: the omniscient classifier scores −0.699 bits; SEQ* ≈ SEQ (the reference rater's label
    # is a draw from the state, so both curves and scores have the same limits)
    d = running_example(1000, 10, seed=1)
    star = truth_equivalence(d, calibrate="none")  # the paper's hard classifier, as given
    assert star.ideal_score == pytest.approx(-0.699, abs=0.01)
    rater = equivalence(d.ratings, d.predictions, calibrate="none", bootstrap=0)
    assert star.model("soft").equivalence == pytest.approx(1.96, abs=0.01)  # measured 1.964
    assert star.model("soft").equivalence == pytest.approx(rater.model("soft").equivalence, abs=0.1)
    assert star.model("hard").equivalence_note == "below_0"
    np.testing.assert_allclose(star.scores, rater.scores, atol=0.01)


def test_states_by_item_id_and_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    d = running_example(50, 4, seed=2)
    paths = d.write(tmp_path / "re.csv")
    table = pd.read_csv(paths["states"])
    from_file = truth_equivalence(d.ratings, d.predictions, table)
    direct = truth_equivalence(d)
    np.testing.assert_allclose(from_file.scores, direct.scores, rtol=1e-12)
    shuffled = table.sample(frac=1.0, random_state=0)
    again = truth_equivalence(d.ratings, d.predictions, shuffled)
    np.testing.assert_allclose(again.scores, direct.scores, rtol=1e-12)
    with pytest.raises(InputError, match="states"):
        truth_equivalence(d.ratings, d.predictions, table.iloc[:10])
    with pytest.raises(InputError, match="states"):
        truth_equivalence(d.ratings, d.predictions, np.ones((50, 2)))
    with pytest.raises(InputError, match=r"sampled|scorer"):
        truth_equivalence(d, scorer="auc")
    r = Ratings.from_counts([[2, 1], [0, 3]], classes=["C", "D"])
    p = Predictions.from_arrays(
        r.items, {"m": np.array([[0.6, 0.4], [0.3, 0.7]])}, classes=["C", "D"]
    )
    res = truth_equivalence(
        r, p, np.array([[0.7, 0.3], [0.2, 0.8]]), options=EquivalenceOptions(max_k=1)
    )
    assert res.to_dict()["models"][0]["model"] == "m"
