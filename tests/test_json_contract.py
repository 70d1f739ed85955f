"""The JSON that ``--json`` prints is a contract: keys are added, never renamed or removed.

``tests/json_contract.json`` records, for every command below, the key paths its JSON held when the
contract was frozen (lists collapsed to ``[]``). Each path must still be present. To record paths that
a change *adds*, run ``HUMANLY_WRITE_CONTRACT=1 pytest tests/test_json_contract.py`` — it refuses to
drop a recorded path. ``HUMANLY_RESET_CONTRACT=1`` rewrites the record from scratch: used once, for the
0.1.0 reset of the names (issue 23), never after a release.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

CONTRACT = Path(__file__).with_name("json_contract.json")


def key_paths(value: Any, prefix: str = "") -> set[str]:
    """Every key path of a JSON value: ``a.b``, lists as ``a[]``."""
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{prefix}.{k}" if prefix else str(k)
            out.add(p)
            out |= key_paths(v, p)
    elif isinstance(value, list):
        for v in value:
            out |= key_paths(v, prefix + "[]")
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from humanly import simulate

    d = tmp_path_factory.mktemp("contract")
    oracle = simulate.oracle(150, [0.8, 0.75, 0.7, 0.85], models={"a": 0.85, "b": 0.75}, seed=1)
    oracle.write(d / "o.csv")
    urn = simulate.running_example(n_items=120, seed=2)
    urn.write(d / "u.csv")
    pair = simulate.pair(300, 3, p=0.7, eps=0.1, q=0.75, seed=3)
    pair.write(d / "p.csv")
    import pandas as pd  # the judge: human labels on 60 of the 150 items, the gold labels as judge

    long = pd.read_csv(d / "o.csv")
    long[long["item"].isin(sorted(set(long["item"]))[:60])].to_csv(d / "j.csv", index=False)
    pd.read_csv(d / "o.gold.csv").rename(columns={"label": "prediction"}).to_csv(
        d / "j.judge.csv", index=False
    )
    return {"dir": d, "o": d / "o.csv", "u": d / "u.csv", "p": d / "p.csv", "j": d / "j.csv"}


def _cases(f: dict[str, Path]) -> dict[str, list[str]]:
    o, u, p, d = str(f["o"]), str(f["u"]), str(f["p"]), f["dir"]
    op, og = o.replace(".csv", ".predictions.csv"), o.replace(".csv", ".gold.csv")
    up, us = u.replace(".csv", ".predictions.csv"), u.replace(".csv", ".states.csv")
    pp = p.replace(".csv", ".predictions.csv")
    return {
        "inspect": ["inspect", o, "--predictions", op, "--gold", og],
        "agreement": ["agreement", o, "--scale", "ordinal", "--bootstrap", "100"],
        "certify": ["certify", o, "--predictions", op, "--gold", og, "--curve"],
        "certify_named": ["certify", o, "--predictions", op, "--rater-mode", "named", "--curve"],
        "certify_summary": [
            "certify", "summary", "--lower", "0.949", "0.971", "--upper", "0.939", "--n-items",
            "1821", "--labels-per-item", "3",
        ],
        "equivalence": [
            "equivalence", u, "--predictions", up, "--bootstrap", "100", "--headroom",
            "--amateurs", u, "--target-width", "0.5", "--states", us,
        ],
        "equivalence_sampled": [
            "equivalence", u, "--predictions", up, "--scorer", "auc", "--bootstrap", "100",
            "--draws", "20",
        ],
        "budget_win": ["budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8",
                       "--simulations", "50"],
        "budget_size": ["budget", "size", "--p", "0.8", "--eps", "0.01", "--q", "0.8"],
        "budget_capacity": ["budget", "capacity", "--p", "0.75", "--eps", "0.1", "--q", "0.75"],
        "budget_plan": ["budget", "plan", p, "--predictions", pp, "--bootstrap", "100",
                        "--budget", "600"],
        "budget_open_plurality": ["budget", "open", "--p", "0.7", "--eps", "0.1", "--q", "0.7",
                                  "--n-classes", "3", "--simulations", "50"],
        "budget_open_adaptive": ["budget", "open", "--p", "0.7", "--eps", "0.1", "--q", "0.7",
                                 "--adaptive", "--simulations", "50"],
        "budget_sweep": ["budget", "sweep", "--grid-points", "3", "--n-items", "1,3",
                         "--labels-per-item", "3"],
        "budget_plan_majority": ["budget", "plan", p, "--predictions", pp, "--bootstrap", "100",
                                 "--estimator", "majority"],
        "budget_rates": ["budget", "rates", "--p", "0.7", "--eps", "0.1", "--q", "0.75"],
        "budget_convergence": ["budget", "convergence", "--p", "0.7", "--eps", "0.1", "--q", "0.75",
                               "--budgets", "1500:2100:30"],
        "budget_multiclass": ["budget", "multiclass", "--n-classes", "3", "--q", "0.7", "--p", "0.7",
                              "--eps", "0.1", "--budget", "300"],
        "simulate": ["simulate", "urn", "-o", str(d / "s.csv"), "--n-items", "20", "--force",
                     "--preset", "running-example"],
        "report": ["report", o, "--predictions", op, "--gold", og, "-o", str(d / "r.html"),
                   "--force", "--bootstrap", "100"],
        "judge": ["judge", str(f["j"]), "--predictions", op, "--judge",
                  str(d / "j.judge.csv"), "--cost-human", "1", "--cost-judge", "0.01",
                  "--max-cost", "200"],
        "judge_select": ["judge", "select", str(f["j"]), "--predictions", op, "--judge",
                         str(d / "j.judge.csv"), "--expected-items", "20", "-o", str(d / "next.csv"),
                         "--force"],
    }  # fmt: skip


def test_json_keys_are_kept(cli, files: dict[str, Path]) -> None:
    recorded: dict[str, list[str]] = (
        json.loads(CONTRACT.read_text(encoding="utf-8")) if CONTRACT.exists() else {}
    )
    current: dict[str, list[str]] = {}
    missing: dict[str, list[str]] = {}
    for name, args in _cases(files).items():
        r = cli(*args, "--json")
        assert r.exit_code == 0, f"{name}: {r.stderr}"
        paths = key_paths(r.json())
        current[name] = sorted(paths)
        gone = sorted(set(recorded.get(name, [])) - paths)
        if gone:
            missing[name] = gone
    if os.environ.get("HUMANLY_RESET_CONTRACT"):
        CONTRACT.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    assert not missing, f"--json keys removed or renamed (the JSON is a contract): {missing}"
    if os.environ.get("HUMANLY_WRITE_CONTRACT"):
        merged = {k: sorted(set(recorded.get(k, [])) | set(v)) for k, v in current.items()}
        CONTRACT.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    else:
        assert set(recorded) >= set(current), (
            "new commands: record them with HUMANLY_WRITE_CONTRACT=1"
        )
