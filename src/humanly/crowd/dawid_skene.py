"""Dawid & Skene (1979): maximum-likelihood confusion matrices of named raters by EM, vectorised over
the coded labels (memory ∝ labels, never an items × raters matrix).

The model: item ``i`` has a hidden true class drawn from a prior ``π``; rater ``r`` gives label ``k``
to an item of class ``c`` with probability ``θ_r[c, k]``, independently of every other label given
the class. EM alternates the E step (each item's posterior over classes from π and θ) and the M step
(π, θ from the posteriors: the posterior-weighted label counts of each rater, normalised).

Choices, documented because every implementation makes them differently:

* **starts** — the likelihood can have many local maxima (sparse, ragged designs have long flat
  ridges), so EM runs from many starts and keeps the highest log-likelihood: the plurality (each
  item's posterior uniform over its most frequent classes), the vote shares (crowd-kit's start), and
  :data:`RANDOM_STARTS` seeded random perturbations of each (exponential weights on the vote shares,
  and on the plurality's ties); the first M step turns each into π, θ. The starts are screened
  cheaply — a few SQUAREM cycles each, many starts per EM step, the better ones going on each round —
  and the best is run on to convergence, the runner-up and the plurality start (ties go to the
  earlier start) until they converge or cannot reach it (:mod:`humanly.crowd._ds_starts`). Random
  start ``j`` of a fit with seed ``s`` is the random start of a fit with seed ``s + j``, so any start
  can be rerun alone. The fit records which start won, every start's log-likelihood and how far the
  raters' accuracies moved between the polished starts; a note says when they disagree materially
  (an accuracy moving by more than :data:`DISAGREE`);
* **floor** — probabilities are floored at :data:`FLOOR` inside logarithms (crowd-kit uses the same
  ``1e-10``), so a rater who never gave label k to class c in the current fit cannot veto class c;
  a true class a rater never met (no posterior mass on their items) gets a uniform row of θ;
* **convergence** — a rule on the parameters: two successive EM steps of sizes ``d₁``, ``d₂``
  (largest change of any entry of π or θ) put the fit about ``d₂ / (1 − d₂/d₁)`` from its fixed
  point; converged when that is at most ``tol`` (default :data:`TOL`) within ``max_iter`` M steps
  (default :data:`MAX_ITER`) of polishing — the screening rounds have their own, fixed budget;
  otherwise ``converged=False``. A small step on a flat stretch of the likelihood is not
  convergence;
* **acceleration** — by default the fixed point of the *same* EM map is found with SQUAREM
  (Varadhan & Roland 2008, the squared-extrapolation "SqS3" step with a monotone safeguard: an
  extrapolated point must be a probability vector and is kept only if its log-likelihood is at least
  that of the plain EM step; a refused point costs its E step only, and ``iterations`` counts the M
  steps taken). On sparse designs (three labels per item) plain EM moves at a
  linear rate close to 1 and needs thousands of steps; SQUAREM needs far fewer. Pass
  ``accelerate=False`` for the textbook iteration, step for step;
* **memory** — ``O(labels × classes)`` plus the ``raters × classes²`` confusion matrices; a fit that
  would need more than ``memory`` bytes (default :data:`MEMORY`) is refused before anything is
  allocated.

A rater's accuracy is ``Σ_c π_c θ_r[c, c]``: the chance that their label is right on an item drawn from
the prior.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_number
from .._core.progress import task
from .._core.result import Note, Result
from ..data import InputError, Ratings
from . import _ds_em as em
from ._ds_em import FLOOR as FLOOR
from ._ds_starts import RANDOM_STARTS, STARTS, Outcome, multistart, plan
from .agreement import _seed_int

__all__ = ["DawidSkeneFit", "DawidSkeneStart", "dawid_skene"]

#: default tolerance: converged when the estimated distance of π and θ from the fixed point is at most
#: this (largest entry)
TOL = 1e-6
#: starts disagree materially when a rater's accuracy moves by more than this between two of them
DISAGREE = 0.05
#: default memory budget of one fit, in bytes
MEMORY = 2 * 2**30
#: default limit on M steps; a fit that has not converged by then reports ``converged=False``
MAX_ITER = 5000


def _require_raters(ratings: Ratings, what: str) -> pd.Index:
    """The rater ids of named ratings; an :class:`InputError` for anonymous counts (``TypeError`` for
    something that is not a :class:`Ratings`)."""
    if not isinstance(ratings, Ratings):
        got = "None" if ratings is None else type(ratings).__name__
        raise TypeError(f"ratings={got}: give a humanly.Ratings with named raters")
    if ratings.raters is None:
        raise InputError(
            f"{what} needs named raters, but {ratings.source or 'these ratings'} holds anonymous "
            "counts only; read the labels in long format (item, rater, label)"
        )
    return ratings.raters


def _coded_labels(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Item, rater and label codes (int64) of every label of named ratings."""
    return (
        ratings.item_codes.astype(np.int64),
        ratings.rater_codes.astype(np.int64),
        ratings.label_codes.astype(np.int64),
    )


