"""In-process and dask.distributed execution give identical, ordered results."""

from __future__ import annotations

import pytest

from humanly._core.parallel import check_workers, run_tasks
from humanly._core.rng import stream
from humanly.errors import InputError


def _draw(seed: int, index: int) -> list[float]:
    return stream(seed, index).random(3).tolist()


def test_in_process_matches_local_cluster():
    pytest.importorskip("distributed")
    args = [(7, i) for i in range(5)]
    local = run_tasks(_draw, args)
    assert local == [_draw(7, i) for i in range(5)]
    assert run_tasks(_draw, args, workers=2) == local


def test_worker_options_checked():
    with pytest.raises(InputError, match="workers=0"):
        check_workers(0, None)
    with pytest.raises(InputError, match="give one"):
        check_workers(2, "tcp://127.0.0.1:1")


def test_without_dask_one_line_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "distributed" else real(name, *a),
    )
    with pytest.raises(InputError, match=r"humanly\[dask\]"):
        check_workers(2, None)
    check_workers(None, None)  # in-process needs nothing


def test_cli_without_dask_says_install_the_extra(cli, tmp_path, monkeypatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "distributed" else real(name, *a),
    )
    ratings = tmp_path / "r.csv"
    ratings.write_text("item,rater,label\n1,a,0\n1,b,1\n2,a,1\n2,b,1\n", encoding="utf-8")
    res = cli("equivalence", ratings, "--workers", "2")
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert "\n" not in line and "--workers 2" in line and "humanly[dask]" in line, line
