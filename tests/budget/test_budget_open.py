"""The paper's open problems by simulation: plurality voting (K > 2) and adaptive labelling."""

from __future__ import annotations

import pytest

from humanly import InputError
from humanly.budget import (
    IndependentErrors,
    adaptive_vs_single,
    majority_accuracy,
    plurality_vs_single,
)
from humanly.budget.open_problems import adaptive_label_accuracy


def test_plurality_two_classes_matches_exact() -> None:
    res = plurality_vs_single(2, 0.8, 0.8, 0.05, 300, (1, 3), simulations=3000, seed=2)
    for row in res.rows:
        assert abs(row.win - row.exact) < 5 * row.se + 1e-3


def test_plurality_many_classes_seeded() -> None:
    a = plurality_vs_single(4, 0.7, 0.7, 0.05, 300, (1, 3), simulations=500, seed=3)
    b = plurality_vs_single(4, 0.7, 0.7, 0.05, 300, (1, 3), simulations=500, seed=3)
    assert a == b
    assert all(0 <= r.win <= 1 for r in a.rows)
    with pytest.raises(InputError, match="chance"):
        plurality_vs_single(4, 0.2, 0.7, 0.05, 300)


def test_adaptive_accuracy_and_exact() -> None:
    for q in (0.6, 0.8, 0.95):
        assert adaptive_label_accuracy(q) == pytest.approx(q * q + 2 * q * q * (1 - q))
        assert adaptive_label_accuracy(q) == pytest.approx(majority_accuracy(q, 3))
    res = adaptive_vs_single(IndependentErrors(0.8, 0.05, 0.8), 300, simulations=3000, seed=4)
    rows = {r.strategy: r for r in res.rows}
    assert rows["adaptive"].labels_per_item == pytest.approx(2 + 2 * 0.8 * 0.2)
    for row in res.rows:
        assert abs(row.win - row.exact) < 5 * row.se + 0.01


def test_open_cli(cli) -> None:
    r = cli(
        "budget",
        "open",
        "--p",
        "0.8",
        "--eps",
        "0.05",
        "--q",
        "0.8",
        "--budget",
        "200",
        "--adaptive",
        "--simulations",
        "300",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    assert [row["strategy"] for row in r.json()["rows"]] == ["single", "majority3", "adaptive"]
    r = cli(
        "budget",
        "open",
        "--p",
        "0.8",
        "--eps",
        "0.05",
        "--q",
        "0.8",
        "--n-classes",
        "3",
        "--labels-per-item",
        "1",
        "3",
        "--budget",
        "150",
        "--simulations",
        "200",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    r = cli("budget", "open", "--p", "0.8", "--eps", "0.05", "--q", "0.8")
    assert r.exit_code == 2 and "--adaptive" in r.stderr