@dataclasses.dataclass(frozen=True, repr=False)
class DawidSkeneStart(Result):
    """Where EM ended from one start.

    Parameters
    ----------
    name : str
        The kind of start: ``plurality``, ``vote_shares``, ``random`` or ``random_plurality``.
    log_likelihood : float
        The observed-data log-likelihood where this start's EM stopped.
    iterations : int
        The M steps it took.
    converged : bool
        Whether it met the stopping rule (while screened, or within ``max_iter`` steps of polishing).
    accuracy_shift : float
        The largest difference between a rater's accuracy at this start's end and at the kept fit's
        (0 for the kept start).
    seed : int or None
        For a random start, the seed that gives this start alone (``random_starts=1``); ``None``
        for the others.
    polished : bool
        Whether it was run to the stopping rule (or to its limit); ``False`` for a start dropped
        while screened, whose numbers are where it was dropped.

    Examples
    --------
    >>> DawidSkeneStart("plurality", -120.5, 14, True, 0.0).name
    'plurality'
    """

    name: str
    log_likelihood: float
    iterations: int
    converged: bool
    accuracy_shift: float
    seed: int | None = None
    polished: bool = True


@dataclasses.dataclass(frozen=True, repr=False)
class DawidSkeneFit(Result):
    """A Dawid–Skene fit, its arrays labelled by the classes and raters they are indexed by.

    Parameters
    ----------
    classes : tuple
        The classes, in the ratings' order: the index of ``prior`` and of both class axes of
        ``confusion``.
    raters : tuple
        The rater ids, in the ratings' order: the index of ``accuracy`` and the first axis of
        ``confusion``.
    prior : numpy.ndarray
        The class prior π, one probability per class.
    confusion : numpy.ndarray
        Raters × true class × given label: ``confusion[r, c, k]`` = θ_r[c, k], the probability that
        rater ``r`` gives label ``k`` to an item of class ``c`` (rows sum to 1).
    accuracy : numpy.ndarray
        Per rater, Σ_c π_c θ_r[c, c]: the chance their label is right on an item drawn from the prior.
    log_likelihood : float
        The observed-data log-likelihood at the fit.
    iterations : int
        The M steps taken.
    converged : bool
        Whether the kept start met the stopping rule (π and θ within about ``tol`` of the fixed
        point) within ``max_iter`` steps.
    tol : float
        The convergence tolerance.
    max_iter : int
        The limit on M steps of polishing (per start; the screening rounds are not counted).
    accelerate : bool
        Whether SQUAREM was used.
    start : str
        The kind of start whose fit is kept (the highest log-likelihood; ties go to the earlier start).
    starts : tuple of DawidSkeneStart
        Every start tried, in the order tried.
    log_likelihood_spread : float
        The highest minus the lowest final log-likelihood over the polished starts (0 for one).
    accuracy_shift : float
        The largest move of a rater's accuracy between the kept fit and another polished start's.
    seed : int
        The seed of the random starts (the one used: drawn when ``seed=None`` was given).
    notes : tuple of Note
        What makes this fit weak, as codes: ``ds_not_converged`` (no convergence),
        ``ds_starts_disagree`` (starts that disagree materially); :mod:`humanly.verdicts.notes`
        words them.
    posterior : numpy.ndarray
        Items × classes posteriors, in the ratings' item order (zero rows for items without labels).
        In memory only: not in the JSON, empty after :meth:`from_dict`.
    items : pandas.Index or None
        The item ids of the ``posterior`` rows (in memory only).
    start_seed : int or None
        The seed of the kept start when it is a random one (it alone: ``starts=(start,),
        random_starts=1, seed=start_seed``).
    random_starts : int
        The random starts of each random kind.

    Examples
    --------
    >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
    >>> fit = dawid_skene(r)
    >>> fit.converged, fit.raters, fit.accuracy.round(6).tolist()
    (True, ('u', 'v'), [1.0, 1.0])
    >>> fit.to_frame().loc["u"].round(6).values.tolist()  # rater u's confusion matrix
    [[1.0, 0.0], [0.0, 1.0]]
    """

    classes: tuple[Any, ...]
    raters: tuple[Any, ...]
    prior: np.ndarray
    confusion: np.ndarray
    accuracy: np.ndarray
    log_likelihood: float
    iterations: int
    converged: bool
    tol: float
    max_iter: int
    accelerate: bool
    start: str
    starts: tuple[DawidSkeneStart, ...]
    log_likelihood_spread: float
    accuracy_shift: float
    seed: int | None
    notes: tuple[Note, ...]
    posterior: np.ndarray = dataclasses.field(
        default_factory=lambda: np.empty((0, 0)), repr=False, compare=False
    )
    items: pd.Index | None = dataclasses.field(default=None, repr=False, compare=False)
    start_seed: int | None = None
    random_starts: int = RANDOM_STARTS

    def to_frame(self) -> pd.DataFrame:
        """The confusion matrices as one table.

        Returns
        -------
        pandas.DataFrame
            One row per (rater, true class), one column per given label: θ_r[c, k]. One rater's
            matrix is ``fit.to_frame().loc[rater]``.

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a"], ["u", "v"], ["x", "x"], classes=["x", "y"])
        >>> dawid_skene(r).to_frame().shape
        (4, 2)
        """
        n_r, n_c = len(self.raters), len(self.classes)
        index = pd.MultiIndex.from_product(
            [list(self.raters), list(self.classes)], names=["rater", "true_class"]
        )
        columns = pd.Index(list(self.classes), name="label")
        return pd.DataFrame(
            np.asarray(self.confusion).reshape(n_r * n_c, n_c), index=index, columns=columns
        )

    def prior_frame(self) -> pd.DataFrame:
        """The class prior π as a table.

        Returns
        -------
        pandas.DataFrame
            One row per class (the index), the column ``prior``.

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
        >>> dawid_skene(r).prior_frame()["prior"].round(3).tolist()
        [0.5, 0.5]
        """
        index = pd.Index(list(self.classes), name="class")
        return pd.DataFrame({"prior": np.asarray(self.prior, dtype=float)}, index=index)

    def accuracy_frame(self) -> pd.DataFrame:
        """Each rater's accuracy Σ_c π_c θ_r[c, c] as a table.

        Returns
        -------
        pandas.DataFrame
            One row per rater (the index), the column ``accuracy``.

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
        >>> dawid_skene(r).accuracy_frame()["accuracy"].round(3).to_dict()
        {'u': 1.0, 'v': 1.0}
        """
        index = pd.Index(list(self.raters), name="rater")
        return pd.DataFrame({"accuracy": np.asarray(self.accuracy, dtype=float)}, index=index)

    def posterior_frame(self) -> pd.DataFrame:
        """The items' posteriors over the classes as a table (in memory only).

        Returns
        -------
        pandas.DataFrame
            One row per item (the index, in the ratings' order), one column per class.

        Raises
        ------
        InputError
            For a fit read back with :meth:`from_dict` (the posteriors are not in the JSON).

        Examples
        --------
        >>> r = Ratings.from_long(["a", "a", "b", "b"], ["u", "v", "u", "v"], [0, 0, 1, 1])
        >>> dawid_skene(r).posterior_frame().round(3).values.tolist()
        [[1.0, 0.0], [0.0, 1.0]]
        """
        if self.items is None or len(self.posterior) != len(self.items):
            raise InputError(
                "this Dawid–Skene fit holds no posteriors (they are not in its JSON); fit it again "
                "with humanly.crowd.dawid_skene.dawid_skene"
            )
        columns = pd.Index(list(self.classes), name="class")
        return pd.DataFrame(self.posterior, index=self.items, columns=columns)


