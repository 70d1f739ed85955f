"""The rarer knobs of survey equivalence, in one typed object: :class:`EquivalenceOptions`, passed as
``options=`` to :func:`~humanly.survey.equivalence`, :func:`~humanly.survey.power_curve`,
:func:`~humanly.survey.truth_equivalence` and :func:`~humanly.survey.expert_equivalence`.

A misspelt field is a ``TypeError`` when the object is built; a value out of range an
:class:`~humanly.InputError` naming the field. A field that changes the numbers but does not apply to
the function it is given to (``draws`` to the exact engine of expert equivalence, say) is an error
there too; the execution knobs (``workers``, ``scheduler``, ``client``, ``progress``) never change a
number and are ignored where there is nothing to run in parallel.
"""

from __future__ import annotations

import dataclasses
import numbers
from typing import Any

from .._core.checks import check_choice, check_int
from .._core.parallel import check_workers
from ..errors import InputError, setting
from .target_results import check_targets

__all__ = ["EquivalenceOptions"]

#: How the power curve is computed: exact expectations, or Algorithm 2's sampled rater subsets.
METHODS = ("exact", "sampled")


def _clip(clip: Any) -> tuple[float, float]:
    """``clip``: two probabilities ``(low, high)`` with 0 ≤ low < high ≤ 1."""
    if (
        not isinstance(clip, (tuple, list))
        or len(clip) != 2
        or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in clip)
    ):
        raise TypeError(f"clip={clip!r}: give two probabilities (low, high)")
    lo, hi = float(clip[0]), float(clip[1])
    if not 0 <= lo < hi <= 1:
        raise InputError(f"clip={clip!r}: need 0 ≤ low < high ≤ 1")
    return lo, hi


