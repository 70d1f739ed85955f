"""Matching item ids, and the one rule and wording for ids that do not match.

Predictions and gold are matched to rated items by id, never by position. Ids match as given; when
the two sides hold different kinds of id (``266`` against ``"266"``, e.g. a Parquet file against a
CSV) they are compared as text. Rated items without a prediction, and predictions or gold labels for
items with no ratings, are an error (:func:`mismatch`) unless the caller passes ``missing="drop"``,
which keeps the items both have; gold may cover any subset of the rated items.

>>> rated = pd.Index(["a", "b", "c"])
>>> pos = align_index(rated, pd.Index(["c", "a", "z"]))
>>> pos.tolist()
[1, -1, 0]
>>> print(InputError(mismatch(rated, pos, pd.Index(["c", "a", "z"]), what="p.csv", noun="prediction")))
p.csv: 1 rated item(s) have no prediction (first: 'b'); 1 prediction(s) are for items with no \
ratings (first: 'z'); fix the item ids or pass missing='drop' to keep only the items both have
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import show

__all__ = ["MissingPolicy", "align_index", "check_missing", "mismatch", "no_match"]

MissingPolicy = Literal["error", "drop"]


def check_missing(missing: object) -> MissingPolicy:
    """``missing`` itself when it is ``"error"`` or ``"drop"``; an :class:`InputError` otherwise.

    >>> check_missing("drop")
    'drop'
    """
    if missing == "error":
        return "error"
    if missing == "drop":
        return "drop"
    raise InputError(f'{setting("missing", missing)}: use "error" or "drop"')


def _as_text(index: pd.Index) -> pd.Index:
    return index.astype(str) if index.dtype != object else pd.Index([str(x) for x in index])


def increasing(index: pd.Index) -> bool:
    """Whether ``index`` is strictly increasing, checked without turning Arrow-backed text into
    Python objects (a million ids in milliseconds).

    >>> increasing(pd.Index(["a", "b"])), increasing(pd.Index([2, 1]))
    (True, False)
    """
    if len(index) < 2:
        return True
    arrow = getattr(index.array, "__arrow_array__", None)
    if arrow is not None and index.dtype.kind not in "iufb":
        import pyarrow.compute as pc

        a = arrow().combine_chunks() if hasattr(arrow(), "combine_chunks") else arrow()
        if a.null_count:
            return False
        return bool(pc.all(pc.less(a.slice(0, len(a) - 1), a.slice(1))).as_py())
    try:
        return bool(index.is_monotonic_increasing and index.is_unique)
    except TypeError:  # ids of mixed types
        return False


def _searched(target: pd.Index, source: pd.Index) -> np.ndarray | None:
    """Positions in a strictly increasing ``source`` of each id in ``target`` by binary search (one
    vectorised step per bit of ``len(source)``, Arrow's comparisons for Arrow-backed text), or
    ``None`` when the two do not hold the same kind of id."""
    arrow_s = getattr(source.array, "__arrow_array__", None)
    arrow_t = getattr(target.array, "__arrow_array__", None)
    if arrow_s is not None and arrow_t is not None and source.dtype == target.dtype:
        import pyarrow as pa
        import pyarrow.compute as pc

        s, t = pa.chunked_array(arrow_s()).combine_chunks(), pa.chunked_array(arrow_t())
        t = t.combine_chunks()
        if t.null_count:
            return None
        lo = np.zeros(len(t), dtype=np.int64)
        hi = np.full(len(t), len(s), dtype=np.int64)
        while (lo < hi).any():
            mid = (lo + hi) // 2
            inside = mid < len(s)
            probe = pc.take(s, pa.array(np.minimum(mid, len(s) - 1)))
            less = np.asarray(pc.less(probe, t).to_numpy(zero_copy_only=False), dtype=bool)
            less &= inside
            active = lo < hi
            lo = np.where(active & less, mid + 1, lo)
            hi = np.where(active & ~less, mid, hi)
        found = lo < len(s)
        same = np.zeros(len(t), dtype=bool)
        if found.any():
            probe = pc.take(s, pa.array(np.minimum(lo, len(s) - 1)))
            same = np.asarray(pc.equal(probe, t).to_numpy(zero_copy_only=False), dtype=bool)
        return np.where(found & same, lo, -1)
    if source.dtype.kind in "iu" and target.dtype.kind in "iu":
        s_, t_ = source.to_numpy(), target.to_numpy()
        pos = np.minimum(np.searchsorted(s_, t_), len(s_) - 1)
        return np.where(s_[pos] == t_, pos, -1)
    return None


def align_index(target: pd.Index, source: pd.Index) -> np.ndarray:
    """Positions in ``source`` of each id in ``target`` (-1 where absent).

    Ids match as given; if the two indexes hold different types (``266`` vs ``"266"``, e.g. a Parquet
    file against a CSV), they are compared as text. A large sorted ``source`` (a study's items, held
    sorted) is searched rather than hashed when ``target`` is much smaller.

    >>> align_index(pd.Index(["1", "2"]), pd.Index([2, 1])).tolist()
    [1, 0]
    """
    pos = None
    if len(source) >= 100_000 and 20 * len(target) <= len(source) and increasing(source):
        pos = _searched(target, source)
    if pos is None:
        pos = source.get_indexer(target)
    if (pos < 0).any() and len(source) and len(target):
        same_kind = pd.api.types.infer_dtype(target) == pd.api.types.infer_dtype(source)
        if not same_kind:
            pos = _as_text(source).get_indexer(_as_text(target))
    return np.asarray(pos)


def mismatch(
    target: pd.Index,
    pos: np.ndarray,
    index: pd.Index,
    *,
    what: str,
    noun: str,
    subset_ok: bool = False,
) -> str | None:
    """The message for ids that do not match, ``None`` when they all do.

    ``target`` are the rated items, ``index`` the ids of the predictions or gold labels (``noun``),
    ``pos = align_index(target, index)``. With ``subset_ok`` (gold) rated items may lack an entry.
    """
    has = pos >= 0
    used = np.zeros(len(index), dtype=bool)
    used[pos[has]] = True
    parts = []
    if not subset_ok and not has.all():
        first = target[~has][0]
        parts.append(f"{int((~has).sum())} rated item(s) have no {noun} (first: {show(first)})")
    if not used.all():
        first = index[~used][0]
        parts.append(
            f"{int((~used).sum())} {noun}(s) are for items with no ratings (first: {show(first)})"
        )
    if not parts:
        return None
    return (
        f"{what}: "
        + "; ".join(parts)
        + f"; fix the item ids or pass {setting('missing', 'drop')} to keep only the items both have"
    )


def no_match(what: str, noun: str) -> InputError:
    """The error for ``missing="drop"`` when no id matches at all (nothing would be left)."""
    return InputError(
        f"{what}: no {noun} matches a rated item id; check the item ids (and {setting('item_col')})"
    )
