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
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.checks import check_bootstrap, check_int, check_probability
from .._core.counts import lncomb, lnfall, subvectors
from .._core.progress import progress
from .._core.result import Interval, Result
from .._core.rng import stream
from ..data import InputError, Ratings, as_ratings
from ..errors import setting
from . import _engine as eng
from . import _levels
from ._tables import frame as _frame
from .combiners import ABC, clip_probs, get_combiner
from .crossing import curve_points, equivalence_interval, equivalence_point
from .options import EquivalenceOptions, checked, only
from .results import PowerCurvePoint
from .scorers import Scorer, get_scorer

__all__ = ["AmateurWorth", "ExpertEquivalence", "expert_equivalence"]


@dataclasses.dataclass(frozen=True, repr=False)
class AmateurWorth(Result):
    """How many experts k amateur labels are worth.

    Parameters
    ----------
    amateurs : int
        k, the number of amateur labels combined.
    experts : float or None
        Their worth in experts: a_k read off the expert power curve (Algorithm 4); ``None`` with
        ``note``.
    note : {None, "below_0", "above_max"}
        Why there is no worth: a_k is at or below the expert curve's c_0, or above every point.
    experts_interval : Interval
        The worth's bootstrap range at the result's ``level``.

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> AmateurWorth(amateurs=3, experts=1.4, note=None, experts_interval=Interval(1.1, 1.8)).experts
    1.4
    """

    amateurs: int
    experts: float | None
    note: str | None
    experts_interval: Interval


