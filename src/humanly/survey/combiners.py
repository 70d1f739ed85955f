"""Combiners (Survey Equivalence, sections 3.2 and 4): turn the labels of k raters into a prediction.

Every combiner here is a function of the *count vector* of the k labels (how many of each class), which
is what lets the exact engine enumerate count vectors instead of rater subsets.

Protocol for user combiners: any object with

* ``name: str``;
* ``hard: bool`` — ``True`` when the output is a label (possibly drawn at random, e.g. a tie-break);
* ``predict(y: ndarray[m, C]) -> ndarray[m, C]`` — for each row ``y`` of label counts (summing to k,
  k = 0 for the default output) a probability vector: the prediction itself for a soft combiner, or the
  distribution of the (random) output label for a hard one.

A plain callable ``f(y) -> probabilities`` is accepted and treated as a soft combiner. Such combiners are
*myopic* (they see only the item's own k labels). The Anonymous Bayesian Combiner is learned from the
data set and is handled by the engine (:mod:`humanly.survey._engine`).

Protocol for combiners that see the whole rating matrix (*non-myopic*, section 3.2: "optionally a rating
matrix W and the item i from W that is being labeled"): any object with ``name``, ``hard`` and

* ``predict_matrix(y: ndarray[m, C], counts: ndarray[n, C], items: ndarray[m]) -> ndarray[m, C]`` —
  the prediction for item ``items[j]`` (a row of ``counts``) after its surveyed labels with counts
  ``y[j]``. ``counts`` holds every item's label counts in the data set being scored (a bootstrap
  replicate's resampled items in a replicate), the item's own labels included: leaving them out, as
  the ABC does, is the combiner's business.

:func:`matrix_combiner` turns a function ``f(y, counts, items)`` into one. Their curves are computed
by sampling rater subsets (``method="sampled"``, Algorithm 2), the default for them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .._core.checks import check_choice
from ..data import InputError
from ..errors import setting

__all__ = [
    "ABC",
    "COMBINERS",
    "Combiner",
    "Frequency",
    "Majority",
    "MatrixCombiner",
    "Plurality",
    "clip_probs",
    "get_combiner",
    "is_matrix_combiner",
    "matrix_combiner",
    "tie_uniform",
]


@runtime_checkable
class Combiner(Protocol):
    """What the engine needs from a combiner (see the module docstring).

    >>> isinstance(Plurality(), Combiner)
    True
    """

    name: str
    hard: bool

    def predict(self, y: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class MatrixCombiner(Protocol):
    """A combiner that sees the whole rating matrix (see the module docstring).

    >>> isinstance(matrix_combiner(lambda y, counts, items: y + 1.0), MatrixCombiner)
    True
    """

    @property
    def name(self) -> str: ...

    @property
    def hard(self) -> bool: ...

    def predict_matrix(
        self, y: np.ndarray, counts: np.ndarray, items: np.ndarray
    ) -> np.ndarray: ...


def is_matrix_combiner(combiner: Any) -> bool:
    """Whether ``combiner`` follows the :class:`MatrixCombiner` protocol."""
    return callable(getattr(combiner, "predict_matrix", None))


@dataclasses.dataclass(frozen=True)
class _WrappedMatrix:
    fn: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    name: str = "custom"
    hard: bool = False

    def predict_matrix(self, y: np.ndarray, counts: np.ndarray, items: np.ndarray) -> np.ndarray:
        return np.asarray(self.fn(y, counts, items), dtype=float)


def matrix_combiner(
    fn: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    name: str | None = None,
    hard: bool = False,
) -> MatrixCombiner:
    """A combiner that sees the whole rating matrix (non-myopic, section 3.2).

    Its power curve is computed by sampling rater subsets (``method="sampled"``, Algorithm 2).

    Parameters
    ----------
    fn : callable
        ``fn(y, counts, items) -> probabilities``: for each row ``y`` of surveyed label counts, the
        prediction for item ``items[j]`` given every item's label counts ``counts`` (its own labels
        included: leaving them out is the combiner's business); see
        :mod:`humanly.survey.combiners`.
    name : str, optional
        The combiner's name in results (default the function's name).
    hard : bool
        ``True`` when the output is the distribution of a (random) label rather than a prediction.

    Returns
    -------
    MatrixCombiner
        To pass as ``combiner=`` to :func:`~humanly.survey.equivalence`.

    Examples
    --------
    A frequency combiner that shrinks towards the label frequencies of the *other* items:

    >>> def shrunk(y, counts, items):
    ...     others = counts.sum(axis=0) - counts[items]
    ...     prior = others / others.sum(axis=1, keepdims=True)
    ...     return (y + 2 * prior) / (y.sum(axis=1, keepdims=True) + 2)
    >>> comb = matrix_combiner(shrunk)
    >>> comb.predict_matrix(np.array([[1, 0]]), np.array([[1, 1], [0, 2], [3, 1]]), np.array([0]))
    array([[0.66666667, 0.33333333]])
    """
    return _WrappedMatrix(fn, name=str(name or getattr(fn, "__name__", "custom")), hard=hard)


#: Predictions closer than this (relative) count as tied (floating-point noise is not a preference).
TIE_TOL = 1e-9


def tie_uniform(x: np.ndarray) -> np.ndarray:
    """Uniform distribution over the positions of the maximum of each row (random tie-break)."""
    x = np.asarray(x, dtype=float)
    top = x >= x.max(axis=-1, keepdims=True) - TIE_TOL * np.maximum(
        1.0, np.abs(x).max(axis=-1, keepdims=True)
    )
    return top / top.sum(axis=-1, keepdims=True)


def clip_probs(p: np.ndarray, clip: tuple[float, float]) -> np.ndarray:
    """Clip each probability to ``[lo, hi]`` and renormalise (for two classes with lo + hi = 1 the
    renormalisation changes nothing: 0 → 0.02 and 1 → 0.98 as in the paper's implementation)."""
    lo, hi = clip
    q = np.clip(np.asarray(p, dtype=float), lo, hi)
    return q / q.sum(axis=-1, keepdims=True)


@dataclasses.dataclass(frozen=True)
class Majority:
    """Majority vote (section 3.2), two classes only; ties (and k = 0) broken uniformly at random.

    The output is the distribution of the random label, so expected scores are exact.

    >>> Majority().predict(np.array([[2, 1], [1, 1]]))
    array([[1. , 0. ],
           [0.5, 0.5]])
    """

    name: str = "majority"
    hard: bool = True

    def predict(self, y: np.ndarray) -> np.ndarray:
        y = np.asarray(y)
        if y.shape[-1] != 2:
            raise InputError(
                f"the majority combiner needs two classes, these ratings have {y.shape[-1]}; "
                f"use {setting('combiner', 'plurality')}"
            )
        return tie_uniform(y)


@dataclasses.dataclass(frozen=True)
class Plurality:
    """Plurality vote (section 3.2): the most common label, ties (and k = 0) uniformly at random.

    >>> Plurality().predict(np.array([[2, 2, 1]]))
    array([[0.5, 0.5, 0. ]])
    """

    name: str = "plurality"
    hard: bool = True

    def predict(self, y: np.ndarray) -> np.ndarray:
        return tie_uniform(np.asarray(y))


@dataclasses.dataclass(frozen=True)
class Frequency:
    """Frequency combiner (section 3.2): the fraction of the k labels in each class, clipped to
    ``clip`` (default [0.02, 0.98], as the paper's implementation) and renormalised; uniform at k = 0.

    >>> Frequency().predict(np.array([[3, 0], [1, 3]]))
    array([[0.98, 0.02],
           [0.25, 0.75]])
    """

    clip: tuple[float, float] = (0.02, 0.98)
    name: str = "frequency"
    hard: bool = False

    def __post_init__(self) -> None:
        lo, hi = self.clip
        if not (0 <= lo < hi <= 1):
            raise InputError(f"clip={self.clip!r}: need 0 ≤ low < high ≤ 1")

    def predict(self, y: np.ndarray) -> np.ndarray:
        y = np.asarray(y, dtype=float)
        k = y.sum(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            f = np.where(k > 0, y / np.where(k > 0, k, 1), 1.0 / y.shape[-1])
        return clip_probs(f, self.clip)


@dataclasses.dataclass(frozen=True)
class ABC:
    """Anonymous Bayesian Combiner (section 4, Algorithms 5–6), learned from the data set with each
    item's own labels excluded. Its predictions are computed by the engine; ``floor`` bounds every
    predicted probability below (then renormalised) so that a label sequence seen on no other item
    gives a large but finite cross-entropy penalty instead of minus infinity.

    >>> ABC().name, ABC().floor
    ('abc', 0.001)
    """

    floor: float = 1e-3
    name: str = "abc"
    hard: bool = False
    learned: bool = True

    def predict(self, y: np.ndarray) -> np.ndarray:  # pragma: no cover - engine handles ABC
        raise TypeError("the ABC is learned from the ratings; use humanly.survey.abc_predictions")


@dataclasses.dataclass(frozen=True)
class _Wrapped:
    fn: Callable[[np.ndarray], np.ndarray]
    name: str = "custom"
    hard: bool = False

    def predict(self, y: np.ndarray) -> np.ndarray:
        return np.asarray(self.fn(np.asarray(y)), dtype=float)


COMBINERS: dict[str, Callable[..., Any]] = {
    "majority": Majority,
    "plurality": Plurality,
    "frequency": Frequency,
    "abc": ABC,
}


def get_combiner(spec: Any, clip: tuple[float, float] = (0.02, 0.98)) -> Any:
    """A combiner from a registry name (:data:`COMBINERS`), a combiner object (myopic, or seeing the
    whole matrix: :class:`MatrixCombiner`) or a callable ``f(y) -> probabilities`` (a soft combiner
    named after the function).

    >>> get_combiner("frequency").predict(np.array([[3, 1], [0, 0]]))
    array([[0.75, 0.25],
           [0.5 , 0.5 ]])
    >>> get_combiner("majority").predict(np.array([[2, 2]]))  # a tie: each label half the time
    array([[0.5, 0.5]])
    >>> get_combiner("median")
    Traceback (most recent call last):
    ...
    humanly.errors.InputError: combiner='median': use one of 'majority', 'plurality', 'frequency', 'abc'
    """
    if isinstance(spec, str):
        check_choice("combiner", spec, tuple(COMBINERS))
        if spec == "frequency":
            return Frequency(clip=clip)
        return COMBINERS[spec]()
    if isinstance(spec, ABC) or isinstance(spec, Combiner) or is_matrix_combiner(spec):
        return spec
    if callable(spec):
        return _Wrapped(spec, name=getattr(spec, "__name__", "custom"))
    raise TypeError(f"combiner={type(spec).__name__}: give a name, a combiner object or a callable")
