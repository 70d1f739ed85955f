"""The 0.1.0 shape of survey equivalence (issue 23): one vocabulary (``level``, ``bootstrap=1000``,
``seed``, ``missing``, ``options=``), ``Interval`` ranges that follow ``level``, the retired names gone,
every result type round-tripping through its JSON, and a result read back from its JSON drawing the
same figure and answering ``items_needed`` the same."""

from __future__ import annotations

import dataclasses
import inspect
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly.survey as survey
from humanly import InputError, Ratings
from humanly._core.result import Interval
from humanly.data import join
from humanly.simulate import running_example
from humanly.survey import (
    EquivalenceOptions,
    EquivalenceResult,
    ExpertEquivalence,
    Headroom,
    PowerCurve,
    TruthEquivalence,
    equivalence,
    expert_equivalence,
    headroom,
    power_curve,
    truth_equivalence,
)


@pytest.fixture(scope="module")
def sim():  # type: ignore[no-untyped-def]
    return running_example(300, 6, seed=1)


def _roundtrip(kind: type, result: Any) -> None:
    """``T.from_dict(json.loads(r.to_json())).to_dict() == json.loads(r.to_json())``."""
    data = json.loads(result.to_json())
    assert kind.from_dict(data).to_dict() == data


def _groups(n: int = 200) -> tuple[Ratings, Ratings]:
    g = np.random.default_rng(0)
    s = g.random(n) < 0.5

    def group(k: int, p1: float, p0: float) -> Ratings:
        c = g.binomial(k, np.where(s, p1, p0))
        return Ratings.from_counts(np.column_stack([k - c, c]), classes=["no", "yes"])

    return group(6, 0.9, 0.1), group(8, 0.7, 0.35)


# ------------------------------------------------------------------------------ round trips
def test_every_result_type_round_trips_through_its_json(sim) -> None:  # type: ignore[no-untyped-def]
    full = equivalence(
        sim.ratings, sim.predictions, bootstrap=100, options=EquivalenceOptions(headroom=True)
    )
    assert full.headroom is not None and full.information_intervals is not None
    _roundtrip(EquivalenceResult, full)
    back = EquivalenceResult.from_dict(json.loads(full.to_json()))
    assert back.models[1].equivalence_interval == full.models[1].equivalence_interval
    assert isinstance(back.models[1].equivalence_interval, Interval)
    assert back.information_intervals == full.information_intervals
    _roundtrip(EquivalenceResult, equivalence(sim.ratings, bootstrap=0, combiner="majority",
                                              scorer="agreement"))  # fmt: skip
    _roundtrip(PowerCurve, power_curve(sim.ratings, bootstrap=100))
    _roundtrip(Headroom, headroom(sim.ratings))
    _roundtrip(TruthEquivalence, truth_equivalence(sim))
    e, a = _groups()
    _roundtrip(ExpertEquivalence, expert_equivalence(e, a, bootstrap=100))
    for row in full.models:
        _roundtrip(type(row), row)
    _roundtrip(type(full.power_curve[0]), full.power_curve[0])


# ---------------------------------------------------------------------------------- the level
def test_level_moves_only_the_tails_of_the_ranges(sim) -> None:  # type: ignore[no-untyped-def]
    """The same replicates at every level (the same seed): the point estimates do not move, a lower
    level's ranges lie inside a higher level's, and each end is the replicates' percentile."""
    runs = {
        lv: equivalence(sim.ratings, sim.predictions, bootstrap=200, seed=3, level=lv)
        for lv in (0.5, 0.8, 0.95, 0.99)
    }
    base = runs[0.95]
    for lv, res in runs.items():
        assert res.level == lv
        assert res.scores.tolist() == base.scores.tolist()
        assert [m.equivalence for m in res.models] == [m.equivalence for m in base.models]
        assert np.array_equal(res.curve_samples, base.curve_samples)
        tail = round(50.0 * (1.0 - lv), 10)  # the library's rule: 2.5 exactly at 95%
        for j, p in enumerate(res.power_curve):
            col = res.curve_samples[:, j]
            assert p.score_interval.low == np.percentile(col, tail, method="inverted_cdf")
            assert p.score_interval.high == np.percentile(col, 100 - tail, method="inverted_cdf")
    for lo_level, hi_level in ((0.5, 0.8), (0.8, 0.95), (0.95, 0.99)):
        inner, outer = runs[lo_level], runs[hi_level]
        for p, q in zip(inner.power_curve, outer.power_curve, strict=True):
            assert q.score_interval.low <= p.score_interval.low <= p.score_interval.high
            assert p.score_interval.high <= q.score_interval.high
        for m, n in zip(inner.models, outer.models, strict=True):
            assert n.score_interval.low <= m.score_interval.low <= m.score_interval.high
            assert m.score_interval.high <= n.score_interval.high
            lo_m, hi_m = m.equivalence_interval
            lo_n, hi_n = n.equivalence_interval
            assert lo_n <= lo_m and (hi_n is None or (hi_m is not None and hi_m <= hi_n))


