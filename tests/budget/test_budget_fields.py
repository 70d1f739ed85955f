"""Self-describing results (issue 15): bound fields say they are bounds (the old short names are gone),
capacity is a whole number of classifiers, and every result says how a tied vote of an even m was
settled (issue 19: ``vote_ties``, default a fair coin; Lemma C.1's rule one option away)."""

from __future__ import annotations

import pytest

from humanly.budget import (
    IndependentErrors,
    PlanOptions,
    SweepSpec,
    adaptive_vs_single,
    capacity,
    compare,
    cramer_convergence,
    pilot_plan,
    plurality_vs_single,
    quick_compare,
    rates,
    run_sweep,
    sample_size,
    simulate_win,
)
from humanly.simulate import pair

FIG1 = IndependentErrors(0.75, 0.1, 0.75)
FIG2 = IndependentErrors(0.8, 0.01, 0.8)


def test_win_bounds_are_named_lower_bounds() -> None:
    row = compare(FIG2, 1500, (1, 3)).rows[0]
    d = row.to_dict()
    assert d["win_hoeffding_bound"] == row.win_hoeffding_bound and "hoeffding" not in d
    assert d["win_cramer_bound"] == row.win_cramer_bound and "cramer" not in d
    assert 0 <= row.win_hoeffding_bound <= row.win_cramer_bound <= row.exact


def test_size_bounds_are_named_bounds() -> None:
    row = sample_size(FIG2, 0.95, (1, 3)).rows[0]
    d = row.to_dict()
    for old, new in (
        ("budget_cramer", "budget_cramer_bound"),
        ("budget_hoeffding", "budget_hoeffding_bound"),
        ("n_cramer", "n_cramer_bound"),
        ("n_hoeffding", "n_hoeffding_bound"),
    ):
        assert d[new] == getattr(row, new) and old not in d
    assert row.budget_exact <= row.budget_cramer_bound <= row.budget_hoeffding_bound


def test_capacity_is_a_whole_number_of_classifiers() -> None:
    """Fig. 1 (p = q = 0.75, ε = 0.1, level 0.95, 1,500 labels): (1 − level) / error = 141.95 (exact),
    16.77 (Cramér), 0.33 (Hoeffding) → 141, 16 and 0 worse classifiers besides the best."""
    row = capacity(FIG1, 0.95, 1500).rows[0]
    assert (
        row.classifiers_exact,
        row.classifiers_cramer_bound,
        row.classifiers_hoeffding_bound,
    ) == (
        141,
        16,
        0,
    )
    assert all(
        isinstance(v, int)
        for v in (
            row.classifiers_exact,
            row.classifiers_cramer_bound,
            row.classifiers_hoeffding_bound,
        )
    )
    d = row.to_dict()
    assert d["ratio_exact"] == pytest.approx(141.95, abs=0.01)
    assert d["ratio_cramer_bound"] == pytest.approx(16.77, abs=0.01)
    assert not {"exact", "cramer", "error_cramer", "error_hoeffding"} & set(d)
    # unbounded when the exact error underflows to 0
    huge = capacity(IndependentErrors(0.75, 0.25, 1.0), 0.95, 10**6).rows[0]
    assert huge.classifiers_exact is None and huge.to_dict()["classifiers_exact"] is None


def test_every_result_says_how_a_tied_vote_is_settled() -> None:
    data = pair(300, 4, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=1)
    spec = SweepSpec(grid_points=2, n_items=(1,), labels_per_item=(3,))
    results = {
        "compare": compare(FIG2, 600, (1, 2)),
        "size": sample_size(FIG2, 0.9, (1, 2)),
        "capacity": capacity(FIG2, 0.95, 600, (1, 2)),
        "montecarlo": simulate_win(FIG2, 2, 10, 20),
        "plan": pilot_plan(data.ratings, data.predictions, bootstrap=0, labels_per_item=(1, 2)),
        "quick": quick_compare(0.7, 600, labels_per_item=(1, 2)),
        "rates": rates(FIG2, (1, 2)),
        "convergence": cramer_convergence(FIG2, (1, 2), range(100, 301, 100)),
        "plurality": plurality_vs_single(3, 0.7, 0.7, 0.1, 60, (1, 2), simulations=20),
        "adaptive": adaptive_vs_single(FIG2, 60, simulations=20),
        "sweep": run_sweep(spec, show_progress=False),
    }
    for name, res in results.items():
        assert res.to_dict()["vote_ties"] == "coin", name
    failure = PlanOptions(vote_ties="failure")
    paper = {
        "compare": compare(FIG2, 600, (1, 2), vote_ties="failure"),
        "size": sample_size(FIG2, 0.9, (1, 2), vote_ties="failure"),
        "quick": quick_compare(0.7, 600, labels_per_item=(1, 2), vote_ties="failure"),
        "rates": rates(FIG2, (1, 2), vote_ties="failure"),
        "plan": pilot_plan(
            data.ratings, data.predictions, bootstrap=0, labels_per_item=(1, 2), options=failure
        ),
    }
    for name, res in paper.items():
        assert res.to_dict()["vote_ties"] == "failure", name
    # Lemma C.1's rule lowers M_2 below M_1; the coin keeps M_2 = M_1
    assert paper["rates"].rows[1].label_accuracy < results["rates"].rows[1].label_accuracy


def test_new_results_are_typed_values() -> None:
    """The new results hold tuples and small dataclasses (no lists or dicts) and serialise."""
    import dataclasses

    from humanly.budget import fit_latent_class, multiclass_compare, symmetric_confusion

    def no_lists(value: object, path: str) -> None:
        assert not isinstance(value, (list, dict)), path
        if isinstance(value, tuple):
            for i, v in enumerate(value):
                no_lists(v, f"{path}[{i}]")
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                no_lists(getattr(value, f.name), f"{path}.{f.name}")

    data = pair(300, 3, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=1)
    preds = data.predictions
    results = {
        "latent": fit_latent_class(data.ratings.counts, preds.hard("better"), preds.hard("worse")),
        "plan": pilot_plan(data.ratings, preds, bootstrap=100),
        "rates": rates(FIG2, (1, 3)),
        "convergence": cramer_convergence(FIG2, (1, 3), range(30, 301, 30)),
        "multiclass": multiclass_compare(
            symmetric_confusion(3, 0.7),
            symmetric_confusion(3, 0.8),
            symmetric_confusion(3, 0.7),
            90,
            (1, 3),
        ),
    }
    for name, res in results.items():
        no_lists(res, name)
        res.to_json()
    for name in ("rates", "convergence", "multiclass"):
        assert len(results[name].to_frame()) > 0  # type: ignore[attr-defined]
