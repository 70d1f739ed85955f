"""The parameter sweep of Appendix A: is one label per item never worse than m-majority labels?

For every configuration (q_b, q_w, p_w, p_b⁰, p_b¹) on a grid S⁵ (S: ``grid_points`` evenly spaced values in
[0.5, 0.99]; the paper: 50 points, resolution 0.01) with (1 − p_w)p_b⁰ + p_w p_b¹ > p_w (c_b is better),
every n in ``n_items`` and m in ``labels_per_item``, it computes exactly

    single = P(Σ_{i ≤ mn} G_i(q, p) > 0)   and   multi = P(Σ_{i ≤ n} G_i(M_m(q), p) > 0)

(ties count as failure, as in the paper) and records where ``multi − single > tolerance`` (a violation of
Conjecture 1 when assumption 1, q_b ≥ q_w, holds) and how often single labels still win when q_w > q_b
(the paper: about two thirds).

The work is split into chunks, one per (q_b, q_w) grid pair; each finished chunk is written atomically to
``out/chunk-XXXXX.npz`` and skipped by a rerun with the same grid, so an interrupted sweep loses nothing
finished. Chunks run in-process, or on dask.distributed (``workers=N`` starts a LocalCluster,
``scheduler=ADDRESS`` uses a running one); the computation is deterministic, so the numbers are identical
either way. Chunk files are written by the calling process, so remote workers need no shared disk.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._core.atomic import atomic_path
from .._core.parallel import check_workers, dask_client
from .._core.progress import progress
from ..errors import InputError
from . import _kernel
from .exact import outcomes
from .gap import gap_correlated
from .models import majority_accuracy
from .sweep_results import (
    PAPER_N,
    SweepCell,
    SweepPoint,
    SweepResult,
    SweepSpec,
    SweepViolation,
)

__all__ = [
    "PAPER_N",
    "SweepCell",
    "SweepPoint",
    "SweepResult",
    "SweepSpec",
    "SweepViolation",
    "chunk_configs",
    "run_sweep",
    "sweep_chunk",
]

_FLOOR = 1e-300
_BLOCK = 4096  # configurations per vectorised block (bounds memory to a few hundred MB at n = 1001)


def chunk_configs(spec: SweepSpec, chunk: int) -> np.ndarray:
    """Configurations (rows q_b, q_w, p_w, p_b0, p_b1) of chunk ``chunk`` = i_qb · G + i_qw that satisfy
    (1 − p_w)p_b0 + p_w p_b1 > p_w."""
    s = spec.grid
    g = spec.grid_points
    q_b, q_w = s[chunk // g], s[chunk % g]
    p_w, p_b0, p_b1 = (a.ravel() for a in np.meshgrid(s, s, s, indexing="ij"))
    keep = (1 - p_w) * p_b0 + p_w * p_b1 > p_w
    p_w, p_b0, p_b1 = p_w[keep], p_b0[keep], p_b1[keep]
    return np.column_stack([np.full(p_w.size, q_b), np.full(p_w.size, q_w), p_w, p_b0, p_b1])


def _probabilities(
    cfg: np.ndarray, spec: SweepSpec, compiled: bool | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Error probabilities P(ΣG ≤ 0) (single, multi), shape (len(n_items), len(labels_per_item), configs).

    Errors, not win probabilities, are compared: both are computed directly with small relative error,
    so differences near a win probability of 1 are not lost to rounding (the paper's ~1e-12 artefacts).
    ``compiled`` (default: when numba is installed) uses the recurrence kernel of ``_kernel``, which
    shares one conditional chain among all n of a configuration; otherwise ``exact.outcomes``."""
    use_kernel = _kernel.AVAILABLE if compiled is None else compiled

    def errors(x: np.ndarray, y: np.ndarray, ns: Sequence[int]) -> np.ndarray:
        """P(ΣG ≤ 0) (tie + loss) for each n in ns, shape (len(ns), configs)."""
        if use_kernel:
            return _kernel.sweep_error_grid(x, y, ns, _FLOOR)
        return np.array([sum(outcomes(x, y, n, floor=_FLOOR)[1:]) for n in ns])

    q_b, q_w, p_w, p_b0, p_b1 = cfg.T
    x1, y1, _ = gap_correlated(q_b, q_w, p_w, p_b0, p_b1)
    totals = sorted({m * n for m in spec.labels_per_item for n in spec.n_items})
    by_total = dict(zip(totals, errors(x1, y1, totals), strict=True))
    nn, mm = len(spec.n_items), len(spec.labels_per_item)
    single = np.empty((nn, mm, cfg.shape[0]))
    multi = np.empty_like(single)
    for b, m in enumerate(spec.labels_per_item):
        xm, ym, _ = gap_correlated(
            majority_accuracy(q_b, m), majority_accuracy(q_w, m), p_w, p_b0, p_b1
        )
        multi[:, b] = errors(xm, ym, spec.n_items)
        single[:, b] = [by_total[m * n] for n in spec.n_items]
    return single, multi