def test_level_reaches_the_curve_the_experts_and_the_command(cli, sim, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pc = power_curve(sim.ratings, bootstrap=100, level=0.8)
    full = equivalence(sim.ratings, bootstrap=100, level=0.8)
    assert pc.level == 0.8 and pc.to_dict()["power_curve"] == full.to_dict()["power_curve"]
    e, a = _groups()
    wide = expert_equivalence(e, a, bootstrap=100, level=0.99)
    narrow = expert_equivalence(e, a, bootstrap=100, level=0.5)
    w, n = wide.worth[3].experts_interval, narrow.worth[3].experts_interval
    assert w.low <= n.low <= n.high <= w.high and wide.level == 0.99
    files = sim.write(tmp_path / "s.csv")
    r = cli("equivalence", files["ratings"], "--predictions", files["predictions"],
            "--bootstrap", 100, "--level", 0.9)  # fmt: skip
    assert r.exit_code == 0, r.stderr
    assert "90% interval" in r.stdout and "95%" not in r.stdout
    j = cli("equivalence", files["ratings"], "--predictions", files["predictions"],
            "--bootstrap", 100, "--level", 0.9, "--json").json()  # fmt: skip
    assert j["level"] == 0.9


@settings(max_examples=25, deadline=None)
@given(st.floats(0.05, 0.99), st.integers(0, 1000))
def test_ranges_are_ordered_and_hold_the_point_at_any_level(level: float, seed: int) -> None:
    d = running_example(60, 5, seed=seed % 7)
    res = equivalence(d.ratings, d.predictions, combiner="majority", scorer="agreement",
                      bootstrap=100, seed=seed, level=level)  # fmt: skip
    for p in res.power_curve:
        lo, hi = p.score_interval
        assert lo is not None and hi is not None and lo <= hi
        assert 0.0 <= lo and hi <= 1.0  # agreement is a probability
    for m in res.models:
        lo, hi = m.equivalence_interval
        if lo is None:  # the whole range above the curve (replicates there count as +∞)
            assert hi is None
        else:
            assert lo >= 0.0 and (hi is None or lo <= hi)


# ------------------------------------------------------------------------------- the vocabulary
@pytest.mark.parametrize("name", survey.__all__)
def test_public_functions_take_at_most_ten_keywords(name: str) -> None:
    obj = getattr(survey, name)
    if not inspect.isfunction(obj):
        return
    params = inspect.signature(obj).parameters.values()
    keywords = [p for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert len(keywords) <= 10, (name, [p.name for p in keywords])
    for p in keywords:
        assert p.name not in {"n_draws", "alpha", "n_bootstrap", "progress", "target_width"}
        if p.name == "bootstrap":
            assert p.default == 1000
        if p.name == "level":
            assert p.default == 0.95
        if p.name == "seed":
            assert p.default == 0


@pytest.mark.parametrize(
    ("call", "retired"),
    [
        (lambda r, p: equivalence(r, p, n_draws=5), "n_draws"),
        (lambda r, p: equivalence(r, p, draws=5), "draws"),  # an option now
        (lambda r, p: equivalence(r, p, method="exact"), "method"),
        (lambda r, p: equivalence(r, p, headroom=True), "headroom"),
        (lambda r, p: equivalence(r, p, target_width=0.5), "target_width"),
        (lambda r, p: equivalence(r, p, progress=False), "progress"),
        (lambda r, p: equivalence(r, p, workers=2), "workers"),
        (lambda r, p: power_curve(r, max_k=2), "max_k"),
        (lambda r, p: truth_equivalence(r, p, max_k=2), "max_k"),
        (lambda r, p: expert_equivalence(r, r, max_k_amateurs=2), "max_k_amateurs"),
        (lambda r, p: headroom(r, seed=0), "seed"),
    ],
)
def test_retired_keywords_are_gone(sim, call, retired: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match=retired):
        call(sim.ratings, sim.predictions)


def test_retired_names_are_gone(sim) -> None:  # type: ignore[no-untyped-def]
    res = equivalence(sim.ratings, sim.predictions, bootstrap=100)
    m, p = res.models[0], res.power_curve[0]
    for obj, names in (
        (m, ("low", "high", "equivalence_low", "equivalence_high", "equivalence_range")),
        (p, ("low", "high", "score_range")),
        (res, ("target_width", "information_ranges", "model_information_range")),
        (res, ("information_range",)),  # retired by the last rename: information_intervals
    ):
        for name in names:
            assert not hasattr(obj, name), name
    assert callable(m.items_needed) and callable(res.items_needed)
    for name in ("calibrate_outputs", "equivalence_point", "get_scorer", "get_combiner", "ABC",
                 "SCORERS", "COMBINERS", "urn_information", "CurvePoint"):  # fmt: skip
        assert name not in survey.__all__
    with pytest.raises(TypeError):
        EquivalenceOptions(n_draws=5)  # type: ignore[call-arg]


# ----------------------------------------------------------------------------------- a study
def test_a_study_carries_its_predictions(sim) -> None:  # type: ignore[no-untyped-def]
    study = join(sim.ratings, sim.predictions)
    a = equivalence(study, bootstrap=100)
    b = equivalence(sim.ratings, sim.predictions, bootstrap=100)
    assert a.to_dict() == b.to_dict()
    with pytest.raises(InputError, match="ratings= is a Study"):
        equivalence(study, sim.predictions, bootstrap=0)
    assert (
        power_curve(study, bootstrap=0).to_dict() == power_curve(sim.ratings, bootstrap=0).to_dict()
    )
    t = truth_equivalence(study, states=sim.truth["states"])
    assert t.to_dict() == truth_equivalence(sim).to_dict()


def test_options_that_do_not_apply_are_refused_and_run_knobs_ignored(sim) -> None:  # type: ignore[no-untyped-def]
    quiet = EquivalenceOptions(progress=False, workers=None)
    t = truth_equivalence(sim, options=quiet)
    assert t.to_dict() == truth_equivalence(sim).to_dict()
    with pytest.raises(InputError, match=r"options\.draws=5 does not apply to truth_equivalence"):
        truth_equivalence(sim, options=EquivalenceOptions(draws=5))
    with pytest.raises(InputError, match="HSCORE"):
        truth_equivalence(sim, options=EquivalenceOptions(method="sampled"))
    exact = truth_equivalence(sim, options=EquivalenceOptions(method="exact"))
    assert exact.to_dict() == t.to_dict()
    e, a = _groups()
    with pytest.raises(InputError, match=r"options\.reference_size=2 does not apply"):
        expert_equivalence(e, a, bootstrap=0, options=EquivalenceOptions(reference_size=2))
    small = expert_equivalence(e, a, bootstrap=0, options=EquivalenceOptions(max_k_amateurs=2))
    assert [w.amateurs for w in small.worth] == [0, 1, 2]


# ------------------------------------------------------------------------- from its JSON alone
def test_a_result_read_back_draws_the_same_figure(sim) -> None:  # type: ignore[no-untyped-def]
    from humanly.plots.equivalence import plot_power_curve

    res = equivalence(sim.ratings, sim.predictions, bootstrap=100)
    back = EquivalenceResult.from_dict(json.loads(res.to_json()))
    assert back.curve_samples is None  # the replicates are not in the JSON

    def drawn(fig: Any) -> list[Any]:
        ax = fig.axes[0]
        out: list[Any] = [ln.get_xydata().tolist() for ln in ax.get_lines()]
        out += [p.get_path().vertices.round(12).tolist() for p in ax.patches]
        out += [c.get_paths()[0].vertices.round(12).tolist() for c in ax.collections]
        out += [t.get_text() for t in ax.get_legend().get_texts()]
        return out

    assert drawn(plot_power_curve(back)) == drawn(plot_power_curve(res))
    majority = equivalence(sim.ratings, sim.predictions, combiner="majority", scorer="agreement",
                           bootstrap=100)  # fmt: skip
    again = EquivalenceResult.from_dict(json.loads(majority.to_json()))
    assert drawn(plot_power_curve(again)) == drawn(plot_power_curve(majority))
    forced = dataclasses.replace(again)
    assert drawn(plot_power_curve(forced, information=True)) == drawn(
        plot_power_curve(majority, information=True)
    )
