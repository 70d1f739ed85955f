"""Fit before starting: what each exact path of the survey engine needs — peak memory and an
estimate of the time — computed from the data before anything is allocated, and the choice between
them.

Two exact paths compute the same numbers:

* ``"subvector"`` (:mod:`._levels` / :mod:`._engine`): every level's survey rows, reference triplets
  and the ABC's contributor pairs and entries are enumerated once and kept; each replicate then costs
  a few passes over them. Best for few labels per item or many classes.
* ``"composition"`` (:mod:`._scale`): one level at a time, columns = the distinct sub-count vectors
  (at most the compositions of k into C classes), leave-one-out sums for all replicates in one sparse
  product, one logarithm per (vector, sub-count) pair and replicate. Memory follows the largest
  level; best for many labels per item.

Both are counted exactly per distinct count vector from the number of its sub-count vectors at every
size (:func:`~humanly._core.counts.count_subvectors`). The time is an estimate (per-unit costs
measured on a 2-core machine); it only chooses between paths and guards against runs of hours.
When neither path fits, a combiner that does not learn from the data falls back to sampling
(Algorithm 2, its Monte Carlo error stated in the notes); the ABC stops with one sentence naming the
largest ``max_k`` that fits, computed from the same counts (so following it works).
"""

from __future__ import annotations

import dataclasses
import math
import os
from typing import Any

import numpy as np

from .._core.counts import count_subvectors
from .._core.result import Note
from .._core.wording import duration_text
from ..data import InputError
from ..errors import setting
from . import _levels
from ._compositions import composition_count

__all__ = [
    "EXACT_TIME_BUDGET",
    "Choice",
    "Need",
    "build_plan",
    "choose",
    "needs",
    "settle",
]

#: Force one exact path ("subvector" or "composition") — for tests that compare them; ``None``: choose.
PATH: str | None = None

#: Estimated seconds the exact engine may take; beyond it, a path that fits is chosen or the call
#: stops before starting (the ABC) — a guard against runs of hours, not a promise.
EXACT_TIME_BUDGET = 3600.0

# Per-unit costs (seconds on one core), measured on the benchmark data sets (benchmarks/
# survey_scale_bench.py): subvector path per (row × class + contributor pair × scan step) and
# replicate; composition path per pair, per (pair × replicate), per (level × replicate).
_SUB_UNIT, _SUB_BUILD = 15e-9, 2e-6
_COMP_PAIR, _COMP_CELL, _COMP_LEVEL = 0.5e-6, 15e-9, 20e-6
#: Work of the composition path per (pair × replicate) when every pair is worked out in full (the ABC
#: scored by agreement), relative to cross-entropy's route.
_FULL = 8.0
#: Bytes per pair of one level of the composition path, plus this many per class (two levels live).
_COMP_PAIR_BYTES, _COMP_CLASS_BYTES = 160, 40
#: Bytes per (column or vector) × replicate of the composition path's per-batch arrays.
_COMP_COL_BYTES, _COMP_VEC_BYTES = 56, 48


@dataclasses.dataclass(frozen=True)
class Need:
    """What a path needs for survey sizes 0..k (k = 0..max_k): peak ``bytes`` and ``seconds``."""

    path: str
    bytes: np.ndarray
    seconds: np.ndarray

    def fits(self, k: int, budget: float) -> bool:
        return bool(self.bytes[k] <= budget and self.seconds[k] <= EXACT_TIME_BUDGET)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _class_factor(n_cls: int) -> float:
    """Extra work of the composition path with many classes (most ABC predictions are floored and
    worked out class by class)."""
    return 1.0 + 0.35 * max(0, n_cls - 3) ** 2


