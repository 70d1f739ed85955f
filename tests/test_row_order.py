"""Same data, same seed, same numbers whatever the row order of every input (issue 26, item 1).

Every analysis draws its random streams (bootstrap, certify's curves, the planner's pilot, the judge)
over items in the canonical order (items and raters sorted by id: :mod:`humanly.data._canonical`), so
shuffling the rows of the ratings, the predictions and the gold leaves every number — and the report's
bytes — unchanged. Small data and few examples keep this fast.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import humanly
from humanly import simulate


def _frames(n_items: int, seed: int) -> dict[str, pd.DataFrame]:
    """A small running example as long tables: ratings, predictions (two models), gold (a subset).
    Item ids are renamed so that the simulated order is not the sorted order."""
    d = simulate.running_example(n_items, 4, seed=seed)
    new = np.random.default_rng(seed).permutation(n_items)
    rename = {old: f"it{k:03d}" for old, k in zip(d.ratings.items, new, strict=True)}
    ratings = d.ratings.to_frame()
    ratings["item"] = ratings["item"].map(rename)
    p = d.predictions
    assert p is not None and d.gold is not None
    items = [rename[i] for i in p.items]
    hard, soft = p["hard"].values, p["soft"].values
    classes = np.asarray(p.classes, dtype=object)
    preds = pd.DataFrame(
        {
            "item": items * 2,
            "model": ["hard"] * n_items + ["soft"] * n_items,
            "prediction": list(classes[hard]) + [None] * n_items,
            **{f"prob_{c}": [np.nan] * n_items + list(soft[:, j]) for j, c in enumerate(p.classes)},
        }
    )
    has = d.gold.codes >= 0
    gold = pd.DataFrame(
        {
            "item": [rename[i] for i in d.gold.items[has]],
            "gold": classes[d.gold.codes[has]],
        }
    ).iloc[: max(10, n_items // 2)]
    return {"ratings": ratings, "predictions": preds, "gold": gold}


def _shuffled(frames: dict[str, pd.DataFrame], seed: int) -> dict[str, pd.DataFrame]:
    g = np.random.default_rng(seed)
    return {k: f.iloc[g.permutation(len(f))].reset_index(drop=True) for k, f in frames.items()}


def _judge_inputs(f: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """The judge: human labels on the gold items only, the two models and a judge on every item."""
    preds = f["predictions"]
    hard = preds[preds["model"] == "hard"].set_index("item")["prediction"]
    soft = preds[preds["model"] == "soft"].set_index("item")
    labelled = set(f["gold"]["item"])
    human = f["ratings"][f["ratings"]["item"].isin(labelled)]
    judge = soft.filter(like="prob_").idxmax(axis=1).str.removeprefix("prob_")
    return {"ratings": human, "predictions": {"hard": hard}, "judge": judge}


def _study(f: dict[str, pd.DataFrame]) -> humanly.Study:
    opts = humanly.ReadOptions(model_col="model")  # the predictions frame is a table
    return humanly.read_study(
        f["ratings"], f["predictions"], f["gold"], gold_col="gold", options=opts
    )


def _numbers(f: dict[str, pd.DataFrame]) -> dict[str, str]:
    """Every analysis's result as JSON (small bootstrap)."""
    study = _study(f)
    out = {
        "inspect": humanly.inspect(study, bootstrap=100),
        "agreement": humanly.agreement(study.ratings, bootstrap=100),
        "certify": humanly.certify(study, curve=True),
        "certify_named": humanly.certify(study, raters="named"),
        "equivalence": humanly.equivalence(study, bootstrap=100),
        "plan": humanly.plan(study, bootstrap=100),
        "judge": humanly.judge(**_judge_inputs(f)),
        "analyze": humanly.analyze(study, bootstrap=100),
    }
    return {k: v.to_json() for k, v in out.items()}


@settings(
    max_examples=2,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: each example is slow
    suppress_health_check=[HealthCheck.too_slow],
)
@given(n_items=st.integers(30, 45), seed=st.integers(0, 2**16), shuffle=st.integers(0, 2**16))
def test_every_analysis_ignores_the_row_order_of_every_input(
    n_items: int, seed: int, shuffle: int
) -> None:
    frames = _frames(n_items, seed)
    base = _numbers(frames)
    other = _numbers(_shuffled(frames, shuffle))
    for name, text in base.items():
        assert other[name] == text, name


def test_a_shuffled_study_is_the_sorted_study() -> None:
    """The study itself is in canonical order: items and raters sorted, predictions and gold along."""
    frames = _frames(40, 5)
    a = _study(frames)
    s = _shuffled(frames, 1)
    b = _study(s)
    assert list(a.ratings.items) == sorted(a.ratings.items) == list(b.ratings.items)
    assert list(a.ratings.raters) == sorted(a.ratings.raters) == list(b.ratings.raters)
    for x, y in zip(
        (a.ratings.item_codes, a.ratings.rater_codes, a.ratings.label_codes, a.gold.codes),
        (b.ratings.item_codes, b.ratings.rater_codes, b.ratings.label_codes, b.gold.codes),
        strict=True,
    ):
        np.testing.assert_array_equal(x, y)
    for m in a.predictions.models:
        np.testing.assert_array_equal(m.values, b.predictions[m.name].values)


def test_mixed_type_ids_have_a_canonical_order() -> None:
    r1 = humanly.Ratings.from_long([2, "a", 1, 2], ["u", "u", "v", "v"], [0, 1, 1, 0])
    r2 = humanly.Ratings.from_long([1, 2, 2, "a"], ["v", "v", "u", "u"], [1, 0, 0, 1])
    s1, s2 = humanly.data.join(r1), humanly.data.join(r2)
    assert list(s1.ratings.items) == list(s2.ratings.items) == [1, 2, "a"]
    np.testing.assert_array_equal(s1.ratings.counts, s2.ratings.counts)


def _report(folder: Path, frames: dict[str, pd.DataFrame]) -> bytes:
    folder.mkdir()
    paths = []
    for name, frame in frames.items():
        paths.append(folder / f"{name}.csv")
        frame.to_csv(paths[-1], index=False)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    cmd = [sys.executable, "-m", "humanly", "report", "ratings.csv", "--predictions"]
    cmd += ["predictions.csv", "--gold", "gold.csv", "--bootstrap", "100", "-o", "r.html"]
    subprocess.run(cmd, cwd=folder, env=env, check=True, capture_output=True)
    return (folder / "r.html").read_bytes()


def _without_file_digests(page: bytes, frames: dict[str, pd.DataFrame], folder: Path) -> bytes:
    """The page with each input file's SHA-256 blanked: a shuffled file is another file (its digest is
    recorded for provenance); every other byte must be the same."""
    import hashlib

    for name in frames:
        digest = hashlib.sha256((folder / f"{name}.csv").read_bytes()).hexdigest()
        page = page.replace(digest.encode(), b"<sha256>")
    return page


@pytest.mark.slow
def test_report_bytes_ignore_the_row_order(tmp_path: Path) -> None:
    frames = _frames(40, 11)
    shuffled = _shuffled(frames, 3)
    a = _report(tmp_path / "a", frames)
    b = _report(tmp_path / "b", shuffled)
    a = _without_file_digests(a, frames, tmp_path / "a")
    b = _without_file_digests(b, frames, tmp_path / "b")
    assert a.count(b"<sha256>") >= 1
    assert a == b
    numbers = re.findall(rb"\d+\.\d{3,}", a)
    assert len(numbers) > 50  # the page holds numbers, and they are the same
