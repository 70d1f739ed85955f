"""Certify from published numbers only (meta-analysis, as the paper's Tables 3 and 4).

>>> res = certify_summary([0.949, 0.971], 0.939, [1821], labels_per_item=3)  # Table 4, SST-2
>>> [round(m.confidence.oms, 4) for m in res.models], round(res.upper_bound.theoretical, 3)
([-0.273, 0.6208], 0.96)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from .._core.checks import check_choice, check_int, check_number, check_probability
from .._core.result import Note
from ..data import InputError
from ..errors import setting
from ._args import UPPER_KINDS, checked_options, settings
from ._bounds import BOUNDS, Sample, Tail
from .certificate import Settings, model_certificate, simultaneous
from .lemma2 import lemma2_check
from .options import CertifyOptions
from .result_parts import FiniteBound
from .results import CertifyResult, Raters, UpperBound
from .upper import theoretical_from_empirical

__all__ = ["certify_summary"]


def certify_summary(
    lower: Sequence[float] | float,
    upper: float,
    n_items: Sequence[int] | int,
    *,
    labels_per_item: float | None = None,
    models: Sequence[str] | None = None,
    level: float = 0.95,
    tau: float = 0.0,
    upper_kind: Literal["empirical", "theoretical"] = "empirical",
    n_classes: int | None = None,
    n_upper: int | None = None,
    options: CertifyOptions | None = None,
) -> CertifyResult:
    """Certify from published numbers only (meta-analysis, as the paper's Tables 3 and 4).

    The same certificate as :func:`~humanly.certification.certify`, from L_N, U⁽ᵉ⁾ and N alone, under
    the Hoeffding bound (the others need the per-item data: variances, counts). Each certificate
    carries ``items_needed`` (the test-set size, behind both bounds, that would certify the same
    numbers), its ``evidence``, and with ``labels_per_item`` the verdict under U⁽ᵗ⁾
    (``by_upper["theoretical"]``).

    Parameters
    ----------
    lower : float or sequence of float
        Each model's L_N (eq. 25), in [0, 1].
    upper : float
        The raters' empirical upper bound U⁽ᵉ⁾ (eq. 8), in [0, 1].
    n_items : int or sequence of int
        The test-set size N, one value or one per model.
    labels_per_item : float, optional
        K, the labels (raters) per item: gives the theoretical U⁽ᵗ⁾ (:func:`theoretical_from_empirical`) and
        the verdict under it.
    models : sequence of str, optional
        The models' names (default ``model1``, ``model2``, …).
    level : float
        A model is certified when its S_OMS ≥ level (default 0.95).
    tau : float
        The confidence is that each model beats the average rater by at least τ (Theorem 7, eq. 29;
        default 0, the paper's).
    upper_kind : {"empirical", "theoretical"}
        U_N: the given U⁽ᵉ⁾, or U⁽ᵗ⁾ (needs ``labels_per_item``).
    n_classes : int, optional
        N_c, for Lemma 2's check (``upper_bound.lemma2``): U⁽ᵉ⁾² ≥ 1/N_c and the advice K > N_c.
    n_upper : int, optional
        The items behind the upper bound (default: the smallest ``n_items``, the conservative choice).
    options : CertifyOptions, optional
        ``delta`` of the reported finite-sample bounds (default (1 − level)/2) or fixed deviations
        ``t_u``/``t_l``, and the paper's OMS gradient ascent (``oms_steps``, ``oms_lr``); the curve
        and dask fields are for data only.

    Returns
    -------
    CertifyResult
        The certificates (``n_items``, ``oracle``, ``curve`` and ``aggregate`` are ``None``;
        ``raters.mode`` is ``"summary"``).

    Raises
    ------
    InputError
        For numbers out of range, as many ``n_items`` or ``models`` as models,
        ``upper_kind="theoretical"`` without ``labels_per_item``, and options that need the data.

    References
    ----------
    Q. Xu, C. Walder & C. Xu, *Humanly Certifying Superhuman Classifiers*: Tables 3 and 4,
    Theorem 7, Lemma 2.

    Examples
    --------
    >>> res = certify_summary([0.899, 0.919], 0.879, 10000, models=["GPT", "SemBERT"])  # SNLI
    >>> [(m.model, round(m.confidence.hms, 4), m.superhuman) for m in res.models]
    [('GPT', 0.8482, False), ('SemBERT', 0.9997, True)]
    """
    opts = checked_options(options)
    if opts.data_only:
        raise InputError(
            f"options.{opts.data_only[0]} is for certify on data (the curve over k and where it "
            "runs); leave it out with published numbers"
        )
    s = settings(bound="hoeffding", level=level, options=opts, tau=tau)
    n_classes = check_int("n_classes", n_classes, minimum=2, allow_none=True)
    lowers, ns, names = _checked_numbers(lower, upper, n_items, models)
    ub, tail_u, notes = _published_upper(
        upper, labels_per_item, upper_kind, n_upper, min(ns), s, n_classes
    )
    hoeffding = BOUNDS["hoeffding"]
    certs = tuple(
        model_certificate(name, Sample(nn, lo), ub, ["hoeffding"], s, n_models=len(lowers))
        for name, lo, nn in zip(names, lowers, ns, strict=True)
    )
    tails_l = {c.model: hoeffding.lower(c.sample()) for c in certs}
    k = labels_per_item
    k_shown = int(k) if k is not None and float(k).is_integer() else k
    return CertifyResult(
        n_items=None,
        raters=Raters("summary", k_shown),
        upper_bound=ub,
        models=certs,
        oracle=None,
        curve=None,
        bound="hoeffding",
        level=s.level,
        delta=s.delta,
        aggregate=None,
        simultaneous=simultaneous(certs, s.level, ub.upper, tail_u, tails_l, s.tau),
        notes=notes,
        tau=s.tau,
    )


def _published_upper(
    upper: float,
    k: float | None,
    upper_kind: str,
    n_upper: int | None,
    n_min: int,
    s: Settings,
    n_classes: int | None,
) -> tuple[UpperBound, Tail, tuple[Note, ...]]:
    """The upper bound from a published U⁽ᵉ⁾ (and K for U⁽ᵗ⁾) on ``n_upper`` items (default the
    smallest test set, ``n_min``), with its Hoeffding tail, Lemma 2's check and its notes."""
    check_number("labels_per_item", k, minimum=1, allow_none=True)
    check_choice("upper_kind", upper_kind, UPPER_KINDS)
    n_upper = check_int("n_upper", n_upper, minimum=1, allow_none=True)
    theo = None if k is None else theoretical_from_empirical(upper, k)
    if upper_kind == "theoretical":
        if theo is None:
            raise InputError(
                f"{setting('upper_kind', 'theoretical')} needs labels_per_item (K) to compute U⁽ᵗ⁾ from U⁽ᵉ⁾"
            )
        used = theo
    else:
        used = upper
    nu = n_upper if n_upper is not None else n_min
    tail_u = BOUNDS["hoeffding"].upper(Sample(nu, used * used))
    lemma, notes = lemma2_check(
        n_classes=n_classes, agreement=upper * upper, k=k, theoretical=theo, empirical=upper
    )
    ub = UpperBound(
        theoretical=theo,
        empirical=upper,
        n=nu,
        used=upper_kind,
        upper=used,
        finite={"hoeffding": FiniteBound.upper_of(used * used, tail_u, s.delta, s.t_u)},
        lemma2=lemma,
    )
    return ub, tail_u, notes


def _checked_numbers(
    lower: Sequence[float] | float,
    upper: float,
    n: Sequence[int] | int,
    models: Sequence[str] | None,
) -> tuple[list[float], list[int], list[str]]:
    """The published L_N values, test-set sizes (one per model) and model names, checked."""
    check_probability("upper", upper)
    lowers = [float(check_probability("lower", x)) for x in np.atleast_1d(np.asarray(lower))]
    if not lowers:
        raise InputError("lower=[]: give at least one model's lower bound L_N")
    ns = [int(check_int("n_items", x, minimum=1)) for x in np.atleast_1d(np.asarray(n))]
    if len(ns) == 1:
        ns = ns * len(lowers)
    if len(ns) != len(lowers):
        raise InputError(
            f"got {len(ns)} values of {setting('n_items')} for {len(lowers)} models; give one value or one "
            "per model"
        )
    names = list(models) if models is not None else [f"model{i + 1}" for i in range(len(lowers))]
    if len(names) != len(lowers):
        raise InputError(f"models: {len(names)} names for {len(lowers)} lower bounds")
    return lowers, ns, names
