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

from ..errors import InputError, setting
from . import _build, _coding
from ._scale import check_scale
from .layouts import Coded
from .options import DuplicatePolicy

__all__ = ["MISSING", "DuplicatePolicy", "Ratings"]

#: Marker for "no label" in :meth:`Ratings.matrix`.
MISSING = -1


def _small_int(n: int) -> type[np.signedinteger[Any]]:
    return np.int8 if n < 127 else (np.int16 if n < 32_000 else np.int32)


class Ratings:
    """The labels a crowd gave to items (immutable).

    Build one with :meth:`from_long`, :meth:`from_frame`, :meth:`from_counts`, :meth:`from_wide` or
    :func:`humanly.data.read_ratings`; the constructor itself takes coded arrays and checks little. Items keep
    their ids as given (``str`` or ``int``) in order of first appearance; classes are an ordered tuple
    (the sorted distinct labels unless declared). Named ratings hold one (item, rater, label) code
    triple per label (memory grows with the labels, never an items × raters matrix); anonymous counts
    hold only the items × classes counts.

    Parameters
    ----------
    items : pandas.Index
        The item ids, one per row of :attr:`counts`.
    classes : sequence
        The ordered classes (at least two); label code ``j`` means ``classes[j]``.
    counts : numpy.ndarray or None
        Items × classes label counts (anonymous counts).
    item_codes, rater_codes, label_codes : numpy.ndarray or None
        Per label, its item's position in ``items``, its rater's in ``raters`` and its class code
        (named raters).
    raters : pandas.Index or None
        The rater ids (named raters).
    source : str or None
        Where the ratings were read from (shown in messages).
    scale : {"nominal", "ordinal", "interval", "ratio"}
        The labels' measurement scale: unordered classes, ordered classes (in the order of ``classes``,
        or by value when they are numbers), or numbers whose differences (interval) and ratios
        (ratio) mean something. See :meth:`with_scale`.

    Raises
    ------
    InputError
        For fewer than two classes, or a scale the classes do not fit.
    ValueError
        For codes or counts that do not fit together.

    Examples
    --------
    >>> r = Ratings.from_long(["i1", "i1", "i2", "i2"], ["a", "b", "a", "b"], ["cat", "dog", "dog", "dog"])
    >>> r
    Ratings(2 items, 2 raters, 4 labels, classes=('cat', 'dog'))
    >>> r.counts.tolist()  # items × classes
    [[1, 1], [0, 2]]
    """

    __slots__ = (
        "_classes",
        "_counts",
        "_item_codes",
        "_items",
        "_label_codes",
        "_offsets",
        "_rater_codes",
        "_raters",
        "_scale",
        "_source",
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
        scale: str = "nominal",
    ) -> None:
        self._items = pd.Index(items)
        self._classes = tuple(classes)
        self._source = source
        self._raters = None if raters is None else pd.Index(raters)
        if len(self._classes) < 2:
            where = f"{source}: " if source else ""
            raise InputError(
                f"{where}only {len(self._classes)} class(es) {self._classes!r}; agreement needs at "
                f"least two classes: declare them with {setting('classes')} (e.g. 0 and 1)"
            )
        self._scale = check_scale(scale, self._classes, source)
        if item_codes is not None:
            if label_codes is None or rater_codes is None or self._raters is None:
                raise ValueError(
                    "named ratings need item_codes, rater_codes, label_codes and raters"
                )
            if len(item_codes) > 1 and not np.all(item_codes[1:] >= item_codes[:-1]):
                order = _coding.stable_order(item_codes)
                item_codes, rater_codes, label_codes = (
                    item_codes[order],
                    rater_codes[order],
                    label_codes[order],
                )
            self._item_codes = np.ascontiguousarray(item_codes)
            self._rater_codes = np.ascontiguousarray(rater_codes)
            self._label_codes = np.ascontiguousarray(label_codes)
            n_i, n_c = len(self._items), len(self._classes)
            flat = self._item_codes.astype(np.int64) * n_c + self._label_codes
            self._counts = np.bincount(flat, minlength=n_i * n_c).reshape(n_i, n_c).astype(np.int64)
            self._offsets = np.concatenate([[0], np.cumsum(self._counts.sum(axis=1))])
        else:
            if counts is None:
                raise ValueError("give either counts or item/rater/label codes")
            arr = np.asarray(counts)
            if arr.shape != (len(self._items), len(self._classes)):
                raise ValueError(f"counts shape {arr.shape} != (items, classes)")
            self._counts = arr.astype(np.int64)
            # anonymous counts have no per-label codes (the accessors refuse: _require_raters)
            none = np.empty(0, dtype=np.int32)
            self._item_codes = self._rater_codes = self._label_codes = self._offsets = none
        self._counts.setflags(write=False)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def _from_coded(cls, coded: Coded, *, source: str | None = None) -> Ratings:
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

    # the public constructors are written in ``_build`` (this file would pass 600 lines) and
    # attached here, so that they are documented and typed as Ratings' own class methods
    from_long = classmethod(_build.from_long)
    from_frame = classmethod(_build.from_frame)
    from_counts = classmethod(_build.from_counts)
    from_wide = classmethod(_build.from_wide)

    # ------------------------------------------------------------------ properties
    @property
    def items(self) -> pd.Index:
        """The item ids, one per row of :attr:`counts`.

        Examples
        --------
        >>> Ratings.from_counts([[1, 2], [3, 0]], items=["a", "b"]).items.tolist()
        ['a', 'b']
        """
        return self._items

    @property
    def classes(self) -> tuple[Any, ...]:
        """The ordered classes; label code ``j`` means ``classes[j]``.

        Examples
        --------
        >>> Ratings.from_long([1, 1], ["u", "v"], ["yes", "no"]).classes
        ('no', 'yes')
        """
        return self._classes

    @property
    def scale(self) -> str:
        """The labels' measurement scale: ``nominal``, ``ordinal``, ``interval`` or ``ratio``.

        Examples
        --------
        >>> Ratings.from_long([1, 1], ["u", "v"], [1, 5]).with_scale("interval").scale
        'interval'
        """
        return self._scale

    def with_scale(self, scale: str) -> Ratings:
        """The same ratings on another measurement scale (a new object sharing the arrays).

        Ordinal classes are ordered as :attr:`classes` holds them (the order declared with
        ``classes=``, or by value for numeric labels, which the loader sorts); interval and ratio
        scales need numeric labels, a ratio scale values ≥ 0.

        Parameters
        ----------
        scale : {"nominal", "ordinal", "interval", "ratio"}
            The measurement scale.

        Returns
        -------
        Ratings
            The same labels, on ``scale``.

        Raises
        ------
        InputError
            For an unknown scale, non-numeric labels on an interval or ratio scale, ordinal classes
            mixing numbers and words, or a negative value on a ratio scale.

        Examples
        --------
        >>> r = Ratings.from_long([1, 1, 2, 2], ["u", "v"] * 2, [1.5, 2.0, 4.0, 4.0])
        >>> r.with_scale("ratio")
        Ratings(2 items, 2 raters, 4 labels, classes=(1.5, 2.0, 4.0), scale='ratio')
        """
        if scale == self._scale:
            return self
        out = object.__new__(Ratings)
        for name in Ratings.__slots__:
            object.__setattr__(out, name, getattr(self, name))
        out._scale = check_scale(scale, self._classes, self._source)
        return out

    def require_classes(self, what: str) -> None:
        """Refuse, in one sentence, ratings whose labels are measurements rather than classes.

        Parameters
        ----------
        what : str
            The analysis that needs classes (named in the sentence).

        Raises
        ------
        InputError
            When the scale is ``interval`` or ``ratio``.

        Examples
        --------
        >>> Ratings.from_long([1, 1], ["u", "v"], [0, 1]).require_classes("certify")
        """
        if self._scale in ("interval", "ratio"):
            where = f"{self._source}: " if self._source else ""
            raise InputError(
                f"{where}{what} needs classes, but these ratings are on an {self._scale} scale "
                f"({setting('scale', self._scale)}); read them with {setting('scale', 'ordinal')} (or "
                f"{setting('scale', 'nominal')}), or measure only their agreement"
            )

    @property
    def raters(self) -> pd.Index | None:
        """The rater ids of named ratings (``None`` for anonymous counts).

        Examples
        --------
        >>> Ratings.from_long([1, 1], ["u", "v"], [0, 1]).raters.tolist()
        ['u', 'v']
        """
        return self._raters

    @property
    def source(self) -> str | None:
        """Where the ratings were read from (``None`` when built in memory).

        Examples
        --------
        >>> Ratings.from_counts([[1, 2]], source="counts.csv").source
        'counts.csv'
        """
        return self._source

    @property
    def n_items(self) -> int:
        """The number of items.

        Examples
        --------
        >>> Ratings.from_counts([[1, 2], [3, 0]]).n_items
        2
        """
        return len(self._items)

    @property
    def n_classes(self) -> int:
        """The number of classes.

        Examples
        --------
        >>> Ratings.from_counts([[1, 2, 0]]).n_classes
        3
        """
        return len(self._classes)

    @property
    def n_raters(self) -> int | None:
        """The number of named raters (``None`` for anonymous counts).

        Examples
        --------
        >>> Ratings.from_long([1, 1, 2], ["u", "v", "w"], [0, 1, 1]).n_raters
        3
        """
        return None if self._raters is None else len(self._raters)

    @property
    def has_raters(self) -> bool:
        """Whether rater identity is known (named raters rather than anonymous counts).

        Examples
        --------
        >>> Ratings.from_counts([[1, 2]]).has_raters
        False
        """
        return self._raters is not None

    @property
    def counts(self) -> np.ndarray:
        """The items × classes matrix of label counts (read-only, int64).

        Examples
        --------
        >>> Ratings.from_long([1, 1, 2], ["u", "v", "u"], [0, 1, 1]).counts.tolist()
        [[1, 1], [0, 1]]
        """
        return self._counts

    @property
    def labels_per_item(self) -> np.ndarray:
        """The number of labels each item received.

        Examples
        --------
        >>> Ratings.from_counts([[1, 2], [3, 0], [0, 1]]).labels_per_item.tolist()
        [3, 3, 1]
        """
        return self._counts.sum(axis=1)

    @property
    def n_labels(self) -> int:
        """The number of labels.

        Examples
        --------
        >>> Ratings.from_counts([[1, 2], [3, 0]]).n_labels
        6
        """
        return int(self._counts.sum())

    def _require_raters(self, what: str) -> pd.Index:
        """The rater ids; an :class:`InputError` for anonymous counts."""
        if self._raters is None:
            raise InputError(
                f"{what} needs named raters, but {self._source or 'these ratings'} holds anonymous "
                "counts only; use long format (item, rater, label) or a slots-based analysis"
            )
        return self._raters

    @property
    def item_codes(self) -> np.ndarray:
        """The item code (position in :attr:`items`) of every label of named ratings, sorted.

        Examples
        --------
        >>> Ratings.from_long(["b", "a", "b"], ["u", "u", "v"], [0, 1, 1]).item_codes.tolist()
        [0, 0, 1]
        """
        self._require_raters("item_codes")
        return self._item_codes

    @property
    def rater_codes(self) -> np.ndarray:
        """The rater code (position in :attr:`raters`) of every label of named ratings.

        Examples
        --------
        >>> Ratings.from_long(["b", "a", "b"], ["u", "u", "v"], [0, 1, 1]).rater_codes.tolist()
        [0, 1, 0]
        """
        self._require_raters("rater_codes")
        return self._rater_codes

    @property
    def label_codes(self) -> np.ndarray:
        """The label code (index into :attr:`classes`) of every label of named ratings.

        Examples
        --------
        >>> Ratings.from_long(["b", "a", "b"], ["u", "u", "v"], [0, 1, 1]).label_codes.tolist()
        [0, 1, 1]
        """
        self._require_raters("label_codes")
        return self._label_codes

    @property
    def item_offsets(self) -> np.ndarray:
        """CSR offsets: item ``i``'s labels are ``label_codes[item_offsets[i]:item_offsets[i + 1]]``.

        Examples
        --------
        >>> Ratings.from_long(["b", "a", "b"], ["u", "u", "v"], [0, 1, 1]).item_offsets.tolist()
        [0, 2, 3]
        """
        self._require_raters("item_offsets")
        return self._offsets

    @property
    def labels_per_rater(self) -> np.ndarray:
        """The number of labels each named rater gave.

        Examples
        --------
        >>> Ratings.from_long(["b", "a", "b"], ["u", "u", "v"], [0, 1, 1]).labels_per_rater.tolist()
        [2, 1]
        """
        raters = self._require_raters("labels_per_rater")
        return np.bincount(self._rater_codes, minlength=len(raters))

    def matrix(self, missing: int = MISSING) -> np.ndarray:
        """The items × raters matrix of label codes of named ratings.

        Dense: ``n_items × n_raters`` small integers. With many raters and few labels each, prefer the
        coded arrays (:attr:`item_codes`, :attr:`rater_codes`, :attr:`label_codes`).

        Parameters
        ----------
        missing : int
            The code of "this rater did not label this item" (:data:`MISSING`).

        Returns
        -------
        numpy.ndarray
            Items × raters label codes.

        Raises
        ------
        InputError
            For anonymous counts.

        Examples
        --------
        >>> Ratings.from_long(["a", "a", "b"], ["u", "v", "u"], [0, 1, 1]).matrix().tolist()
        [[0, 1], [1, -1]]
        """
        n_r = len(self._require_raters("the items × raters matrix"))
        dtype = _small_int(max(self.n_classes, -missing + 1, missing + 1))
        out = np.full((self.n_items, n_r), missing, dtype=dtype)
        out[self._item_codes, self._rater_codes] = self._label_codes
        return out

    # ------------------------------------------------------------------ transforms
    def take(self, indices: Any) -> Ratings:
        """The ratings of the items at ``indices``, in that order.

        Parameters
        ----------
        indices : array-like of int or bool
            Item positions (distinct for named ratings, so that ids stay unique; anonymous counts may
            repeat an item), or a boolean mask over the items.

        Returns
        -------
        Ratings
            The selected items with all their labels.

        Raises
        ------
        ValueError
            For repeated positions of named ratings.

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a", "b"], ["u", "v", "u"], [0, 1, 1])
        >>> r.take([1]).counts.tolist()
        [[0, 1]]
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
                scale=self._scale,
            )
        if len(np.unique(idx)) != len(idx):
            raise ValueError("take() on named ratings needs distinct item positions")
        new_pos = np.full(self.n_items, -1, dtype=np.int64)
        new_pos[idx] = np.arange(len(idx))
        return self._moved(self.items[idx], new_pos)

    def _moved(self, items: pd.Index, new_pos: np.ndarray) -> Ratings:
        """The ratings over ``items``: item ``i``'s labels at position ``new_pos[i]`` (-1: left out);
        an item no label moves to has none."""
        keep = new_pos >= 0
        if self.raters is None:
            counts = np.zeros((len(items), self.n_classes), dtype=np.int64)
            counts[new_pos[keep]] = self._counts[keep]
            return Ratings(
                items=items,
                classes=self.classes,
                counts=counts,
                source=self.source,
                scale=self._scale,
            )
        kept = keep[self._item_codes]
        return Ratings(
            items=items,
            classes=self.classes,
            item_codes=new_pos[self._item_codes[kept]].astype(np.int32),
            rater_codes=self._rater_codes[kept],
            label_codes=self._label_codes[kept],
            raters=self.raters,
            source=self.source,
            scale=self._scale,
        )

    def anonymous(self) -> Ratings:
        """The same ratings with rater identity dropped (counts only).

        Returns
        -------
        Ratings
            Anonymous counts of the same items and classes.

        Examples
        --------
        >>> Ratings.from_long(["a", "a"], ["u", "v"], [0, 1]).anonymous()
        Ratings(1 items, anonymous counts, 2 labels, classes=(0, 1))
        """
        return Ratings(
            items=self.items,
            classes=self.classes,
            counts=self._counts,
            source=self.source,
            scale=self._scale,
        )

    def to_frame(self) -> pd.DataFrame:
        """The ratings as a table: ``item, rater, label`` (named), or ``item`` and one count column
        per class (anonymous counts).

        Returns
        -------
        pandas.DataFrame
            One row per label (named) or per item (counts).

        Examples
        --------
        >>> Ratings.from_counts([[1, 2]], items=["a"], classes=["no", "yes"]).to_frame()
          item  no  yes
        0    a   1    2
        """
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
        scale = f", scale={self._scale!r}" if self._scale != "nominal" else ""
        return (
            f"Ratings({self.n_items} items, {who}, {self.n_labels} labels, "
            f"classes={self.classes!r}{src}{scale})"
        )
