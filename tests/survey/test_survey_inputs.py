"""Inputs as users hold them (joined by item id, never by position), argument checks that name the
Python parameter, and the typed results (tuples, ``to_frame``, the deprecated ``CurvePoint``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from humanly import InputError, Ratings
from humanly.data import read_predictions, read_ratings
from humanly.simulate import running_example
from humanly.survey import (
    AmateurWorth,
    EquivalenceOptions,
    EquivalenceResult,
    Headroom,
    HeadroomSupport,
    PowerCurve,
    PowerCurvePoint,
    equivalence,
    expert_equivalence,
    power_curve,
)

KW: dict[str, Any] = dict(bootstrap=100, seed=4)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = running_example(150, (3, 7), seed=5)
    return d.write(tmp_path_factory.mktemp("inputs") / "ex.csv")


@pytest.fixture(scope="module")
def from_files(files: dict[str, Path]) -> EquivalenceResult:
    r = read_ratings(files["ratings"])
    return equivalence(r, read_predictions(files["predictions"], classes=r.classes), **KW)


def _shuffled(index: pd.Index, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).permutation(len(index))


def test_ratings_as_path_or_long_frame(
    files: dict[str, Path], from_files: EquivalenceResult
) -> None:
    r = read_ratings(files["ratings"])
    preds = read_predictions(files["predictions"], classes=r.classes)
    by_path = equivalence(str(files["ratings"]), preds, **KW)
    by_frame = equivalence(pd.read_csv(files["ratings"]), preds, **KW)
    assert by_path.to_dict() == from_files.to_dict()
    assert by_frame.to_dict() == from_files.to_dict()
    pc = power_curve(files["ratings"], **KW)
    assert pc.to_dict()["power_curve"] == from_files.to_dict()["power_curve"]


def test_predictions_as_shuffled_series_and_frames(
    files: dict[str, Path], from_files: EquivalenceResult
) -> None:
    r = read_ratings(files["ratings"])
    p = read_predictions(files["predictions"], classes=r.classes)
    hard = pd.Series(np.array(r.classes)[p["hard"].values], index=r.items)
    soft = pd.DataFrame(p["soft"].values, index=r.items, columns=list(r.classes))
    order = _shuffled(r.items)
    given = {"hard": hard.iloc[order], "soft": soft.iloc[order][list(r.classes)[::-1]]}
    res = equivalence(files["ratings"], given, **KW)
    assert res.to_dict() == from_files.to_dict()


def test_predictions_as_arrays_in_ratings_order(
    files: dict[str, Path], from_files: EquivalenceResult
) -> None:
    r = read_ratings(files["ratings"])
    p = read_predictions(files["predictions"], classes=r.classes)
    hard = np.array(r.classes)[p["hard"].values]
    # an items × classes array does not say its class order (issue 26.2): refused for classes C, D
    with pytest.raises(InputError, match="one column per class"):
        equivalence(r, {"hard": hard, "soft": p["soft"].values}, **KW)
    soft = pd.DataFrame(p["soft"].values, columns=list(r.classes))
    if r.items.is_monotonic_increasing:  # the positional array needs sorted items
        given = {"hard": hard, "soft": soft.set_axis(r.items)}
        assert equivalence(r, given, **KW).to_dict() == from_files.to_dict()


def test_positive_probability_series(files: dict[str, Path], from_files: EquivalenceResult) -> None:
    """One Series of P(second class) per item: 1 − p differs from the file's column in the last bit."""
    r = read_ratings(files["ratings"])
    p = read_predictions(files["predictions"], classes=r.classes)
    order = _shuffled(r.items, 1)
    soft = pd.Series(p["soft"].values[:, 1], index=r.items, name="soft").iloc[order]
    res = equivalence(r, soft, **KW)
    want = from_files.model("soft")
    got = res.model("soft")
    assert res.scores == pytest.approx(from_files.scores, rel=1e-12)
    assert got.score == pytest.approx(want.score, rel=1e-12)
    assert got.equivalence == pytest.approx(want.equivalence, rel=1e-9)


def test_missing_items_error_or_drop(files: dict[str, Path]) -> None:
    r = read_ratings(files["ratings"])
    p = read_predictions(files["predictions"], classes=r.classes)
    part = {"soft": pd.DataFrame(p["soft"].values, index=r.items, columns=list(r.classes))[:100]}
    with pytest.raises(InputError, match="missing='drop'"):
        equivalence(r, part, **KW)
    dropped = equivalence(r, part, missing="drop", **KW)
    kept = r.take(np.arange(100))
    assert dropped.n_items == 100
    assert dropped.to_dict() == equivalence(kept, part, **KW).to_dict()


