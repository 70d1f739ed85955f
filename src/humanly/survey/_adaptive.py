"""Which survey sizes the ABC's composition path computes, and for which replicates (issue 34): the
verdict exactly, the rest of the curve to the precision a figure shows.

The cost of a survey size k is its (vector, sub-count) pairs × replicates; with 100 labels per item
the middle sizes hold 100× the pairs of k ≤ 10, where the verdicts are read. So:

1. **Dense part, every replicate.** Sizes 0, 1, 2, … are computed in order for the data and every
   bootstrap replicate until k ≥ 3 and each model's score in each of them is *decided* — the curve
   has passed it (c_k > score: the leftmost crossing of Algorithm 4 is found), or the score is at or
   below c_0, or the curve stopped — except at most 1/64 of the replicates;
2. **the rest of the crossings**: the replicates still undecided (the data among them if it is) go
   on, size by size, until each is decided or the curve ends. Every model's equivalence, its range
   and its mean are therefore read off exactly the numbers the full computation gives;
3. **the curve beyond**: the sizes 2^i and the largest k, for every replicate; then between two
   computed sizes a and b the data's c_m at m = ⌊(a + b) / 2⌋ is computed alone and compared with the
   straight line from c_a to c_b: if it is off by more than :data:`TOLERANCE` of the curve's span,
   m is computed for every replicate and both halves are looked at again; otherwise m keeps the
   data's exact value and its range is drawn straight between the neighbours' (a figure's line width).

Each size's numbers (and each replicate's) do not depend on which other sizes or replicates are
computed (:func:`~humanly.survey._scale.sweep`), so every computed number equals the full run's.
``computed`` says what each size holds: :data:`EXACT` (the data and every replicate), :data:`SCORE`
(the data only) or :data:`INTERPOLATED` (nothing: drawn straight between computed sizes).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import numpy as np

from .._core.progress import task
from . import _scale
from .crossing import SAME
from .scorers import Scorer

__all__ = ["EXACT", "INTERPOLATED", "SCORE", "TOLERANCE", "Grid", "abc_grid"]

#: What a survey size holds: every replicate and the data, the data only, or nothing.
EXACT, SCORE, INTERPOLATED = "exact", "score", "interpolated"
#: A size between two computed ones is computed for every replicate when the data's value there is
#: off the straight line by more than this share of the curve's span (about a line width in a figure).
TOLERANCE = 0.005
#: The dense part stops once at most this share of the replicates is still undecided.
STRAGGLERS = 1 / 64
#: The dense part covers at least the sizes 0 … DENSE_MIN.
DENSE_MIN = 3
#: Progress expects the dense part to reach this size (it stops where the crossings are placed).
EXPECTED_DENSE = 12


@dataclasses.dataclass(frozen=True)
class Grid:
    """The ABC's curves of the data (row 0) and the replicates (B, L), NaN where not computed; items
    per level (B, L); what each size holds (L,) and the data's fallback share (L,), NaN where not
    computed."""

    curves: np.ndarray
    n_items: np.ndarray
    computed: tuple[str, ...]
    fallback: np.ndarray


class _Decided:
    """Which (replicate, model) scores each replicate's curve has placed, by the rules of
    :func:`~humanly.survey.crossing.equivalence_point`."""

    def __init__(self, targets: np.ndarray) -> None:
        self.h = targets
        self.done = ~np.isfinite(targets)

    def update(self, k: int, c: np.ndarray, rows: np.ndarray) -> None:
        h = self.h[rows]
        cc = c[:, None]
        if k == 0:
            hit = ~np.isfinite(cc) | (h <= cc + SAME * np.maximum(1.0, np.abs(cc)))
        else:
            hit = ~np.isfinite(cc) | (cc > h)
        self.done[rows] |= hit

    def open_rows(self) -> np.ndarray:
        return np.flatnonzero(~self.done.all(axis=1))


def abc_grid(
    plan: Any, mult: np.ndarray, scorer: Scorer, targets: np.ndarray, adaptive: bool, show: bool
) -> Grid:
    """The curves of the data and the replicates (``mult``: (B, D), row 0 the data) with
    ``targets`` (B, M) the models' scores in each; ``adaptive=False`` computes every size for every
    replicate (see the module docstring)."""
    mult = np.atleast_2d(np.asarray(mult, dtype=float))
    n_b, n_lv = len(mult), len(plan.ks)
    run = _Run(plan, mult, scorer, show)
    dense = not adaptive or n_lv <= DENSE_MIN + 2
    expected = run._cost(n_b, 0, n_lv - 1) if dense else run.expected()
    with task("survey curve", expected, enabled=show, counted=False) as bar:
        run.bar = bar
        if dense:
            run.full(0, n_lv - 1, np.arange(n_b))
        else:
            run.dense(_Decided(np.asarray(targets, dtype=float).reshape(n_b, -1)))
            run.beyond()
    n_items = run.n_items
    with np.errstate(invalid="ignore", divide="ignore"):
        curves = run.sums / n_items
        share = run.fell[0] / n_items[0]
    computed = tuple(
        EXACT if run.every[j] else SCORE if np.isfinite(run.sums[0, j]) else INTERPOLATED
        for j in range(n_lv)
    )
    return Grid(curves, n_items, computed, share)


class _Run:
    """The sums computed so far (data and replicates × levels) and the work still planned."""

    def __init__(self, plan: Any, mult: np.ndarray, scorer: Scorer, show: bool) -> None:
        self.plan, self.mult, self.scorer = plan, mult, scorer
        n_b, n_lv = len(mult), len(plan.ks)
        self.sums = np.full((n_b, n_lv), np.nan)
        self.fell = np.full((n_b, n_lv), np.nan)
        self.every = np.zeros(n_lv, dtype=bool)  # computed for the data and every replicate
        self.n_items = _scale.items_per_level(plan, mult)
        self.costs = {n: _scale.level_costs(plan, n) for n in (n_b, 2)}
        self.bar: Any = None

    def _level_costs(self, n_rows: int) -> np.ndarray:
        """The cost of each level's pass for ``n_rows`` replicates (computed once per count)."""
        if n_rows not in self.costs:
            self.costs[n_rows] = _scale.level_costs(self.plan, n_rows)
        return self.costs[n_rows]

    def _cost(self, n_rows: int, k0: int, k1: int) -> float:
        return float(self._level_costs(n_rows)[k0 : k1 + 2].sum())

    def expected(self) -> float:
        """The adaptive run's expected cost, what progress measures it against until the work done
        passes it: the dense part to :data:`EXPECTED_DENSE`, the marks beyond for every replicate,
        and the data alone at every size."""
        n_b, top = len(self.mult), len(self.plan.ks) - 1
        dense = min(EXPECTED_DENSE, top)
        marks = {2**i for i in range(1, top.bit_length() + 1) if dense < 2**i <= top} | {top}
        one = self._cost(1, 0, top) - self._cost(1, 0, dense)
        return self._cost(n_b, 0, dense) + sum(self._cost(n_b, k, k) for k in marks) + one

    def _advance(self, cost: float) -> None:
        """One pass done: past the expected cost, the total follows the work done."""
        bar = self.bar
        bar.total = max(bar.total or 0.0, bar.done + cost)
        bar.advance(cost)

    def full(self, k0: int, k1: int, rows: np.ndarray, stop: Any = None) -> int:
        """Sizes k0 … k1 for ``rows`` (until ``stop`` says enough); the last size computed."""
        n = len(rows)
        costs = self._level_costs(n)
        s, f, last = _scale.sweep(
            self.plan, self.mult[rows], self.scorer, k0, k1, stop, self._advance, costs
        )
        got = np.arange(k0, last + 1)
        self.sums[np.ix_(rows, got)] = s[:, got]
        self.fell[np.ix_(rows, got)] = f[:, got]
        if n == len(self.mult):
            self.every[got] = True
        return last

    def dense(self, dec: _Decided) -> None:
        """Steps 1 and 2 of the module docstring."""
        n_b, n_lv = len(self.mult), len(self.plan.ks)
        every = np.arange(n_b)
        limit = int(STRAGGLERS * n_b)

        def enough(k: int, total: np.ndarray) -> bool:
            with np.errstate(invalid="ignore", divide="ignore"):  # no item at k: NaN, decided
                dec.update(k, total / self.n_items[:, k], every)
            return k >= DENSE_MIN and len(dec.open_rows()) <= limit

        self.k_dense = self.full(0, n_lv - 1, every, enough)
        rows = dec.open_rows()
        if len(rows) and self.k_dense < n_lv - 1:

            def placed(k: int, total: np.ndarray) -> bool:
                with np.errstate(invalid="ignore", divide="ignore"):
                    dec.update(k, total / self.n_items[rows, k], rows)
                return len(dec.open_rows()) == 0

            self.full(self.k_dense + 1, n_lv - 1, rows, placed)

    def beyond(self) -> None:
        """Step 3 of the module docstring: the marks, then the sizes where the curve bends; past
        the data's first fall (the ABC no longer informative) the data alone."""
        _n_b, top = len(self.mult), len(self.plan.ks) - 1
        if self.k_dense >= top:
            return
        marks = sorted({2**i for i in range(1, top.bit_length() + 1)} | {top})
        marks = [k for k in marks if self.k_dense < k <= top]
        known = [k for k in range(self.k_dense + 1) if self.every[k]]
        best = float(np.nanmax(self._data(known)))
        fell: int | None = None
        for k in marks:
            c = self._probe(k)
            if fell is None and c < best:
                fell = k  # the data's curve falls: the ABC is no longer informative
            best = max(best, c)
            if fell is None:
                self._all(k)
        vals = self._data([self.k_dense, *marks])
        tol = (
            TOLERANCE * float(np.nanmax(vals) - np.nanmin(vals)) if np.isfinite(vals).any() else 0.0
        )
        cuts = [self.k_dense, *marks]
        todo = list(itertools.pairwise(cuts))
        while todo:
            todo.sort()  # leftmost first: every size left of an interval is settled
            a, b = todo.pop(0)
            if b - a < 2:
                continue
            m = (a + b) // 2
            c = self._probe(m)
            left = [j for j in range(m) if np.isfinite(self.sums[0, j])]
            if fell is None or m < fell:
                fell = m if c < float(np.nanmax(self._data(left))) else fell
            ends = self._data([a, b])
            line = ends[0] + (ends[1] - ends[0]) * (m - a) / (b - a)
            if not abs(c - line) <= tol:
                if fell is None or m < fell:
                    self._all(m)
                todo += [(a, m), (m, b)]

    def _data(self, ks: list[int]) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(self.sums[0, ks] / self.n_items[0, ks], dtype=float)

    def _probe(self, k: int) -> float:
        """The data's c_k, computed alone if it is not known yet."""
        if np.isnan(self.sums[0, k]):
            self.full(k, k, np.array([0]))
        return float(self._data([k])[0])

    def _all(self, k: int) -> None:
        if not self.every[k]:
            self.full(k, k, np.arange(len(self.mult)))
