"""The judge as part of a study: ``Study.judge`` carries it, :func:`humanly.judge` and
:func:`humanly.analyze` read it, and ``StudyResult.judge`` round-trips through JSON."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import Ratings, StudyResult
from humanly.data import Study, join


def _study(n: int = 2000, labelled: int = 300, seed: int = 0) -> Study:
    rng = np.random.default_rng(seed)
    ids = [f"i{k}" for k in range(n)]
    truth = rng.integers(0, 2, n)
    counts = np.zeros((n, 2), dtype=int)
    counts[np.arange(labelled), truth[:labelled]] = 1  # items past `labelled` have no human label
    r = Ratings.from_counts(counts, items=ids, classes=[0, 1])
    models = {
        "a": pd.Series(np.where(rng.random(n) < 0.85, truth, 1 - truth), index=ids),
        "b": pd.Series(np.where(rng.random(n) < 0.75, truth, 1 - truth), index=ids),
    }
    llm = pd.Series(np.where(rng.random(n) < 0.9, truth, 1 - truth), index=ids, name="llm")
    return join(r, models, judge=llm)


def test_judge_reads_the_judge_a_study_carries() -> None:
    study = _study()
    carried = humanly.judge(study)
    given = humanly.judge(study.ratings, study.predictions, judge=study.judge)
    assert carried.to_dict() == given.to_dict()
    assert carried.judge == "llm" and carried.n_labelled == 300 and carried.n_unlabelled == 1700


def test_no_judge_anywhere_is_one_sentence() -> None:
    study = dataclasses.replace(_study(), judge=None)
    with pytest.raises(TypeError, match=r"^judge=None: give the judge's labels"):
        humanly.judge(study)


def test_analyze_runs_the_judge_once_and_it_round_trips() -> None:
    study = _study()
    res = humanly.analyze(study, bootstrap=0)
    assert res.judge is not None and res.skipped_reason("judge") is None
    assert res.judge.to_dict() == humanly.judge(study).to_dict()
    d = json.loads(res.to_json())
    assert StudyResult.from_dict(d).to_dict() == d
    assert d["judge"]["models"][0]["model"] == "a"


def test_analyze_without_a_judge_leaves_it_empty_and_skips_nothing() -> None:
    res = humanly.analyze(dataclasses.replace(_study(), judge=None), bootstrap=0)
    assert res.judge is None and res.skipped_reason("judge") is None
    d = json.loads(res.to_json())
    assert d["judge"] is None and StudyResult.from_dict(d).to_dict() == d


def test_a_judge_that_cannot_run_is_skipped_with_its_reason() -> None:
    study = _study()
    full = Ratings.from_counts(
        np.tile([1, 0], (2000, 1)), items=study.ratings.items, classes=[0, 1]
    )
    res = humanly.analyze(dataclasses.replace(study, ratings=full), bootstrap=0)
    assert res.judge is None and res.skipped_reason("judge") == "input_error"
    (why,) = [s for s in res.skipped if s.analysis == "judge"]
    assert why.error is not None and why.error.startswith("judge: every item has a human label")


def test_results_saved_before_the_judge_field_still_load() -> None:
    d = json.loads(
        humanly.analyze(dataclasses.replace(_study(), judge=None), bootstrap=0).to_json()
    )
    del d["judge"]
    assert StudyResult.from_dict(d).judge is None
