"""Explicit randomness: every sampling function takes ``seed``; replicate ``i`` draws from a stream
derived from ``(seed, i)`` so results never depend on how work is split across processes or workers."""

from __future__ import annotations

import numpy as np

__all__ = ["Seed", "rng", "stream", "streams"]

Seed = int | np.random.Generator | None


def rng(seed: Seed) -> np.random.Generator:
    """A Generator from an int seed (or the Generator itself)."""
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def stream(seed: int | None, index: int) -> np.random.Generator:
    """The random stream of replicate/chunk ``index`` under ``seed`` (independent of worker order)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(int(index),)))


def streams(seed: int | None, n: int, start: int = 0) -> list[np.random.Generator]:
    """Streams ``start .. start + n - 1`` (same as calling :func:`stream` for each index)."""
    return [stream(seed, i) for i in range(start, start + n)]
