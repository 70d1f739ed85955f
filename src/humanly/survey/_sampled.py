"""Sampling estimator of the power curve (Survey Equivalence, Algorithms 1–3 with RATERSUBSETS,
Algorithm 2), needed for scorers that are not means of per-item terms (precision, recall, F1, AUC, DMI,
Pearson, Spearman) and kept for every scorer as ``method="sampled"``.

* Named raters, every item labelled by every rater: the paper's procedure — all size-k subsets of rater
  columns when C(K, k) ≤ ``draws`` (200), else ``draws`` distinct random subsets; each scored
  against every unused rater (or every r-subset of unused raters, plurality vote, capped the same way),
  averaged over reference raters then over subsets.
* Ragged or anonymous data: ``draws`` draws; in each, every item with at least k + r labels gets a
  uniformly random ordering of its own labels, the first k are the survey and the next r the reference.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any

import numpy as np

from ._engine import abc_row_probs
from ._levels import Level, Plan
from .combiners import clip_probs, is_matrix_combiner
from .scorers import Scorer

__all__ = ["label_matrix", "sampled_classifier", "sampled_curve"]


def label_matrix(counts: np.ndarray) -> np.ndarray:
    """Items × max-labels matrix of class codes expanded from counts (-1 padding at the end)."""
    counts = np.asarray(counts, dtype=np.int64)
    n_lab = counts.sum(axis=1)
    width = int(n_lab.max()) if len(n_lab) else 0
    out = np.full((len(counts), width), -1, dtype=np.int64)
    cum = np.cumsum(counts, axis=1)
    pos = np.arange(width)[None, :]
    for c in range(counts.shape[1] - 1, -1, -1):
        out = np.where(pos < cum[:, c : c + 1], c, out)
    return out


def _nanmean(x: object) -> float:
    a = np.asarray(x, dtype=float)
    a = a[~np.isnan(a)]
    return float(a.mean()) if len(a) else float("nan")


def _subsets(n: int, k: int, cap: int, rng: np.random.Generator) -> list[tuple[int, ...]]:
    if math.comb(n, k) <= cap:
        return list(itertools.combinations(range(n), k))
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    while len(out) < cap:
        s = tuple(sorted(rng.choice(n, size=k, replace=False).tolist()))
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def _draw_label(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    u = rng.random(p.shape[:-1])[..., None]
    return np.minimum((np.cumsum(p, axis=-1) < u).sum(-1), p.shape[-1] - 1)


def _plurality(z: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    top = z >= z.max(axis=-1, keepdims=True)
    return np.argmax(top + rng.random(z.shape), axis=-1)


def _onehot_counts(lab: np.ndarray, n_cls: int) -> np.ndarray:
    return (lab[..., None] == np.arange(n_cls)).sum(-2)


@dataclasses.dataclass(frozen=True)
class _Predictor:
    """What a level's predictions need: the combiner, the ABC's table of predictions per survey row of
    the level (``None`` for other combiners) and the replicate's rating matrix as counts (for a
    combiner that sees the whole matrix, :class:`~humanly.survey.combiners.MatrixCombiner`)."""

    combiner: Any
    abc_table: tuple[np.ndarray, Level] | None
    counts: np.ndarray


def _predict(
    y: np.ndarray,
    vec: np.ndarray,
    items: np.ndarray,
    pr: _Predictor,
    scorer: Scorer,
    clip: tuple[float, float],
    rng: np.random.Generator,
) -> np.ndarray:
    """Predictions for survey counts ``y`` (..., C) of the items at rows ``items`` of the replicate
    (their distinct count vectors ``vec``)."""
    n_cls = y.shape[-1]
    flat = y.reshape(-1, n_cls)
    if pr.abc_table is not None:
        table, lvl = pr.abc_table
        rows = lvl.row_index(np.broadcast_to(vec, y.shape[:-1]).reshape(-1), flat)
        return table[rows].reshape(y.shape)
    combiner = pr.combiner
    if is_matrix_combiner(combiner):
        at = np.broadcast_to(items, y.shape[:-1]).reshape(-1)
        p = np.asarray(combiner.predict_matrix(flat, pr.counts, at), dtype=float).reshape(y.shape)
    else:
        p = combiner.predict(flat).reshape(y.shape)
    if combiner.hard:
        h = _draw_label(p, rng)
        p = np.eye(n_cls)[h]
        if scorer.decomposable:
            p = clip_probs(p, clip)
    return p


def sampled_curve(
    plan: Plan,
    labels: np.ndarray,
    complete: bool,
    inv: np.ndarray,
    mult: np.ndarray,
    combiner: Any,
    scorer: Scorer,
    clip: tuple[float, float],
    positive: int,
    draws: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Curve points and item counts per level by sampling (see the module docstring)."""
    n_cls = plan.v.shape[1]
    r = plan.r
    n_lab = (labels >= 0).sum(axis=1)
    out = np.full(len(plan.levels), np.nan)
    nit = np.zeros(len(plan.levels))
    counts = _onehot_counts(labels, n_cls)
    everyone = np.arange(len(labels))
    for j, lvl in enumerate(plan.levels):
        k = lvl.k
        abc_table = None
        if plan.abc:
            abc_table = (abc_row_probs(lvl, mult, plan.abc_floor, n_cls)[0], lvl)
        pr = _Predictor(combiner, abc_table, counts)
        if complete and r == 1:
            out[j] = _complete_level(labels, inv, k, pr, scorer, clip, positive, draws, rng, n_cls)
            nit[j] = len(labels)
            continue
        if complete:
            width = labels.shape[1]
            scores = []
            for sub in _subsets(width, k, draws, rng):
                unused = [c for c in range(width) if c not in sub]
                y = _onehot_counts(labels[:, list(sub)], n_cls)  # (n, C)
                p = _predict(y[None], inv[None], everyone[None], pr, scorer, clip, rng)[0]
                refs = _subsets(len(unused), r, draws, rng)
                ref_cols = np.array([[unused[i] for i in rs] for rs in refs])  # (R, r)
                z = _onehot_counts(labels[:, ref_cols].transpose(1, 0, 2), n_cls)  # (R, n, C)
                ref = _plurality(z, rng)
                pp = np.broadcast_to(p, (len(refs), *p.shape))
                scores.append(_nanmean(scorer.score(pp, ref, positive, rng)))
            out[j] = _nanmean(scores)
            nit[j] = len(labels)
            continue
        keep = n_lab >= k + r
        lab = labels[keep]
        vec = inv[keep]
        at = np.flatnonzero(keep)
        nit[j] = len(lab)
        if not len(lab):
            continue
        scored: list[np.ndarray] = []
        chunk = max(1, int(2_000_000 // max(1, lab.size)))
        for s0 in range(0, draws, chunk):
            s = min(chunk, draws - s0)
            keys = rng.random((s, *lab.shape))
            keys[:, lab < 0] = 2.0
            order = np.argsort(keys, axis=-1)
            perm = np.take_along_axis(np.broadcast_to(lab, keys.shape), order, axis=-1)
            y = _onehot_counts(perm[..., :k], n_cls)  # (s, n, C)
            z = _onehot_counts(perm[..., k : k + r], n_cls)
            ref = _plurality(z, rng)
            p = _predict(y, vec[None, :], at[None, :], pr, scorer, clip, rng)
            scored.append(scorer.score(p, ref, positive, rng))
        out[j] = _nanmean(np.concatenate(scored))
    return out, nit


def _complete_level(
    labels: np.ndarray,
    inv: np.ndarray,
    k: int,
    pr: _Predictor,
    scorer: Scorer,
    clip: tuple[float, float],
    positive: int,
    draws: int,
    rng: np.random.Generator,
    n_cls: int,
) -> float:
    """Algorithm 3 at level k on a complete matrix with one reference rater, vectorised over rater
    subsets: every subset is scored against every unused column; mean over columns, then subsets."""
    n, width = labels.shape
    found = _subsets(width, k, draws, rng)
    subs = np.array(found, dtype=np.int64) if k else np.zeros((1, 0), dtype=np.int64)
    n_sub = len(subs)
    unused = np.ones((n_sub, width), dtype=bool)
    if k:
        np.put_along_axis(unused, subs, False, axis=1)
    per_sub_sum = np.zeros(n_sub)
    per_sub_cnt = np.zeros(n_sub)
    step = max(1, int(4_000_000 // max(1, n * max(width - k, 1) * n_cls)))
    for s0 in range(0, n_sub, step):
        sl = slice(s0, min(n_sub, s0 + step))
        lab = labels[:, subs[sl]].transpose(1, 0, 2)  # (s, n, k)
        y = _onehot_counts(lab, n_cls) if k else np.zeros((lab.shape[0], n, n_cls), np.int64)
        p = _predict(y, inv[None, :], np.arange(n)[None, :], pr, scorer, clip, rng)  # (s, n, C)
        si, col = np.nonzero(unused[sl])
        sc = scorer.score_pairs(p, labels[:, col].T, si, positive, rng)
        ok = ~np.isnan(sc)
        # each slice's sums start at zero, so a bincount adds in the same order as np.add.at
        per_sub_sum[sl] += np.bincount(si[ok], weights=sc[ok], minlength=sl.stop - s0)
        per_sub_cnt[sl] += np.bincount(si[ok], minlength=sl.stop - s0)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_sub = per_sub_sum / per_sub_cnt
    return _nanmean(per_sub)


def sampled_classifier(
    probs: np.ndarray,
    labels: np.ndarray,
    complete: bool,
    r: int,
    scorer: Scorer,
    positive: int,
    draws: int,
    rng: np.random.Generator,
) -> float:
    """Algorithm 1 for a whole-sample scorer: mean score against every reference rater (named,
    complete) or against ``draws`` random reference labels per item (ragged / anonymous)."""
    n_cls = probs.shape[1]
    n_lab = (labels >= 0).sum(axis=1)
    if complete:
        refs = _subsets(labels.shape[1], r, draws, rng)
        z = _onehot_counts(labels[:, np.array(refs)].transpose(1, 0, 2), n_cls)
        ref = _plurality(z, rng)
        pp = np.broadcast_to(probs, (len(refs), *probs.shape))
        return float(_nanmean(scorer.score(pp, ref, positive, rng)))
    keep = n_lab >= r
    lab, p = labels[keep], probs[keep]
    keys = rng.random((draws, *lab.shape))
    keys[:, lab < 0] = 2.0
    order = np.argsort(keys, axis=-1)[..., :r]
    z = _onehot_counts(np.take_along_axis(np.broadcast_to(lab, keys.shape), order, -1), n_cls)
    ref = _plurality(z, rng)
    pp = np.broadcast_to(p, (draws, *p.shape))
    return float(_nanmean(scorer.score(pp, ref, positive, rng)))
