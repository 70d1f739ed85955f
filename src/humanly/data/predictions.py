"""`Predictions` (one or more models' outputs per item) and `Gold` (oracle labels for some items).

A model's outputs are a :class:`~humanly.data.outputs.ModelOutput`: hard labels, probabilities or
scores. Both are aligned to a :class:`~humanly.data.ratings.Ratings` by item id with :func:`align`:
items with ratings but no prediction, and predictions for unknown items, are counted and reported (an
error by default, dropped on request).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from .matching import MissingPolicy, align_index, check_missing, mismatch, no_match
from .outputs import ModelOutput, OutputKind, check_probabilities, model_output
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


class Predictions:
    """Outputs of one or more models for a set of items (immutable).

    Build one with :meth:`from_arrays`, :func:`humanly.data.read_predictions` or :func:`humanly.data.join`.

    Parameters
    ----------
    items : pandas.Index
        The item ids, one per output.
    classes : sequence
        The classes the outputs refer to (the ratings' classes once joined).
    models : sequence of ModelOutput
        One entry per model, with distinct names.
    source : str or None
        Where the predictions were read from (shown in messages).

    Raises
    ------
    InputError
        For duplicate model names or no model.
    ValueError
        For outputs whose length or shape does not fit the items and classes.

    Examples
    --------
    >>> import numpy as np
    >>> Predictions.from_arrays(["i1", "i2"], {"m": np.array([0.2, 0.9])}, classes=("cat", "dog"))
    Predictions(2 items, classes=('cat', 'dog'), models={'m': proba})
    """

    __slots__ = ("_classes", "_items", "_models", "_source")

    def __init__(
        self,
        items: pd.Index,
        classes: Sequence[Any],
        models: Sequence[ModelOutput],
        source: str | None = None,
    ) -> None:
        self._items = pd.Index(items)
        self._classes = tuple(classes)
        self._models = tuple(models)
        self._source = source
        names = [m.name for m in self._models]
        if len(set(names)) != len(names):
            raise InputError(f"model names must be unique, got {names}")
        if not self._models:
            raise InputError(f"{source or 'predictions'}: no model outputs")
        n_c = len(self._classes)
        for m in self._models:
            if len(m.values) != len(self._items):
                raise ValueError(
                    f"model {m.name!r}: {len(m.values)} outputs for {len(self._items)} items"
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
        """Predictions from arrays, one entry per item of ``items`` (in that order).

        Parameters
        ----------
        items : sequence
            The item ids.
        outputs : dict
            Model name → its labels (class names, not codes), probabilities (items × classes, or one
            probability of the second class per item with two classes) or scores.
        classes : sequence
            The classes the outputs refer to.
        kind : {"label", "proba", "score"}, dict or None
            The kind of every model's outputs, or one per model (a dict); inferred when omitted: an
            items × classes array is ``"proba"``, a 1-D array of classes ``"label"``, a 1-D array of
            numbers in [0, 1] with two classes ``"proba"``. Real-valued scores need ``"score"``.
        source : str or None
            Where the outputs come from (shown in messages).

        Returns
        -------
        Predictions
            The models' outputs over ``items``.

        Raises
        ------
        InputError
            For outputs that fit no kind, probabilities that are not probabilities, or an item id given
            twice.
        TypeError
            For ``items``, ``classes`` or an output that is ``None``, ``classes`` given as a string,
            or ``outputs`` not a dict.

        Examples
        --------
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
        if isinstance(classes, (str, bytes)):
            raise TypeError(f"classes={classes!r}: give a list of classes, not a string")
        cls_ = tuple(classes)
        index = pd.Index(items)
        if index.has_duplicates:
            dup = index[index.duplicated()][0]
            raise InputError(
                f"items: item {dup!r} appears more than once; give one output per item (distinct "
                "item ids)"
            )
        models = []
        for name, raw in outputs.items():
            if raw is None:
                raise TypeError(f"outputs[{name!r}]=None: give labels, probabilities or scores")
            k = kind.get(name) if isinstance(kind, dict) else kind
            models.append(model_output(str(name), raw, cls_, kind=k))
        return cls(index, cls_, models, source=source)

    # ------------------------------------------------------------------ access
    @property
    def items(self) -> pd.Index:
        """The item ids, one per output.

        Examples
        --------
        >>> Predictions.from_arrays(["a", "b"], {"m": [0, 1]}, classes=[0, 1]).items.tolist()
        ['a', 'b']
        """
        return self._items

    @property
    def classes(self) -> tuple[Any, ...]:
        """The classes the outputs refer to; code ``j`` means ``classes[j]``.

        Examples
        --------
        >>> Predictions.from_arrays(["a"], {"m": ["yes"]}, classes=["no", "yes"]).classes
        ('no', 'yes')
        """
        return self._classes

    @property
    def models(self) -> tuple[ModelOutput, ...]:
        """Each model's outputs, in the order given.

        Examples
        --------
        >>> Predictions.from_arrays(["a"], {"m": [1]}, classes=[0, 1]).models
        (ModelOutput(name='m', kind='label', n=1),)
        """
        return self._models

    @property
    def source(self) -> str | None:
        """Where the predictions were read from (``None`` when built in memory).

        Examples
        --------
        >>> print(Predictions.from_arrays(["a"], {"m": [1]}, classes=[0, 1]).source)
        None
        """
        return self._source

    @property
    def names(self) -> tuple[str, ...]:
        """The models' names, in order.

        Examples
        --------
        >>> Predictions.from_arrays(["a"], {"m": [1], "n": [0]}, classes=[0, 1]).names
        ('m', 'n')
        """
        return tuple(m.name for m in self._models)

    @property
    def n_items(self) -> int:
        """The number of items.

        Examples
        --------
        >>> Predictions.from_arrays(["a", "b"], {"m": [1, 0]}, classes=[0, 1]).n_items
        2
        """
        return len(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, name: str) -> ModelOutput:
        for m in self._models:
            if m.name == name:
                return m
        raise KeyError(f"no model {name!r}; models are {list(self.names)}")

    def __iter__(self) -> Iterator[ModelOutput]:
        return iter(self._models)

    def hard(self, name: str) -> np.ndarray:
        """A model's outputs as class codes (the most probable class; ties to the first class).

        Parameters
        ----------
        name : str
            The model.

        Returns
        -------
        numpy.ndarray
            One class code per item.

        Raises
        ------
        InputError
            For a model that outputs scores.

        Examples
        --------
        >>> Predictions.from_arrays(["a", "b"], {"m": [0.7, 0.2]}, classes=[0, 1]).hard("m")
        array([1, 0], dtype=int16)
        """
        m = self[name]
        if m.kind == "label":
            return m.values
        if m.kind == "proba":
            return np.argmax(m.values, axis=1).astype(np.int16)
        raise InputError(
            f"model {name!r} outputs scores, not classes; calibrate it or give labels/probabilities"
        )

    def proba(self, name: str) -> np.ndarray:
        """A model's outputs as probability vectors (one-hot for hard labels).

        Parameters
        ----------
        name : str
            The model.

        Returns
        -------
        numpy.ndarray
            Items × classes probabilities.

        Raises
        ------
        InputError
            For a model that outputs scores.

        Examples
        --------
        >>> Predictions.from_arrays(["a"], {"m": [1]}, classes=[0, 1]).proba("m").tolist()
        [[0.0, 1.0]]
        """
        m = self[name]
        if m.kind == "proba":
            return m.values
        if m.kind == "label":
            return np.eye(len(self._classes))[m.values]
        raise InputError(f"model {name!r} outputs scores, not probabilities; calibrate it first")

    def take(self, indices: Any) -> Predictions:
        """The outputs for the items at ``indices``, in that order.

        Parameters
        ----------
        indices : array-like of int or bool
            Positions of items, or a boolean mask over them.

        Returns
        -------
        Predictions
            The same models over the selected items.

        Examples
        --------
        >>> p = Predictions.from_arrays(["a", "b", "c"], {"m": [0, 1, 1]}, classes=[0, 1])
        >>> p.take([2, 0]).items.tolist()
        ['c', 'a']
        """
        idx = np.asarray(indices)
        models = [ModelOutput(m.name, m.kind, m.values[idx]) for m in self._models]
        return Predictions(self._items[idx], self._classes, models, source=self._source)

    def select(self, names: Sequence[str]) -> Predictions:
        """The outputs of the models ``names`` only, in that order.

        Parameters
        ----------
        names : sequence of str
            The models to keep.

        Returns
        -------
        Predictions
            Those models over the same items.

        Examples
        --------
        >>> p = Predictions.from_arrays(["a"], {"m": [0], "n": [1]}, classes=[0, 1])
        >>> p.select(["n"]).names
        ('n',)
        """
        return Predictions(
            self._items, self._classes, [self[n] for n in names], source=self._source
        )

    def __repr__(self) -> str:
        kinds = ", ".join(f"{m.name!r}: {m.kind}" for m in self._models)
        return f"Predictions({self.n_items} items, classes={self.classes!r}, models={{{kinds}}})"


@dataclasses.dataclass(frozen=True, eq=False)
class Gold:
    """Oracle ("gold") labels for some items: item ids and class codes.

    Parameters
    ----------
    items : pandas.Index
        The item ids.
    classes : tuple
        The classes; code ``j`` means ``classes[j]``.
    codes : numpy.ndarray
        One class code per item, -1 where an item has no gold label.
    source : str or None
        Where the labels were read from (shown in messages).

    Examples
    --------
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

    def for_items(self, items: pd.Index, *, missing: MissingPolicy = "error") -> np.ndarray:
        """The gold codes of ``items``, in their order.

        Parameters
        ----------
        items : pandas.Index
            The item ids (usually the rated items).
        missing : {"error", "drop"}
            Gold labels for items that are not in ``items``: an error, or left out.

        Returns
        -------
        numpy.ndarray
            One code per item of ``items``, -1 where it has no gold label.

        Raises
        ------
        InputError
            For gold labels of other items, with ``missing="error"``.

        Examples
        --------
        >>> g = Gold(pd.Index(["a", "b"]), ("no", "yes"), np.array([1, 0]))
        >>> g.for_items(pd.Index(["a"]), missing="drop").tolist()
        [1]
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
    *,
    missing: MissingPolicy = "error",
) -> tuple[Ratings, Predictions]:
    """Align predictions to ratings by item id, keeping the items both have in the ratings' order.

    Parameters
    ----------
    ratings : Ratings
        The crowd's labels.
    predictions : Predictions
        The models' outputs, with the ratings' classes.
    missing : {"error", "drop"}
        A rated item without a prediction, or a prediction for an item with no ratings: an error with
        the counts and the first id, or dropped.

    Returns
    -------
    ratings : Ratings
        The ratings of the items both have.
    predictions : Predictions
        The predictions of the same items, in the same order.

    Raises
    ------
    InputError
        For classes that differ, ids that do not match (``missing="error"``), or no common item.

    Examples
    --------
    >>> r = Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"])
    >>> p = Predictions.from_arrays(["b", "a", "z"], {"m": [1, 0, 1]}, classes=[0, 1])
    >>> r2, p2 = align(r, p, missing="drop")
    >>> list(p2.items), p2.hard("m").tolist()
    (['a', 'b'], [0, 1])
    """
    missing = check_missing(missing)
    if not isinstance(ratings, Ratings):
        raise TypeError(
            f"ratings={type(ratings).__name__ if ratings is not None else None}: give a "
            "humanly.Ratings (humanly.read_study reads files and frames)"
        )
    if not isinstance(predictions, Predictions):
        got = type(predictions).__name__ if predictions is not None else None
        raise TypeError(
            f"predictions={got}: give a humanly.Predictions (humanly.data.read_predictions, or "
            "Predictions.from_arrays)"
        )
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