# ------------------------------------------------------------------------------ experts
def _groups(n: int = 240) -> tuple[Ratings, Ratings]:
    g = np.random.default_rng(3)
    s = g.random(n) < 0.45
    items = [f"it{i}" for i in range(n)]

    def group(k: int, p1: float, p0: float) -> Ratings:
        """Named raters r0..r{k-1}, so the group also reads as a long (item, rater, label) frame."""
        c = g.binomial(k, np.where(s, p1, p0))
        labels = np.where(np.arange(k)[None, :] < c[:, None], "y", "n")
        return Ratings.from_long(
            np.repeat(items, k), np.tile([f"r{j}" for j in range(k)], n), labels.ravel()
        )

    return group(5, 0.9, 0.1), group(7, 0.7, 0.35)


def test_expert_equivalence_matches_items_by_id() -> None:
    e, a = _groups()
    ref = expert_equivalence(e, a, bootstrap=100, seed=2)
    shuffled = a.take(_shuffled(a.items, 2))
    assert expert_equivalence(e, shuffled, bootstrap=100, seed=2).to_dict() == ref.to_dict()
    as_frames = expert_equivalence(e.to_frame(), a.to_frame(), bootstrap=100, seed=2)
    assert as_frames.to_dict() == ref.to_dict()
    assert isinstance(ref.worth[1], AmateurWorth)
    assert ref.to_dict()["worth"][1] == {
        "amateurs": 1,
        "experts": ref.worth[1].experts,
        "note": ref.worth[1].note,
        "experts_interval": list(ref.worth[1].experts_interval),
    }
    frame = ref.to_frame()
    assert list(frame.columns) == [
        "amateurs", "score", "experts", "note", "experts_low", "experts_high"
    ]  # fmt: skip
    assert frame["score"].tolist() == [p.score for p in ref.amateur_curve]


def test_expert_equivalence_missing_items() -> None:
    e, a = _groups()
    part = a.take(np.arange(200))
    with pytest.raises(InputError, match=r"40 expert-labelled item.*missing='drop'"):
        expert_equivalence(e, part, bootstrap=0)
    dropped = expert_equivalence(e, part, missing="drop", bootstrap=100)
    assert dropped.n_items == 200
    assert (
        dropped.to_dict()
        == expert_equivalence(e.take(np.arange(200)), part, bootstrap=100).to_dict()
    )


# ------------------------------------------------------------------------------ arguments
@pytest.mark.parametrize(
    ("kwargs", "error", "needle"),
    [
        ({"bootstrap": -1}, InputError, "bootstrap=-1"),
        ({"bootstrap": 2.5}, TypeError, "bootstrap=2.5"),
        ({"seed": -1}, InputError, "seed=-1"),
        ({"seed": "x"}, TypeError, "seed='x'"),
        ({"level": 0.0}, InputError, "level=0.0"),
        ({"level": 1.5}, InputError, "level=1.5"),
        ({"level": "high"}, TypeError, "level='high'"),
        ({"combiner": "median"}, InputError, "combiner='median'"),
        ({"combiner": 3}, TypeError, "combiner=int"),
        ({"scorer": "accuracy"}, InputError, "scorer='accuracy'"),
        ({"scorer": 3}, TypeError, "scorer=int"),
        ({"scorer": "auc", "options": EquivalenceOptions(method="exact")}, InputError,
         "method='sampled'"),
        ({"calibrate": "platt"}, InputError, "calibrate='platt'"),
        ({"options": EquivalenceOptions(positive="E")}, InputError, "positive='E'"),
        ({"scorer": "agreement", "options": EquivalenceOptions(headroom=True)}, InputError,
         "options.headroom=True"),
        ({"missing": "keep"}, InputError, "missing='keep'"),
        ({"options": {"draws": 5}}, TypeError, "options=dict"),
        ({"options": EquivalenceOptions(max_k_amateurs=3)}, InputError,
         "options.max_k_amateurs=3 does not apply to equivalence"),
    ],
)  # fmt: skip
def test_bad_arguments_name_the_parameter(
    kwargs: dict[str, Any], error: type[Exception], needle: str
) -> None:
    d = running_example(40, 4, seed=1)
    with pytest.raises(error, match=needle.replace("(", r"\(")) as info:
        equivalence(d.ratings, d.predictions, **{"bootstrap": 0, **kwargs})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("fields", "error", "needle"),
    [
        ({"calibration_folds": 1}, InputError, "calibration_folds=1"),
        ({"calibration_folds": -1}, InputError, "calibration_folds=-1"),
        ({"calibration_folds": 0}, InputError, "calibration_folds=0"),
        ({"reference_size": 0}, InputError, "reference_size=0"),
        ({"max_k": 0}, InputError, "max_k=0"),
        ({"max_k_amateurs": 0}, InputError, "max_k_amateurs=0"),
        ({"draws": 0}, InputError, "draws=0"),
        ({"method": "fast"}, InputError, "method='fast'"),
        ({"clip": (0.5, 0.2)}, InputError, "clip="),
        ({"clip": 0.1}, TypeError, "clip="),
        ({"headroom": "yes"}, TypeError, "headroom='yes'"),
        ({"progress": 1}, TypeError, "progress=1"),
        ({"workers": 0}, InputError, "workers"),
        ({"n_draws": 5}, TypeError, "n_draws"),  # retired: draws
        ({"target_width": 0.5}, TypeError, "target_width"),  # a method of the result now
    ],
)
def test_bad_options_fail_when_built(
    fields: dict[str, Any], error: type[Exception], needle: str
) -> None:
    with pytest.raises(error, match=needle.replace("(", r"\(")) as info:
        EquivalenceOptions(**fields)
    assert "\n" not in str(info.value)


