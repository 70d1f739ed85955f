"""`Predictions` (one or more models' outputs per item) and `Gold` (oracle labels for some items).

A model's output is one of

* ``"label"`` — a hard class per item (integer code into the classes);
* ``"proba"`` — a probability vector per item (items × classes, rows sum to 1);
* ``"score"`` — a real number per item that is *not* a probability (e.g. a classifier's bucket or
  logit); analyses calibrate it (survey equivalence) or rank by it (AUC).

Both are aligned to a :class:`~humanly.data.ratings.Ratings` by item id with :func:`align`: items with
ratings but no prediction, and predictions for unknown items, are counted and reported (an error by
default, dropped on request).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import InputError
from ._coding import code_labels, show
from .matching import MissingPolicy, align_index, check_missing, mismatch, no_match
from .ratings import Ratings

__all__ = [
    "Gold",
    "ModelOutput",
    "OutputKind",
    "Predictions",
    "align",
    "align_index",
    "check_probabilities",
    "model_output",
]

OutputKind = Literal["label", "proba", "score"]


@dataclasses.dataclass(frozen=True, eq=False)
class ModelOutput:
    """One model's outputs for the items of a :class:`Predictions` (same order)."""

    name: str
    kind: OutputKind
    values: np.ndarray = dataclasses.field(repr=False)

    def __repr__(self) -> str:
        return f"ModelOutput(name={self.name!r}, kind={self.kind!r}, n={len(self.values)})"


def check_probabilities(p: np.ndarray, where: Callable[[int], str], tol: float = 1e-6) -> None:
    """Raise :class:`InputError` for NaN, negative, >1 or rows not summing to 1 (± ``tol``).

    >>> check_probabilities(np.array([[0.5, 0.4]]), lambda i: f"row {i + 1}")
    Traceback (most recent call last):
    humanly.errors.InputError: row 1: probabilities sum to 0.9, not 1 (±1e-06); normalise each row
    """
    bad_nan = ~np.isfinite(p).all(axis=1)
    if bad_nan.any():
        i = int(np.flatnonzero(bad_nan)[0])
        raise InputError(
            f"{where(i)}: probability is missing or not a number; give a value in [0, 1]"
        )
    bad_neg = (p < 0).any(axis=1) | (p > 1).any(axis=1)
    if bad_neg.any():
        i = int(np.flatnonzero(bad_neg)[0])
        v = p[i][(p[i] < 0) | (p[i] > 1)][0]
        raise InputError(f"{where(i)}: probability {v:g} is outside [0, 1]; fix it")
    sums = p.sum(axis=1)
    bad_sum = np.abs(sums - 1) > tol
    if bad_sum.any():
        i = int(np.flatnonzero(bad_sum)[0])
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
        "declare every class with classes="
    )


