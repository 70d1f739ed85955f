"""Appendix A sweep: chunked, resumable, identical in-process and on a 2-worker LocalCluster."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from humanly import InputError
from humanly.budget import SweepSpec, gap_correlated, majority_accuracy, outcome, run_sweep
from humanly.budget.sweep import chunk_configs, sweep_chunk

SPEC = SweepSpec(grid_points=3, n_items=(1, 2, 3, 10), labels_per_item=(3,))


def test_chunk_configs_constraint() -> None:
    spec = SweepSpec(grid_points=5)
    total = 0
    for c in range(spec.n_chunks):
        cfg = chunk_configs(spec, c)
        _, _, p_w, p_b0, p_b1 = cfg.T
        assert np.all((1 - p_w) * p_b0 + p_w * p_b1 > p_w)
        total += len(cfg)
    s = spec.grid
    brute = sum(
        1 for a in s for b in s for pw in s for p0 in s for p1 in s if (1 - pw) * p0 + pw * p1 > pw
    )
    assert total == brute


def test_chunk_against_scalar_reference() -> None:
    """Every (config, n, m) of a chunk against the scalar exact computation."""
    spec = SweepSpec(grid_points=3, n_items=(1, 4, 7), labels_per_item=(3,), tolerance=0.0)
    chunk = 5
    res = sweep_chunk({**spec.to_dict(), "n_items": [1, 4, 7], "labels_per_item": [3]}, chunk)
    cfg = chunk_configs(spec, chunk)
    viol = 0
    best = -np.inf
    for row in cfg:
        q_b, q_w, p_w, p_b0, p_b1 = row
        x1, y1, z1 = (float(v) for v in gap_correlated(q_b, q_w, p_w, p_b0, p_b1))
        m3 = [majority_accuracy(v, 3) for v in (q_b, q_w)]
        xm, ym, zm = (float(v) for v in gap_correlated(*m3, p_w, p_b0, p_b1))
        for n in (1, 4, 7):
            single = outcome((x1, y1, z1), 3 * n).error()
            multi = outcome((xm, ym, zm), n).error()
            if q_b >= q_w:
                best = max(best, single - multi)
                viol += single - multi > 0
    assert int(res["violations"].sum()) == viol
    assert float(res["max_violation"].max()) == pytest.approx(best, abs=1e-15)


def test_sweep_resume_and_parallel_identical(tmp_path: Path) -> None:
    out = tmp_path / "s"
    first = run_sweep(SPEC, out=out, chunks=[0, 1, 2], show_progress=False)
    assert first.chunks_done == 3 and not first.complete
    stamp = (out / "chunk-00001.npz").stat().st_mtime_ns
    full = run_sweep(SPEC, out=out, show_progress=False)
    assert full.complete and (out / "chunk-00001.npz").stat().st_mtime_ns == stamp  # skipped
    memory = run_sweep(SPEC, show_progress=False)
    others = [memory]
    if importlib.util.find_spec("distributed") is not None:  # the humanly[dask] extra
        others.append(run_sweep(SPEC, workers=2, show_progress=False))
    for other in others:
        a, b = full.to_dict(), other.to_dict()
        a.pop("out"), b.pop("out")
        assert a == b
    assert full.violations == 0
    assert full.max_violation is not None and full.max_violation <= 0
    assert 0 < full.share_single_wins_qw_gt_qb <= 1


def test_sweep_spec_checks(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="m = 1 is the base"):
        SweepSpec(labels_per_item=(1, 3))
    with pytest.raises(InputError, match="chunk 99"):
        run_sweep(SPEC, chunks=[99], show_progress=False)
    run_sweep(SPEC, out=tmp_path / "x", chunks=[0], show_progress=False)
    with pytest.raises(InputError, match="other settings"):
        run_sweep(SweepSpec(grid_points=2), out=tmp_path / "x", show_progress=False)
