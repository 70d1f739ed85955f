"""Multiclass calibration for survey equivalence (issue 25, item 3): one-vs-rest isotonic with
renormalisation, temperature scaling and per-value, in-sample and cross-fitted.

* On a simulated 3-class study whose model is over-confident by a known factor, every calibration
  raises the model's cross-entropy and moves its survey equivalence toward the truth: the equivalence
  of the calibrated classifier computed from the generating model (``E[state | output]``).
* One-vs-rest isotonic equals scikit-learn's ``CalibratedClassifierCV(method="isotonic")`` on the same
  fitted probabilities without ties (scikit-learn 1.9.1 when written; test-only, skipped without it).
* Calibration and the equivalence do not depend on the order of the input rows, in-sample or
  cross-fitted.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import InputError, Predictions, Ratings
from humanly.survey import EquivalenceOptions, equivalence
from humanly.survey.calibration import (
    DEFAULT_CALIBRATION,
    calibrate_outputs,
    resolve_calibration,
    temperature_fit,
)

#: The generating model: three item states (label distributions over three classes), equally likely.
STATES = np.array([[0.8, 0.15, 0.05], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7]])
#: The model reports the item's state with this probability, else one of the other two at random.
HIT = 0.7
#: The model's outputs are softmax(OVER · log q): over-confident by this factor.
OVER = 3.0


def _calibrated_by_report() -> np.ndarray:
    """E[state | report = j] under the generating model (the calibrated output for report j)."""
    s = len(STATES)
    like = np.full((s, s), (1 - HIT) / (s - 1))  # like[t, j] = P(report j | state t)
    np.fill_diagonal(like, HIT)
    post = like / like.sum(axis=0, keepdims=True)  # P(state t | report j), equal priors
    return post.T @ STATES


def _study(n: int, raters: int, seed: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Long ratings, the model's over-confident outputs and the calibrated ones (the truth), by item."""
    g = np.random.default_rng(seed)
    state = g.integers(0, len(STATES), n)
    labels = np.array([g.choice(3, size=raters, p=STATES[t]) for t in state])
    shift = g.integers(1, len(STATES), n)
    report = np.where(g.random(n) < HIT, state, (state + shift) % len(STATES))
    truth = _calibrated_by_report()[report]
    z = OVER * np.log(truth) + g.normal(scale=1e-3, size=truth.shape)  # no ties between items
    raw = np.exp(z - z.max(axis=1, keepdims=True))
    raw /= raw.sum(axis=1, keepdims=True)
    long = pd.DataFrame(
        {
            "item": np.repeat([f"i{i:05d}" for i in range(n)], raters),
            "rater": np.tile(np.arange(raters), n),
            "label": labels.ravel(),
        }
    )
    return long, raw, truth


def _eq(res_model) -> float:  # type: ignore[no-untyped-def]
    if res_model.equivalence is not None:
        return float(res_model.equivalence)
    return 0.0 if res_model.equivalence_note == "below_0" else float("inf")


@pytest.fixture(scope="module")
def three_class() -> tuple[Ratings, np.ndarray, np.ndarray]:
    long, raw, truth = _study(1500, 8, seed=3)
    r = Ratings.from_long(long["item"], long["rater"], long["label"], classes=[0, 1, 2])
    order = np.argsort(np.asarray(r.items))  # r.items sorted: rows of raw/truth are i00000…
    assert (np.asarray(r.items) == np.array([f"i{i:05d}" for i in range(1500)])[order]).all()
    return r, raw[order], truth[order]


