"""`Ratings`: the labels a crowd gave to items, as one data model for every analysis.

Two kinds of source share this model:

* **named raters** (long format ``item, rater, label``), possibly ragged: any rater may label any subset
  of items. Stored as three coded arrays (item code, rater code, label code), one entry per label, so
  memory is proportional to the number of labels (9 bytes a label), never a Python object per label.
* **anonymous counts** (one row per item, one count per class): only how many raters chose each class.

Both expose :attr:`Ratings.counts`, the items × classes integer matrix most analyses need. Named ratings
also expose :meth:`Ratings.matrix`, the items × raters label-code matrix with :data:`MISSING` for
"this rater did not label this item".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ._coding import Locator
from .layouts import (
    Coded,
    DuplicatePolicy,
    code_long,
    counts_matrix,
    index_as_items,
    long_layout,
    wide_array,
    wide_layout,
)
from .tables import read_table

__all__ = ["MISSING", "DuplicatePolicy", "Ratings"]

#: Marker for "no label" in :meth:`Ratings.matrix`.
MISSING = -1


def _small_int(n: int) -> type[np.signedinteger[Any]]:
    return np.int8 if n < 127 else (np.int16 if n < 32_000 else np.int32)


class Ratings:
    """The labels a crowd gave to items (immutable).

    Build one with :meth:`from_long`, :meth:`from_frame`, :meth:`from_counts`, :meth:`from_wide` or the
    file reader :func:`humanly.read_ratings`. Items keep their ids as given (``str`` or ``int``) in order of
    first appearance; classes are an ordered tuple (sorted distinct labels unless declared).

    Attributes
    ----------
    items : pandas.Index
        Item ids, one per row of :attr:`counts`.
    classes : tuple
        The ordered classes; label code ``j`` means ``classes[j]``.
    raters : pandas.Index or None
        Rater ids for named ratings, ``None`` for anonymous counts.

    >>> r = Ratings.from_long(["i1", "i1", "i2", "i2"], ["a", "b", "a", "b"], ["cat", "dog", "dog", "dog"])
    >>> r
    Ratings(2 items, 2 raters, 4 labels, classes=('cat', 'dog'))
    >>> r.counts.tolist()  # items × classes
    [[1, 1], [0, 2]]
    """

    __slots__ = (
        "_counts",
        "_item_codes",
        "_label_codes",
        "_offsets",
        "_rater_codes",
        "classes",
        "items",
        "raters",
        "source",
    )

    def __init__(
        self,
        *,
        items: pd.Index,
        classes: Sequence[Any],
        counts: np.ndarray | None = None,
        item_codes: np.ndarray | None = None,
        rater_codes: np.ndarray | None = None,
        label_codes: np.ndarray | None = None,
        raters: pd.Index | None = None,
        source: str | None = None,
    ) -> None:
        """Low-level constructor; prefer the ``from_*`` class methods, which validate their input."""
        self.items = pd.Index(items)
        self.classes = tuple(classes)
        self.source = source
        self.raters = None if raters is None else pd.Index(raters)
        if len(self.classes) < 2:
            where = f"{source}: " if source else ""
            raise InputError(
                f"{where}only {len(self.classes)} class(es) {self.classes!r}; agreement needs at least "
                "two classes: declare them with classes= (e.g. 0 and 1)"
            )
        if item_codes is not None:
            if label_codes is None or rater_codes is None or self.raters is None:
                raise ValueError(
                    "named ratings need item_codes, rater_codes, label_codes and raters"
                )
            if len(item_codes) > 1 and not np.all(item_codes[1:] >= item_codes[:-1]):
                order = np.argsort(item_codes, kind="stable")
                item_codes, rater_codes, label_codes = (
                    item_codes[order],
                    rater_codes[order],
                    label_codes[order],
                )
            self._item_codes = np.ascontiguousarray(item_codes)
            self._rater_codes = np.ascontiguousarray(rater_codes)
            self._label_codes = np.ascontiguousarray(label_codes)
            n_i, n_c = len(self.items), len(self.classes)
            flat = self._item_codes.astype(np.int64) * n_c + self._label_codes
            self._counts = np.bincount(flat, minlength=n_i * n_c).reshape(n_i, n_c).astype(np.int64)
            self._offsets = np.concatenate([[0], np.cumsum(self._counts.sum(axis=1))])
        else:
            if counts is None:
                raise ValueError("give either counts or item/rater/label codes")
            arr = np.asarray(counts)
            if arr.shape != (len(self.items), len(self.classes)):
                raise ValueError(f"counts shape {arr.shape} != (items, classes)")
            self._counts = arr.astype(np.int64)
            # anonymous counts have no per-label codes (the accessors refuse: _require_raters)
            none = np.empty(0, dtype=np.int32)
            self._item_codes = self._rater_codes = self._label_codes = self._offsets = none
        self._counts.setflags(write=False)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_coded(cls, coded: Coded, *, source: str | None = None) -> Ratings:
        """Ratings from the coded arrays a layout produced (:mod:`humanly.data.layouts`)."""
        if coded.item_codes is not None:
            return cls(
                items=coded.items,
                classes=coded.classes,
                item_codes=coded.item_codes,
                rater_codes=coded.rater_codes,
                label_codes=coded.label_codes,
                raters=coded.raters,
                source=source,
            )
        return cls(items=coded.items, classes=coded.classes, counts=coded.counts, source=source)

    @classmethod
    def from_long(
        cls,
        items: Any,
        raters: Any,
        labels: Any,
        *,
        classes: Sequence[Any] | None = None,
        duplicates: DuplicatePolicy = "error",
        source: str | None = None,
        columns: tuple[str, str, str] = ("item", "rater", "label"),
        locate: Locator | None = None,
    ) -> Ratings:
        """Named ratings from three equal-length sequences: item id, rater id, label per row.

        ``duplicates`` says what to do when a rater labelled the same item twice: ``"error"`` (default),
        ``"first"``/``"last"`` (keep one), ``"keep"`` (count every label; :meth:`matrix` then shows the
        last one).

        >>> Ratings.from_long(["a", "a", "b"], ["r1", "r2", "r1"], ["x", "y", "x"]).counts.tolist()
        [[1, 1], [1, 0]]
        """
        coded = code_long(
            items,
            raters,
            labels,
            classes=classes,
            duplicates=duplicates,
            source=source,
            columns=columns,
            locate=locate,
        )
        return cls.from_coded(coded, source=source)

    @classmethod
    def from_frame(
        cls,
        frame: pd.DataFrame,
        *,
        item_col: str | None = None,
        rater_col: str | None = None,
        label_col: str | None = None,
        classes: Sequence[Any] | None = None,
        duplicates: DuplicatePolicy = "error",
        source: str | None = None,
    ) -> Ratings:
        """Named ratings from a long DataFrame (crowd-kit / cleanlab style ``task, worker, label``).

        Column names are detected from common conventions (see :mod:`humanly.data.columns`); pass
        ``item_col``/``rater_col``/``label_col`` to override.

        >>> frame = pd.DataFrame({"task": [1, 1, 2], "worker": ["u", "v", "u"], "label": [0, 1, 1]})
        >>> Ratings.from_frame(frame)
        Ratings(2 items, 2 raters, 3 labels, classes=(0, 1), source='DataFrame')
        """
        if not isinstance(frame, pd.DataFrame):
            got = "None" if frame is None else type(frame).__name__
            raise TypeError(f"frame={got}: give a pandas DataFrame")
        table = read_table(frame, name=source)
        coded = long_layout(
            table,
            item_col=item_col,
            rater_col=rater_col,
            label_col=label_col,
            classes=classes,
            duplicates=duplicates,
        )
        return cls.from_coded(coded, source=table.name)

    @classmethod
    def from_counts(
        cls,
        counts: Any,
        *,
        items: Sequence[Any] | None = None,
        classes: Sequence[Any] | None = None,
        source: str | None = None,
        locate: Locator | None = None,
    ) -> Ratings:
        """Anonymous ratings from per-item class counts.

        ``counts`` is an (items × classes) array of non-negative integers, or a DataFrame whose columns
        are the classes (in order). ``items`` defaults to the DataFrame index or ``0..n-1``, ``classes``
        to ``0..C-1``.

        >>> r = Ratings.from_counts([[3, 1], [0, 4]], items=["a", "b"], classes=["no", "yes"])
        >>> r
        Ratings(2 items, anonymous counts, 8 labels, classes=('no', 'yes'))
        >>> r.labels_per_item.tolist()
        [4, 4]
        """
        coded = counts_matrix(counts, items=items, classes=classes, source=source, locate=locate)
        return cls.from_coded(coded, source=source)

    @classmethod
    def from_wide(
        cls,
        frame: Any,
        *,
        item_col: str | None = None,
        rater_cols: Sequence[str] | None = None,
        classes: Sequence[Any] | None = None,
        source: str | None = None,
    ) -> Ratings:
        """Named ratings from a wide table: one row per item, one column per rater (or slot).

        Blank cells are missing labels. Rater ids are the column names; items come from the item
        column, or the frame's index when there is none. A numpy array (cleanlab's items × raters with
        NaN for missing) has items and raters numbered ``0..N-1`` and ``0..M-1``.

        >>> Ratings.from_wide(pd.DataFrame({"r1": ["x", None], "r2": ["y", "y"]}, index=["a", "b"]))
        Ratings(2 items, 2 raters, 3 labels, classes=('x', 'y'), source='DataFrame')
        """
        if isinstance(frame, pd.DataFrame):
            framed, icol = index_as_items(frame, item_col)
            table = read_table(framed, name=source)
            coded = wide_layout(table, item_col=icol, rater_cols=rater_cols, classes=classes)
            return cls.from_coded(coded, source=table.name)
        if isinstance(frame, (np.ndarray, list)):
            return cls.from_coded(wide_array(frame, classes=classes, source=source), source=source)
        got = "None" if frame is None else type(frame).__name__
        raise TypeError(f"frame={got}: give a wide DataFrame or an items × raters array")

    # ------------------------------------------------------------------ basic properties
    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def n_raters(self) -> int | None:
        """Number of named raters, ``None`` for anonymous counts."""
        return None if self.raters is None else len(self.raters)

    @property
    def has_raters(self) -> bool:
        """Whether rater identity is known (named raters rather than anonymous counts)."""
        return self.raters is not None

    @property
    def counts(self) -> np.ndarray:
        """Items × classes matrix of label counts (read-only int64)."""
        return self._counts

    @property
    def labels_per_item(self) -> np.ndarray:
        """Number of labels each item received."""
        return self._counts.sum(axis=1)

    @property
    def n_labels(self) -> int:
        return int(self._counts.sum())

    def _require_raters(self, what: str) -> pd.Index:
        """The rater ids; an :class:`InputError` for anonymous counts."""
        if self.raters is None:
            raise InputError(
                f"{what} needs named raters, but {self.source or 'these ratings'} holds anonymous "
                "counts only; use long format (item, rater, label) or a slots-based analysis"
            )
        return self.raters

    @property
    def item_codes(self) -> np.ndarray:
        """Item code of every label (named ratings; sorted by item)."""
        self._require_raters("item_codes")
        return self._item_codes

    @property
    def rater_codes(self) -> np.ndarray:
        """Rater code of every label (named ratings)."""
        self._require_raters("rater_codes")
        return self._rater_codes

    @property
    def label_codes(self) -> np.ndarray:
        """Label code (index into :attr:`classes`) of every label (named ratings)."""
        self._require_raters("label_codes")
        return self._label_codes

    @property
    def item_offsets(self) -> np.ndarray:
        """CSR offsets: the labels of item ``i`` are ``label_codes[item_offsets[i]:item_offsets[i+1]]``."""
        self._require_raters("item_offsets")
        return self._offsets

    @property
    def labels_per_rater(self) -> np.ndarray:
        """Number of labels each named rater gave."""
        raters = self._require_raters("labels_per_rater")
        return np.bincount(self._rater_codes, minlength=len(raters))

    def matrix(self, missing: int = MISSING) -> np.ndarray:
        """Items × raters matrix of label codes, ``missing`` where a rater did not label an item.

        Dense: n_items × n_raters small integers. With many raters and few labels each, prefer the coded
        arrays (:attr:`item_codes`, :attr:`rater_codes`, :attr:`label_codes`).
        """
        n_r = len(self._require_raters("the items × raters matrix"))
        dtype = _small_int(max(self.n_classes, -missing + 1, missing + 1))
        out = np.full((self.n_items, n_r), missing, dtype=dtype)
        out[self._item_codes, self._rater_codes] = self._label_codes
        return out

    # ------------------------------------------------------------------ transforms
    def take(self, indices: Any) -> Ratings:
        """A new :class:`Ratings` with the items at ``indices`` (positions or boolean mask), in order.

        Positions must be distinct for named ratings (ids stay unique); anonymous counts may repeat.
        """
        idx = np.asarray(indices)
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        if self.raters is None:
            return Ratings(
                items=self.items[idx],
                classes=self.classes,
                counts=self._counts[idx],
                source=self.source,
            )
        if len(np.unique(idx)) != len(idx):
            raise ValueError("take() on named ratings needs distinct item positions")
        new_pos = np.full(self.n_items, -1, dtype=np.int64)
        new_pos[idx] = np.arange(len(idx))
        keep = new_pos[self._item_codes] >= 0
        return Ratings(
            items=self.items[idx],
            classes=self.classes,
            item_codes=new_pos[self._item_codes[keep]].astype(np.int32),
            rater_codes=self._rater_codes[keep],
            label_codes=self._label_codes[keep],
            raters=self.raters,
            source=self.source,
        )

    def anonymous(self) -> Ratings:
        """The same ratings with rater identity dropped (counts only)."""
        return Ratings(
            items=self.items, classes=self.classes, counts=self._counts, source=self.source
        )

    def to_frame(self) -> pd.DataFrame:
        """Long DataFrame ``item, rater, label`` (named), or ``item`` + one count column per class."""
        if self.raters is None:
            df = pd.DataFrame(self._counts, columns=[str(c) for c in self.classes])
            df.insert(0, "item", self.items)
            return df
        cls_arr = np.asarray(self.classes, dtype=object)
        return pd.DataFrame(
            {
                "item": self.items[self._item_codes],
                "rater": self.raters[self._rater_codes],
                "label": cls_arr[self._label_codes],
            }
        )

    def __len__(self) -> int:
        return self.n_items

    def __repr__(self) -> str:
        who = f"{self.n_raters} raters" if self.raters is not None else "anonymous counts"
        src = f", source={self.source!r}" if self.source else ""
        return (
            f"Ratings({self.n_items} items, {who}, {self.n_labels} labels, "
            f"classes={self.classes!r}{src})"
        )
