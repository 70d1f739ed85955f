"""Bradley–Terry strengths: maximum likelihood from the human votes, and the prediction-powered
M-estimator with judges (PPI / PPI++), with sandwich covariances.

Model: the first model of a comparison wins with probability σ(θ_first − θ_second), σ the logistic
function; strengths on the natural-log scale, centred to mean 0. Per comparison, with s the first
model's score and d its weight (:mod:`._basis`: ``ties="half"`` counts a tie as half a win for each
side, s = won + ½·tied and d = 1; ``"drop"`` — and ``"loss"``, which a two-outcome model cannot hold —
leaves ties out, s = won and d = decisive votes), the loss is the binomial deviance

    ℓ(θ; s, d) = −s·δ + d·log(1 + e^δ),   δ = θ_first − θ_second.

The estimate minimises the PPI loss (Angelopoulos et al. 2023, PPI++ M-estimation; Boyeau et al.
2024 for Bradley–Terry)

    L(θ) = mean_L[ℓ(θ; human) − Σ_j λ_j ℓ(θ; judge j)] + mean_U[Σ_j λ_j ℓ(θ; judge j)]

by Newton's method with a backtracking line search on the (M − 1) strengths left when one model's is
fixed at 0; every sum is over pairs of models (:mod:`._moments`), so one Newton step costs O(pairs).
λ = 0 is the human-only maximum likelihood (with ``ties="half"``, the logistic regression of the
score on the ±1 model indicators without intercept), λ = 1 (1/J each for J judges) PPI. Its covariance
is the sandwich H⁻¹ V H⁻¹ with H the Hessian of the human loss at the estimate (λ-free; the PPI loss's
Hessian estimates the same matrix) and V = var_L(rectified gradient)/n + var_U(judges' gradient)/N
(divisors n and N; Hájek-weighted under an active design); λ = 0 gives the heteroskedasticity-robust
(HC0) covariance of the logistic fit. PPI++ tunes λ with the trace criterion of PPI++ (Angelopoulos,
Duchi & Zrnic 2023; ppi-python's ``_calc_lam_glm``): at the PPI estimate, λ̂ minimises the estimated
total variance of the centred strengths, tr(T H⁻¹ V(λ) H⁻¹ Tᵀ) (T: reference coordinates → centred),
over [0, 1]^J — V(λ) is quadratic in λ, so λ̂ is one small solve, and it is computed from the same
variance estimate that is reported (ppi-python pools the judge's gradient variance over L ∪ U with
divisor n + N − 1 instead; the two agree as n, N grow).

The strengths exist only where the human votes connect the models in both directions (Ford 1957: a
model that won, or lost, every comparison has no finite strength); the fit is on the largest strongly
connected group of models (:func:`component`), and the other groups are named.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ._basis import Tables, basis, box_lambda, tables
from ._design import Design

__all__ = ["StrengthFit", "component", "sigmoid", "strengths"]

#: Newton stops when the largest step is below this (natural-log strengths)
TOL = 1e-10
MAX_ITER = 200


@dataclasses.dataclass(frozen=True)
class StrengthFit:
    """``point`` (M,), centred over the fitted models (NaN elsewhere), ``cov`` (M, M), ``se``, ``lam``
    (J,), ``converged``, ``iterations``, ``fitted`` (bool, M), and ``inv_hessian`` (M, M; 0 outside
    the fitted models): the inverse Hessian of the loss in the centred coordinates, so that one more
    labelled comparison of a and b moves the strengths by about ``inv_hessian @ (e_a − e_b)`` × its
    residual / n."""

    point: np.ndarray
    cov: np.ndarray
    se: np.ndarray
    lam: np.ndarray
    converged: bool
    iterations: int
    fitted: np.ndarray
    inv_hessian: np.ndarray


def sigmoid(x: np.ndarray) -> np.ndarray:
    """σ(x) = 1/(1 + e^−x), without overflow (numpy only: no scipy import on this path)."""
    return np.exp(-np.logaddexp(0.0, -np.asarray(x, dtype=float)))


def _strong_components(m: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The strongly connected component of each of m nodes of the directed graph rows → cols
    (Tarjan's algorithm, iterative; O(nodes + edges))."""
    order = np.argsort(rows, kind="stable")
    targets = cols[order]
    start = np.searchsorted(rows[order], np.arange(m + 1))
    index = np.full(m, -1)
    low = np.zeros(m, dtype=np.int64)
    comp = np.full(m, -1)
    on_stack = np.zeros(m, dtype=bool)
    stack: list[int] = []
    counter = n_comp = 0
    for root in range(m):
        if index[root] >= 0:
            continue
        work = [(root, int(start[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, k = work[-1]
            if k < start[v + 1]:
                work[-1] = (v, k + 1)
                w = int(targets[k])
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, int(start[w])))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = n_comp
                    if w == v:
                        break
                n_comp += 1
    return comp


def component(d: Design, ties: str) -> tuple[np.ndarray, tuple[tuple[int, ...], ...], bool]:
    """The models the strengths are fitted on (the largest strongly connected group of the human
    "won against" graph; a tie is a half win both ways with ``ties="half"``), every group (largest
    first, then by first model), and whether the graph is connected at all (ignoring direction)."""
    alpha, beta = basis("drop" if ties == "loss" else ties, 0, (0,), d.k)
    t = tables(d.moments_l, alpha, beta)
    won_first = t.t1[:, 0]  # Σ s_h: the first model's (partial) wins
    won_second = t.t1[:, 1] - t.t1[:, 0]  # Σ (d_h − s_h): the second model's
    m = d.n_models
    rows = np.concatenate([d.first[won_first > 0], d.second[won_second > 0]])
    cols = np.concatenate([d.second[won_first > 0], d.first[won_second > 0]])
    strong = _strong_components(m, rows, cols)
    weak = _strong_components(m, np.concatenate([rows, cols]), np.concatenate([cols, rows]))
    n_weak = len(set(weak.tolist()))
    voted = np.zeros(m, dtype=bool)
    counts = d.moments_l.n > 0
    voted[d.first[counts]] = voted[d.second[counts]] = True
    groups: dict[int, list[int]] = {}
    for i in range(m):
        groups.setdefault(int(strong[i]), []).append(i)
    ordered = sorted((tuple(g) for g in groups.values()), key=lambda g: (-len(g), g[0]))
    main = np.zeros(m, dtype=bool)
    if ordered and len(ordered[0]) >= 2:
        main[list(ordered[0])] = True
    n_weak_voted = n_weak - int((~voted).sum())  # a model with no vote is its own group
    return main, tuple(ordered), n_weak_voted <= 1 and bool(voted.all())


@dataclasses.dataclass(frozen=True)
class _Problem:
    """The pairs inside the fitted group, in reduced coordinates (the reference model dropped)."""

    a: np.ndarray  # reduced index of the first model (-1: the reference)
    b: np.ndarray
    lab: Tables
    unl: Tables | None
    n: float
    big_n: float
    size: int  # reduced dimension


def _lap(weights: np.ndarray, p: _Problem) -> np.ndarray:
    """Σ_p w_p (e_a − e_b)(e_a − e_b)ᵀ in reduced coordinates."""
    out = np.zeros((p.size + 1, p.size + 1))  # the last row/column stands for the reference
    a = np.where(p.a < 0, p.size, p.a)
    b = np.where(p.b < 0, p.size, p.b)
    np.add.at(out, (a, a), weights)
    np.add.at(out, (b, b), weights)
    np.add.at(out, (a, b), -weights)
    np.add.at(out, (b, a), -weights)
    return out[: p.size, : p.size]


def _vec(weights: np.ndarray, p: _Problem) -> np.ndarray:
    """Σ_p w_p (e_a − e_b) in reduced coordinates."""
    out = np.zeros(p.size + 1)
    np.add.at(out, np.where(p.a < 0, p.size, p.a), weights)
    np.add.at(out, np.where(p.b < 0, p.size, p.b), -weights)
    return out[: p.size]


def _delta(theta: np.ndarray, p: _Problem) -> np.ndarray:
    full = np.append(theta, 0.0)
    return full[np.where(p.a < 0, p.size, p.a)] - full[np.where(p.b < 0, p.size, p.b)]


def _ab(p: _Problem, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair, the coefficients A_p (of −δ) and B_p (of log(1 + e^δ)) of the PPI loss."""
    c_s = np.zeros(2 + 2 * len(lam))
    c_d = np.zeros_like(c_s)
    c_s[0], c_d[1] = 1.0, 1.0
    c_s[2::2], c_d[3::2] = -lam, -lam
    a_coef = p.lab.t1 @ c_s / p.n
    b_coef = p.lab.t1 @ c_d / p.n
    if p.unl is not None and p.big_n > 0:
        a_coef = a_coef + p.unl.t1[:, 2::2] @ lam / p.big_n
        b_coef = b_coef + p.unl.t1[:, 3::2] @ lam / p.big_n
    return a_coef, b_coef


def _loss(delta: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sum(-a * delta + b * np.logaddexp(0.0, delta)))


def _newton(p: _Problem, lam: np.ndarray) -> tuple[np.ndarray, bool, int]:
    a, b = _ab(p, lam)
    theta = np.zeros(p.size)
    delta = _delta(theta, p)
    value = _loss(delta, a, b)
    for it in range(1, MAX_ITER + 1):
        sig = sigmoid(delta)
        grad = _vec(-a + b * sig, p)
        hess = _lap(b * sig * (1 - sig), p)
        try:
            step = -np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = -np.linalg.lstsq(hess, grad, rcond=None)[0]
        if not np.all(np.isfinite(step)) or float(step @ grad) >= 0:  # not a descent direction
            step = -grad
        t = 1.0
        while t > 1e-12:
            trial = theta + t * step
            trial_delta = _delta(trial, p)
            trial_value = _loss(trial_delta, a, b)
            if trial_value <= value + 1e-4 * t * float(step @ grad) or trial_value <= value:
                break
            t *= 0.5
        theta, delta, value = trial, trial_delta, trial_value
        if np.max(np.abs(t * step), initial=0.0) < TOL:
            return theta, bool(np.all(np.isfinite(theta))), it
    return theta, False, MAX_ITER


def _residuals(p: _Problem, sig: np.ndarray, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair, the coefficients of the labelled rectified gradient (s_h − σd_h) − Σλ_j(s_j − σd_j)
    and of the unlabelled one Σλ_j(s_j − σd_j) over the basis (P, B)."""
    c_l = np.zeros((len(sig), 2 + 2 * len(lam)))
    c_l[:, 0], c_l[:, 1] = 1.0, -sig
    c_l[:, 2::2] = -lam[None, :]
    c_l[:, 3::2] = lam[None, :] * sig[:, None]
    c_u = np.zeros_like(c_l)
    c_u[:, 2::2] = lam[None, :]
    c_u[:, 3::2] = -lam[None, :] * sig[:, None]
    return c_l, c_u


def _meat(t: Tables, c1: np.ndarray, c2: np.ndarray, total: float, p: _Problem) -> np.ndarray:
    """Σ v²(ψ₁ − m₁)(ψ₂ − m₂)ᵀ / (Σv)² for per-comparison gradients ψ = (cᵀz)(e_a − e_b)."""
    if not total > 0:
        return np.zeros((p.size, p.size))
    lap = _lap(np.einsum("pb,pbc,pc->p", c1, t.t2, c2), p)
    m1 = _vec(np.einsum("pb,pb->p", c1, t.t1), p) / total
    m2 = _vec(np.einsum("pb,pb->p", c2, t.t1), p) / total
    u1 = _vec(np.einsum("pb,pb->p", c1, t.t1q), p)
    u2 = _vec(np.einsum("pb,pb->p", c2, t.t1q), p)
    q0 = float(t.q0.sum())
    return (lap - np.outer(m1, u2) - np.outer(u1, m2) + q0 * np.outer(m1, m2)) / total**2


def _hessian(p: _Problem, theta: np.ndarray) -> np.ndarray:
    """The Hessian of the human loss at θ, Σ_p (Σ_L v·d_h / Σ_L v)·σ(1 − σ)·(e_a − e_b)(e_a − e_b)ᵀ:
    it does not depend on λ, and the PPI loss's Hessian estimates the same matrix."""
    b = p.lab.t1[:, 1] / p.n  # the human weight d_h, summed per pair
    sig = sigmoid(_delta(theta, p))
    return _lap(b * sig * (1 - sig), p)


def _inverse(h: np.ndarray) -> np.ndarray:
    """H⁻¹ by an LU solve (the pseudo-inverse when H is singular): a solve, unlike an SVD, stays fast
    when the machine's BLAS threads compete for the cores."""
    try:
        return np.linalg.solve(h, np.eye(len(h)))
    except np.linalg.LinAlgError:
        return np.linalg.pinv(h)


def _sandwich(p: _Problem, theta: np.ndarray, lam: np.ndarray) -> np.ndarray:
    sig = sigmoid(_delta(theta, p))
    c_l, c_u = _residuals(p, sig, lam)
    meat = _meat(p.lab, c_l, c_l, p.n, p)
    if p.unl is not None and len(lam) and p.big_n > 0:
        meat = meat + _meat(p.unl, c_u, c_u, p.big_n, p)
    inv = _inverse(_hessian(p, theta))
    return inv @ meat @ inv


def _gradient_coefficients(sig: np.ndarray, source: int, j: int) -> np.ndarray:
    """Per pair, the coefficients of one source's gradient s − σ·d over the basis (P, B)."""
    c = np.zeros((len(sig), 2 + 2 * j))
    c[:, 2 * source], c[:, 2 * source + 1] = 1.0, -sig
    return c


def _tuned(p: _Problem, theta: np.ndarray, lam1: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """PPI++'s λ at ``theta`` (the PPI estimate): the λ in [0, 1]^J minimising the estimated total
    variance of the centred strengths, tr(T H⁻¹ V(λ) H⁻¹ Tᵀ), with V(λ) = V_L(λ) + V_U(λ) the meat of
    :func:`_sandwich` — quadratic in λ, so one small solve (:func:`._basis.box_lambda`)."""
    assert p.unl is not None
    j = len(lam1)
    sig = sigmoid(_delta(theta, p))
    e = [_gradient_coefficients(sig, s, j) for s in range(1 + j)]
    a = centre @ _inverse(_hessian(p, theta))

    def trace(x: np.ndarray) -> float:
        return float(np.einsum("ij,jk,ik->", a, x, a))

    b = np.array([trace(_meat(p.lab, e[0], e[k], p.n, p)) for k in range(1, 1 + j)])
    c = np.zeros((j, j))
    for s in range(1, 1 + j):
        for k in range(s, 1 + j):
            both = _meat(p.lab, e[s], e[k], p.n, p) + _meat(p.unl, e[s], e[k], p.big_n, p)
            c[s - 1, k - 1] = c[k - 1, s - 1] = trace(both)
    return box_lambda(c, b)


def _problem(d: Design, judges: tuple[int, ...], ties: str, fitted: np.ndarray) -> _Problem:
    sources = (0, *judges)
    bt_ties = "drop" if ties == "loss" else ties
    alpha, beta = basis(bt_ties, 0, sources, d.k)
    inside = fitted[d.first] & fitted[d.second]
    members = np.flatnonzero(fitted)
    reduced = np.full(d.n_models, -1, dtype=np.int64)
    reduced[members[1:]] = np.arange(len(members) - 1)  # the first fitted model is the reference
    lab = tables(d.moments_l, alpha, beta).take(np.flatnonzero(inside))
    unl = None
    big_n = 0.0
    if judges:
        unl = tables(d.moments_u(judges), alpha, beta).take(np.flatnonzero(inside))
        big_n = float(unl.s0.sum())
    return _Problem(
        a=reduced[d.first[inside]],
        b=reduced[d.second[inside]],
        lab=lab,
        unl=unl,
        n=float(lab.s0.sum()),
        big_n=big_n,
        size=len(members) - 1,
    )


def strengths(
    d: Design, judges: tuple[int, ...], rule: str, ties: str, fitted: np.ndarray
) -> StrengthFit:
    """Bradley–Terry strengths of the models in ``fitted`` with the judges ``judges`` (1-based; ``()``
    for the humans alone) and λ by ``rule`` (``"classical"``, ``"ppi"``, ``"ppi++"``)."""
    m = d.n_models
    j = len(judges)
    nan = np.full(m, np.nan)
    if fitted.sum() < 2:
        nans = np.full((m, m), np.nan)
        return StrengthFit(nan, nans, nan, np.zeros(j), False, 0, fitted, np.zeros((m, m)))
    p = _problem(d, judges, ties, fitted)
    members = np.flatnonzero(fitted)
    k = len(members)
    embed = np.zeros((k, k - 1))  # reduced → every fitted model (the reference at 0) → centred
    embed[1:, :] = np.eye(k - 1)
    t = (np.eye(k) - 1.0 / k) @ embed
    lam = np.zeros(j)
    if j and rule != "classical" and p.big_n > 0:
        lam = np.full(j, 1.0 / j)
        if rule == "ppi++":
            theta1, ok, _ = _newton(p, lam)
            if ok:
                lam = _tuned(p, theta1, lam, t)
    theta, converged, iterations = _newton(p, lam)
    with np.errstate(over="ignore", invalid="ignore"):
        cov_red = _sandwich(p, theta, lam)
    converged = converged and bool(np.all(np.isfinite(cov_red)))
    point = nan.copy()
    point[members] = t @ theta
    cov = np.full((m, m), np.nan)
    cov[np.ix_(members, members)] = t @ cov_red @ t.T
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    inv = np.zeros((m, m))
    inv[np.ix_(members, members)] = t @ _inverse(_hessian(p, theta)) @ t.T
    if not converged:
        point[:] = np.nan
    return StrengthFit(point, cov, se, lam, converged, iterations, fitted, inv)