@dataclasses.dataclass(frozen=True, repr=False)
class ExpertEquivalence(Result):
    """Expert power curve, amateur curve and how many experts k amateurs are worth (section 7).

    Parameters
    ----------
    combiner, scorer : str
        The combiner of k labels and the scorer (their names).
    n_items : int
        The items both groups labelled.
    bootstrap : int
        The bootstrap replicates behind the ranges (0: none).
    level : float
        The confidence level of the ranges.
    seed : int or None
        The seed of the bootstrap.
    expert_curve : tuple of PowerCurvePoint
        k experts predicting a held-out expert.
    amateur_curve : tuple of PowerCurvePoint
        a_k: k amateurs predicting a held-out expert.
    worth : tuple of AmateurWorth
        Each a_k read off the expert curve.

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> none = Interval(None, None)
    >>> pts = (PowerCurvePoint(0, -1.0, none, 9), PowerCurvePoint(1, -0.8, none, 9))
    >>> ex = ExpertEquivalence("abc", "cross_entropy", 9, 0, 0.95, 0, pts, pts,
    ...                        (AmateurWorth(0, None, "below_0", none),
    ...                         AmateurWorth(1, 1.0, None, none)))
    >>> ex.to_frame()[["amateurs", "score", "experts"]].values.tolist()
    [[0.0, -1.0, nan], [1.0, -0.8, 1.0]]
    """

    combiner: str
    scorer: str
    n_items: int
    bootstrap: int
    level: float
    seed: int | None
    expert_curve: tuple[PowerCurvePoint, ...]
    amateur_curve: tuple[PowerCurvePoint, ...]
    worth: tuple[AmateurWorth, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per number of amateurs k: ``amateurs, score`` (a_k) ``, experts, note,
        experts_low, experts_high``."""
        out = _frame(self.worth, ("amateurs", "experts", "note", "experts_interval"))
        out.insert(1, "score", [p.score for p in self.amateur_curve])
        return out


@dataclasses.dataclass(frozen=True)
class _AmateurLevel:
    """Level k of the amateur curve: survey count vectors ``y`` (Y, C), ``w`` (P, Y) = P(y | a) on
    eligible pairs, ``elig`` (P,) pairs with ≥ k amateur and ≥ 1 expert labels, ``seq`` (P, Y) the
    amateur sequence probabilities (column-scaled) for the ABC."""

    k: int
    y: np.ndarray
    w: np.ndarray
    elig: np.ndarray
    seq: np.ndarray


@dataclasses.dataclass(frozen=True)
class _AmateurPlan:
    """The distinct (amateur counts, expert counts) pairs ``u`` of the items, ``inv`` item → pair,
    ``mult`` multiplicities, ``q`` (P, C) the reference (one held-out expert) distribution."""

    u: np.ndarray
    inv: np.ndarray
    mult: np.ndarray
    q: np.ndarray
    levels: tuple[_AmateurLevel, ...]

    @property
    def ks(self) -> np.ndarray:
        return np.array([lv.k for lv in self.levels])


def _amateur_plan(a: np.ndarray, e: np.ndarray, max_k: int, abc: bool) -> _AmateurPlan:
    """Levels 0..max_k of the amateur curve over the survey vectors the items contain; its tables are
    (pairs × survey vectors × classes) for the ABC, so it stops before allocating beyond
    :data:`~humanly.survey._levels.EXACT_MEMORY_BUDGET` with a sentence naming a smaller
    ``max_k_amateurs``."""
    both = np.column_stack([a, e])
    u, inv, mult = np.unique(both, axis=0, return_inverse=True, return_counts=True)
    n_cls = a.shape[1]
    ua, ue = u[:, :n_cls], u[:, n_cls:]
    na, ne = ua.sum(1), ue.sum(1)
    q = np.where(ne[:, None] > 0, ue / np.maximum(ne, 1)[:, None], 0.0)
    levels = []
    used = 0.0
    for k in range(max_k + 1):
        _, sub = subvectors(ua, k)  # the survey vectors the items contain
        y = np.unique(sub, axis=0) if len(sub) else sub
        used += 8.0 * 4 * len(u) * len(y) * (n_cls if abc else 1)
        if used > _levels.EXACT_MEMORY_BUDGET:
            fix = f"max_k_amateurs={k - 1} or fewer classes" if k >= 2 else "fewer classes"
            raise InputError(
                f"the amateur curve would need more than {used / 2**30:.1f} GiB for {len(u):,} "
                f"distinct (amateur, expert) count pairs up to k = {max_k} (budget "
                f"{_levels.EXACT_MEMORY_BUDGET / 2**30:.1f} GiB); pass {fix}"
            )
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
        levels.append(_AmateurLevel(k, y, w, elig, np.exp(ls - top[None])))
    return _AmateurPlan(u, inv.reshape(-1), mult, q, tuple(levels))


def _leave_one_out(mult: np.ndarray, pt: np.ndarray) -> np.ndarray:
    """``a[v] = sum_u (mult_u - [u = v]) pt[u]`` for every row v, without cancellation: the sum over
    u != v is a prefix plus a suffix sum of non-negative terms (no float subtraction)."""
    w = mult.reshape((-1,) + (1,) * (pt.ndim - 1)) * pt
    cs = np.cumsum(w, axis=0)
    before = np.concatenate([np.zeros_like(w[:1]), cs[:-1]], axis=0)
    rs = np.cumsum(w[::-1], axis=0)[::-1]
    after = np.concatenate([rs[1:], np.zeros_like(w[:1])], axis=0)
    own = np.maximum(mult - 1, 0).reshape((-1,) + (1,) * (pt.ndim - 1)) * pt
    return before + after + own


def _amateur_curve(
    plan: _AmateurPlan,
    comb: Any,
    scorer: Scorer,
    clip: tuple[float, float],
    mult: np.ndarray,
    floor: float,
) -> tuple[np.ndarray, np.ndarray]:
    q = plan.q
    out, nit = [], []
    for lv in plan.levels:
        if isinstance(comb, ABC):
            num = _leave_one_out(mult.astype(float), lv.seq[:, :, None] * q[:, None, :])
            num = np.maximum(num, 0)
            den = num.sum(-1, keepdims=True)
            n_cls = q.shape[1]
            smooth = (lv.y + 1.0) / (lv.k + n_cls)
            p = np.where(den > 0, num / np.where(den > 0, den, 1), smooth[None])
            p = clip_probs(p, (floor, 1.0)) if floor > 0 else p
            t = eng.output_terms(scorer, p, False, clip)  # (P, Y, C)
            e = np.einsum("py,pyc,pc->p", lv.w, t, q)
        else:
            t = eng.output_terms(scorer, comb.predict(lv.y), comb.hard, clip)  # (Y, C)
            e = np.einsum("py,yc,pc->p", lv.w, t, q)
        el = lv.elig.astype(float)
        n = mult @ el
        out.append((mult @ (e * el)) / n if n > 0 else np.nan)
        nit.append(n)
    return np.array(out), np.array(nit)


def _as_text(index: pd.Index) -> pd.Index:
    return pd.Index([str(x) for x in index])


def _match_items(
    experts: Ratings, amateurs: Ratings, missing: str
) -> tuple[np.ndarray, np.ndarray]:
    """Positions in ``experts`` and in ``amateurs`` of the items both groups labelled (experts' order),
    matched by item id (as text when the two id types differ, e.g. ``266`` and ``"266"``)."""
    if missing not in ("error", "drop"):
        raise InputError(f'{setting("missing", missing)}: use "error" or "drop"')
    pos = amateurs.items.get_indexer(experts.items)
    if (pos < 0).any() and pd.api.types.infer_dtype(experts.items) != pd.api.types.infer_dtype(
        amateurs.items
    ):
        pos = _as_text(amateurs.items).get_indexer(_as_text(experts.items))
    keep = np.flatnonzero(pos >= 0)
    if not len(keep):
        raise InputError("no item has both expert and amateur labels; check the item ids")
    n_extra = amateurs.n_items - len(keep)
    if missing == "error" and (len(keep) < experts.n_items or n_extra):
        raise InputError(
            f"{experts.n_items - len(keep)} expert-labelled item(s) have no amateur labels and "
            f"{n_extra} amateur-labelled item(s) have no expert labels; fix the item ids or pass "
            f"{setting('missing', 'drop')} to keep only the items both groups labelled"
        )
    return keep, pos[keep]


def _groups(experts: Any, amateurs: Any, missing: str) -> tuple[np.ndarray, np.ndarray]:
    """Expert and amateur label counts of the shared items, row by row the same item."""
    e_r = as_ratings(experts, name="experts")
    a_r = as_ratings(amateurs, name="amateurs")
    if tuple(map(str, e_r.classes)) != tuple(map(str, a_r.classes)):
        raise InputError(
            f"amateurs: classes {a_r.classes!r} differ from the experts' classes {e_r.classes!r}"
        )
    e_rows, a_rows = _match_items(e_r, a_r, missing)
    return e_r.counts[e_rows], a_r.counts[a_rows]


def _sizes(
    e: np.ndarray, a: np.ndarray, max_k: int | None, max_k_amateurs: int | None
) -> tuple[int, int]:
    """The largest expert survey (default: median expert labels − 1, at most the most − 1) and the
    largest amateur survey (default: median amateur labels, at most the most)."""
    ne, na = e.sum(1), a.sum(1)
    if max_k is None:
        max_k = int(max(0, np.median(ne[ne > 0]) - 1))
    if max_k_amateurs is None:
        max_k_amateurs = int(np.median(na[na > 0]))
    return min(max_k, int(ne.max()) - 1), min(max_k_amateurs, int(na.max()))


@dataclasses.dataclass(frozen=True)
class _Curves:
    """The expert and amateur curves of a replicate (item indices ``idx``; ``None``: the data)."""

    eplan: eng.Plan
    aplan: _AmateurPlan
    comb: Any
    scorer: Scorer
    clip: tuple[float, float]
    fixed: np.ndarray | None  # expert curve terms of a combiner that does not learn (computed once)

    @classmethod
    def build(
        cls,
        e: np.ndarray,
        a: np.ndarray,
        comb: Any,
        scorer: Scorer,
        clip: tuple[float, float],
        max_k: int,
        max_k_amateurs: int,
    ) -> _Curves:
        is_abc = isinstance(comb, ABC)
        eplan = eng.make_plan(e, max_k, 1, abc=is_abc, abc_floor=getattr(comb, "floor", 1e-3))
        aplan = _amateur_plan(a, e, max_k_amateurs, is_abc)
        fixed = None if is_abc else eng.fixed_terms(eplan, comb, scorer, clip)
        return cls(eplan, aplan, comb, scorer, clip, fixed)

    def __call__(
        self, idx: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Expert curve, its items per level, amateur curve, its items per level."""
        eplan, aplan = self.eplan, self.aplan
        me = np.bincount(
            eplan.inv if idx is None else eplan.inv[idx], minlength=len(eplan.v)
        ).astype(float)
        ma = np.bincount(
            aplan.inv if idx is None else aplan.inv[idx], minlength=len(aplan.u)
        ).astype(float)
        ce, ne = eng.curves(eplan, me[None], self.fixed, self.scorer, self.clip)
        ce, ne = ce[0], ne[0]
        floor = getattr(self.comb, "floor", 1e-3)
        ca, na = _amateur_curve(aplan, self.comb, self.scorer, self.clip, ma, floor)
        return ce, ne, ca, na


def _worth(
    ks_e: np.ndarray,
    ce: np.ndarray,
    ks_a: np.ndarray,
    ca: np.ndarray,
    be: np.ndarray | None,
    ba: np.ndarray | None,
    level: float,
) -> tuple[AmateurWorth, ...]:
    """Each a_k read off the expert curve (Algorithm 4), with its bootstrap range at ``level``."""
    out = []
    for j, k in enumerate(ks_a):
        x, note = equivalence_point(ks_e, ce, float(ca[j]))
        rng = Interval(None, None)
        if be is not None and ba is not None:
            rng = equivalence_interval(ks_e, be, ba[:, j], level)
        out.append(AmateurWorth(int(k), x, note, rng))
    return tuple(out)


def expert_equivalence(
    experts: Any,
    amateurs: Any,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    bootstrap: int = 1000,
    level: float = 0.95,
    seed: int | None = 0,
    missing: Literal["error", "drop"] = "error",
    options: EquivalenceOptions | None = None,
) -> ExpertEquivalence:
    """How many experts k amateurs are worth (section 7).

    The *expert* power curve is the usual one (k experts predicting a held-out expert); the
    *amateur* curve a_k scores k amateur labels against a held-out expert; each a_k read off the
    expert curve (Algorithm 4) says "k amateurs are worth x experts". Both curves are exact, so the
    scorer must be a mean of per-item terms (agreement or cross-entropy).

    Parameters
    ----------
    experts, amateurs : Ratings, DataFrame or path
        The two rater groups' labels on the same classes, matched by item id.
    combiner : str or object
        The combiner of k labels (see :func:`~humanly.survey.equivalence`).
    scorer : {"cross_entropy", "agreement"} or Scorer
        A scorer that is a mean of per-item terms.
    bootstrap : int
        Bootstrap replicates over items (replicate b draws from ``stream(seed, b)``); 0: no ranges.
    level : float
        The confidence level of the ranges.
    seed : int or None
        The seed of the bootstrap.
    missing : {"error", "drop"}
        Items only one group labelled are an error, or left out.
    options : EquivalenceOptions, optional
        ``max_k`` (the largest expert survey; default median expert labels − 1), ``max_k_amateurs``
        (the largest amateur survey; default median amateur labels) and ``clip``.

    Returns
    -------
    ExpertEquivalence
        Both curves and, for each k, the amateurs' worth in experts.

    Raises
    ------
    InputError
        For groups that share no item or no classes, a scorer that is not exact, or an option that
        does not apply.

    References
    ----------
    Resnick, P., Kong, Y., Schoenebeck, G. & Weninger, T. (2021). Survey Equivalence, section 7.

    Examples
    --------
    >>> import numpy as np
    >>> from humanly import Ratings
    >>> g = np.random.default_rng(0)
    >>> s = g.random(300) < 0.5
    >>> def group(k, p1, p0):
    ...     c = g.binomial(k, np.where(s, p1, p0))
    ...     return Ratings.from_counts(np.column_stack([k - c, c]), classes=["no", "yes"])
    >>> res = expert_equivalence(group(6, 0.9, 0.1), group(8, 0.7, 0.35), bootstrap=0)
    >>> res.worth[0].note, [round(w.experts, 2) for w in res.worth[1:4]]
    ('below_0', [0.18, 0.34, 0.47])
    >>> list(res.to_frame().columns)
    ['amateurs', 'score', 'experts', 'note', 'experts_low', 'experts_high']
    """
    opts = checked(options)
    only(opts, ("max_k", "max_k_amateurs", "clip"), "expert_equivalence")
    comb = get_combiner(combiner, clip=opts.clip)
    sc = get_scorer(scorer)
    if not sc.decomposable:
        raise InputError(
            f"{setting('scorer', sc.name)}: expert equivalence needs an exact scorer (agreement or "
            "cross_entropy)"
        )
    bootstrap = check_bootstrap(bootstrap, bytes_per_replicate=8)
    level = float(check_probability("level", level, open_low=True, open_high=True))
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    e, a = _groups(experts, amateurs, missing)
    n = len(e)
    sizes = _sizes(e, a, opts.max_k, opts.max_k_amateurs)
    curves = _Curves.build(e, a, comb, sc, opts.clip, *sizes)
    ce, nce, ca, nca = curves(None)
    draws = progress(range(bootstrap), total=bootstrap, description="bootstrap")
    boot = [curves(stream(seed, b).integers(0, n, size=n)) for b in draws]
    be = np.array([c[0] for c in boot]) if bootstrap else None
    ba = np.array([c[2] for c in boot]) if bootstrap else None
    ks_e, ks_a = curves.eplan.ks, curves.aplan.ks
    return ExpertEquivalence(
        combiner=comb.name,
        scorer=sc.name,
        n_items=n,
        bootstrap=bootstrap,
        level=level,
        seed=seed,
        expert_curve=curve_points(ks_e, ce, nce, be, level),
        amateur_curve=curve_points(ks_a, ca, nca, ba, level),
        worth=_worth(ks_e, ce, ks_a, ca, be, ba, level),
    )