def test_bad_arguments_of_power_curve_and_expert_equivalence() -> None:
    d = running_example(40, 4, seed=1)
    with pytest.raises(InputError, match="max_k=0"):
        power_curve(d.ratings, options=EquivalenceOptions(max_k=0))
    with pytest.raises(TypeError, match="ratings=None"):
        power_curve(None)
    e, a = _groups(60)
    with pytest.raises(InputError, match=r"options\.headroom=True does not apply to power_curve"):
        power_curve(d.ratings, options=EquivalenceOptions(headroom=True))
    for kwargs, needle in (
        ({"bootstrap": -2}, "bootstrap=-2"),
        ({"seed": -3}, "seed=-3"),
        ({"level": 1.0}, "level=1.0"),
        ({"scorer": "auc"}, "scorer='auc'"),
        ({"combiner": "mean"}, "combiner='mean'"),
        ({"missing": "skip"}, "missing='skip'"),
        ({"options": EquivalenceOptions(draws=5)}, "options.draws=5 does not apply"),
        ({"options": EquivalenceOptions(reference_size=2)}, "options.reference_size=2"),
    ):
        with pytest.raises(InputError, match=needle):
            expert_equivalence(e, a, **kwargs)
    with pytest.raises(TypeError, match="amateurs=None"):
        expert_equivalence(e, None)
    other = Ratings.from_counts(a.counts, items=a.items, classes=["n", "maybe"])
    with pytest.raises(InputError, match="classes"):
        expert_equivalence(e, other)


# ------------------------------------------------------------------------------ results
def test_results_are_typed_tuples_with_frames() -> None:
    d = running_example(120, 5, seed=3)
    res = equivalence(d.ratings, d.predictions, **KW, options=EquivalenceOptions(headroom=True))
    assert isinstance(res.power_curve, tuple) and isinstance(res.power_curve[0], PowerCurvePoint)
    assert isinstance(res.models, tuple) and isinstance(res.notes, tuple)
    assert isinstance(res.classes, tuple) and isinstance(res.information, tuple)
    assert isinstance(res.headroom, Headroom)
    assert isinstance(res.headroom.support[0], HeadroomSupport)
    assert set(res.to_dict()["headroom"]["support"][0]) == {"state", "weight"}
    models = res.to_frame()
    assert models["model"].tolist() == ["hard", "soft"]
    assert models["equivalence"].tolist()[1] == res.model("soft").equivalence
    curve = res.curve_frame()
    assert curve.columns.tolist() == [
        "k", "score", "score_low", "score_high", "n_items", "information", "information_low",
        "information_high",
    ]  # fmt: skip
    assert curve["score"].tolist() == res.scores.tolist()
    assert curve["score_low"].tolist() == [p.score_interval.low for p in res.power_curve]
    assert curve["information_high"].tolist() == [r.high for r in res.information_intervals]
    pc = res.curve
    assert isinstance(pc, PowerCurve) and pc.curve_samples is res.curve_samples
    assert pc.information_intervals == res.information_intervals and pc.level == res.level
    assert not hasattr(pc, "samples")  # retired before 0.1.0: curve_samples
    assert pc.to_frame().equals(curve.iloc[:, :5])
    assert models.columns[:7].tolist() == [
        "model", "score", "score_low", "score_high", "equivalence", "equivalence_note",
        "equivalence_low",
    ]  # fmt: skip


def test_curve_point_is_retired() -> None:
    import humanly.survey as survey

    assert survey.PowerCurvePoint is PowerCurvePoint
    with pytest.raises(AttributeError):
        _ = survey.CurvePoint  # type: ignore[attr-defined]
