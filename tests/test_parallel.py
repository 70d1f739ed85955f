"""In-process and dask.distributed execution give identical, ordered results."""

from __future__ import annotations

import pytest

from humanly._parallel import check_workers, run_tasks
from humanly._random import stream
from humanly.data.errors import InputError


def _draw(seed: int, index: int) -> list[float]:
    return stream(seed, index).random(3).tolist()


def test_in_process_matches_local_cluster():
    args = [(7, i) for i in range(5)]
    local = run_tasks(_draw, args)
    assert local == [_draw(7, i) for i in range(5)]
    assert run_tasks(_draw, args, workers=2) == local


def test_worker_options_checked():
    with pytest.raises(InputError, match="--workers"):
        check_workers(0, None)
    with pytest.raises(InputError, match="give one"):
        check_workers(2, "tcp://127.0.0.1:1")