@pytest.mark.parametrize("method", ["isotonic", "temperature", "per-value", "auto"])
@pytest.mark.parametrize("folds", [None, 5])
def test_calibration_improves_cross_entropy_and_moves_toward_the_truth(
    three_class: tuple[Ratings, np.ndarray, np.ndarray], method: str, folds: int | None
) -> None:
    r, raw, truth = three_class
    preds = Predictions.from_arrays(r.items, {"m": raw, "truth": truth}, classes=r.classes)
    opts = EquivalenceOptions(calibration_folds=folds, progress=False)
    before = equivalence(r, preds, calibrate="none", bootstrap=0, options=opts)
    if method == "per-value":  # the outputs are continuous; per-value reads the rounded report
        keys = np.argmax(raw, axis=1)
        preds = Predictions.from_arrays(
            r.items, {"m": keys, "truth": truth}, classes=r.classes, kind={"m": "label"}
        )
    after = equivalence(r, preds, calibrate=method, bootstrap=0, options=opts)
    raw_m, cal_m = before.model("m"), after.model("m")
    # the truth: the generating model's calibrated output, scored as given on the same curve
    target = _eq(before.model("truth"))
    assert 0.2 < target < 3, target  # a model worth a fraction of the raters: an interior point
    assert raw_m.uncalibrated and not cal_m.uncalibrated
    assert cal_m.score > raw_m.score + 0.1  # bits: over-confidence costs a lot of cross-entropy
    assert abs(_eq(cal_m) - target) < abs(_eq(raw_m) - target)
    assert abs(_eq(cal_m) - target) < 0.25  # and lands near it (1,500 items)
    assert _eq(raw_m) == 0.0  # uncalibrated it does no better than no labels
    want = resolve_calibration(
        method, proper=True, kind="label" if method == "per-value" else "proba", n_classes=3
    )
    how = "in-sample" if folds is None else f"{folds}-fold cross-fitted"
    assert cal_m.calibration == f"{want} ({how})"


def test_temperature_recovers_the_over_confidence(
    three_class: tuple[Ratings, np.ndarray, np.ndarray],
) -> None:
    r, raw, _ = three_class
    freq = r.counts / r.counts.sum(axis=1, keepdims=True)
    # the maximum-likelihood temperature of over-confident outputs is near the factor used
    assert temperature_fit(np.log(raw), freq) == pytest.approx(OVER, rel=0.1)


def _cal_frame(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = np.random.default_rng(seed)
    p = g.dirichlet(np.ones(3), size=n)  # continuous probabilities: no ties within a column
    y = np.array([g.choice(3, p=np.clip(pi**2 / (pi**2).sum(), 0, 1)) for pi in p])
    return p, y, np.eye(3, dtype=int)[y]


@pytest.mark.parametrize("seed", range(5))
def test_ovr_isotonic_equals_scikit_learn(seed: int) -> None:
    sklearn = pytest.importorskip("sklearn")  # 1.9.1 when written
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.frozen import FrozenEstimator

    class Given(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
        """A fitted classifier whose probabilities are its inputs."""

        def fit(self, x, y):  # type: ignore[no-untyped-def]
            self.classes_ = np.arange(3)
            return self

        def predict_proba(self, x):  # type: ignore[no-untyped-def]
            return np.asarray(x)

        def predict(self, x):  # type: ignore[no-untyped-def]
            return np.argmax(np.asarray(x), axis=1)

    assert sklearn.__version__
    p, y, counts = _cal_frame(200 + 37 * seed, seed)
    ref = CalibratedClassifierCV(FrozenEstimator(Given().fit(p, y)), method="isotonic")
    want = ref.fit(p, y).predict_proba(p)
    got = calibrate_outputs("proba", p, counts, "isotonic", positive=0, eps=0.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    # and at new outputs (interpolated between fitted points, clipped beyond them)
    q, _, _ = _cal_frame(50, seed + 100)
    from humanly.survey.calibration import _ovr_isotonic

    np.testing.assert_allclose(
        _ovr_isotonic(p, counts.astype(float), q), ref.predict_proba(q), rtol=0, atol=1e-9
    )


def test_ovr_isotonic_rows_are_distributions_and_uniform_where_all_fit_zero() -> None:
    p, _, counts = _cal_frame(300, 7)
    got = calibrate_outputs("proba", p, counts, "isotonic", positive=0, eps=0.0)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-12)
    assert (got >= 0).all()
    # rows that every class fits to 0 become uniform (scikit-learn's rule)
    from humanly.survey.calibration import _ovr_isotonic

    x = np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    f = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    np.testing.assert_allclose(_ovr_isotonic(x, f, x), np.full((2, 3), 1 / 3))


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["isotonic", "temperature"]),
       st.sampled_from([None, 3]))  # fmt: skip
