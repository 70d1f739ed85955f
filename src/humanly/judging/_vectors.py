"""Checks of the plain arrays the array-level functions take (:mod:`humanly.judging.arrays`): one
sentence naming the parameter, the offending shape or value and where it is."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_number
from ..errors import InputError

__all__ = ["INF", "columns", "factorize", "lam_of", "three", "vector"]

INF = float("inf")


def columns(x: Any) -> np.ndarray:
    """A float array with one column per estimand (a 1-D array is one column).

    >>> columns([1, 2]).shape
    (2, 1)
    """
    a = np.asarray(x, dtype=float)
    return a[:, None] if a.ndim == 1 else a


def vector(name: str, x: Any, ndim: tuple[int, ...] = (1,)) -> np.ndarray:
    """A finite float array of one of the allowed numbers of dimensions.

    >>> vector("y", [1, 2]).tolist()
    [1.0, 2.0]
    """
    a = np.asarray(x, dtype=float)
    if a.ndim not in ndim:
        shapes = " or ".join(f"{d}-D" for d in ndim)
        raise InputError(f"{name}: an array of shape {a.shape}; give a {shapes} array")
    bad = ~np.isfinite(a)
    if bad.any():
        first = np.argwhere(bad)[0].tolist()
        raise InputError(
            f"{name}: a missing or infinite value at position {first}; give a number for every item"
        )
    return a


def three(
    y: Any, f: Any, f_unlabelled: Any, judges: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``y`` (n), ``f`` (n, or n × J with ``judges``) and ``f_unlabelled`` (N, or N × J), checked."""
    dims = (1, 2) if judges else (1,)
    y_ = vector("y", y)
    f_, fu = vector("f", f, dims), vector("f_unlabelled", f_unlabelled, dims)
    if len(f_) != len(y_):
        raise InputError(
            f"f: {len(f_)} judge scores for {len(y_)} labelled items; give one per item"
        )
    if len(y_) < 2:
        raise InputError(f"y: {len(y_)} labelled item(s); give at least 2")
    if len(fu) < 1:
        raise InputError(
            "f_unlabelled: no unlabelled item; give the judge's scores on at least one"
        )
    if f_.ndim != fu.ndim or (f_.ndim == 2 and f_.shape[1] != fu.shape[1]):
        raise InputError(
            f"f_unlabelled: shape {fu.shape} does not match f's {f_.shape}; give the same judges"
        )
    return y_, f_, fu


def lam_of(lam: Any) -> float | None:
    """``None`` (tuned), or λ in [0, 1]."""
    return None if lam is None else float(check_number("lam", lam, minimum=0, maximum=1))


def factorize(labels: Any) -> tuple[np.ndarray, tuple[str, ...]]:
    """Integer codes of any labels and the names they stand for: whole numbers sorted as numbers,
    anything else as text (a hash table, not a sort of strings: 10⁶ labels in milliseconds).

    >>> codes, names = factorize(np.array([10, 2, 10]))
    >>> codes.tolist(), names
    ([1, 0, 1], ('2', '10'))
    """
    a = np.asarray(labels).reshape(-1)
    if a.dtype.kind not in "iub":
        a = a.astype(str)
    codes, uniques = pd.factorize(a, sort=True)
    return np.asarray(codes, dtype=np.intp), tuple(str(x) for x in np.asarray(uniques).tolist())
