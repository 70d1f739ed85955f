"""Win rates: each model's mean outcome over the comparisons that involve it, from the human votes
alone or with judges (PPI, PPI++), with the joint covariance of all models' estimates.

For model m and the comparisons that involve it, with y its score and d its weight (see
:mod:`._basis`; d = 1 unless ``ties="drop"``), the estimate solves

    mean_L[(y_h − θ·d_h) − Σ_j λ_j·(y_j − θ·d_j)] + mean_U[Σ_j λ_j·(y_j − θ·d_j)] = 0

over the labelled comparisons L_m (n_m of them) and the unlabelled ones U_m (N_m), means weighted by
v (1, or the active design's 1/π and 1/(1 − π), self-normalised). With d = 1 this is prediction-powered
inference for a mean, θ̂ = ȳ_h + Σ_j λ_j·(f̄_j,U − f̄_j,L) — exactly ppi-python's
``ppi_mean_pointestimate`` with one judge; with ``ties="drop"`` it is the ratio of two such means (won
votes over decisive votes). λ = 0 is the human-only estimate, λ = 1 (or 1/J each for J judges) PPI, and
PPI++ tunes λ per model as ppi-python 0.2.3 tunes a mean (``ppi_mean_ci(lam=None)``): at the PPI
estimate, λ̂ = cov_L(g_h, ĝ) / ((1 + n/N)·var_{L∪U}(ĝ)) with g = y − θ·d, the covariance with divisor n
and the pooled variance with divisor n + N − 1, clipped to [0, 1]; with J judges the same quadratic
minimised over [0, 1]^J (:func:`._basis.box_lambda`); under an active design the exact minimiser of the
weighted variance (as :mod:`humanly.judging` does).

The covariance comes from the influence of each comparison on each estimate: a labelled comparison
of models a and b moves θ̂_a by v·(g_a − ḡ_a)/(S0_a·D_a) (S0 the sum of weights, D the mean weight d
with λ, 1 unless ``ties="drop"``) and θ̂_b likewise, so

    cov(θ̂_a, θ̂_b) = Σ_{c ∈ L_ab} v²(g_a − ḡ_a)(g_b − ḡ_b) / (S0_a D_a S0_b D_b) + the same over U_ab

— the comparisons between a and b are the only ones both estimates share. The variance of each
(a = b) is ppi-python's: var_L(y − λf)/n + λ²·var_U(f)/N (divisors n and N).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ._basis import Tables, basis, box_lambda, cross_tables, tables
from ._design import Design
from ._moments import PairMoments

__all__ = ["MIN_COMPARISONS", "WinRateFit", "win_rates"]

#: a model needs at least this many labelled comparisons for an estimate with a standard error
MIN_COMPARISONS = 2


@dataclasses.dataclass(frozen=True)
class WinRateFit:
    """Per model: ``point``, ``se``, ``lam`` (M, J), labelled and unlabelled comparisons ``n``,
    ``big_n``; ``ok`` (an estimate exists); ``cov`` (M, M, NaN where a model has no estimate);
    ``codes`` per model (tuples of reason codes)."""

    point: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    lam: np.ndarray
    n: np.ndarray
    big_n: np.ndarray
    ok: np.ndarray
    codes: tuple[tuple[str, ...], ...]


@dataclasses.dataclass(frozen=True)
class _Side:
    """The tables of one set (L or U), aggregated per model, and per pair for the covariance."""

    model: Tables  # per model (M rows)
    first: Tables  # per pair, the first model's side
    second: Tables  # per pair, the second model's side
    cross: np.ndarray  # (P, B, B)


def _per_model(t0: Tables, t1: Tables, first: np.ndarray, second: np.ndarray, m: int) -> Tables:
    def agg(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.zeros((m, *a.shape[1:]))
        np.add.at(out, first, a)
        np.add.at(out, second, b)
        return out

    return Tables(
        *(agg(a, b) for a, b in zip(dataclasses.astuple(t0), dataclasses.astuple(t1), strict=True))
    )


def _side(d: Design, moments, sources: tuple[int, ...], ties: str) -> _Side:
    b0 = basis(ties, 0, sources, d.k)
    b1 = basis(ties, 1, sources, d.k)
    t0, t1 = tables(moments, *b0), tables(moments, *b1)
    return _Side(
        _per_model(t0, t1, d.first, d.second, d.n_models), t0, t1, cross_tables(moments, b0, b1)
    )


def _model_side(d: Design, moments: PairMoments, sources: tuple[int, ...], ties: str) -> _Side:
    """The per-model tables alone (no per-pair ones: no covariance), from the moments summed per
    model first — a model's comparisons as its first model, and as its second with every source's
    two shares swapped — then one basis transform per model instead of one per pair and side."""
    k, m = d.k, d.n_models
    swap = np.arange(k).reshape(-1, 2)[:, ::-1].ravel()

    def per_model(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        flat_a, flat_b = a.reshape(len(a), -1), b.reshape(len(b), -1)
        out = np.empty((m, flat_a.shape[1]))
        for c in range(flat_a.shape[1]):
            out[:, c] = np.bincount(d.first, flat_a[:, c], m) + np.bincount(
                d.second, flat_b[:, c], m
            )
        return out.reshape((m, *a.shape[1:]))

    def both(s0, s1, s2):
        return (
            per_model(s0, s0),
            per_model(s1, s1[:, swap]),
            per_model(s2, s2[:, swap][:, :, swap]),
        )

    s0, s1, s2 = both(moments.s0, moments.s1, moments.s2)
    q0, q1, q2 = (s0, s1, s2) if not moments.weighted else both(moments.q0, moments.q1, moments.q2)
    n = per_model(moments.n.astype(float), moments.n.astype(float)).astype(np.int64)
    summed = PairMoments(s0, s1, s2, q0, q1, q2, n, moments.weighted)
    model = tables(summed, *basis(ties, 0, sources, k))
    return _Side(model, model, model, np.zeros((0, 0, 0)))


def _coefficients(theta: np.ndarray, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per model, the coefficients of the labelled residual (y_h − θd_h) − Σλ_j(y_j − θd_j) and of
    the unlabelled one Σλ_j(y_j − θd_j) over the basis (M, B)."""
    m, j = lam.shape
    c_l = np.zeros((m, 2 + 2 * j))
    c_u = np.zeros((m, 2 + 2 * j))
    c_l[:, 0], c_l[:, 1] = 1.0, -theta
    for k in range(j):
        c_l[:, 2 + 2 * k], c_l[:, 3 + 2 * k] = -lam[:, k], lam[:, k] * theta
        c_u[:, 2 + 2 * k], c_u[:, 3 + 2 * k] = lam[:, k], -lam[:, k] * theta
    return c_l, c_u


