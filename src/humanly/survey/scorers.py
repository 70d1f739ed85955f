"""Scoring functions (Survey Equivalence, section 3.1 and Definition 1).

A scorer compares predictions (probability vectors, one-hot for hard outputs) with one reference label
per item. Two kinds:

* **decomposable** scorers are means of per-item terms (agreement, cross-entropy); ``terms(p)`` returns,
  for each prediction, the term for every possible reference class, so the engine takes exact
  expectations over rater subsets and reference raters;
* the others (precision, recall, F1, AUC, DMI, Pearson, Spearman) are computed on whole samples;
  ``score(p[S, n, C], y[S, n], rng)`` scores S samples at once (vectorised; each matches the
  scikit-learn / scipy function of the same name, which the tests check).

User scorers: ``make_scorer(fn, name=)`` wraps a sklearn-like ``fn(y_true, y_prob) -> float`` where
``y_true`` are class codes (n,) and ``y_prob`` is (n, C); it is scored sample by sample.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import rankdata

from ..data.errors import InputError
from .combiners import TIE_TOL, tie_uniform

__all__ = ["SCORERS", "Scorer", "get_scorer", "make_scorer"]

#: Smallest probability inside a logarithm (a zero probability on the observed label would be -inf).
LOG_FLOOR = 1e-12


@dataclasses.dataclass(frozen=True)
class Scorer:
    """A scoring function; see the module docstring."""

    name: str
    decomposable: bool
    terms: Callable[[np.ndarray], np.ndarray] | None = None
    batch: Callable[..., np.ndarray] | None = None
    binary_only: bool = False

    def score(
        self, p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """Scores of S samples: ``p`` (S, n, C) predictions, ``y`` (S, n) reference codes → (S,)."""
        p = np.asarray(p, dtype=float)
        y = np.asarray(y)
        if p.ndim == 2:
            return self.score(p[None], y[None], positive, rng)[0]
        if self.decomposable:
            assert self.terms is not None
            t = self.terms(p)
            return np.take_along_axis(t, y[..., None].astype(np.intp), axis=-1)[..., 0].mean(-1)
        assert self.batch is not None
        return self.batch(p, y, positive, rng if rng is not None else np.random.default_rng(0))


def _agreement_terms(p: np.ndarray) -> np.ndarray:
    return tie_uniform(p)


def _ce_terms(p: np.ndarray) -> np.ndarray:
    return np.log2(np.maximum(p, LOG_FLOOR))


def _hard(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Argmax of each prediction, ties broken uniformly at random."""
    top = p >= p.max(axis=-1, keepdims=True) - TIE_TOL
    keys = rng.random(p.shape) + top
    return np.argmax(keys, axis=-1)


def _prf(which: str) -> Callable[..., np.ndarray]:
    def batch(p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator) -> np.ndarray:
        n_cls = p.shape[-1]
        h = _hard(p, rng)
        classes = [positive] if n_cls == 2 else list(range(n_cls))
        out = []
        for c in classes:
            tp = ((h == c) & (y == c)).sum(-1).astype(float)
            pp = (h == c).sum(-1)
            ap = (y == c).sum(-1)
            prec = np.where(pp > 0, tp / np.maximum(pp, 1), 0.0)
            rec = np.where(ap > 0, tp / np.maximum(ap, 1), 0.0)
            if which == "precision":
                out.append(prec)
            elif which == "recall":
                out.append(rec)
            else:
                den = pp + ap
                out.append(np.where(den > 0, 2 * tp / np.maximum(den, 1), 0.0))
        return np.mean(out, axis=0)

    return batch


def _auc(p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator) -> np.ndarray:
    s = p[..., positive]
    pos = y == positive
    n1 = pos.sum(-1).astype(float)
    n0 = pos.shape[-1] - n1
    r = rankdata(s, axis=-1)
    u = (r * pos).sum(-1) - n1 * (n1 + 1) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((n1 > 0) & (n0 > 0), u / (n1 * n0), np.nan)


def _dmi(p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator) -> np.ndarray:
    n_cls = p.shape[-1]
    onehot = np.eye(n_cls)[y]
    m = np.einsum("sic,sid->scd", p, onehot) / p.shape[-2]
    return np.abs(np.linalg.det(m))


def _corr(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a - a.mean(-1, keepdims=True)
    b = b - b.mean(-1, keepdims=True)
    den = np.sqrt((a * a).sum(-1) * (b * b).sum(-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (a * b).sum(-1) / np.where(den > 0, den, 1), np.nan)


def _xy(p: np.ndarray, y: np.ndarray, positive: int) -> tuple[np.ndarray, np.ndarray]:
    if p.shape[-1] == 2:
        return p[..., positive], (y == positive).astype(float)
    return (p * np.arange(p.shape[-1])).sum(-1), y.astype(float)


def _pearson(p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator) -> np.ndarray:
    x, t = _xy(p, y, positive)
    return _corr(x, t)


def _spearman(p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator) -> np.ndarray:
    x, t = _xy(p, y, positive)
    return _corr(rankdata(x, axis=-1), rankdata(t, axis=-1))


SCORERS: dict[str, Scorer] = {
    "agreement": Scorer("agreement", True, terms=_agreement_terms),
    "cross_entropy": Scorer("cross_entropy", True, terms=_ce_terms),
    "precision": Scorer("precision", False, batch=_prf("precision")),
    "recall": Scorer("recall", False, batch=_prf("recall")),
    "f1": Scorer("f1", False, batch=_prf("f1")),
    "auc": Scorer("auc", False, batch=_auc, binary_only=True),
    "dmi": Scorer("dmi", False, batch=_dmi),
    "pearson": Scorer("pearson", False, batch=_pearson),
    "spearman": Scorer("spearman", False, batch=_spearman),
}
SCORERS_DOC = {
    "agreement": "fraction of items whose predicted label (argmax, random tie-break) equals the reference",
    "cross_entropy": "mean log2 probability given to the reference label (bits; higher is better)",
    "precision": "precision of the positive class (binary) or macro precision (more classes)",
    "recall": "recall of the positive class (binary) or macro recall",
    "f1": "F1 of the positive class (binary) or macro F1",
    "auc": "ROC AUC of the positive-class probability (binary)",
    "dmi": "|det| of the joint frequency matrix of predictions and references (Definition 1)",
    "pearson": "Pearson correlation of the positive-class probability (or expected class) and reference",
    "spearman": "Spearman rank correlation of the same",
}


def make_scorer(fn: Callable[[np.ndarray, np.ndarray], float], name: str | None = None) -> Scorer:
    """Wrap a sklearn-like ``fn(y_true, y_prob) -> float`` (scored sample by sample)."""

    def batch(p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator) -> np.ndarray:
        return np.array([float(fn(y[s], p[s])) for s in range(p.shape[0])])

    return Scorer(name or getattr(fn, "__name__", "custom"), False, batch=batch)


def get_scorer(spec: Any) -> Scorer:
    """A scorer from a registry name, a :class:`Scorer` or a sklearn-like callable."""
    if isinstance(spec, Scorer):
        return spec
    if isinstance(spec, str):
        if spec not in SCORERS:
            raise InputError(f"scorer {spec!r}: use one of {', '.join(SCORERS)}")
        return SCORERS[spec]
    if callable(spec):
        return make_scorer(spec)
    raise InputError(f"scorer {spec!r}: give a name, a Scorer or a callable")
