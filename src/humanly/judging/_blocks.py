"""The unlabelled items' scores built one stratum at a time.

With strata, the estimators read the unlabelled items' scores (items × estimands × judges) one
stratum at a time, and never all at once. :class:`Blocks` stands for the whole array, the items in
stratum order: indexing its rows builds that block (the rows a stratum asks for, in order, the same
values in the same layout as the slice of the whole array), so a million items × 6 estimands × 3
judges are never held at once, and each block's memory is reused by the next.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["Blocks", "whole"]


@dataclasses.dataclass(frozen=True, eq=False)
class Blocks:
    """Items × estimands × judges scores, built for the rows asked for.

    ``build(positions)`` returns the scores of the items at ``positions`` (a C-ordered array);
    ``rows`` are every item's position, in order; ``judge`` selects one judge (``blocks[:, :, j]``).
    """

    build: Callable[[np.ndarray], np.ndarray]
    rows: np.ndarray
    estimands: int
    judges: int
    judge: int | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The whole array's shape."""
        n = len(self.rows)
        return (n, self.estimands) if self.judge is not None else (n, self.estimands, self.judges)

    @property
    def ndim(self) -> int:
        """The whole array's number of dimensions."""
        return len(self.shape)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key: Any) -> Any:
        """``[rows]``: the block of those rows (a slice or positions), as floats; ``[:, :, j]``:
        judge ``j``'s scores, still built on demand."""
        if isinstance(key, tuple):
            everything = slice(None)
            if len(key) == 3 and key[:2] == (everything, everything) and self.judge is None:
                return dataclasses.replace(self, judge=int(key[2]))
            raise TypeError(f"Blocks[{key!r}]: index rows, or one judge with [:, :, j]")
        block = np.asarray(self.build(self.rows[key]), dtype=float)
        return block if self.judge is None else block[:, :, self.judge]


def whole(x: Any) -> Any:
    """The whole array of ``x`` (built, for :class:`Blocks`), anything else as it is."""
    return x[:] if isinstance(x, Blocks) else x