def needs(
    v: np.ndarray,
    n_lab: np.ndarray,
    max_k: int,
    r: int,
    abc: bool,
    n_rep: int,
    shortcut: bool = True,
) -> tuple[Need, Need]:
    """The needs of both exact paths for every max_k' ≤ ``max_k`` (``n_rep`` replicates: the data
    and the bootstrap), from the distinct count vectors ``v``; ``shortcut``: the ABC is scored by
    cross-entropy (the composition path's one-logarithm route; other scorers work every pair out in
    full, about :data:`_FULL` times the work)."""
    n_d, n_cls = v.shape
    sub = count_subvectors(v, max_k + 2)
    ks = np.arange(max_k + 1)
    rows = np.array([sub[n_lab >= k + r, k].sum() for k in ks])
    pairs = np.array([sub[n_lab >= j, j].sum() for j in range(max_k + 2)])  # level j, all vectors
    # subvector path: the kept plan; per replicate, rows × classes and contributor scans
    old_b = _levels.plan_bytes(v, n_lab, max_k, r, abc, sub=sub)
    scan = math.log2(n_d + 1) if abc else 0.0
    per_rep = rows * min(n_cls, 3) + (pairs[1:] * scan if abc else 0.0)
    old_s = np.cumsum(_SUB_BUILD * (rows + pairs[1:]) + (_SUB_UNIT * per_rep * n_rep if abc else 0))
    # composition path: two levels alive at a time and the per-batch sums
    cols = np.array([min(composition_count(j, n_cls), p) for j, p in enumerate(pairs)])
    per_pair = _COMP_PAIR_BYTES + _COMP_CLASS_BYTES * n_cls
    dense = np.minimum(n_d * cols * 4.0, 4.0 * (1 << 23))
    batch = (_COMP_COL_BYTES * cols + _COMP_VEC_BYTES * n_d) * max(n_rep, 2) if abc else 0 * cols
    level = per_pair * pairs + dense + batch
    new_b = np.maximum.accumulate(level[:-1] + level[1:])
    if abc:
        cell = _COMP_CELL * _class_factor(n_cls) * (1.0 if shortcut else _FULL)
        share = cell * n_rep / min(_cores(), 4, max(1, n_rep // 4))
        step = pairs[1:] * (_COMP_PAIR + share) + _COMP_LEVEL * n_rep
    else:
        step = pairs[:-1] * _COMP_PAIR * (1 + n_cls / 8)
    new_s = np.cumsum(step) + pairs[0] * _COMP_PAIR
    return Need("subvector", old_b, old_s), Need("composition", new_b, new_s)


@dataclasses.dataclass(frozen=True)
class Choice:
    """The path the engine takes (``"subvector"``, ``"composition"`` or ``"sampled"``), what it
    needs, and a note for the result (``None`` when nothing needs saying)."""

    path: str
    bytes: float
    seconds: float
    note: Note | None = None


def _size(nbytes: float) -> str:
    return f"{nbytes / 2**30:.1f} GiB" if nbytes >= 2**30 else f"{nbytes / 2**20:.0f} MiB"


def choose(
    v: np.ndarray,
    max_k: int,
    r: int,
    abc: bool,
    n_rep: int,
    prefer: str | None = None,
    shortcut: bool = True,
) -> Choice:
    """The exact path for levels 0..max_k over the distinct count vectors ``v`` with ``n_rep``
    replicates (see the module docstring): the faster of those that fit (``prefer`` forces one),
    else ``"sampled"`` for a combiner that does not learn; for the ABC, an :class:`InputError` naming
    the largest ``max_k`` that fits."""
    n_lab = v.sum(axis=1)
    budget = float(_levels.EXACT_MEMORY_BUDGET)
    if max_k < 0:
        return Choice(prefer or "subvector", 0.0, 0.0)
    old, new = needs(v, n_lab, max_k, r, abc, n_rep, shortcut)
    fit = [nd for nd in (old, new) if nd.fits(max_k, budget) and prefer in (None, nd.path)]
    if fit:
        best = min(fit, key=lambda nd: (nd.seconds[max_k], nd.path != "subvector"))
        return Choice(best.path, float(best.bytes[max_k]), float(best.seconds[max_k]))
    cands = [nd for nd in (old, new) if prefer in (None, nd.path)]
    short = all(nd.bytes[max_k] > budget for nd in cands)
    # the least the engine would need: memory if no path fits it, else time
    worst = min(cands, key=lambda nd: nd.bytes[max_k] if short else nd.seconds[max_k])
    if not abc and prefer is None:
        return Choice("sampled", float(worst.bytes[max_k]), float(worst.seconds[max_k]))
    ok = [k for k in range(max_k + 1) if old.fits(k, budget) or new.fits(k, budget)]
    fix = f"pass {setting('max_k', ok[-1])}" if ok else "use fewer bootstrap replicates"
    what = (
        f"more than {_size(float(worst.bytes[max_k]))}"
        if short
        else f"about {duration_text(float(worst.seconds[max_k]))} of work"
    )
    limit = _size(budget) if short else duration_text(EXACT_TIME_BUDGET)
    raise InputError(
        f"the exact survey engine would need {what} for {len(v):,} distinct items over "
        f"{v.shape[1]} classes up to k = {max_k} with {n_rep} replicates (budget {limit}); {fix}"
    )


# ----------------------------------------------------------------------------- plans
def _mc_note(
    choice: Choice, scorer: Any, clip: tuple[float, float], n_cls: int, n_draws: int, n_items: int
) -> Note:
    """The note of a fallback to sampling: why (the memory or the time the exact engine would
    need), and a bound on the Monte Carlo standard error of a curve point (every term lies in a
    range of width w, so its standard deviation is at most w / 2; a point averages n_draws
    independent draws of each of at least ``n_items`` items)."""
    width = 1.0 if scorer.name == "agreement" else math.log2(n_cls * clip[1] / clip[0])
    bound = width / 2 / math.sqrt(n_draws * max(n_items, 1))
    need: dict[str, int | float | str | tuple[int, ...]] = (
        {"memory": float(choice.bytes)}
        if choice.bytes > _levels.EXACT_MEMORY_BUDGET
        else {"seconds": float(choice.seconds)}
    )
    return Note("sampled_fallback", {**need, "draws": n_draws, "standard_error": bound})


def build_plan(
    counts: np.ndarray,
    max_k: int,
    r: int,
    combiner: Any,
    scorer: Any,
    method: str,
    clip: tuple[float, float],
    n_draws: int,
) -> tuple[Any, str, Note | None]:
    """The plan :func:`~humanly.survey._prepare.prepare` builds, the method it ends up with and a
    note: the ABC's exact path is settled by :func:`settle` once the number of replicates is known
    (a :class:`~._scale.ScalePlan` until then); a combiner that does not learn takes the path that
    fits, or sampling; sampling with the ABC needs the subvector plan's tables."""
    from ._levels import make_plan
    from ._scale import make_scale_plan
    from .combiners import ABC

    abc = isinstance(combiner, ABC)
    floor = getattr(combiner, "floor", 1e-3)
    if method == "sampled" and abc:
        return make_plan(counts, max_k, r, abc=True, abc_floor=floor), method, None
    scale = make_scale_plan(counts, max_k, r, abc=abc, abc_floor=floor)
    if method == "sampled" or abc:
        return scale, method, None
    choice = choose(scale.v, max_k, r, False, 1, PATH)
    if choice.path == "subvector":
        return make_plan(counts, max_k, r, abc=False, abc_floor=floor), method, None
    if choice.path == "composition":
        return scale, method, None
    n_items = int(scale.mult[scale.n_labels >= max_k + r].sum()) if max_k >= 0 else 0
    note = _mc_note(choice, scorer, clip, scale.n_classes, n_draws, n_items)
    return scale, "sampled", note


def settle(plan: Any, n_rep: int, scorer: Any, prefer: str | None = None) -> Any:
    """The ABC's exact plan for ``n_rep`` replicates scored by ``scorer``: ``plan`` itself (the
    composition path) or the subvector plan of the same data; raises :class:`InputError` when
    neither fits."""
    from ._levels import make_plan
    from ._scale import ScalePlan
    from .scorers import ce_terms

    if not isinstance(plan, ScalePlan) or not plan.abc or not len(plan.ks):
        return plan
    max_k = int(plan.ks[-1])
    shortcut = scorer.terms is ce_terms
    choice = choose(plan.v, max_k, plan.r, True, n_rep, prefer or PATH, shortcut)
    if choice.path == "subvector":
        counts = plan.v[plan.inv]
        return make_plan(counts, max_k, plan.r, abc=True, abc_floor=plan.abc_floor)
    return plan
