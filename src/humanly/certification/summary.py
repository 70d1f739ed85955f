"""Certify from published numbers only (meta-analysis, as the paper's Tables 3 and 4).

>>> res = certify_summary([0.949, 0.971], 0.939, [1821], k=3)  # Table 4, SST-2: BERT, StructBERT
>>> [round(m.confidence.oms, 4) for m in res.models], round(res.upper_bound.theoretical, 3)
([-0.273, 0.6208], 0.96)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from .._core.checks import check_choice, check_int, check_number, check_probability
from ..data import InputError
from ._args import UPPER_KINDS, settings
from ._bounds import BOUNDS, Sample, Tail
from .certificate import Settings, model_certificate, simultaneous
from .lemma2 import lemma2_check
from .results import CertifyResult, FiniteBound, Raters, UpperBound
from .upper import theoretical_from_empirical

__all__ = ["certify_summary"]


def certify_summary(
    lower: Sequence[float] | float,
    upper: float,
    n: Sequence[int] | int,
    *,
    k: float | None = None,
    models: Sequence[str] | None = None,
    upper_kind: Literal["empirical", "theoretical"] = "empirical",
    n_upper: int | None = None,
    bound: Literal["hoeffding"] = "hoeffding",
    alpha: float = 0.05,
    delta: float | None = None,
    oms_steps: int | None = None,
    oms_lr: float | None = None,
    t_u: float | None = None,
    t_l: float | None = None,
    tau: float = 0.0,
    n_classes: int | None = None,
) -> CertifyResult:
    """Certify from published numbers only (meta-analysis, as the paper's Tables 3 and 4).

    ``upper`` is the empirical U⁽ᵉ⁾ (eq. 8) of the raters, in [0, 1]; with ``k`` = K raters the
    theoretical U⁽ᵗ⁾ follows from :func:`theoretical_from_empirical` (``upper_kind="theoretical"`` then
    uses it as U_N). ``lower`` holds each model's L_N (eq. 25), in [0, 1]; ``n`` the test-set size, one
    value or one per model; ``models`` their names (default ``model1``, ``model2``, …). The upper bound
    uses ``n_upper`` items (default: the smallest ``n``, the conservative choice). ``t_u``/``t_l`` fix
    the deviations of the reported finite-sample bounds (δ then follows) instead of deriving them from
    ``delta`` (default α/2). Only the Hoeffding bound is available: the others need the per-item data
    (variances, counts).

    ``tau`` asks for the confidence that each model beats the average rater by at least τ (Theorem 7,
    eq. 29; default 0, the paper's). Each certificate carries ``items_needed`` (the test-set size, behind
    both bounds, that would certify the same numbers), its ``evidence``, and with ``k`` the verdict under
    U⁽ᵗ⁾ (``by_upper["theoretical"]``). ``n_classes`` (N_c) lets ``upper_bound.lemma2`` check Lemma 2's
    condition U⁽ᵉ⁾² ≥ 1/N_c and the advice K > N_c.

    >>> res = certify_summary([0.899, 0.919], 0.879, 10000, models=["GPT", "SemBERT"])  # SNLI
    >>> [(m.model, round(m.confidence.hms, 4), m.superhuman) for m in res.models]
    [('GPT', 0.8482, False), ('SemBERT', 0.9997, True)]
    """
    s = settings(
        bound=bound, alpha=alpha, delta=delta, t_u=t_u, t_l=t_l, oms_steps=oms_steps, oms_lr=oms_lr,
        tau=tau,
    )  # fmt: skip
    n_classes = check_int("n_classes", n_classes, minimum=2, allow_none=True)
    if not BOUNDS[s.bound].from_numbers:
        raise InputError(
            f"bound={bound!r} needs the data (per-item variances or counts); summary mode supports "
            'only bound="hoeffding"'
        )
    lowers, ns, names = _checked_numbers(lower, upper, n, models)
    ub, tail_u, notes = _published_upper(upper, k, upper_kind, n_upper, min(ns), s, n_classes)
    hoeffding = BOUNDS["hoeffding"]
    certs = tuple(
        model_certificate(name, Sample(nn, lo), ub, ["hoeffding"], s, n_models=len(lowers))
        for name, lo, nn in zip(names, lowers, ns, strict=True)
    )
    tails_l = {c.model: hoeffding.lower(c.sample()) for c in certs}
    k_shown = int(k) if k is not None and float(k).is_integer() else k
    return CertifyResult(
        n_items=None,
        raters=Raters("summary", k_shown),
        upper_bound=ub,
        models=certs,
        oracle=None,
        curve=None,
        bound="hoeffding",
        alpha=s.alpha,
        delta=s.delta,
        aggregate=None,
        simultaneous=simultaneous(certs, s.alpha, ub.upper, tail_u, tails_l, s.tau),
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
) -> tuple[UpperBound, Tail, tuple[str, ...]]:
    """The upper bound from a published U⁽ᵉ⁾ (and K for U⁽ᵗ⁾) on ``n_upper`` items (default the
    smallest test set, ``n_min``), with its Hoeffding tail, Lemma 2's check and its notes."""
    check_number("k", k, minimum=1, allow_none=True)
    check_choice("upper_kind", upper_kind, UPPER_KINDS)
    n_upper = check_int("n_upper", n_upper, minimum=1, allow_none=True)
    theo = None if k is None else theoretical_from_empirical(upper, k)
    if upper_kind == "theoretical":
        if theo is None:
            raise InputError(
                'upper_kind="theoretical" needs k, the number of raters, to compute U⁽ᵗ⁾ from U⁽ᵉ⁾'
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
    ns = [int(check_int("n", x, minimum=1)) for x in np.atleast_1d(np.asarray(n))]
    if len(ns) == 1:
        ns = ns * len(lowers)
    if len(ns) != len(lowers):
        raise InputError(
            f"got {len(ns)} values of n= for {len(lowers)} models; give one value or one per model"
        )
    names = list(models) if models is not None else [f"model{i + 1}" for i in range(len(lowers))]
    if len(names) != len(lowers):
        raise InputError(f"models: {len(names)} names for {len(lowers)} lower bounds")
    return lowers, ns, names