@dataclasses.dataclass(frozen=True)
class EquivalenceOptions:
    """The advanced knobs of survey equivalence.

    Parameters
    ----------
    method : {None, "exact", "sampled"}
        How the power curve is computed: ``"exact"`` (the hypergeometric expectation over rater
        subsets and reference raters, from each item's label counts; the default for agreement and
        cross-entropy) or ``"sampled"`` (Algorithm 2: ``draws`` rater subsets per k; the default
        for the other scorers and for combiners that see the whole rating matrix).
    calibration_folds : int, optional
        With ``calibrate=`` other than ``"none"``: calibrate in-sample (``None``, as the paper) or
        cross-fitted on K ≥ 2 folds of the items.
    reference_size : int
        r: score against the plurality of r held-out raters (section 6). Default 1.
    max_k : int, optional
        The largest survey size (default: the median number of labels per item − r, at most the
        most labels of an item − r). For :func:`~humanly.survey.expert_equivalence`, the largest
        expert survey (default: median expert labels − 1).
    max_k_amateurs : int, optional
        :func:`~humanly.survey.expert_equivalence` only: the largest amateur survey (default: the
        median number of amateur labels per item).
    positive : optional
        The positive class of the two-class scorers (precision, recall, F1, AUC, correlations);
        default the second of two classes.
    clip : tuple of float
        ``(low, high)``: the frequency combiner's probabilities are clipped to this range, and so are
        hard labels scored by cross-entropy. Default ``(0.02, 0.98)``.
    draws : int
        Rater subsets per k for ``method="sampled"`` (Algorithm 2). Default 200.
    headroom : bool
        :func:`~humanly.survey.equivalence` with the ABC and cross-entropy: estimate the curve's
        asymptote by a nonparametric mixture of item states (:func:`~humanly.survey.headroom`) and
        each model's performance ratio. Default ``False``.
    workers, scheduler, client
        Run the bootstrap replicates on dask.distributed (a local cluster of ``workers`` processes,
        a running scheduler's address, or a ``distributed.Client``); the numbers are the same as
        in-process.
    progress : bool
        Show a progress bar of the bootstrap on a terminal. Default ``True``.
    every_k : bool
        The ABC with many labels per item: compute every survey size with every bootstrap replicate
        (``True``), or, by default, the sizes the verdicts need — every crossing of a model's score
        in every replicate, k ≤ 3, the sizes 2^i and the largest k, and more where the curve bends —
        and draw the rest straight (each point's ``computed`` says which; the equivalences and their
        ranges are the same either way).
    targets : tuple of (int or "inf"), optional
        :func:`~humanly.survey.equivalence`: also score everything against each target panel — the
        plurality of t held-out raters (items with at least t labels), or ``"inf"``, each item's true
        class estimated by a fitted latent-class model — one curve and one equivalence per target,
        side by side in ``EquivalenceResult.targets``, with the panel sizes where a model's order
        flips between targets (``target_flips``). It generalises ``reference_size`` (leave that at
        1); ``targets=(1,)`` is the default analysis. Default ``None``: the ``reference_size``
        analysis only.

    Raises
    ------
    TypeError
        For a field that does not exist, or a value of the wrong type.
    InputError
        For a value out of range (``draws=0``, ``clip=(0.9, 0.1)``, …).

    See Also
    --------
    humanly.survey.equivalence : the analysis these knobs tune.

    Examples
    --------
    >>> opts = EquivalenceOptions(method="sampled", draws=50, progress=False)
    >>> opts.draws, opts.reference_size
    (50, 1)
    >>> EquivalenceOptions(draws=0)
    Traceback (most recent call last):
    ...
    humanly.errors.InputError: draws=0: give a whole number ≥ 1
    """

    method: str | None = None
    calibration_folds: int | None = None
    reference_size: int = 1
    max_k: int | None = None
    max_k_amateurs: int | None = None
    positive: Any = None
    clip: tuple[float, float] = (0.02, 0.98)
    draws: int = 200
    headroom: bool = False
    workers: int | None = None
    scheduler: str | None = None
    client: Any = None
    progress: bool = True
    every_k: bool = False
    targets: tuple[int | str, ...] | None = None

    def __post_init__(self) -> None:
        if self.method is not None:
            check_choice("method", self.method, METHODS)
        check_int("calibration_folds", self.calibration_folds, minimum=2, allow_none=True)
        check_int("reference_size", self.reference_size, minimum=1)
        check_int("max_k", self.max_k, minimum=1, allow_none=True)
        check_int("max_k_amateurs", self.max_k_amateurs, minimum=1, allow_none=True)
        check_int("draws", self.draws, minimum=1)
        object.__setattr__(self, "clip", _clip(self.clip))
        for name in ("headroom", "progress", "every_k"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name}={getattr(self, name)!r}: give True or False")
        check_workers(self.workers, self.scheduler)
        if self.targets is not None:
            object.__setattr__(self, "targets", check_targets(self.targets))
            if self.reference_size != 1:
                raise InputError(
                    f"{setting('reference_size', self.reference_size)} and "
                    f"{setting('targets', self.targets)}: targets "
                    f"generalises reference_size; give targets=({self.reference_size}, ...) only"
                )


def checked(options: Any) -> EquivalenceOptions:
    """``options`` itself (the defaults for ``None``); ``TypeError`` for anything else."""
    if options is None:
        return EquivalenceOptions()
    if not isinstance(options, EquivalenceOptions):
        raise TypeError(
            f"options={type(options).__name__}: give a humanly.survey.EquivalenceOptions (or leave "
            "it out)"
        )
    return options


#: The fields that change a number (the rest only say how the work is run).
_STATISTICAL = (
    "method",
    "calibration_folds",
    "reference_size",
    "max_k",
    "max_k_amateurs",
    "positive",
    "clip",
    "draws",
    "headroom",
    "every_k",
    "targets",
)


def only(options: EquivalenceOptions, applies: tuple[str, ...], where: str) -> None:
    """Refuse a field that would change the numbers but has no meaning for ``where`` (a function
    name): one that differs from its default and is not in ``applies``."""
    default = EquivalenceOptions()
    for name in _STATISTICAL:
        if name in applies:
            continue
        value = getattr(options, name)
        if value != getattr(default, name):
            raise InputError(
                f"options.{name}={value!r} does not apply to {where}; leave it at its default "
                f"({getattr(default, name)!r})"
            )