def sweep_chunk(spec_dict: dict[str, Any], chunk: int) -> dict[str, np.ndarray]:
    """Compute one chunk (a top-level function, so dask can ship it). Returns arrays per (n, m):
    ``count``, ``violations`` (assumption 1 holds and multi − single > tolerance), ``max_violation``
    (largest multi − single under assumption 1, with its configuration ``argmax_config``),
    ``qw_gt_qb`` and ``qw_gt_qb_single_wins`` (single > multi where q_w > q_b), and the violating rows."""
    spec = SweepSpec(**spec_dict)
    cfg = chunk_configs(spec, chunk)
    nn, mm = len(spec.n_items), len(spec.labels_per_item)
    shape = (nn, mm)
    count = np.zeros(shape, np.int64)
    viol = np.zeros(shape, np.int64)
    maxv = np.full(shape, -np.inf)
    argcfg = np.full((*shape, 5), np.nan)
    qwgt = np.zeros(shape, np.int64)
    qwgt_win = np.zeros(shape, np.int64)
    rows: list[np.ndarray] = []
    for start in range(0, cfg.shape[0], _BLOCK):
        block = cfg[start : start + _BLOCK]
        err_single, err_multi = _probabilities(block, spec)
        single, multi = 1.0 - err_single, 1.0 - err_multi  # win probabilities (for the record)
        diff = err_single - err_multi  # = multi − single, without rounding near 1
        a1 = block[:, 0] >= block[:, 1]
        count += block.shape[0]
        bad = (diff > spec.tolerance) & a1
        viol += bad.sum(axis=2)
        masked = np.where(a1, diff, -np.inf)
        if a1.any():
            best = masked.argmax(axis=2)
            vals = np.take_along_axis(masked, best[..., None], axis=2)[..., 0]
            better = vals > maxv
            maxv = np.where(better, vals, maxv)
            argcfg = np.where(better[..., None], block[best], argcfg)
        gt = block[:, 1] > block[:, 0]
        qwgt += gt.sum()
        qwgt_win += ((err_single < err_multi) & gt).sum(axis=2)
        for a, b, k in zip(*np.nonzero(bad), strict=False):
            rows.append(
                np.array(
                    [
                        *block[k],
                        spec.n_items[a],
                        spec.labels_per_item[b],
                        single[a, b, k],
                        multi[a, b, k],
                    ]
                )
            )
    return {
        "count": count,
        "violations": viol,
        "max_violation": maxv,
        "argmax_config": argcfg,
        "qw_gt_qb": qwgt,
        "qw_gt_qb_single_wins": qwgt_win,
        "violating_rows": np.array(rows).reshape(-1, 9),
    }


_KEYS = ("q_b", "q_w", "p_w", "p_b0", "p_b1")


def _chunk_path(out: Path, chunk: int) -> Path:
    return out / f"chunk-{chunk:05d}.npz"


def _save(out: Path, chunk: int, arrays: dict[str, np.ndarray]) -> None:
    with atomic_path(_chunk_path(out, chunk), suffix=".npz") as tmp, open(tmp, "wb") as fh:
        np.savez(fh, **arrays)  # type: ignore[arg-type]


