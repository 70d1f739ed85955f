"""What every generator returns (:class:`SimulatedData`: ratings, gold, predictions and the truth,
written to long files) and the helpers the generators share."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_seed
from .._core.result import Result
from ..data import Gold, InputError, Predictions, Ratings, write_table

__all__ = ["Seed", "SimulatedData", "write_all"]

Seed = int | np.random.Generator | None


def _rng(seed: Seed) -> np.random.Generator:
    seed = check_seed("seed", seed)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _check_sizes(n_items: int, labels_per_item: int | tuple[int, int] | None) -> None:
    """``n_items`` ≥ 1 and ``labels_per_item`` a whole number ≥ 1 or a range ``(low, high)``."""
    check_int("n_items", n_items, minimum=1)
    if labels_per_item is None or isinstance(labels_per_item, tuple):
        return
    check_int("labels_per_item", labels_per_item, minimum=1)


@dataclasses.dataclass(frozen=True, repr=False)
class SimulatedData(Result):
    """Simulated ratings with their known truth: what every generator of :mod:`humanly.simulate`
    returns.

    ``to_dict()`` is a summary (the ratings at a glance, the models' names, the number of gold labels
    and the scalar entries of ``truth``), not the data: :meth:`write` writes the data.

    Parameters
    ----------
    ratings : Ratings
        The simulated crowd's labels (named raters).
    gold : Gold or None
        The true labels.
    predictions : Predictions or None
        The simulated models' outputs.
    truth : dict
        The generating parameters and per-item hidden quantities: ``generator`` (which generator
        drew the data), and e.g. the item states, the true labels, each rater's and model's realised
        accuracy.

    Examples
    --------
    >>> from humanly import simulate
    >>> d = simulate.oracle(100, [0.8, 0.7, 0.9], models={"m": 0.85}, seed=0)
    >>> d.truth["generator"], d.ratings.n_raters, d.predictions.names
    ('oracle', 3, ('m',))
    """

    ratings: Ratings
    gold: Gold | None
    predictions: Predictions | None
    truth: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A summary as JSON-ready Python: the ratings at a glance, models, gold count, truth."""
        from ..crowd.inspect import inspect

        return {
            "ratings": inspect(self.ratings).to_dict(),
            "models": list(self.predictions.names) if self.predictions else [],
            "n_gold": 0 if self.gold is None else len(self.gold),
            "truth": {k: v for k, v in self.truth.items() if not isinstance(v, np.ndarray)},
        }

    def __repr__(self) -> str:
        models = list(self.predictions.names) if self.predictions else []
        return f"SimulatedData({self.ratings!r}, gold={self.gold is not None}, models={models})"

    def files(self, path: str | Path) -> dict[str, Path]:
        """Where :meth:`write` puts each table.

        Parameters
        ----------
        path : str or path
            The ratings file; the others are named after it: ``X.csv`` → ``X.gold.csv``,
            ``X.predictions.csv`` (and ``X.states.csv`` for the urn).

        Returns
        -------
        dict
            Table name (``ratings``, ``gold``, ``predictions``, ``states``) → its path.

        Raises
        ------
        InputError
            For a path without an extension.

        Examples
        --------
        >>> from humanly import simulate
        >>> d = simulate.oracle(10, [0.8, 0.7], seed=0)
        >>> {k: v.name for k, v in d.files("o.csv").items()}
        {'ratings': 'o.csv', 'gold': 'o.gold.csv'}
        """
        p = Path(path)
        stem, ext = p.stem, p.suffix
        if not ext:
            raise InputError(
                f"{p}: give the output file an extension (.csv, .tsv, .parquet, .jsonl)"
            )
        out = {"ratings": p}
        if self.gold is not None:
            out["gold"] = p.with_name(f"{stem}.gold{ext}")
        if self.predictions is not None:
            out["predictions"] = p.with_name(f"{stem}.predictions{ext}")
        if "states" in self.truth:
            out["states"] = p.with_name(f"{stem}.states{ext}")
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The long-format tables :meth:`write` writes.

        Returns
        -------
        dict
            Table name → DataFrame: ``ratings`` (``item, rater, label``), ``gold`` (``item,
            label``), ``predictions`` (``item, model`` and a ``prediction``, ``prob_<class>`` or
            ``score`` column) and, for the urn, ``states``.

        Examples
        --------
        >>> from humanly import simulate
        >>> list(simulate.oracle(10, [0.8, 0.7], models={"m": 0.9}, seed=0).tables())
        ['ratings', 'gold', 'predictions']
        """
        out = {"ratings": self.ratings.to_frame()}
        cls = np.asarray(self.ratings.classes, dtype=object)
        if self.gold is not None:
            out["gold"] = pd.DataFrame({"item": self.gold.items, "label": cls[self.gold.codes]})
        if self.predictions is not None:
            frames = []
            for m in self.predictions.models:
                f = pd.DataFrame({"item": self.predictions.items, "model": m.name})
                if m.kind == "label":
                    f["prediction"] = cls[m.values]
                elif m.kind == "proba":
                    for j, c in enumerate(self.ratings.classes):
                        f[f"prob_{c}"] = m.values[:, j]
                else:
                    f["score"] = m.values
                frames.append(f)
            out["predictions"] = pd.concat(frames, ignore_index=True)
        if "states" in self.truth:
            st = np.asarray(self.truth["states"])
            f = pd.DataFrame({"item": self.ratings.items})
            if "state_index" in self.truth:
                f["state"] = self.truth["state_index"]
            for j, c in enumerate(self.ratings.classes):
                f[f"p_{c}"] = st[:, j]
            out["states"] = f
        return out

    def write(self, path: str | Path, *, force: bool = True) -> dict[str, Path]:
        """Write the ratings (long ``item, rater, label``), gold and predictions files.

        Each file is written atomically, in the format of ``path``'s extension.

        Parameters
        ----------
        path : str or path
            The ratings file (see :meth:`files` for the others).
        force : bool
            Replace existing files. With ``False`` no existing file is replaced: each is published
            exclusively, in a fixed order, and if one exists the files this call already published
            are removed before :class:`InputError` is raised — so of two writers of the same new
            files exactly one succeeds and the other leaves nothing behind.

        Returns
        -------
        dict
            Table name → the path written.

        Raises
        ------
        InputError
            For a path without an extension, or (``force=False``) a file that exists.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> from humanly import simulate, read_study
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> paths = simulate.oracle(10, [0.8, 0.7], seed=0).write(folder / "o.csv")
        >>> read_study(paths["ratings"], gold=paths["gold"]).ratings.n_items
        10
        """
        targets = self.files(path)
        write_all(self.tables(), targets, force=force)
        return targets


# ---------------------------------------------------------------------------------------- helpers
def write_all(tables: dict[str, pd.DataFrame], targets: dict[str, Path], *, force: bool) -> None:
    """Write each table to its target atomically, in order; without ``force`` an existing file is
    an error and the files this call already published are removed first (all or none)."""
    published: list[Path] = []
    try:
        for key, frame in tables.items():
            published.append(write_table(frame, targets[key], force=force))
    except InputError:
        for done in published:
            done.unlink(missing_ok=True)
        raise


def _labels_from_probs(rng: np.random.Generator, probs: np.ndarray, k: int) -> np.ndarray:
    """``k`` i.i.d. class draws per row of ``probs`` (rows × classes) → rows × k codes."""
    cum = np.cumsum(probs, axis=1)
    cum[:, -1] = 1.0
    u = rng.random((probs.shape[0], k))
    return (u[:, :, None] > cum[:, None, :]).sum(axis=2).astype(np.int16)


def _build_named(
    n_items: int,
    labels: np.ndarray,
    mask: np.ndarray,
    rater_ids: np.ndarray,
    classes: Sequence[Any],
    item_prefix: str = "i",
    rater_names: Sequence[str] | None = None,
) -> Ratings:
    """Ratings from an items × slots label array, a mask of present labels and slot → rater ids."""
    rows, slots = np.nonzero(mask)
    raters = rater_ids[rows, slots]
    n_r = int(rater_ids.max()) + 1
    names = rater_names or [f"r{j + 1}" for j in range(n_r)]
    used = np.unique(raters)
    remap = np.full(n_r, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    width = len(str(n_items))
    items = pd.Index([f"{item_prefix}{i:0{width}d}" for i in range(n_items)])
    return Ratings(
        items=items,
        classes=tuple(classes),
        item_codes=rows.astype(np.int32),
        rater_codes=remap[raters].astype(np.int32),
        label_codes=labels[rows, slots].astype(np.int16),
        raters=pd.Index([names[j] for j in used]),
        source="simulated",
    )


def _slot_raters(rng: np.random.Generator, n_items: int, k: int, pool: int | None) -> np.ndarray:
    """Rater id per (item, slot): slot j is rater j when ``pool`` is None or k; else k distinct raters
    drawn per item from a pool."""
    if pool is None or pool == k:
        return np.tile(np.arange(k), (n_items, 1))
    if pool < k:
        raise InputError(f"rater pool {pool} is smaller than {k} labels per item")
    keys = rng.random((n_items, pool))
    return np.argsort(keys, axis=1)[:, :k]


def _n_labels_mask(
    rng: np.random.Generator, n_items: int, labels_per_item: int | tuple[int, int]
) -> tuple[int, np.ndarray]:
    if isinstance(labels_per_item, (int, np.integer)):
        k = int(labels_per_item)
        return k, np.ones((n_items, k), dtype=bool)
    lo, hi = (int(x) for x in labels_per_item)
    if not 1 <= lo <= hi:
        raise InputError(f"labels per item range {labels_per_item} must satisfy 1 ≤ low ≤ high")
    n = rng.integers(lo, hi + 1, size=n_items)
    return hi, np.arange(hi)[None, :] < n[:, None]
