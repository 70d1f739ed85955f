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
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ._coding import show
from .errors import InputError
from .ratings import Ratings

__all__ = ["Gold", "ModelOutput", "Predictions", "align", "align_index"]

OutputKind = Literal["label", "proba", "score"]
MissingPolicy = Literal["error", "drop"]


@dataclasses.dataclass(frozen=True, eq=False)
class ModelOutput:
    """One model's outputs for the items of a :class:`Predictions` (same order)."""

    name: str
    kind: OutputKind
    values: np.ndarray = dataclasses.field(repr=False)

    def __repr__(self) -> str:
        return f"ModelOutput(name={self.name!r}, kind={self.kind!r}, n={len(self.values)})"


def _items_key(index: pd.Index) -> pd.Index:
    return index.astype(str) if index.dtype != object else pd.Index([str(x) for x in index])


def align_index(target: pd.Index, source: pd.Index) -> np.ndarray:
    """Positions in ``source`` of each id in ``target`` (-1 where absent).

    Ids match as given; if the two indexes hold different types (``266`` vs ``"266"``, e.g. a Parquet
    file against a CSV), they are compared as text.
    """
    pos = source.get_indexer(target)
    if (pos < 0).any() and len(source) and len(target):
        same_kind = pd.api.types.infer_dtype(target) == pd.api.types.infer_dtype(source)
        if not same_kind:
            pos = _items_key(source).get_indexer(_items_key(target))
    return pos


class Predictions:
    """Outputs of one or more models for a set of items (immutable).

    Build with :meth:`from_arrays` or :func:`humanly.read_predictions`. ``classes`` are the classes the
    outputs refer to (the ratings' classes once aligned).
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
        """Predictions from arrays: ``outputs`` maps model name → labels, probabilities or scores.

        ``kind`` is inferred when omitted: a 2-D array is ``"proba"``; a 1-D array whose values are all
        classes is ``"label"`` (values are class names, not codes); otherwise an error (pass
        ``kind="score"`` for real-valued scores, or a 1-D positive-class probability with
        ``kind="proba"`` for two classes).
        """
        from ._coding import code_labels
        from .io import check_probabilities

        cls_ = tuple(classes)
        models = []
        for name, raw in outputs.items():
            k = kind.get(name) if isinstance(kind, dict) else kind
            arr = np.asarray(raw)
            if k is None:
                if arr.ndim == 2:
                    k = "proba"
                else:
                    k = "label"
            if k == "label":
                codes, _ = code_labels(pd.Series(arr), cls_, column=f"model {name}")
                models.append(ModelOutput(str(name), "label", codes))
            elif k == "proba":
                p = arr.astype(float)
                if p.ndim == 1:
                    if len(cls_) != 2:
                        raise InputError(
                            f"model {name!r}: a single probability column needs exactly two classes"
                        )
                    p = np.column_stack([1 - p, p])
                check_probabilities(p, where=lambda i, n=name: f"model {n!r} item {i + 1}")
                models.append(ModelOutput(str(name), "proba", p))
            elif k == "score":
                s = arr.astype(float)
                if not np.all(np.isfinite(s)):
                    i = int(np.flatnonzero(~np.isfinite(s))[0])
                    raise InputError(f"model {name!r} item {i + 1}: score {s[i]!r} is not finite")
                models.append(ModelOutput(str(name), "score", s))
            else:
                raise InputError(f"kind={k!r}: use label, proba or score")
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

    def __iter__(self):  # type: ignore[no-untyped-def]
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
    """Oracle ("gold") labels for some items: ids and class codes."""

    items: pd.Index
    classes: tuple[Any, ...]
    codes: np.ndarray = dataclasses.field(repr=False)
    source: str | None = None

    def __len__(self) -> int:
        return len(self.items)

    def for_items(self, items: pd.Index, missing: MissingPolicy = "error") -> np.ndarray:
        """Gold codes aligned to ``items`` (-1 where an item has no gold label).

        Gold for items that are not in ``items`` is an error unless ``missing="drop"``.
        """
        pos = align_index(items, self.items)
        out = np.full(len(items), -1, dtype=np.int16)
        out[pos >= 0] = self.codes[pos[pos >= 0]]
        if missing == "error":
            used = np.zeros(len(self.items), dtype=bool)
            used[pos[pos >= 0]] = True
            if not used.all():
                extra = self.items[~used]
                raise InputError(
                    f"{self.source or 'gold'}: {len(extra)} gold label(s) for items with no ratings "
                    f"(first: {show(extra[0])}); fix the ids or pass --missing drop"
                )
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
    """
    if tuple(map(str, predictions.classes)) != tuple(map(str, ratings.classes)):
        raise InputError(
            f"{predictions.source or 'predictions'}: classes {predictions.classes!r} do not match the "
            f"ratings' classes {ratings.classes!r}; read the predictions with the ratings' classes"
        )
    pos = align_index(ratings.items, predictions.items)
    has_pred = pos >= 0
    n_unknown = len(predictions.items) - int(has_pred.sum())
    n_unpredicted = int((~has_pred).sum())
    if missing not in ("error", "drop"):
        raise InputError(f"missing={missing!r}: use error or drop")
    if missing == "error" and (n_unknown or n_unpredicted):
        parts = []
        if n_unpredicted:
            first = ratings.items[~has_pred][0]
            parts.append(f"{n_unpredicted} rated item(s) have no prediction (first: {show(first)})")
        if n_unknown:
            used = np.zeros(len(predictions.items), dtype=bool)
            used[pos[has_pred]] = True
            first = predictions.items[~used][0]
            parts.append(
                f"{n_unknown} prediction(s) are for items with no ratings (first: {show(first)})"
            )
        raise InputError(
            f"{predictions.source or 'predictions'}: " + "; ".join(parts) + "; fix the item ids or "
            "pass --missing drop to keep only the items both files share"
        )
    if has_pred.all() and np.array_equal(pos, np.arange(len(pos))):
        return ratings, predictions
    if not has_pred.any():
        raise InputError(
            f"{predictions.source or 'predictions'}: no prediction matches any rated item id; "
            "check the item column (--item-col) of both files"
        )
    keep = np.flatnonzero(has_pred)
    r = ratings if has_pred.all() else ratings.take(keep)
    p = predictions.take(pos[keep])
    p = Predictions(r.items, ratings.classes, p.models, source=predictions.source)
    return r, p
