"""The rarer knobs of :func:`~humanly.budget.plan` and :func:`~humanly.budget.pilot_plan`, as one
typed object (a misspelt knob is a ``TypeError`` at construction)."""

from __future__ import annotations

from dataclasses import dataclass

from .._core.checks import check_choice
from .._core.parallel import check_workers
from ..errors import InputError, setting
from ._args import Ties, VoteTies, check_ties, check_vote_ties
from .latent import LATENT_CHOICES

__all__ = ["PlanOptions"]


@dataclass(frozen=True)
class PlanOptions:
    """The rarer knobs of the budget analysis (:func:`~humanly.budget.plan`).

    Parameters
    ----------
    better, worse : str, optional
        The model taken as the better / worse classifier of the pilot (default: the two models that
        agree most with the crowd's labels, the more agreeing one as the better).
    ties : {"loss", "half"}
        What a tied comparison ΣG = 0 counts as: a failure (the paper) or half a win.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled: a fair coin, or a wrong label (Lemma C.1).
    latent_variant : str
        Which label accuracies the pilot's latent-class fit has: ``"select"`` (the lowest BIC among
        ``simple``, ``both_wrong``, ``by_class``, ``full``, on the pilot and on every bootstrap
        replicate) or one of them; only with ``estimator="latent"``.
    with_pilot : bool
        Estimate the pilot plan when two models are given (``plan`` only).
    workers : int, optional
        Run the bootstrap on a dask LocalCluster of this many workers (the same numbers).
    scheduler : str, optional
        Run the bootstrap on a running dask scheduler at this address.

    Raises
    ------
    InputError
        For a choice that is not one of the listed ones.
    TypeError
        For a misspelt knob, or a value of the wrong type.

    Examples
    --------
    >>> PlanOptions(latent_variant="full").latent_variant
    'full'
    >>> PlanOptions(latent_model="full")
    Traceback (most recent call last):
    ...
    TypeError: PlanOptions.__init__() got an unexpected keyword argument 'latent_model'
    """

    better: str | None = None
    worse: str | None = None
    ties: Ties = "loss"
    vote_ties: VoteTies = "coin"
    latent_variant: str = "select"
    with_pilot: bool = True
    workers: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        for name in ("better", "worse"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name}={value!r}: give a model's name")
        check_ties(self.ties)
        check_vote_ties(self.vote_ties)
        check_choice("latent_variant", self.latent_variant, LATENT_CHOICES)
        if not isinstance(self.with_pilot, bool):
            raise TypeError(f"with_pilot={self.with_pilot!r}: give True or False")
        if self.scheduler is not None and not isinstance(self.scheduler, str):
            raise TypeError(
                f"scheduler={self.scheduler!r}: give an address, e.g. 'tcp://host:8786'"
            )
        if self.better is not None and self.better == self.worse:
            raise InputError(
                f"{setting('better', self.better)} and {setting('worse', self.worse)} name the same model"
            )
        check_workers(self.workers, self.scheduler)