def _load(out: Path, chunk: int) -> dict[str, np.ndarray] | None:
    path = _chunk_path(out, chunk)
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError):
        return None  # unreadable (e.g. truncated by a crash outside atomic_path): recompute


def _prepare_out(out: Path, spec: SweepSpec) -> None:
    meta = out / "spec.json"
    text = json.dumps(spec.to_dict(), sort_keys=True)
    if meta.exists():
        if json.loads(meta.read_text()) != json.loads(text):
            raise InputError(
                f"{out} holds a sweep with other settings ({meta}); choose another --out or delete it"
            )
        return
    if out.exists() and any(out.glob("chunk-*.npz")):
        raise InputError(f"{out} holds chunk files but no spec.json; choose another --out")
    with atomic_path(meta) as tmp:
        tmp.write_text(text)


def compiled_kernel_available() -> bool:
    """Whether the sweep runs on the compiled kernel (numba, the ``fast`` extra: ``pip install
    'humanly[fast]'``) rather than on the ~140× slower special-function path.

    >>> isinstance(compiled_kernel_available(), bool)
    True
    """
    return bool(_kernel.AVAILABLE)


def run_sweep(
    spec: SweepSpec | None = None,
    *,
    out: str | Path | None = None,
    chunks: Sequence[int] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    show_progress: bool = True,
) -> SweepResult:
    """Run (or resume) the Appendix A sweep and total the finished chunks.

    Parameters
    ----------
    spec : SweepSpec, optional
        What to compute (default the paper's grid).
    out : str or pathlib.Path, optional
        A folder for chunk files (a rerun resumes); without it, results are kept in memory only.
    chunks : sequence of int, optional
        A subset of chunk indices (default all G² of them).
    workers : int, optional
        Run the chunks on a dask LocalCluster of this many workers (default in-process).
    scheduler : str, optional
        Run the chunks on a running dask scheduler.
    client : distributed.Client, optional
        Run the chunks on this dask client.
    show_progress : bool
        Show a progress bar on a terminal.

    Returns
    -------
    SweepResult
        The totals over every finished chunk of this sweep.

    Raises
    ------
    InputError
        For a chunk index outside the grid, or an ``out`` folder holding another sweep.

    Examples
    --------
    >>> spec = SweepSpec(grid_points=2, n_items=(1, 3), labels_per_item=(3,))
    >>> run_sweep(spec, show_progress=False).chunks_done
    4

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Appendix A.
    """
    spec = spec or SweepSpec()
    check_workers(workers, scheduler)
    todo_all = list(range(spec.n_chunks)) if chunks is None else [int(c) for c in chunks]
    for c in todo_all:
        if not 0 <= c < spec.n_chunks:
            raise InputError(f"chunk {c} outside 0..{spec.n_chunks - 1}")
    outp = None if out is None else Path(out)
    results: dict[int, dict[str, np.ndarray]] = {}
    if outp is not None:
        _prepare_out(outp, spec)
        for c in todo_all:
            loaded = _load(outp, c)
            if loaded is not None:
                results[c] = loaded
    todo = [c for c in todo_all if c not in results]
    spec_dict = {k: (list(v) if isinstance(v, tuple) else v) for k, v in spec.to_dict().items()}

    def finish(c: int, arrays: dict[str, np.ndarray]) -> None:
        results[c] = arrays
        if outp is not None:
            _save(outp, c, arrays)

    if todo and client is None and workers is None and scheduler is None:
        for c in progress(todo, total=len(todo), description="sweep", enabled=show_progress):
            finish(c, sweep_chunk(spec_dict, c))
    elif todo:
        if client is not None:
            _run_on(client, spec_dict, todo, finish, show_progress)
        else:
            with dask_client(workers, scheduler) as new_client:
                _run_on(new_client, spec_dict, todo, finish, show_progress)
    if (
        outp is not None
    ):  # totals cover every finished chunk of this sweep, not only those requested
        for c in range(spec.n_chunks):
            if c not in results:
                loaded = _load(outp, c)
                if loaded is not None:
                    results[c] = loaded
    return _total(spec, [results[c] for c in sorted(results)], spec.n_chunks, outp)