def _start_values(o: Outcome, prefix: str = "") -> dict[str, int | float | str]:
    """A start as a note's values: its name and, for a random start, its seed."""
    out: dict[str, int | float | str] = {f"{prefix}start": o.start.name}
    if o.start.seed is not None:
        out[f"{prefix}seed"] = int(o.start.seed)
    return out


def _check_starts(starts: Any) -> tuple[str, ...]:
    if isinstance(starts, str):
        starts = (starts,)
    try:
        names = tuple(starts)
    except TypeError:
        names = ()
    if "majority" in names:
        raise InputError(
            "starts='majority': this start is called 'plurality' (the most frequent label of each "
            f"item); give one or more distinct starts of {', '.join(STARTS)}"
        )
    if not names or any(n not in STARTS for n in names) or len(set(names)) < len(names):
        raise InputError(
            f"starts={starts!r}: give one or more distinct starts of {', '.join(STARTS)}"
        )
    return names


def _shift(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max(initial=0.0))


def _notes(outcomes: list[Outcome], best: int) -> tuple[Note, ...]:
    """The notes of a weak fit (``ds_not_converged``: the kept start did not converge;
    ``ds_starts_disagree``: polished starts disagree), worded by :mod:`humanly.verdicts.notes`."""
    notes = []
    kept = outcomes[best]
    if not kept.converged:
        notes.append(Note("ds_not_converged", {**_start_values(kept), "steps": int(kept.steps)}))
    polished = [i for i, o in enumerate(outcomes) if o.polished]
    worst = max(polished, key=lambda i: _shift(outcomes[i].accuracy, kept.accuracy))
    shift = _shift(outcomes[worst].accuracy, kept.accuracy)
    if shift > DISAGREE:
        gap = float(kept.log_likelihood - outcomes[worst].log_likelihood)
        values = {**_start_values(outcomes[worst]), **_start_values(kept, "kept_")}
        notes.append(Note("ds_starts_disagree", {**values, "gap": gap, "shift": shift}))
    return tuple(notes)


