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

__all__ = ["Seed", "SimulatedData"]

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
    """Simulated ratings with their known truth.

    ``truth`` holds the generating parameters and per-item hidden quantities (e.g. item states, the
    true labels, each annotator's and model's true accuracy).
    """

    ratings: Ratings
    gold: Gold | None
    predictions: Predictions | None
    truth: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..crowd.inspect import summarize

        return {
            "ratings": summarize(self.ratings).to_dict(),
            "models": list(self.predictions.names) if self.predictions else [],
            "n_gold": 0 if self.gold is None else len(self.gold),
            "truth": {k: v for k, v in self.truth.items() if not isinstance(v, np.ndarray)},
        }

    def __repr__(self) -> str:
        models = list(self.predictions.names) if self.predictions else []
        return f"SimulatedData({self.ratings!r}, gold={self.gold is not None}, models={models})"

    def files(self, path: str | Path) -> dict[str, Path]:
        """Where :meth:`write` puts each table: ``X.csv`` → ``X.csv``, ``X.gold.csv``,
        ``X.predictions.csv`` (and ``X.states.csv`` for the urn)."""
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
        """The long-format tables :meth:`write` writes."""
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
        """Write ratings (long ``item, rater, label``), gold and predictions files; return their paths.

        Each file is written atomically. Formats follow the extension of ``path``. ``force=False``
        replaces no existing file: each is published exclusively, in a fixed order, and if one exists
        the files this call already published are removed before :class:`InputError` is raised — so of
        two writers of the same new files exactly one succeeds and the other leaves nothing behind.
        """
        targets = self.files(path)
        published: list[Path] = []
        try:
            for key, frame in self.tables().items():
                published.append(write_table(frame, targets[key], force=force))
        except InputError:
            for done in published:
                done.unlink(missing_ok=True)
            raise
        return targets


# ---------------------------------------------------------------------------------------- helpers
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
