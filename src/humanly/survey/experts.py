"""Expert vs amateur equivalence (Survey Equivalence, section 7).

Two rater groups label the same items. The *expert* power curve is the usual one (k experts predicting a
held-out expert). The *amateur* curve a_k scores combinations of k amateur labels against a held-out
expert; each a_k is then placed on the expert curve with Algorithm 4: "k amateurs are worth x experts".

Exact, count-based (decomposable scorers): for an item with amateur counts ``a`` and expert counts ``e``
the k amateur labels are a hypergeometric draw from ``a`` and the reference is expert class c with
probability e_c / N_e. The Anonymous Bayesian Combiner for amateurs learns the joint of amateur
sequences and the expert label on the other items: p_l ∝ sum_{u != i} P_u(y) e_{u,l} / N_{e,u}, with
P_u the amateur sequence probability of Algorithm 5 (the cross-group analogue of Algorithm 6).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._bootstrap import percentile
from .._counts import compositions, lncomb, lnfall
from .._random import stream
from .._result import Result
from ..data.errors import InputError
from ..data.predictions import align_index
from ..data.ratings import Ratings
from . import _engine as eng
from .combiners import ABC, clip_probs, get_combiner
from .core import CurvePoint, equivalence_point
from .scorers import get_scorer

__all__ = ["ExpertEquivalence", "expert_equivalence"]


@dataclasses.dataclass(frozen=True, repr=False)
class ExpertEquivalence(Result):
    """Expert power curve, amateur curve (scored against held-out experts) and, for each k, how many
    experts k amateurs are worth (``experts``; ``None`` with ``note`` "below_0" / "above_max")."""

    combiner: str
    scorer: str
    n_items: int
    bootstrap: int
    expert_curve: list[CurvePoint]
    amateur_curve: list[CurvePoint]
    worth: list[dict[str, Any]]


def _amateur_plan(a: np.ndarray, e: np.ndarray, max_k: int) -> dict[str, Any]:
    both = np.column_stack([a, e])
    u, inv, mult = np.unique(both, axis=0, return_inverse=True, return_counts=True)
    n_cls = a.shape[1]
    ua, ue = u[:, :n_cls], u[:, n_cls:]
    na, ne = ua.sum(1), ue.sum(1)
    q = np.where(ne[:, None] > 0, ue / np.maximum(ne, 1)[:, None], 0.0)
    cap = ua.max(axis=0)
    levels = []
    for k in range(max_k + 1):
        y = compositions(k, cap)
        elig = (na >= k) & (ne >= 1)
        if not elig.any() or not len(y):
            break
        lw = (
            lncomb(ua[:, None, :], y[None]).sum(-1)
            - np.where(elig, lncomb(na, np.full_like(na, k)), 0)[:, None]
        )
        w = np.where(elig[:, None], np.exp(lw), 0.0)  # (P, Y) P(y | a)
        has = na >= k
        ls = (
            lnfall(ua[:, None, :], y[None]).sum(-1)
            - np.where(has, lnfall(na, np.full_like(na, k)), 0)[:, None]
        )
        ls = np.where(has[:, None], ls, -np.inf)
        top = ls.max(axis=0)
        top = np.where(np.isfinite(top), top, 0.0)
        levels.append({"k": k, "y": y, "w": w, "elig": elig, "seq": np.exp(ls - top[None])})
    return {"u": u, "inv": inv.reshape(-1), "mult": mult, "q": q, "levels": levels}


def _amateur_curve(
    plan: dict[str, Any],
    comb: Any,
    scorer: Any,
    clip: tuple[float, float],
    mult: np.ndarray,
    floor: float,
) -> tuple[np.ndarray, np.ndarray]:
    q = plan["q"]
    out, nit = [], []
    for lv in plan["levels"]:
        if isinstance(comb, ABC):
            seq = lv["seq"]  # (P, Y)
            num = eng.leave_one_out(mult.astype(float), seq[:, :, None] * q[:, None, :])
            num = np.maximum(num, 0)
            den = num.sum(-1, keepdims=True)
            n_cls = q.shape[1]
            smooth = (lv["y"] + 1.0) / (lv["k"] + n_cls)
            p = np.where(den > 0, num / np.where(den > 0, den, 1), smooth[None])
            p = clip_probs(p, (floor, 1.0)) if floor > 0 else p
            t = eng.output_terms(scorer, p, False, clip)  # (P, Y, C)
            e = np.einsum("py,pyc,pc->p", lv["w"], t, q)
        else:
            t = eng.output_terms(scorer, comb.predict(lv["y"]), comb.hard, clip)  # (Y, C)
            e = np.einsum("py,yc,pc->p", lv["w"], t, q)
        el = lv["elig"].astype(float)
        n = mult @ el
        out.append((mult @ (e * el)) / n if n > 0 else np.nan)
        nit.append(n)
    return np.array(out), np.array(nit)


def expert_equivalence(
    experts: Ratings,
    amateurs: Ratings,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    bootstrap: int = 500,
    seed: int | None = 0,
    max_k: int | None = None,
    max_k_amateurs: int | None = None,
    clip: tuple[float, float] = (0.02, 0.98),
) -> ExpertEquivalence:
    """How many experts k amateurs are worth (section 7); items are matched by id."""
    if tuple(map(str, experts.classes)) != tuple(map(str, amateurs.classes)):
        raise InputError(
            f"expert classes {experts.classes!r} and amateur classes {amateurs.classes!r} differ"
        )
    comb = get_combiner(combiner, clip=clip)
    sc = get_scorer(scorer)
    if not sc.decomposable:
        raise InputError("expert equivalence supports agreement and cross_entropy (exact)")
    pos = align_index(experts.items, amateurs.items)
    keep = np.flatnonzero(pos >= 0)
    if not len(keep):
        raise InputError("no item has both expert and amateur labels; check the item ids")
    e = experts.counts[keep]
    a = amateurs.counts[pos[keep]]
    n = len(keep)
    ne, na = e.sum(1), a.sum(1)
    if max_k is None:
        max_k = int(max(0, np.median(ne[ne > 0]) - 1))
    max_k = min(max_k, int(ne.max()) - 1)
    if max_k_amateurs is None:
        max_k_amateurs = int(np.median(na[na > 0]))
    max_k_amateurs = min(max_k_amateurs, int(na.max()))
    is_abc = isinstance(comb, ABC)
    floor = getattr(comb, "floor", 1e-3)
    eplan = eng.make_plan(e, max_k, 1, abc=is_abc, abc_floor=floor)
    aplan = _amateur_plan(a, e, max_k_amateurs)
    fixed = None if is_abc else eng.curve_terms(eplan, comb, sc, clip)

    def curves(idx: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        me = np.bincount(
            eplan.inv if idx is None else eplan.inv[idx], minlength=len(eplan.v)
        ).astype(float)
        ma = np.bincount(
            aplan["inv"] if idx is None else aplan["inv"][idx], minlength=len(aplan["u"])
        ).astype(float)
        terms = fixed if fixed is not None else eng.curve_terms(eplan, comb, sc, clip, me)
        ce, ne_ = eng.curve_from_terms(eplan, terms, me)
        ca, na_ = _amateur_curve(aplan, comb, sc, clip, ma, floor)
        return ce, ne_, ca, na_

    ce, nce, ca, nca = curves(None)
    ks_e = eplan.ks
    boot_e, boot_a = [], []
    for b in range(bootstrap):
        idx = stream(seed, b).integers(0, n, size=n)
        be, _, ba, _ = curves(idx)
        boot_e.append(be)
        boot_a.append(ba)
    be_arr = np.array(boot_e) if bootstrap else None
    ba_arr = np.array(boot_a) if bootstrap else None

    def points(
        c: np.ndarray, nit: np.ndarray, ks: np.ndarray, boot: np.ndarray | None
    ) -> list[CurvePoint]:
        out = []
        for j, k in enumerate(ks):
            lo = hi = None
            if boot is not None:
                lo, hi = percentile(boot[:, j], 2.5), percentile(boot[:, j], 97.5)
            out.append(CurvePoint(int(k), float(c[j]), lo, hi, int(nit[j])))
        return out

    ks_a = np.array([lv["k"] for lv in aplan["levels"]])
    worth = []
    for j, k in enumerate(ks_a):
        x, note = equivalence_point(ks_e, ce, float(ca[j]))
        lo = hi = None
        if be_arr is not None and ba_arr is not None:
            vals = []
            for b in range(bootstrap):
                v, nb = equivalence_point(ks_e, be_arr[b], float(ba_arr[b, j]))
                vals.append(
                    0.0
                    if nb == "below_0"
                    else math.inf
                    if nb == "above_max"
                    else (np.nan if v is None else v)
                )
            lo, hi = percentile(np.array(vals), 2.5), percentile(np.array(vals), 97.5)
        worth.append({"amateurs": int(k), "experts": x, "note": note, "low": lo, "high": hi})
    return ExpertEquivalence(
        comb.name,
        sc.name,
        n,
        bootstrap,
        points(ce, nce, ks_e, be_arr),
        points(ca, nca, ks_a, ba_arr),
        worth,
    )