def _check(
    tol: Any, max_iter: Any, accelerate: Any, starts: Any, random_starts: Any, memory: Any
) -> tuple[float, int, tuple[str, ...], int, int]:
    """The checked settings: tol, max_iter, starts, random_starts, memory."""
    tol = check_number("tol", tol, minimum=0.0, open_low=True)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    if not isinstance(accelerate, (bool, np.bool_)):
        raise TypeError(f"accelerate={accelerate!r}: give True or False")
    names = _check_starts(starts)
    random_starts = check_int("random_starts", random_starts, minimum=1)
    memory = check_int("memory", memory, minimum=1)
    return float(tol), max_iter, names, random_starts, memory


def dawid_skene(
    ratings: Ratings,
    *,
    tol: float = TOL,
    max_iter: int = MAX_ITER,
    accelerate: bool = True,
    starts: Any = STARTS,
    random_starts: int = RANDOM_STARTS,
    seed: Any = 0,
    memory: int = MEMORY,
) -> DawidSkeneFit:
    """The maximum-likelihood Dawid–Skene fit of named ratings, by EM from many starts.

    Deterministic for a given ``seed`` (the choices — starts and their screening, floor, stopping
    rule, SQUAREM — are in the module docstring). Each EM step costs ``O(labels × classes)`` time and
    memory per start, plus ``raters × classes²``. Progress (EM steps) is reported on stderr for long
    fits.

    Parameters
    ----------
    ratings : Ratings
        Named ratings (anonymous counts have no raters to fit).
    tol : float
        Converged when π and θ are estimated to be within this of the fixed point (largest entry).
    max_iter : int
        The limit on M steps per polished start, beyond the screening rounds; a fit that has not
        converged by then has ``converged=False``.
    accelerate : bool
        Find the fixed point of the same EM map with SQUAREM (``False``: the textbook iteration).
    starts : sequence of str
        The kinds of start to try, of ``plurality``, ``vote_shares``, ``random`` and
        ``random_plurality`` (all four by default).
    random_starts : int
        How many starts of each random kind: start ``j`` draws with seed ``seed + j``.
    seed : int, numpy.random.Generator or None
        The seed of the random starts (``None``: fresh entropy, recorded in the fit).
    memory : int
        The most bytes the fit may hold; a larger fit is refused before allocating.

    Returns
    -------
    DawidSkeneFit
        π, θ and the raters' accuracies of the best start, labelled by classes and raters, with the
        item posteriors, every start's outcome and notes on a weak fit.

    Raises
    ------
    InputError
        For anonymous counts, settings out of range, or a fit over the memory budget.
    TypeError
        For ``ratings`` that is not a :class:`~humanly.data.Ratings`, or ``accelerate`` not a bool.

    Examples
    --------
    >>> r = Ratings.from_long(list("aaabbbcccddd"), list("uvw") * 4, [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0])
    >>> fit = dawid_skene(r)  # u and v always agree; w agrees with them on two items of four
    >>> fit.converged, fit.prior.round(3).tolist(), fit.accuracy.round(3).tolist()
    (True, [0.5, 0.5], [1.0, 1.0, 0.5])
    >>> fit.start, len(fit.starts), fit.notes
    ('plurality', 22, ())

    References
    ----------
    Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer error-rates using
    the EM algorithm. *Applied Statistics* 28(1), 20–28.

    Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods for accelerating the
    convergence of any EM algorithm. *Scandinavian Journal of Statistics* 35(2), 335–353.
    """
    tol, max_iter, names, random_starts, memory = _check(
        tol, max_iter, accelerate, starts, random_starts, memory
    )
    seed = _seed_int(seed)
    raters = _require_raters(ratings, "Dawid–Skene")
    tried = plan(names, seed, random_starts)
    em.check_memory(ratings, len(raters), memory, len(tried))
    k = em.codes(ratings, len(raters))
    rule = (tol, max_iter, bool(accelerate))
    with task("Dawid–Skene") as bar:
        outcomes, runs, best = multistart(ratings, k, tried, rule, bar.advance)
    return _fit(ratings, raters, k, outcomes, runs.x[best], best, rule, (seed, random_starts))