def _probabilities(arr: np.ndarray, classes: tuple[Any, ...], what: str) -> np.ndarray:
    try:
        p = arr.astype(float)
    except (TypeError, ValueError):
        raise InputError(f"{what}: probabilities must be numbers") from None
    if p.ndim == 1:
        if len(classes) != 2:
            raise InputError(
                f"{what}: one probability per item needs exactly two classes, but classes="
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


class Predictions:
    """Outputs of one or more models for a set of items (immutable).

    Build with :meth:`from_arrays` or :func:`humanly.read_predictions`. ``classes`` are the classes the
    outputs refer to (the ratings' classes once aligned).

    >>> import numpy as np
    >>> Predictions.from_arrays(["i1", "i2"], {"m": np.array([0.2, 0.9])}, classes=("cat", "dog"))
    Predictions(2 items, classes=('cat', 'dog'), models={'m': proba})
    """

    __slots__ = ("classes", "items", "models", "source")

    def __init__(
        self,
        items: pd.Index,
        classes: Sequence[Any],
        models: Sequence[ModelOutput],
        source: str | None = None,
    ) -> None:
        self.items = pd.Index(items)
        self.classes = tuple(classes)
        self.models = tuple(models)
        self.source = source
        names = [m.name for m in self.models]
        if len(set(names)) != len(names):
            raise InputError(f"model names must be unique, got {names}")
        if not self.models:
            raise InputError(f"{source or 'predictions'}: no model outputs")
        n_c = len(self.classes)
        for m in self.models:
            if len(m.values) != len(self.items):
                raise ValueError(
                    f"model {m.name!r}: {len(m.values)} outputs for {len(self.items)} items"
                )
            if m.kind == "proba" and (m.values.ndim != 2 or m.values.shape[1] != n_c):
                raise ValueError(f"model {m.name!r}: probabilities must be items × {n_c}")

    @classmethod
    def from_arrays(
        cls,
        items: Sequence[Any],
        outputs: dict[str, Any],
        *,
        classes: Sequence[Any],
        kind: OutputKind | dict[str, OutputKind] | None = None,
        source: str | None = None,
    ) -> Predictions:
        """Predictions from arrays: ``outputs`` maps model name → labels, probabilities or scores, one
        entry per item of ``items`` (in that order).

        ``kind`` is inferred when omitted: an items × classes array is ``"proba"``; a 1-D array whose
        values are all classes is ``"label"`` (values are class names, not codes); a 1-D array of
        numbers in [0, 1] with two classes is the probability of the second class (``"proba"``). Pass
        ``kind="score"`` for real-valued scores (a dict gives each model its own kind).

        >>> p = Predictions.from_arrays(
        ...     ["a", "b", "c"], {"clf": [0.9, 0.2, 0.6], "rule": ["yes", "no", "no"]},
        ...     classes=["no", "yes"])
        >>> p
        Predictions(3 items, classes=('no', 'yes'), models={'clf': proba, 'rule': label})
        >>> p.hard("clf").tolist()
        [1, 0, 1]
        """
        if items is None:
            raise TypeError("items=None: give the item ids, one per output")
        if classes is None:
            raise TypeError("classes=None: give the classes the outputs refer to")
        if not isinstance(outputs, dict):
            raise TypeError(
                f"outputs={type(outputs).__name__}: give a dict mapping model name → outputs"
            )
        cls_ = tuple(classes)
        models = []
        for name, raw in outputs.items():
            if raw is None:
                raise TypeError(f"outputs[{name!r}]=None: give labels, probabilities or scores")
            k = kind.get(name) if isinstance(kind, dict) else kind
            models.append(model_output(str(name), raw, cls_, kind=k))
        return cls(pd.Index(items), cls_, models, source=source)

    # ------------------------------------------------------------------ access
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.models)

    @property
    def n_items(self) -> int:
        return len(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, name: str) -> ModelOutput:
        for m in self.models:
            if m.name == name:
                return m
        raise KeyError(f"no model {name!r}; models are {list(self.names)}")

    def __iter__(self) -> Iterator[ModelOutput]:
        return iter(self.models)

    def hard(self, name: str) -> np.ndarray:
        """Hard class codes of a model (argmax of probabilities; ties to the first class)."""
        m = self[name]
        if m.kind == "label":
            return m.values
        if m.kind == "proba":
            return np.argmax(m.values, axis=1).astype(np.int16)
        raise InputError(
            f"model {name!r} outputs scores, not classes; calibrate it or give labels/probabilities"
        )

    def proba(self, name: str) -> np.ndarray:
        """Probability vectors of a model (one-hot for hard labels)."""
        m = self[name]
        if m.kind == "proba":
            return m.values
        if m.kind == "label":
            return np.eye(len(self.classes))[m.values]
        raise InputError(f"model {name!r} outputs scores, not probabilities; calibrate it first")

    def take(self, indices: Any) -> Predictions:
        idx = np.asarray(indices)
        models = [ModelOutput(m.name, m.kind, m.values[idx]) for m in self.models]
        return Predictions(self.items[idx], self.classes, models, source=self.source)

    def select(self, names: Sequence[str]) -> Predictions:
        return Predictions(self.items, self.classes, [self[n] for n in names], source=self.source)

    def __repr__(self) -> str:
        kinds = ", ".join(f"{m.name!r}: {m.kind}" for m in self.models)
        return f"Predictions({self.n_items} items, classes={self.classes!r}, models={{{kinds}}})"


