"""What the Appendix A sweep computes and what it found (:mod:`humanly.budget.sweep` runs it)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_number
from .._core.result import Result
from ..errors import InputError
from ._args import check_ms

__all__ = ["PAPER_N", "SweepCell", "SweepPoint", "SweepResult", "SweepSpec", "SweepViolation"]

#: The sample sizes of Appendix A.
PAPER_N: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 100, 101, 1000, 1001)


@dataclass(frozen=True, repr=False)
class SweepSpec(Result):
    """What a sweep computes; stored as ``spec.json`` beside the chunks so a rerun can resume.

    Parameters
    ----------
    grid_points : int
        Evenly spaced values per parameter in [lo, hi] (the paper: 50).
    lo, hi : float
        The grid's ends, inside [0.5, 1].
    n_items : tuple of int
        Items n (default the paper's 15 values).
    labels_per_item : tuple of int
        Labels per item compared with single labels (each ≥ 2).
    tolerance : float
        A violation: multi − single above this.

    Raises
    ------
    InputError
        For a grid outside [0.5, 1] or an m below 2.

    Examples
    --------
    >>> SweepSpec(grid_points=3, n_items=(1, 2), labels_per_item=(3,)).n_chunks
    9
    """

    grid_points: int = 50
    lo: float = 0.5
    hi: float = 0.99
    n_items: tuple[int, ...] = PAPER_N
    labels_per_item: tuple[int, ...] = (3, 11)
    tolerance: float = 1e-12

    def __post_init__(self) -> None:
        check_int("grid_points", self.grid_points, minimum=1)
        lo, hi = float(check_number("lo", self.lo)), float(check_number("hi", self.hi))
        if not 0.5 <= lo <= hi <= 1.0:
            raise InputError(f"lo={lo:g}, hi={hi:g}: the grid [lo, hi] must lie inside [0.5, 1]")
        n_items = check_ms(self.n_items, "n_items")
        if any(m < 2 for m in check_ms(self.labels_per_item, "labels_per_item")):
            raise InputError(
                f"labels_per_item={list(self.labels_per_item)}: give labels per item ≥ 2 (m = 1 is the base)"
            )
        check_number("tolerance", self.tolerance, minimum=0.0)
        object.__setattr__(self, "grid_points", int(self.grid_points))
        object.__setattr__(self, "n_items", n_items)
        object.__setattr__(self, "labels_per_item", tuple(int(m) for m in self.labels_per_item))

    @property
    def grid(self) -> np.ndarray:
        """The grid S of each parameter.

        Examples
        --------
        >>> SweepSpec(grid_points=3).grid.tolist()
        [0.5, 0.745, 0.99]
        """
        return np.linspace(self.lo, self.hi, self.grid_points)

    @property
    def n_chunks(self) -> int:
        """Chunks of the sweep: one per (q_b, q_w) grid pair.

        Examples
        --------
        >>> SweepSpec(grid_points=50).n_chunks
        2500
        """
        return self.grid_points**2


@dataclass(frozen=True, repr=False)
class SweepCell(Result):
    """The totals of one (n_items, labels_per_item) of a sweep.

    Parameters
    ----------
    n_items : int
        Items.
    labels_per_item : int
        Labels per item.
    configurations : int
        Configurations computed.
    violations : int
        Configurations where assumption 1 holds and multi − single exceeds the tolerance.
    max_violation : float or None
        The largest multi − single under assumption 1 (None when no configuration satisfies it).
    qw_gt_qb : int
        Configurations with q_w > q_b.
    qw_gt_qb_single_wins : int
        Of those, where single labels are strictly better.

    Examples
    --------
    >>> SweepCell(1, 3, 10, 0, -0.1, 4, 3).to_dict()["violations"]
    0
    """

    n_items: int
    labels_per_item: int
    configurations: int
    violations: int
    max_violation: float | None
    qw_gt_qb: int
    qw_gt_qb_single_wins: int


@dataclass(frozen=True, repr=False)
class SweepPoint(Result):
    """A configuration (q_b, q_w, p_w, p_b⁰, p_b¹) with its n and m.

    Parameters
    ----------
    q_b, q_w, p_w, p_b0, p_b1 : float
        The correlated error model's parameters.
    n_items : int
        Items.
    labels_per_item : int
        Labels per item.

    Examples
    --------
    >>> SweepPoint(0.9, 0.8, 0.7, 0.6, 0.9, 11, 3).n_items
    11
    """

    q_b: float
    q_w: float
    p_w: float
    p_b0: float
    p_b1: float
    n_items: int
    labels_per_item: int


@dataclass(frozen=True, repr=False)
class SweepViolation(Result):
    """A configuration where m-majority labels beat single labels by more than the tolerance.

    Parameters
    ----------
    q_b, q_w, p_w, p_b0, p_b1 : float
        The correlated error model's parameters.
    n_items : int
        Items.
    labels_per_item : int
        Labels per item.
    single : float
        The win probability of m·n single labels.
    multi : float
        The win probability of n m-majority labels.

    Examples
    --------
    >>> SweepViolation(0.9, 0.8, 0.7, 0.6, 0.9, 11, 3, 0.8, 0.81).multi
    0.81
    """

    q_b: float
    q_w: float
    p_w: float
    p_b0: float
    p_b1: float
    n_items: int
    labels_per_item: int
    single: float
    multi: float


@dataclass(frozen=True, repr=False)
class SweepResult(Result):
    """The totals over the finished chunks of a sweep (Appendix A).

    Parameters
    ----------
    spec : SweepSpec
        What was computed.
    chunks_done, chunks_total : int
        Finished chunks and all chunks.
    complete : bool
        Whether every chunk is finished.
    configurations : int
        Configurations per (n, m).
    probability_pairs : int
        (single, multi) pairs compared.
    violations : int
        Violations over every (n, m).
    max_violation : float or None
        The largest multi − single under assumption 1.
    max_violation_at : SweepPoint or None
        Where it is.
    qw_gt_qb_pairs : int
        Pairs with q_w > q_b.
    qw_gt_qb_single_wins : int
        Of those, where single labels are strictly better.
    share_single_wins_qw_gt_qb : float or None
        Their share (the paper: about two thirds).
    cells : tuple of SweepCell
        The totals per (n, m).
    violating : tuple of SweepViolation
        The first 1,000 violating configurations.
    out : str or None
        The folder of the chunk files.
    vote_ties : str
        A tied vote of an even m is broken by a fair coin (the sweep's only rule; the paper's m are
        odd).

    Examples
    --------
    >>> from humanly.budget import run_sweep
    >>> res = run_sweep(SweepSpec(grid_points=2, n_items=(1,), labels_per_item=(3,)), show_progress=False)
    >>> res.complete, res.violations
    (True, 0)
    """

    spec: SweepSpec
    chunks_done: int
    chunks_total: int
    complete: bool
    configurations: int
    probability_pairs: int
    violations: int
    max_violation: float | None
    max_violation_at: SweepPoint | None
    qw_gt_qb_pairs: int
    qw_gt_qb_single_wins: int
    share_single_wins_qw_gt_qb: float | None
    cells: tuple[SweepCell, ...]
    violating: tuple[SweepViolation, ...]
    out: str | None
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per (n, m) (the columns of :class:`SweepCell`)."""
        return pd.DataFrame([c.to_dict() for c in self.cells])

    def violations_frame(self) -> pd.DataFrame:
        """The recorded violating configurations as a table.

        Returns
        -------
        pandas.DataFrame
            One row per configuration (the columns of :class:`SweepViolation`).

        Examples
        --------
        >>> from humanly.budget import run_sweep
        >>> res = run_sweep(SweepSpec(grid_points=2, n_items=(1,), labels_per_item=(3,)), show_progress=False)
        >>> list(res.violations_frame().columns)[-2:]
        ['single', 'multi']
        """
        cols = [f.name for f in dataclasses.fields(SweepViolation)]
        return pd.DataFrame([v.to_dict() for v in self.violating], columns=cols)