def _fit(
    ratings: Ratings,
    raters: pd.Index,
    k: em.Codes,
    outcomes: list[Outcome],
    x: np.ndarray,
    best: int,
    rule: tuple[float, int, bool],
    seeds: tuple[int, int],
) -> DawidSkeneFit:
    """The fit of the kept start ``best`` (its parameters ``x``), with every start's outcome;
    ``rule`` is (tol, max_iter, accelerate), ``seeds`` (seed, random_starts)."""
    n_c = k.n_classes
    kept = outcomes[best]
    post, loglik = em.e_step(x[:n_c], x[n_c:].reshape(k.n_raters, n_c, n_c), k)
    prior, theta = k.unpack(x)
    results = tuple(
        DawidSkeneStart(
            o.start.name,
            o.log_likelihood,
            o.steps,
            o.converged,
            _shift(o.accuracy, kept.accuracy),
            o.start.seed,
            o.polished,
        )
        for o in outcomes
    )
    polished = [o for o in results if o.polished]
    tol, max_iter, accelerate = rule
    return DawidSkeneFit(
        classes=tuple(ratings.classes),
        raters=tuple(raters.tolist()),
        prior=prior,
        confusion=theta,
        accuracy=kept.accuracy,
        log_likelihood=loglik,
        iterations=kept.steps,
        converged=kept.converged,
        tol=tol,
        max_iter=max_iter,
        accelerate=accelerate,
        start=kept.start.name,
        starts=results,
        log_likelihood_spread=max(o.log_likelihood for o in polished)
        - min(o.log_likelihood for o in polished),
        accuracy_shift=max(o.accuracy_shift for o in polished),
        seed=seeds[0],
        notes=_notes(outcomes, best),
        posterior=np.ascontiguousarray(post.T[k.item_rank]),
        items=ratings.items,
        start_seed=kept.start.seed,
        random_starts=seeds[1],
    )