def test_input_row_order_does_not_change_calibration(rnd, method: str, folds: int | None) -> None:  # type: ignore[no-untyped-def]
    long, raw, _ = _study(60, 4, seed=11)
    pred = pd.DataFrame({"item": [f"i{i:05d}" for i in range(60)]})
    for c in range(3):
        pred[f"p{c}"] = raw[:, c]
    rows = list(range(len(long)))
    rnd.shuffle(rows)
    items = list(range(60))
    rnd.shuffle(items)
    opts = EquivalenceOptions(calibration_folds=folds, progress=False)

    def run(lg: pd.DataFrame, pr: pd.DataFrame) -> tuple[float, ...]:
        r = Ratings.from_long(lg["item"], lg["rater"], lg["label"], classes=[0, 1, 2])
        p = Predictions.from_arrays(
            pr["item"], {"m": pr[["p0", "p1", "p2"]].to_numpy()}, classes=r.classes
        )
        res = equivalence(r, p, calibrate=method, bootstrap=0, options=opts)
        return (res.models[0].score, *res.scores)

    a = run(long, pred)
    b = run(long.iloc[rows].reset_index(drop=True), pred.iloc[items].reset_index(drop=True))
    np.testing.assert_allclose(a, b, rtol=1e-12)


def test_default_and_refusals() -> None:
    assert DEFAULT_CALIBRATION == "auto"
    assert resolve_calibration("auto", proper=True, kind="proba", n_classes=2) == "isotonic"
    assert resolve_calibration("auto", proper=True, kind="label", n_classes=2) == "isotonic"
    assert resolve_calibration("auto", proper=True, kind="score", n_classes=3) == "per-value"
    assert resolve_calibration("auto", proper=False, kind="label", n_classes=3) == "none"
    assert resolve_calibration("none", proper=True, kind="proba", n_classes=3) == "none"
    counts = np.array([[1, 1, 0], [2, 0, 0], [0, 0, 2]])
    with pytest.raises(InputError, match="temperature scaling rescales probabilities"):
        calibrate_outputs("label", np.array([0, 1, 2]), counts, "temperature", positive=0)
    with pytest.raises(InputError, match="calibrate='per-value'"):
        calibrate_outputs("score", np.array([0.1, 0.2, 0.3]), counts, "isotonic", positive=0)
    # labels of more than two classes are one-hot outputs for one-vs-rest isotonic
    out = calibrate_outputs("label", np.array([0, 0, 2]), counts, "isotonic", positive=0)
    np.testing.assert_allclose(out.sum(axis=1), 1.0)


# ------------------------------------------------------------------ one default: API, CLI, report
def test_one_default_for_the_api_the_command_line_and_the_report(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import inspect

    from humanly import analyze
    from humanly import equivalence as top_level
    from humanly.simulate import running_example
    from humanly.survey import truth_equivalence

    for fn in (equivalence, top_level, truth_equivalence):
        assert inspect.signature(fn).parameters["calibrate"].default == DEFAULT_CALIBRATION
    d = running_example(300, 6, seed=2)
    paths = d.write(tmp_path / "re.csv")
    api = equivalence(d.ratings, d.predictions, bootstrap=0)
    out = cli("equivalence", paths["ratings"], "--predictions", paths["predictions"],
              "--bootstrap", 0, "--json")  # fmt: skip
    assert out.exit_code == 0, out.stderr
    j = out.json()
    assert j["calibration"] == api.calibration == "isotonic (in-sample)"
    assert [m["score"] for m in j["models"]] == pytest.approx([m.score for m in api.models])
    study = analyze(d.ratings, d.predictions, bootstrap=0)
    runs = {r.key: r for r in study.equivalence}
    ce = runs["abc+cross_entropy"].result
    assert ce is not None and ce.calibration == api.calibration
    assert [m.score for m in ce.models] == pytest.approx([m.score for m in api.models], rel=1e-12)
    agree = runs["majority+agreement"].result
    assert agree is not None and agree.calibration == "none"  # auto: only a proper scorer
    assert not any(m.uncalibrated for m in agree.models)  # agreement is not a proper scorer
    # asked for by name, no calibration: the command's sentence says so
    raw = cli("equivalence", paths["ratings"], "--predictions", paths["predictions"],
              "--bootstrap", 0, "--calibrate", "none")  # fmt: skip
    assert raw.exit_code == 0, raw.stderr
    said = raw.stdout.count("(not calibrated: its outputs were scored as given")
    said += raw.stdout.count("but its outputs were scored as given, not calibrated")
    assert said == 2  # one per model, in the words of its verdict