def _run_on(client: Any, spec_dict: dict, todo: list[int], finish: Any, show: bool) -> None:
    from distributed import as_completed

    futures = {client.submit(sweep_chunk, spec_dict, c, pure=False): c for c in todo}
    for fut in progress(
        as_completed(futures), total=len(futures), description="sweep", enabled=show
    ):
        finish(futures[fut], fut.result())


def _violation(row: np.ndarray) -> SweepViolation:
    """A violating row (q_b, q_w, p_w, p_b0, p_b1, n, m, single, multi) of a chunk file."""
    q_b, q_w, p_w, p_b0, p_b1, n, m, single, multi = (float(v) for v in row)
    return SweepViolation(q_b, q_w, p_w, p_b0, p_b1, int(n), int(m), single, multi)


def _sum(parts: list[dict[str, np.ndarray]], key: str) -> np.ndarray:
    return np.sum([p[key] for p in parts], axis=0)


def _total(
    spec: SweepSpec, parts: list[dict[str, np.ndarray]], n_total: int, out: Path | None
) -> SweepResult:
    nn, mm = len(spec.n_items), len(spec.labels_per_item)
    if parts:
        count, viol = _sum(parts, "count"), _sum(parts, "violations")
        qwgt, qwin = _sum(parts, "qw_gt_qb"), _sum(parts, "qw_gt_qb_single_wins")
        stack = np.stack([p["max_violation"] for p in parts])
        cfgs = np.stack([p["argmax_config"] for p in parts])
        best = stack.argmax(axis=0)
        maxv = np.take_along_axis(stack, best[None], axis=0)[0]
        maxcfg = np.take_along_axis(cfgs, best[None, ..., None], axis=0)[0]
        rows = np.concatenate([p["violating_rows"] for p in parts])
    else:
        count = viol = qwgt = qwin = np.zeros((nn, mm), np.int64)
        maxv = np.full((nn, mm), -np.inf)
        maxcfg = np.full((nn, mm, 5), np.nan)
        rows = np.zeros((0, 9))
    by = tuple(
        SweepCell(
            n_items=n,
            labels_per_item=m,
            configurations=int(count[a, b]),
            violations=int(viol[a, b]),
            max_violation=float(maxv[a, b]) if np.isfinite(maxv[a, b]) else None,
            qw_gt_qb=int(qwgt[a, b]),
            qw_gt_qb_single_wins=int(qwin[a, b]),
        )
        for a, n in enumerate(spec.n_items)
        for b, m in enumerate(spec.labels_per_item)
    )
    overall = float(maxv.max()) if np.isfinite(maxv).any() else None
    at = None
    if overall is not None:
        a, b = (int(v) for v in np.unravel_index(int(np.argmax(maxv)), maxv.shape))
        q_b, q_w, p_w, p_b0, p_b1 = (float(v) for v in maxcfg[a, b])
        at = SweepPoint(q_b, q_w, p_w, p_b0, p_b1, spec.n_items[a], spec.labels_per_item[b])
    tq, tw = int(np.sum(qwgt)), int(np.sum(qwin))
    violating = tuple(_violation(r) for r in rows[:1000])
    return SweepResult(
        spec=spec,
        chunks_done=len(parts),
        chunks_total=n_total,
        complete=len(parts) == n_total,
        configurations=int(count[0, 0]) if count.size else 0,
        probability_pairs=int(np.sum(count)),
        violations=int(np.sum(viol)),
        max_violation=overall,
        max_violation_at=at,
        qw_gt_qb_pairs=tq,
        qw_gt_qb_single_wins=tw,
        share_single_wins_qw_gt_qb=tw / tq if tq else None,
        cells=by,
        violating=violating,
        out=None if out is None else str(out),
    )


def projected_seconds(spec: SweepSpec, seconds_per_chunk: float, workers: int = 1) -> float:
    """Projected wall time of all chunks at a measured per-chunk time (chunks are equal-sized)."""
    return (
        spec.n_chunks * seconds_per_chunk / max(1, workers)
        if math.isfinite(seconds_per_chunk)
        else math.inf
    )
