"""certify() takes inputs as users hold them, joined by item id; bad arguments name their parameter;
the typed results tabulate and read back from their JSON; the names retired by the 0.1.0 reset are
gone."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import InputError, simulate
from humanly.certification import (
    BOUNDS,
    AssumptionCheck,
    AssumptionDetail,
    BoundCurvePoint,
    BoundSummary,
    CertifyOptions,
    CertifyResult,
    Confidence,
    ConfidenceCurve,
    CoverageResult,
    Evidence,
    FiniteBound,
    JointConfidence,
    Lemma2Check,
    ModelCertificate,
    OracleCheck,
    Raters,
    Simultaneous,
    UpperBound,
    UpperVerdict,
    bernstein_tail,
    certify,
    certify_summary,
    clopper_pearson_tail,
    coverage,
    hoeffding_tail,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = simulate.oracle(
        250, [0.8, 0.75, 0.7, 0.85], n_classes=3, models={"strong": 0.95, "weak": 0.7}, seed=4
    )
    return d.write(tmp_path_factory.mktemp("inputs") / "sim.csv")


@pytest.fixture(scope="module")
def from_files(files: dict[str, Path]) -> tuple[humanly.Ratings, humanly.Predictions, humanly.Gold]:
    r = humanly.data.read_ratings(files["ratings"])
    p = humanly.data.read_predictions(files["predictions"], classes=r.classes)
    g = humanly.data.read_gold(files["gold"], classes=r.classes)
    return r, p, g


def _same(a: CertifyResult, b: CertifyResult) -> None:
    da, db = a.to_dict(), b.to_dict()
    assert da == db


def _series(values: np.ndarray, items: pd.Index, perm: np.ndarray) -> pd.Series:
    return pd.Series(values[perm], index=items[perm])


KW = {"curve": True, "bound": "exact", "seed": 3}


def test_shuffled_series_frames_and_arrays_match_the_files(from_files) -> None:
    r, p, g = from_files
    ref = certify(r, p, gold=g, **KW)
    perm = np.random.default_rng(0).permutation(r.n_items)
    labels = {m: np.asarray(r.classes)[p.hard(m)] for m in p.names}
    gold_labels = np.asarray(r.classes)[g.codes]
    gold_series = _series(gold_labels, r.items, perm)
    # dict of Series indexed by item id, in a shuffled order
    series = {m: _series(v, r.items, perm) for m, v in labels.items()}
    _same(ref, certify(r, series, gold=gold_series, **KW))
    # DataFrames of probabilities (one column per class) whose argmax is the label
    frames = {}
    for m in p.names:
        proba = np.full((r.n_items, 3), 0.1)
        proba[np.arange(r.n_items), p.hard(m)] = 0.8
        frames[m] = pd.DataFrame(proba[perm], index=r.items[perm], columns=list(r.classes))
    _same(ref, certify(r, frames, gold=gold_series, **KW))
    # numpy arrays in the ratings' item order (gold too)
    _same(ref, certify(r, labels, gold=gold_labels, **KW))
    # the ratings as a long DataFrame and as a path
    _same(ref, certify(r.to_frame(), series, gold=gold_series, **KW))


def test_a_single_array_is_one_model(from_files) -> None:
    r, p, _ = from_files
    res = certify(r, p.hard("strong"))  # raised AttributeError before inputs were joined
    ref = certify(r, p.select(["strong"]))
    assert [m.model for m in res.models] == ["model"]
    assert res.models[0].lower == ref.models[0].lower
    assert res.models[0].confidence == ref.models[0].confidence


def test_same_numbers_as_the_command_line(cli, files, from_files) -> None:
    r, p, g = from_files
    out = cli(
        "certify", files["ratings"], "--predictions", files["predictions"], "--gold",
        files["gold"], "--curve", "--bound", "exact", "--seed", "3", "--json",
    )  # fmt: skip
    assert out.exit_code == 0, out.stderr
    perm = np.random.default_rng(1).permutation(r.n_items)
    series = {m: _series(np.asarray(r.classes)[p.hard(m)], r.items, perm) for m in p.names}
    gold = _series(np.asarray(r.classes)[g.codes], r.items, perm)
    res = certify(r, series, gold=gold, **KW)
    assert out.json() == res.to_dict()


def test_gold_for_unknown_items_is_an_error_unless_dropped(from_files) -> None:
    r, p, g = from_files
    gold = pd.Series(np.asarray(r.classes)[g.codes], index=r.items)
    extra = pd.concat([gold, pd.Series([0], index=["not-rated"])])
    with pytest.raises(InputError, match="missing='drop'"):
        certify(r, p, gold=extra)
    with pytest.raises(InputError, match="no ratings"):
        certify(r, p, gold=humanly.Gold(extra.index, r.classes, np.zeros(len(extra), np.int16)))
    _same(certify(r, p, gold=gold), certify(r, p, gold=extra, missing="drop"))
    # gold on a subset of the items is fine without missing="drop"
    sub = certify(r, p, gold=gold.iloc[:50])
    assert sub.oracle is not None and sub.oracle.n_items == 50


def test_predictions_missing_items(from_files) -> None:
    r, p, _ = from_files
    s = {m: pd.Series(p.hard(m)[10:], index=r.items[10:]) for m in p.names}
    with pytest.raises(InputError, match="missing='drop'"):
        certify(r, s)
    dropped = certify(r, s, missing="drop")
    assert dropped.n_items == r.n_items - 10
    _same(dropped, certify(r.take(np.arange(10, r.n_items)), p.take(np.arange(10, r.n_items))))


def test_gold_with_other_classes(from_files) -> None:
    r, p, g = from_files
    other = humanly.Gold(g.items, ("x", "y", "z"), g.codes, "other")
    with pytest.raises(InputError, match="differ from the ratings' classes"):
        certify(r, p, gold=other)


# ------------------------------------------------------------------------------ argument checks
@pytest.fixture(scope="module")
def small() -> Any:
    return simulate.oracle(60, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)


BAD = [
    ("level", 0, InputError),
    ("level", 1, InputError),
    ("level", 1.5, InputError),
    ("level", "0.95", TypeError),
    ("tau", -0.1, InputError),
    ("tau", 1.0, InputError),
    ("seed", -1, InputError),
    ("seed", 1.5, TypeError),
    ("bound", "chernoff", InputError),
    ("aggregate", "mean", InputError),
    ("upper_kind", "max", InputError),
    ("rater_mode", "teams", InputError),
    ("missing", "keep", InputError),
]


@pytest.mark.parametrize(("name", "value", "error"), BAD)
def test_bad_arguments_name_the_parameter(small, name: str, value, error: type) -> None:
    with pytest.raises(error) as info:
        certify(small.ratings, small.predictions, **{name: value})
    assert str(info.value).startswith(f"{name}=")


BAD_OPTIONS = [
    ("delta", 0.0, InputError),
    ("delta", 1.0, InputError),
    ("delta", "0.05", TypeError),
    ("t_u", 0.0, InputError),
    ("t_u", -0.1, InputError),
    ("t_u", math.nan, InputError),
    ("t_l", math.inf, InputError),
    ("curve_subsets", 0, InputError),
    ("curve_subsets", 2.5, TypeError),
    ("curve_max_k", 0, InputError),
    ("oms_steps", -1, InputError),
    ("oms_steps", 0, InputError),
    ("oms_lr", math.nan, InputError),
    ("oms_lr", 0.0, InputError),
    ("workers", 0, InputError),
]


@pytest.mark.parametrize(("name", "value", "error"), BAD_OPTIONS)
def test_bad_options_name_the_field_when_made(name: str, value, error: type) -> None:
    with pytest.raises(error) as info:
        CertifyOptions(**{name: value})
    assert str(info.value).startswith(f"{name}=")


def test_options_are_typed(small) -> None:
    with pytest.raises(TypeError, match="detla"):
        CertifyOptions(detla=0.01)  # type: ignore[call-arg]
    with pytest.raises(
        TypeError, match=r"options=dict: give a humanly\.certification\.CertifyOptions"
    ):
        certify(small.ratings, small.predictions, options={"delta": 0.01})  # type: ignore[arg-type]
    opts = CertifyOptions(curve_subsets=20.0, oms_steps=3.0, t_u=1)  # type: ignore[arg-type]
    assert (opts.curve_subsets, opts.oms_steps, opts.t_u) == (20, 3, 1.0)
    assert type(opts.curve_subsets) is int and type(opts.t_u) is float
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.delta = 0.1  # type: ignore[misc]
    # (1 − level)/2 is the default δ, taken as written: level 0.95 gives 0.025, not 0.025000000000000022
    assert certify(small.ratings, small.predictions).delta == 0.025
    assert certify(small.ratings, small.predictions, level=0.9).delta == 0.05
    given = certify(small.ratings, small.predictions, options=CertifyOptions(delta=0.01))
    assert given.delta == 0.01 and given.finite_upper.delta == 0.01


def test_a_study_carries_its_predictions_and_gold(small) -> None:
    study = humanly.data.join(small.ratings, small.predictions, small.gold)
    assert (
        certify(study).to_dict() == certify(small.ratings, small.predictions, small.gold).to_dict()
    )
    with pytest.raises(InputError, match="ratings= is a Study"):
        certify(study, small.predictions)
    with pytest.raises(InputError, match="ratings= is a Study"):
        certify(study, gold=small.gold)


BAD_SUMMARY = [
    ({"lower": [1.2]}, "lower=", InputError),
    ({"lower": [-0.1]}, "lower=", InputError),
    ({"upper": 1.5}, "upper=", InputError),
    ({"n_items": 0}, "n_items=", InputError),
    ({"n_items": 1.5}, "n_items=", TypeError),
    ({"n_items": [100, 100, 100]}, "n_items=", InputError),
    ({"labels_per_item": 0.5}, "labels_per_item=", InputError),
    ({"upper_kind": "max"}, "upper_kind=", InputError),
    ({"upper_kind": "theoretical"}, "upper_kind=", InputError),  # needs k
    ({"n_upper": 0}, "n_upper=", InputError),
    ({"level": 2}, "level=", InputError),
    ({"tau": 1.5}, "tau=", InputError),
    ({"n_classes": 1}, "n_classes=", InputError),
    ({"models": ["a"]}, "models", InputError),
    ({"options": CertifyOptions(curve_subsets=10)}, "options.curve_subsets", InputError),
    ({"options": CertifyOptions(curve_max_k=3)}, "options.curve_max_k", InputError),
]


@pytest.mark.parametrize(("change", "named", "error"), BAD_SUMMARY)
def test_bad_summary_arguments_name_the_parameter(change: dict, named: str, error: type) -> None:
    args = {"lower": [0.949, 0.971], "upper": 0.939, "n_items": 1821} | change
    with pytest.raises(error) as info:
        certify_summary(args.pop("lower"), args.pop("upper"), args.pop("n_items"), **args)
    assert named in str(info.value)


def test_good_edge_arguments_are_accepted(small) -> None:
    opts = CertifyOptions(t_u=1.5, t_l=2.0, oms_steps=1, oms_lr=1e-3)
    res = certify(small.ratings, small.predictions, options=opts)
    assert res.finite_upper.t == 1.5 and res.models[0].finite_lower.t == 2.0
    assert certify_summary(0.97, 0.93, 1821.0, labels_per_item=3.0).raters == Raters("summary", 3)


# ------------------------------------------------------------------------------ typed results
def test_confidence_curve_matches_what_the_plot_computed(small) -> None:
    from humanly.plots.certify import plot_confidence

    d = simulate.oracle(400, [0.8, 0.75, 0.7], models={"a": 0.97, "b": 0.95}, seed=6)
    for bound in BOUNDS:
        res = certify(d.ratings, d.predictions, bound=bound)
        ub = res.upper_bound
        fig = plot_confidence(res, points=50)
        drawn = iter(line for line in fig.axes[0].get_lines() if len(line.get_xdata()) == 50)
        for m in res.models:
            if not m.confidence.admissible:
                continue
            # the computation plots/certify.py did before the curve became a method of the result
            if bound == "hoeffding":
                tail_u, tail_l = hoeffding_tail(ub.n), hoeffding_tail(m.n)
            elif bound == "bernstein":
                tail_u = bernstein_tail(ub.n, ub.variance or 0.0)
                tail_l = bernstein_tail(m.n, m.lower_variance or 0.0)
            else:
                tail_u = bernstein_tail(ub.n, ub.variance or 0.0)
                tail_l = clopper_pearson_tail(m.n, m.full_credit or 0, m.lower)
            tu = np.linspace(0.0, m.confidence.t_u_max, 50)
            u = ub.upper
            old = [1 - tail_u.delta(t) - tail_l.delta(m.lower - math.sqrt(t + u * u)) for t in tu]
            cc = res.confidence_curve(m.model, points=50)
            assert list(cc.confidence) == old
            assert list(cc.t_u) == tu.tolist()
            assert list(next(drawn).get_ydata()) == old
            frame = cc.to_frame()
            assert len(frame) == 50
            np.testing.assert_allclose(
                1 - frame.delta_u - frame.delta_l, frame.confidence, rtol=0, atol=1e-15
            )
            assert max(cc.confidence) <= m.confidence.oms + 1e-9
            at = res.confidence_curve(m.model, t_u=[m.confidence.t_u])
            assert at.confidence[0] == pytest.approx(m.confidence.oms, abs=1e-15)


def test_confidence_curve_not_admissible() -> None:
    res = certify_summary([0.85, 0.95], 0.879, 10000)
    with pytest.raises(InputError, match="no t_u is admissible"):
        res.confidence_curve("model1")
    assert len(res.confidence_curve("model1", t_u=[0.0, 0.01]).confidence) == 2
    with pytest.raises(KeyError):
        res.confidence_curve("nope")


def test_to_frame_tables(small) -> None:
    res = certify(small.ratings, small.predictions, gold=small.gold, curve=True)
    table = res.to_frame()
    assert table.model.tolist() == ["m"] and table.loc[0, "lower"] == res.models[0].lower
    assert table.loc[0, "upper"] == res.upper_bound.upper
    assert table.loc[0, "true_accuracy"] == res.oracle.models["m"]
    curve = res.curve.to_frame()
    assert curve.k.tolist() == [p.k for p in res.curve]
    assert curve["lower:m"].tolist() == [p.lower["m"] for p in res.curve]


def test_results_are_typed_with_one_name_per_key(small) -> None:
    res = certify(small.ratings, small.predictions, gold=small.gold, curve=True)
    assert isinstance(res.models, tuple) and isinstance(res.notes, tuple)
    assert isinstance(res.curve, tuple) and isinstance(res.curve[0], BoundCurvePoint)
    assert isinstance(res.upper_bound.finite["exact"], FiniteBound)
    assert isinstance(res.oracle.assumptions, tuple)
    d = res.to_dict()
    assert d["raters"] == {"mode": "slots", "labels_per_item": 3} and "annotators" not in d
    assert d["upper_bound"]["upper"] == res.upper_bound.upper and "value" not in d["upper_bound"]
    m = d["models"][0]
    assert m["lower"] == res.models[0].lower and "lower_bound" not in m
    assert m["finite_lower"] == {
        "delta": res.delta, "t": res.models[0].finite_lower.t,
        "value": res.models[0].finite_lower.value,
    }  # fmt: skip
    b = m["by_bound"]["hoeffding"]
    assert b["finite_upper"]["value"] == res.models[0].by_bound["hoeffding"].finite_upper.value
    assert not {"upper", "lower", "delta_upper", "delta_lower"} & set(b)
    detail = d["oracle"]["assumptions"][1]["detail"]
    assert detail["left_formula"] == "P(l_b = l* | l_a != l*)" and "left" not in detail
    assert isinstance(detail["prediction_distribution"], list)


# ------------------------------------------------------------------------------ JSON round trip
def _round_trip(kind: type, r: Any) -> None:
    """``T.from_dict(json.loads(r.to_json())).to_dict() == json.loads(r.to_json())``."""
    data = json.loads(r.to_json())
    back = kind.from_dict(data)
    assert type(back) is kind
    assert back.to_dict() == data


def _parts(res: CertifyResult) -> list[tuple[type, Any]]:
    """Every result type inside a certificate, one instance each (where it occurs)."""
    m = res.models[0]
    out: list[tuple[type, Any]] = [
        (CertifyResult, res),
        (ModelCertificate, m),
        (UpperBound, res.upper_bound),
        (Raters, res.raters),
        (FiniteBound, m.finite_lower),
        (Confidence, m.confidence),
        (BoundSummary, m.by_bound[res.bound]),
        (Evidence, m.evidence),
        (Simultaneous, res.simultaneous),
    ]
    out += [(UpperVerdict, v) for v in m.by_upper.values()]
    if res.upper_bound.lemma2 is not None:
        out.append((Lemma2Check, res.upper_bound.lemma2))
    if res.simultaneous.joint is not None:
        out.append((JointConfidence, res.simultaneous.joint))
    if res.oracle is not None:
        out.append((OracleCheck, res.oracle))
        out += [(AssumptionCheck, a) for a in res.oracle.assumptions]
        out += [(AssumptionDetail, a.detail) for a in res.oracle.assumptions]
    if res.curve:
        out += [(BoundCurvePoint, p) for p in res.curve]
    if m.confidence.admissible:
        out.append((ConfidenceCurve, res.confidence_curve(m.model, points=7)))
    return out


def test_every_result_type_reads_back_from_its_json(small) -> None:
    named = simulate.oracle(80, [0.8, 0.7, 0.75, 0.9], models={"a": 0.95, "b": 0.93}, seed=2)
    ragged = humanly.Ratings.from_counts([[2, 1], [3, 0], [1, 1], [4, 1], [0, 2]], classes=[0, 1])
    results = [
        certify(small.ratings, small.predictions, small.gold, curve=True, bound="exact"),
        certify(named.ratings, named.predictions, named.gold, rater_mode="named", curve=True),
        certify(ragged, np.array([0, 0, 1, 0, 1]), curve=True, tau=0.01),
        certify_summary([0.949, 0.971], 0.939, 1821, labels_per_item=3, n_classes=2),
        certify_summary([0.899, 0.919], 0.879, 10000, models=["GPT", "SemBERT"]),
    ]
    seen = set()
    for res in results:
        for kind, value in _parts(res):
            _round_trip(kind, value)
            seen.add(kind)
    _round_trip(CoverageResult, coverage(5, 40, seed=1))
    import humanly.certification as c

    results_in_all = {getattr(c, n) for n in c.__all__ if isinstance(getattr(c, n), type)}
    results_in_all = {t for t in results_in_all if hasattr(t, "to_json")}
    assert results_in_all - seen == {CoverageResult}


# ------------------------------------------------------------------------------ retired names
def test_retired_names_are_gone(small) -> None:
    """Before 0.1.0 the names were reset once, without deprecation shims."""
    r, p = small.ratings, small.predictions
    with pytest.raises(TypeError, match="annotators"):
        certify(r, p, annotators="named")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="annotators"):
        certify_summary([0.971], 0.939, 1821, annotators=3)  # type: ignore[call-arg]
    import humanly.certification as c

    assert not hasattr(c, "CurvePoint")
    res = certify(r, p)
    assert not hasattr(res, "annotators") and not hasattr(res.models[0], "lower_bound")


def test_names_retired_by_the_api_reset_are_gone(small) -> None:
    """0.1.0 (issue 23): ``level`` for ``alpha``, the rarer knobs in CertifyOptions, the aggregates
    ``plurality`` and ``dawid_skene``, ``gold`` the third positional argument."""
    r, p = small.ratings, small.predictions
    for old in ("alpha", "delta", "t_u", "t_l", "oms_steps", "oms_lr", "curve_subsets",
                "curve_max_k", "workers", "scheduler", "client"):  # fmt: skip
        with pytest.raises(TypeError, match=old):
            certify(r, p, **{old: 0.05})
    for old in ("alpha", "delta", "t_u", "bound", "oms_steps"):
        with pytest.raises(TypeError, match=old):
            certify_summary([0.971], 0.939, 1821, **{old: 0.05})
    for old in ("majority", "dawid-skene", "ds"):
        with pytest.raises(InputError, match=f"aggregate='{old}'"):
            certify(r, p, aggregate=old)
    res = certify(r, p, small.gold)
    d = res.to_dict()
    assert d["level"] == 0.95 and "alpha" not in d and "alpha" not in d["simultaneous"]
    assert d["aggregate"] == "plurality" and res.oracle is not None
    assert "average_rater" in d["oracle"] and "average_annotator" not in d["oracle"]
    assert not hasattr(res, "alpha") and not hasattr(res.simultaneous, "alpha")
