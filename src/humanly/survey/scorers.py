"""Scoring functions (Survey Equivalence, section 3.1 and Definition 1).

A scorer compares predictions (probability vectors, one-hot for hard outputs) with one reference label
per item. Two kinds:

* **decomposable** scorers are means of per-item terms (agreement, cross-entropy); ``terms(p)`` returns,
  for each prediction, the term for every possible reference class, so the engine takes exact
  expectations over rater subsets and reference raters;
* the others (precision, recall, F1, AUC, DMI, Pearson, Spearman) are computed on whole samples;
  ``score(p[S, n, C], y[S, n], rng)`` scores S samples at once (vectorised; each matches the
  scikit-learn / scipy function of the same name; the tests check them against textbook definitions
  and scipy's correlations).

User scorers: ``make_scorer(fn, name=)`` wraps a sklearn-like ``fn(y_true, y_prob) -> float`` where
``y_true`` are class codes (n,) and ``y_prob`` is (n, C); it is scored sample by sample.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.checks import check_choice
from .combiners import TIE_TOL, tie_uniform

__all__ = ["SCORERS", "Scorer", "agreement_terms", "ce_terms", "get_scorer", "make_scorer"]


def rankdata(a: np.ndarray, axis: int = -1) -> np.ndarray:
    """Average ranks along ``axis`` (:func:`scipy.stats.rankdata`, imported when first needed: the
    rank-based scorers are the only users of ``scipy.stats``, which is slow to import)."""
    from scipy.stats import rankdata as scipy_rankdata

    return np.asarray(scipy_rankdata(a, axis=axis))


#: Smallest probability inside a logarithm (a zero probability on the observed label would be -inf).
LOG_FLOOR = 1e-12


@dataclasses.dataclass(frozen=True)
class Scorer:
    """A scoring function; see the module docstring.

    >>> float(SCORERS["agreement"].score(np.array([[0.9, 0.1], [0.2, 0.8]]), np.array([0, 0]), 1))
    0.5
    """

    name: str
    decomposable: bool
    terms: Callable[[np.ndarray], np.ndarray] | None = None
    batch: Callable[..., np.ndarray] | None = None
    binary_only: bool = False
    #: optional ``grouped(p[S, n, C], y[P, n], group[P], positive) -> (P,)``: scores of pairs
    #: (prediction set ``group[j]``, reference ``y[j]``) sharing work per prediction set (ranks)
    grouped: Callable[..., np.ndarray] | None = None
    #: a proper scoring rule (cross-entropy): its score rewards calibrated probabilities, so an
    #: uncalibrated model's score understates what its outputs carry (the paper's footnote 7)
    proper: bool = False

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

    def score_pairs(
        self,
        p: np.ndarray,
        y: np.ndarray,
        group: np.ndarray,
        positive: int,
        rng: np.random.Generator | None = None,
    ) -> np.ndarray:
        """Scores of P pairs (prediction set ``group[j]`` of ``p`` (S, n, C), reference ``y[j]``
        (P, n)) → (P,), each equal to ``score(p[group], y)``: the work shared per prediction set —
        ``grouped`` when the scorer has it, a decomposable scorer's terms once per set.

        >>> sc = SCORERS["agreement"]
        >>> p = np.array([[[0.9, 0.1], [0.2, 0.8]]])
        >>> y, group = np.array([[0, 0], [0, 1]]), np.array([0, 0])
        >>> sc.score_pairs(p, y, group, 1).tolist() == sc.score(p[group], y, 1).tolist()
        True
        """
        if self.grouped is not None:
            return self.grouped(p, y, group, positive)
        if self.decomposable:
            assert self.terms is not None
            t = self.terms(np.asarray(p, dtype=float))  # (S, n, C)
            ref = np.asarray(y).astype(np.intp)
            return t[group[:, None], np.arange(t.shape[1])[None, :], ref].mean(-1)
        return self.score(p[group], y, positive, rng)


def agreement_terms(p: np.ndarray) -> np.ndarray:
    """Agreement terms: the expected credit of the argmax (ties uniform) for each reference class."""
    return tie_uniform(p)


def ce_terms(p: np.ndarray) -> np.ndarray:
    """Cross-entropy terms: log2 of the probability of each reference class (floored)."""
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


def _binary_ranks(t: np.ndarray) -> np.ndarray:
    """Average ranks (1-based) of a 0/1 array along the last axis (scipy's rankdata, without sorting)."""
    n1 = t.sum(-1, keepdims=True)
    n0 = t.shape[-1] - n1
    return np.where(t > 0, n0 + (n1 + 1) / 2, (n0 + 1) / 2)


def _auc_grouped(p: np.ndarray, y: np.ndarray, group: np.ndarray, positive: int) -> np.ndarray:
    r = rankdata(p[..., positive], axis=-1)[group]
    pos = y == positive
    n1 = pos.sum(-1).astype(float)
    n0 = pos.shape[-1] - n1
    u = (r * pos).sum(-1) - n1 * (n1 + 1) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((n1 > 0) & (n0 > 0), u / (n1 * n0), np.nan)


def _spearman_grouped(p: np.ndarray, y: np.ndarray, group: np.ndarray, positive: int) -> np.ndarray:
    if p.shape[-1] != 2:
        x = (p * np.arange(p.shape[-1])).sum(-1)
        return _corr(rankdata(x, axis=-1)[group], rankdata(y.astype(float), axis=-1))
    r = rankdata(p[..., positive], axis=-1)[group]
    return _corr(r, _binary_ranks((y == positive).astype(float)))


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
    "agreement": Scorer("agreement", True, terms=agreement_terms),
    "cross_entropy": Scorer("cross_entropy", True, terms=ce_terms, proper=True),
    "precision": Scorer("precision", False, batch=_prf("precision")),
    "recall": Scorer("recall", False, batch=_prf("recall")),
    "f1": Scorer("f1", False, batch=_prf("f1")),
    "auc": Scorer("auc", False, batch=_auc, binary_only=True, grouped=_auc_grouped),
    "dmi": Scorer("dmi", False, batch=_dmi),
    "pearson": Scorer("pearson", False, batch=_pearson),
    "spearman": Scorer("spearman", False, batch=_spearman, grouped=_spearman_grouped),
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
    """A scorer from a sklearn-like function ``fn(y_true, y_prob) -> float``.

    The function is called once per sampled set of predictions and reference labels: it is not a
    mean of per-item terms, so the power curve is sampled (``method="sampled"``, Algorithm 2).

    Parameters
    ----------
    fn : callable
        ``fn(y_true, y_prob)``: reference label codes (n,) and predicted probabilities (n, classes)
        to a number, higher is better.
    name : str, optional
        The scorer's name in results (default the function's name).

    Returns
    -------
    Scorer
        To pass as ``scorer=`` to :func:`~humanly.survey.equivalence`.

    Examples
    --------
    >>> def brier(y_true, y_prob):
    ...     return -float(np.mean((y_prob[np.arange(len(y_true)), y_true] - 1) ** 2))
    >>> s = make_scorer(brier, "brier")
    >>> s.name, s.decomposable
    ('brier', False)
    >>> float(s.score(np.array([[0.5, 0.5], [0.0, 1.0]]), np.array([0, 1]), positive=1))
    -0.125
    """

    def batch(p: np.ndarray, y: np.ndarray, positive: int, rng: np.random.Generator) -> np.ndarray:
        return np.array([float(fn(y[s], p[s])) for s in range(p.shape[0])])

    return Scorer(str(name or getattr(fn, "__name__", "custom")), False, batch=batch)


def get_scorer(spec: Any) -> Scorer:
    """A scorer from a registry name (:data:`SCORERS`), a :class:`Scorer` or a sklearn-like callable.

    >>> sc = get_scorer("cross_entropy")
    >>> sc.decomposable
    True
    >>> float(sc.score(np.array([[0.5, 0.5], [0.25, 0.75]]), np.array([0, 0]), positive=1))
    -1.5
    >>> get_scorer("accuracy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    humanly.errors.InputError: scorer='accuracy': use one of 'agreement', 'cross_entropy', ...
    """
    if isinstance(spec, Scorer):
        return spec
    if isinstance(spec, str):
        return SCORERS[check_choice("scorer", spec, tuple(SCORERS))]
    if callable(spec):
        return make_scorer(spec)
    raise TypeError(f"scorer={type(spec).__name__}: give a name, a Scorer or a callable")