@dataclasses.dataclass(frozen=True, eq=False)
class Gold:
    """Oracle ("gold") labels for some items: ids and class codes (-1: no gold label).

    >>> g = Gold(pd.Index(["a", "b"]), ("no", "yes"), np.array([1, 0]))
    >>> g.for_items(pd.Index(["b", "c", "a"])).tolist()
    [0, -1, 1]
    """

    items: pd.Index
    classes: tuple[Any, ...]
    codes: np.ndarray = dataclasses.field(repr=False)
    source: str | None = None

    def __len__(self) -> int:
        return len(self.items)

    def for_items(self, items: pd.Index, missing: MissingPolicy = "error") -> np.ndarray:
        """Gold codes aligned to ``items`` (-1 where an item has no gold label).

        Gold labels for items that are not in ``items`` are an error unless ``missing="drop"``.
        """
        check_missing(missing)
        labelled = self.codes >= 0
        known = self.items[labelled] if not labelled.all() else self.items
        codes = self.codes[labelled] if not labelled.all() else self.codes
        pos = align_index(items, known)
        out = np.full(len(items), -1, dtype=np.int16)
        out[pos >= 0] = codes[pos[pos >= 0]]
        if missing == "error":
            problem = mismatch(
                pd.Index(items),
                pos,
                known,
                what=self.source or "gold",
                noun="gold label",
                subset_ok=True,
            )
            if problem:
                raise InputError(problem)
        return out

    def __repr__(self) -> str:
        return f"Gold({len(self.items)} items, classes={self.classes!r}, source={self.source!r})"


def align(
    ratings: Ratings,
    predictions: Predictions,
    missing: MissingPolicy = "error",
) -> tuple[Ratings, Predictions]:
    """Align predictions to ratings by item id; return both restricted to the common items, in the
    ratings' order.

    With ``missing="error"`` (default) any rated item without a prediction, or a prediction for an
    item with no ratings, raises :class:`InputError` with the counts; ``missing="drop"`` keeps the
    items both have.

    >>> r = Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"])
    >>> p = Predictions.from_arrays(["b", "a", "z"], {"m": [1, 0, 1]}, classes=[0, 1])
    >>> r2, p2 = align(r, p, missing="drop")
    >>> list(p2.items), p2.hard("m").tolist()
    (['a', 'b'], [0, 1])
    """
    missing = check_missing(missing)
    what = predictions.source or "predictions"
    if tuple(map(str, predictions.classes)) != tuple(map(str, ratings.classes)):
        raise InputError(
            f"{what}: classes {predictions.classes!r} do not match the ratings' classes "
            f"{ratings.classes!r}; read the predictions with the ratings' classes"
        )
    pos = align_index(ratings.items, predictions.items)
    has_pred = pos >= 0
    if missing == "error":
        problem = mismatch(ratings.items, pos, predictions.items, what=what, noun="prediction")
        if problem:
            raise InputError(problem)
    same_items = len(predictions.items) == len(ratings.items)
    if same_items and np.array_equal(pos, np.arange(len(pos))):
        return ratings, predictions
    if not has_pred.any():
        raise no_match(what, "prediction")
    keep = np.flatnonzero(has_pred)
    r = ratings if has_pred.all() else ratings.take(keep)
    p = predictions.take(pos[keep])
    p = Predictions(r.items, ratings.classes, p.models, source=predictions.source)
    return r, p
