"""Theorem 7 with a margin τ > 0 (eqs. 28–35): "the model beats the average rater by at least τ"."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import InputError, simulate
from humanly.certification import (
    BOUNDS,
    Sample,
    bernstein_tail,
    certify,
    certify_summary,
    clopper_pearson_tail,
    confidence,
    hoeffding_tail,
)
from humanly.certification.needed import items_needed


def _sim():
    return simulate.oracle(
        300, [0.8, 0.7, 0.75, 0.85, 0.65], n_classes=3,
        models={"strong": 0.95, "weak": 0.7, "mid": 0.82}, seed=3,
    )  # fmt: skip


# the numbers humanly printed before τ existed (commit 8b6837a), as exact floats
BEFORE = {
    ("summary", "model1"): (-0.7347480082579592, -0.2730209014063143, 0.018880000000000008),
    ("summary", "model2"): (0.472983428000168, 0.6207762666228891, 0.02466702342785248),
    ("hoeffding", "strong"): (0.9112509928016527, 0.95403389181293, 0.08245834072673622),
    ("hoeffding", "mid"): (-0.8387838989726313, -0.5734305097136848, 0.030444444444444496),
    ("exact", "strong"): (0.9352918906300526, 0.9962760394726882, 0.10921757482343167),
}


def test_tau_zero_gives_the_numbers_of_before_bit_for_bit() -> None:
    res = certify_summary(
        [0.949, 0.971, 0.899, 0.919], 0.939, [1821, 1821, 10000, 10000], labels_per_item=3
    )
    assert (
        res.to_dict()
        == certify_summary(
            [0.949, 0.971, 0.899, 0.919],
            0.939,
            [1821, 1821, 10000, 10000],
            labels_per_item=3,
            tau=0.0,
        ).to_dict()
    )
    for name in ("model1", "model2"):
        c = res.model(name).confidence
        assert (c.hms, c.oms, c.t_u) == BEFORE[("summary", name)]
    assert res.simultaneous.joint.confidence == -0.44459706643667896
    d = _sim()
    hoeff = certify(d.ratings, d.predictions, gold=d.gold, curve=True)
    for name in ("strong", "mid"):
        c = hoeff.model(name).confidence
        assert (c.hms, c.oms, c.t_u) == BEFORE[("hoeffding", name)]
    assert hoeff.simultaneous.joint.confidence == -0.5741336177492914
    exact = certify(d.ratings, d.predictions, rater_mode="named", bound="exact")
    c = exact.model("strong").confidence
    assert (c.hms, c.oms, c.t_u) == BEFORE[("exact", "strong")]
    assert hoeff.tau == 0.0 and hoeff.to_dict()["tau"] == 0.0


def _brute_force(lower: float, upper: float, tau: float, tail_u, tail_l, n: int = 1201) -> float:
    """max of 1 − δ_u(t_u) − δ_l(t_l) over a (t_u, t_l) grid with L − t_l − sqrt(t_u + U²) ≥ τ."""
    reach = lower - tau
    t_max = reach * reach - upper * upper
    t_u = np.linspace(0.0, t_max, n)
    best = -math.inf
    du = tail_u.delta_array(t_u)
    for t_l in np.linspace(0.0, reach - upper, n):
        ok = lower - t_l - np.sqrt(t_u + upper * upper) >= tau - 1e-15
        if ok.any():
            s = 1.0 - du[ok] - tail_l.delta(float(t_l))
            best = max(best, float(s.max()))
    return best


@pytest.mark.parametrize(
    ("lower", "upper", "n", "tau"),
    [(0.971, 0.939, 1821, 0.005), (0.919, 0.879, 10000, 0.02), (0.95, 0.8, 400, 0.05)],
)
@pytest.mark.parametrize("bound", ["hoeffding", "bernstein", "exact"])
def test_oms_agrees_with_a_brute_force_maximisation_over_both_deviations(
    lower: float, upper: float, n: int, tau: float, bound: str
) -> None:
    tail_u = hoeffding_tail(n) if bound == "hoeffding" else bernstein_tail(n, 0.08)
    tail_l = {
        "hoeffding": hoeffding_tail(n),
        "bernstein": bernstein_tail(n, lower * (1 - lower)),
        "exact": clopper_pearson_tail(n, round(lower * n), lower),
    }[bound]
    c = confidence(lower, upper, tail_u, tail_l, tau=tau)
    brute = _brute_force(lower, upper, tau, tail_u, tail_l)
    assert c.oms >= brute - 1e-9  # OMS is at least the best grid point …
    assert c.oms <= brute + 2e-3  # … and the grid comes close to it
    assert c.t_u_max == pytest.approx((lower - tau) ** 2 - upper**2)
    assert c.t_l == pytest.approx(lower - tau - math.sqrt(c.t_u + upper**2), abs=1e-12)
    assert c.t_l >= -1e-12 and 0 <= c.t_u <= c.t_u_max


@settings(max_examples=60, deadline=None)
@given(
    upper=st.floats(0.3, 0.95),
    gap=st.floats(0.001, 0.2),
    n=st.integers(20, 50_000),
    taus=st.lists(st.floats(0.0, 0.25), min_size=2, max_size=4),
    bound=st.sampled_from(["hoeffding", "bernstein", "exact"]),
)
def test_confidence_is_non_increasing_in_tau(
    upper: float, gap: float, n: int, taus: list[float], bound: str
) -> None:
    lower = min(upper + gap, 1.0)
    b = BOUNDS[bound]
    su = Sample(n, upper**2, 0.05)
    sl = Sample(n, lower, lower * (1 - lower), round(lower * n))
    tail_u, tail_l = b.upper(su), b.lower(sl)
    prev_s, prev_needed = math.inf, 0
    for tau in sorted(taus):
        c = confidence(lower, upper, tail_u, tail_l, tau=tau)
        s = -math.inf if c.oms is None else c.oms
        assert s <= prev_s + 1e-9
        assert c.admissible == (lower - tau > upper)
        if c.oms is not None:
            assert -1 <= c.oms <= 1
        needed = items_needed(lower, upper, b, su, sl, level=0.95, tau=tau)
        if needed is None:
            prev_needed = math.inf  # type: ignore[assignment]
        else:
            assert needed >= prev_needed
            prev_needed = needed
        prev_s = s


def test_tau_everywhere_s_is_computed() -> None:
    d = _sim()
    tau = 0.02
    res = certify(d.ratings, d.predictions, tau=tau)
    base = certify(d.ratings, d.predictions)
    strong, strong0 = res.model("strong"), base.model("strong")
    assert res.tau == tau
    for b in strong.by_bound:
        assert strong.by_bound[b].confidence.oms < strong0.by_bound[b].confidence.oms
        assert strong.by_bound[b].items_needed >= strong0.by_bound[b].items_needed
    theo = strong.by_upper["theoretical"]
    assert theo.confidence.oms <= strong0.by_upper["theoretical"].confidence.oms
    assert strong.evidence.margin == pytest.approx(strong.lower - res.upper_bound.upper - tau)
    # the confidence curve uses τ: its maximum is the OMS
    cc = res.confidence_curve("strong", points=2001)
    assert cc.tau == tau
    assert max(cc.confidence) <= strong.confidence.oms + 1e-12
    assert max(cc.confidence) == pytest.approx(strong.confidence.oms, abs=1e-6)
    assert cc.t_l[0] == pytest.approx(strong.lower - tau - res.upper_bound.upper)
    # a model whose margin is below τ is not applicable
    big = certify(d.ratings, d.predictions, tau=0.2)
    assert big.model("strong").evidence.status == "not_applicable"
    assert big.model("strong").items_needed is None


def test_joint_confidence_with_tau() -> None:
    res = certify_summary([0.919, 0.93], 0.879, 10000, tau=0.01)
    joint = res.simultaneous.joint
    t, u, tau = joint.t_u, 0.879, 0.01
    r = tau + math.sqrt(t + u * u)
    by_hand = (
        1 - math.exp(-2e4 * t**2) - sum(math.exp(-2e4 * (lo - r) ** 2) for lo in (0.919, 0.93))
    )
    assert joint.confidence == pytest.approx(by_hand, abs=1e-12)
    assert (
        joint.confidence
        < certify_summary([0.919, 0.93], 0.879, 10000).simultaneous.joint.confidence
    )
    # the model with L_N − τ ≤ U_N leaves the joint claim
    one = certify_summary([0.885, 0.93], 0.879, 10000, tau=0.01).simultaneous.joint
    assert one.models == ("model2",)


@pytest.mark.parametrize("tau", [-0.1, 1.0, float("nan")])
def test_bad_tau_names_the_parameter(tau: float) -> None:
    with pytest.raises(InputError, match="tau="):
        certify_summary([0.97], 0.94, 1000, tau=tau)
    with pytest.raises(TypeError, match="tau="):
        certify_summary([0.97], 0.94, 1000, tau="0.1")  # type: ignore[arg-type]
