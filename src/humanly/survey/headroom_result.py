"""Result types of the headroom estimate (:func:`~humanly.survey.headroom`): the estimated asymptote of
the ABC + cross-entropy power curve and the heaviest states of the fitted item-state mixture (re-exported
by :mod:`humanly.survey.results`)."""

from __future__ import annotations

import dataclasses

from .._core.result import Result

__all__ = ["Headroom", "HeadroomSupport"]


@dataclasses.dataclass(frozen=True, repr=False)
class HeadroomSupport(Result):
    """One state of the estimated item-state mixture.

    Parameters
    ----------
    state : tuple of float
        A label distribution (one probability per class).
    weight : float
        Its weight in the mixture.

    Examples
    --------
    >>> HeadroomSupport(state=(0.8, 0.2), weight=0.7).to_dict()
    {'state': [0.8, 0.2], 'weight': 0.7}
    """

    state: tuple[float, ...]
    weight: float


@dataclasses.dataclass(frozen=True, repr=False)
class Headroom(Result):
    """The estimated asymptote of the ABC + cross-entropy power curve (:func:`~humanly.survey.headroom`).

    Parameters
    ----------
    information : float
        ``ideal_score − baseline_score`` (bits): the information about a held-out rater's label
        given by a classifier that knows each item's state.
    ideal_score : float
        −E[H(s)], the limit of that classifier's cross-entropy score.
    baseline_score : float
        −H(E[s]), the limit of c_0.
    n_items : int
        The items with labels.
    grid_points : int
        The candidate states of the fit.
    support : tuple of HeadroomSupport
        The heaviest states of the fitted mixture (at most ten, weight > 0.001).
    iterations : int
        The Newton steps taken.
    converged : bool
        Whether the mean log-likelihood per item is provably within the tolerance of its maximum.
    log_likelihood : float
        The fit's log-likelihood (nats).
    gap : float or None
        The bound on the distance of the mean log-likelihood to its maximum (nats per item).
    candidates : str
        ``"grid G"`` (G divisions per edge of the simplex) or ``"item frequencies"``.

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> from humanly.survey import headroom
    >>> h = headroom(running_example(300, 8, seed=1).ratings)
    >>> h.information > 0, len(h.support) <= 10
    (True, True)
    """

    information: float
    ideal_score: float
    baseline_score: float
    n_items: int
    grid_points: int
    support: tuple[HeadroomSupport, ...]
    iterations: int
    converged: bool
    log_likelihood: float
    gap: float | None = None
    candidates: str = "grid"
