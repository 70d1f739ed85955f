"""One model's outputs (:class:`ModelOutput`) and how raw values become one.

A model's output is one of

* ``"label"`` — a hard class per item (integer code into the classes);
* ``"proba"`` — a probability vector per item (items × classes, rows sum to 1);
* ``"score"`` — a real number per item that is *not* a probability (e.g. a classifier's bucket or
  logit); analyses calibrate it (survey equivalence) or rank by it (AUC).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import code_labels, show

__all__ = ["ModelOutput", "OutputKind", "check_probabilities", "model_output"]

OutputKind = Literal["label", "proba", "score"]


@dataclasses.dataclass(frozen=True, eq=False)
class ModelOutput:
    """One model's outputs for the items of a :class:`Predictions`, in their order.

    Parameters
    ----------
    name : str
        The model's name.
    kind : {"label", "proba", "score"}
        ``label``: a class code per item; ``proba``: an items × classes array of probabilities (rows
        sum to 1); ``score``: a real number per item that is not a probability.
    values : numpy.ndarray
        The outputs, as ``kind`` says.

    Examples
    --------
    >>> import numpy as np
    >>> ModelOutput("m", "label", np.array([0, 1, 1]))
    ModelOutput(name='m', kind='label', n=3)
    """

    name: str
    kind: OutputKind
    values: np.ndarray = dataclasses.field(repr=False)

    def __repr__(self) -> str:
        return f"ModelOutput(name={self.name!r}, kind={self.kind!r}, n={len(self.values)})"


def _plainly_probabilities(p: np.ndarray, tol: float) -> bool:
    """Whether every value is a number in [0, 1] and every row sums to 1 (± ``tol``), from a few
    whole-array reductions and one sum column by column (no per-row masks): the common case, checked
    before the row-by-row search for the first offending row."""
    if p.ndim != 2 or not p.size or p.shape[1] > 64:
        return False
    with np.errstate(invalid="ignore"):
        lo, hi = p.min(), p.max()  # NaN in either: not plain
        if not (lo >= 0 and hi <= 1):
            return False
        sums = p[:, 0].astype(float, copy=True)
        for j in range(1, p.shape[1]):
            sums += p[:, j]
        return bool(np.abs(sums - 1).max() <= tol)


def check_probabilities(p: np.ndarray, where: Callable[[int], str], tol: float = 1e-6) -> None:
    """Raise :class:`InputError` for NaN, negative, >1 or rows not summing to 1 (± ``tol``).

    >>> check_probabilities(np.array([[0.5, 0.4]]), lambda i: f"row {i + 1}")
    Traceback (most recent call last):
    humanly.errors.InputError: row 1: probabilities sum to 0.9, not 1 (±1e-06); normalise each row
    """
    if _plainly_probabilities(p, tol):
        return
    bad_nan = ~np.isfinite(p).all(axis=1)
    with np.errstate(invalid="ignore"):
        bad_range = ~bad_nan & ((p < 0).any(axis=1) | (p > 1).any(axis=1))
        sums = p.sum(axis=1)
        bad_sum = ~bad_nan & ~bad_range & (np.abs(sums - 1) > tol)
    bad = bad_nan | bad_range | bad_sum
    if not bad.any():
        return
    i = int(np.flatnonzero(bad)[0])  # the first offending row, whatever is wrong with it
    if bad_nan[i]:
        raise InputError(
            f"{where(i)}: probability is missing or not a number; give a value in [0, 1]"
        )
    if bad_range[i]:
        v = p[i][(p[i] < 0) | (p[i] > 1)][0]
        raise InputError(f"{where(i)}: probability {v:g} is outside [0, 1]; fix it")
    raise InputError(
        f"{where(i)}: probabilities sum to {sums[i]:.6g}, not 1 (±{tol:g}); normalise each row"
    )


def _all_classes(values: np.ndarray, classes: tuple[Any, ...]) -> bool:
    text = {str(c) for c in classes}
    return all((v in classes) or (str(v) in text) for v in pd.unique(values.ravel()))


def model_output(
    name: str,
    values: Any,
    classes: tuple[Any, ...],
    *,
    kind: OutputKind | None = None,
    what: str | None = None,
    score_hint: str = 'pass kind="score"',
) -> ModelOutput:
    """One model's outputs as a :class:`ModelOutput`, its kind inferred when ``kind`` is ``None``.

    An items × classes array is ``"proba"``; a 1-D array whose values are all classes is ``"label"``;
    a 1-D array of numbers in [0, 1] with two classes is the probability of the second class
    (``"proba"``). Real-valued scores need ``kind="score"``. ``what`` names the model in messages.

    >>> model_output("m", [0.2, 0.9], (0, 1)).values.tolist()
    [[0.8, 0.2], [0.09999999999999998, 0.9]]
    """
    what = what or f"model {name!r}"
    arr = np.asarray(values)
    if arr.ndim not in (1, 2) or len(arr) == 0:
        raise InputError(f"{what}: expected a 1-D or items × classes array, got shape {arr.shape}")
    if kind is None:
        if arr.ndim == 2:
            kind = "proba"
        elif _all_classes(arr, classes):
            kind = "label"
        else:
            kind = _numeric_kind(arr, classes, what, score_hint)
    if kind == "label":
        codes, _ = code_labels(
            pd.Series(arr), classes, column=what, locate=lambda i: f"{what} item {i + 1}"
        )
        return ModelOutput(str(name), "label", codes)
    if kind == "proba":
        return ModelOutput(str(name), "proba", _probabilities(arr, classes, what))
    if kind == "score":
        try:
            s = arr.astype(float)
        except (TypeError, ValueError):
            raise InputError(f"{what}: scores must be numbers") from None
        if s.ndim != 1 or not np.all(np.isfinite(s)):
            bad = int(np.flatnonzero(~np.isfinite(s.ravel()))[0]) if s.ndim == 1 else 0
            raise InputError(f"{what} item {bad + 1}: a score must be one finite number per item")
        return ModelOutput(str(name), "score", s)
    raise InputError(f'kind={kind!r}: use "label", "proba" or "score"')


def _numeric_kind(
    arr: np.ndarray, classes: tuple[Any, ...], what: str, score_hint: str
) -> OutputKind:
    """A 1-D array that is not all classes: a positive-class probability, or an error that says why."""
    numeric = arr.dtype.kind in "fiu"
    if numeric and len(classes) == 2:
        p1 = arr.astype(float)
        bad = ~np.isfinite(p1) | (p1 < 0) | (p1 > 1)
        if not bad.any():
            return "proba"
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{what} item {i + 1}: {show(arr[i])} is neither a class {classes!r} nor a probability "
            f"in [0, 1]; for real-valued scores {score_hint}"
        )
    first = next(v for v in arr if v not in classes and str(v) not in {str(c) for c in classes})
    if numeric:
        raise InputError(
            f"{what}: value {show(first)} is not one of the classes {classes!r}, and a single "
            f"probability per item needs two classes; for real-valued scores {score_hint}"
        )
    raise InputError(
        f"{what}: value {show(first)} is not one of the classes {classes!r}; fix the value or "
        f"declare every class with {setting('classes')}"
    )


def _probabilities(arr: np.ndarray, classes: tuple[Any, ...], what: str) -> np.ndarray:
    try:
        p = arr.astype(float)
    except (TypeError, ValueError):
        raise InputError(f"{what}: probabilities must be numbers") from None
    if p.ndim == 1:
        if len(classes) != 2:
            raise InputError(
                f"{what}: one probability per item needs exactly two classes, but {setting('classes')}"
                f"{classes!r}; give an items × classes array"
            )
        p = np.column_stack([1.0 - p, p])
    elif p.shape[1] != len(classes):
        raise InputError(
            f"{what}: {p.shape[1]} probability columns for {len(classes)} classes {classes!r}; "
            "give one column per class"
        )
    check_probabilities(p, lambda i: f"{what} item {i + 1}")
    return p