def _safe(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x, 1.0)


def _theta(lab: Tables, unl: Tables | None, lam: np.ndarray, ratio: bool):
    """The estimate for given λ, and its denominator D (1 unless ``ratio``)."""
    n, big_n = _safe(lab.s0), _safe(unl.s0) if unl is not None else None
    num = lab.t1[:, 0] / n
    den = lab.t1[:, 1] / n
    for k in range(lam.shape[1]):
        assert unl is not None and big_n is not None
        num = num - lam[:, k] * lab.t1[:, 2 + 2 * k] / n + lam[:, k] * unl.t1[:, 2 + 2 * k] / big_n
        den = den - lam[:, k] * lab.t1[:, 3 + 2 * k] / n + lam[:, k] * unl.t1[:, 3 + 2 * k] / big_n
    if not ratio:
        return num, np.ones_like(num)
    return num / np.where(den > 0, den, np.nan), den


def _centred(t: Tables, c: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Σ v²(z − ḡ)² per row for z = cᵀ(basis), ḡ its weighted mean."""
    quad = np.einsum("mb,mbc,mc->m", c, t.t2, c)
    return quad - 2 * g * np.einsum("mb,mb->m", c, t.t1q) + g * g * t.q0


def _mean(t: Tables, c: np.ndarray) -> np.ndarray:
    return np.einsum("mb,mb->m", c, t.t1) / _safe(t.s0)


def _tuned(lab: Tables, unl: Tables, theta: np.ndarray, j: int, weighted: bool) -> np.ndarray:
    """PPI++'s λ per model at ``theta`` (see the module docstring)."""
    m = len(theta)
    e = np.zeros((1 + j, m, 2 + 2 * j))  # e[0]: the human gradient y_h − θd_h; e[k]: judge k's
    for s in range(1 + j):
        e[s, :, 2 * s], e[s, :, 2 * s + 1] = 1.0, -theta
    n, big_n = lab.s0, unl.s0
    mean_l = np.stack([_mean(lab, e[s]) for s in range(1 + j)])
    b = np.zeros((m, j))
    c = np.zeros((m, j, j))
    for a in range(1, 1 + j):
        if weighted:
            b[:, a - 1] = _cov_w(lab, e[0], e[a], mean_l[0], mean_l[a]) / _safe(n) ** 2
        else:
            prod = np.einsum("mb,mbc,mc->m", e[0], lab.t2s, e[a])
            b[:, a - 1] = (prod - n * mean_l[0] * mean_l[a]) / _safe(n)
        for k in range(a, 1 + j):
            if weighted:
                mean_u = (_mean(unl, e[a]), _mean(unl, e[k]))
                value = _cov_w(lab, e[a], e[k], mean_l[a], mean_l[k]) / _safe(n) ** 2
                value = value + _cov_w(unl, e[a], e[k], *mean_u) / _safe(big_n) ** 2
            else:
                total = n + big_n
                pooled = (
                    np.einsum("mb,mb->m", e[a], lab.t1 + unl.t1) / _safe(total),
                    np.einsum("mb,mb->m", e[k], lab.t1 + unl.t1) / _safe(total),
                )
                prod = np.einsum("mb,mbc,mc->m", e[a], lab.t2s + unl.t2s, e[k])
                cov = (prod - total * pooled[0] * pooled[1]) / _safe(total - 1)
                value = (1 + n / _safe(big_n)) * cov
            c[:, a - 1, k - 1] = c[:, k - 1, a - 1] = value
    out = np.zeros((m, j))
    use = (n > 0) & (big_n > 0)
    if j == 1:  # box_lambda's one-judge rule, for every model at once
        cc, bb = c[:, 0, 0], b[:, 0]
        good = use & (cc > 0) & np.isfinite(cc) & np.isfinite(bb)
        out[good, 0] = np.clip(bb[good] / cc[good], 0.0, 1.0)
        return out
    for i in np.flatnonzero(use):
        out[i] = box_lambda(c[i], b[i])
    return out


def _cov_w(t: Tables, c1: np.ndarray, c2: np.ndarray, g1: np.ndarray, g2: np.ndarray):
    quad = np.einsum("mb,mbc,mc->m", c1, t.t2, c2)
    lin = g2 * np.einsum("mb,mb->m", c1, t.t1q) + g1 * np.einsum("mb,mb->m", c2, t.t1q)
    return quad - lin + g1 * g2 * t.q0


def win_rates(
    d: Design, judges: tuple[int, ...], rule: str, ties: str, *, covariance: bool = True
) -> WinRateFit:
    """Every model's win rate with the judges ``judges`` (1-based; ``()`` for the humans alone) and
    λ by ``rule``: ``"classical"`` (0), ``"ppi"`` (1/J each) or ``"ppi++"`` (tuned).
    ``covariance=False`` gives the estimates alone (``se`` NaN, ``cov`` empty, no ``codes``), for
    the plan's simulation."""
    sources = (0, *judges)
    j = len(judges)
    ratio = ties == "drop"
    side = _side if covariance else _model_side
    lab = side(d, d.moments_l, sources, ties)
    unl = side(d, d.moments_u(judges), sources, ties) if j else None
    m = d.n_models
    big_n = unl.model.s0 if unl is not None else np.zeros(m)
    has_u = big_n > 0
    lam = np.zeros((m, j))
    if j and rule != "classical":
        lam[has_u] = 1.0 / j
        if rule == "ppi++":
            assert unl is not None
            theta1, _ = _theta(lab.model, unl.model, lam, ratio)
            theta1 = np.nan_to_num(theta1)
            lam = _tuned(lab.model, unl.model, theta1, j, d.moments_l.weighted)
            lam[~has_u] = 0.0
    theta, den = _theta(lab.model, unl.model if unl else None, lam, ratio)
    counts = d.moments_l.n
    n_comp = np.bincount(d.first, weights=counts, minlength=m)
    n_comp = n_comp + np.bincount(d.second, weights=counts, minlength=m)
    ok = (n_comp >= MIN_COMPARISONS) & np.isfinite(theta)
    if not covariance:
        nan = np.full(m, np.nan)
        point = np.where(ok, theta, np.nan)
        return WinRateFit(
            point, nan, np.full((0, 0), np.nan), lam, n_comp.astype(np.int64), big_n, ok, ()
        )
    cov = _covariance(d, lab, unl, theta, den, lam)
    codes = []
    for i in range(m):
        row = []
        if n_comp[i] == 0:
            row.append("no_human_votes")
        elif n_comp[i] < MIN_COMPARISONS:
            row.append("too_few_votes")
        elif not np.isfinite(theta[i]):
            row.append("no_decisive_votes")
        if j and rule != "classical" and ok[i] and not has_u[i]:
            row.append("no_unlabelled")
        codes.append(tuple(row))
    point = np.where(ok, theta, np.nan)
    cov[~ok, :] = np.nan
    cov[:, ~ok] = np.nan
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return WinRateFit(point, se, cov, lam, n_comp.astype(np.int64), big_n, ok, tuple(codes))


def _covariance(
    d: Design, lab: _Side, unl: _Side | None, theta: np.ndarray, den: np.ndarray, lam: np.ndarray
) -> np.ndarray:
    """The joint covariance of every model's estimate (see the module docstring)."""
    c_l, c_u = _coefficients(np.nan_to_num(theta), lam)
    scale_l = _safe(lab.model.s0) * np.where(den != 0, den, np.nan)
    g_l = _mean(lab.model, c_l)
    var = _centred(lab.model, c_l, g_l) / scale_l**2
    f, s = d.first, d.second
    off = _pair_cov(lab, c_l, g_l, f, s) / (scale_l[f] * scale_l[s])
    if unl is not None:
        scale_u = _safe(unl.model.s0) * np.where(den != 0, den, np.nan)
        g_u = _mean(unl.model, c_u)
        var = var + np.where(unl.model.s0 > 0, _centred(unl.model, c_u, g_u) / scale_u**2, 0.0)
        off = off + np.where(
            (unl.model.s0[f] > 0) & (unl.model.s0[s] > 0),
            _pair_cov(unl, c_u, g_u, f, s) / (scale_u[f] * scale_u[s]),
            0.0,
        )
    cov = np.diag(var)
    cov[f, s] = off
    cov[s, f] = off
    return cov


def _pair_cov(side: _Side, c: np.ndarray, g: np.ndarray, f: np.ndarray, s: np.ndarray):
    """Σ v²(z_f − ḡ_f)(z_s − ḡ_s) over the comparisons of each pair (first f, second s)."""
    cf, cs = c[f], c[s]
    quad = np.einsum("pb,pbc,pc->p", cf, side.cross, cs)
    lin = g[s] * np.einsum("pb,pb->p", cf, side.first.t1q)
    lin = lin + g[f] * np.einsum("pb,pb->p", cs, side.second.t1q)
    return quad - lin + g[f] * g[s] * side.first.q0
