"""Several judges at once: PPI++ with one tuned weight per judge, on plain arrays.

J judges score every item; F is the n × J matrix of their scores on the labelled items, F̃ the N × J
one on the unlabelled items. For any weights λ ∈ ℝ^J the estimate::

    θ̂(λ) = mean(y) + λᵀ(mean(F̃) − mean(F)),
    se²(λ) = λᵀ S̃ λ / N + var(y − Fλ) / n          (S̃: covariance of F̃, divisor N)

is unbiased (the judges' terms cancel in expectation), so λ is chosen to minimise the variance. With
Σ the covariance of the judges' scores over all n + N items (divisor n + N − 1, as ppi-python pools
them) and c the covariance of y with F on the labelled items (divisor n), the estimated variance is
((1/N + 1/n) λᵀΣλ − 2λᵀc/n + var(y)/n), minimised at::

    λ̂ = ((1 + n/N) Σ)⁻¹ c

(Angelopoulos, Duchi & Zrnic 2023, the PPI++ weight, with the vector of judges in place of one; Miao,
Miao, Wu, Zhao & Lu 2024 combine predictions the same way). With one judge it is ppi-python's λ̂. By
default each weight is kept in [0, 1] as PPI++ clips its one λ (``clip=True``): the exact minimiser
over the box, found by trying every face (each weight at 0, at 1 or free; 3^J linear solves, at most
8 judges); ``clip=False`` keeps the closed form. A pseudo-inverse serves judges whose scores are
collinear (two identical judges share one weight).

Each judge's effective labels are those of PPI++ with that judge alone (σ²/se²), beside the
combination's.

References
----------
Angelopoulos, Duchi & Zrnic, "PPI++: Efficient prediction-powered inference", arXiv:2311.01453 (2023).
Miao, Miao, Wu, Zhao & Lu, "Assumption-lean and data-adaptive post-prediction inference",
arXiv:2311.14220 (2024).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import numpy as np

from ..errors import InputError
from ._ppi import Fit, Moments, fit
from ._vectors import columns

__all__ = ["MAX_JUDGES", "JudgesFit", "box_weights", "fit_judges", "fit_judges_weighted"]

#: the most judges combined at once (3^J faces are tried for the weights in [0, 1])
MAX_JUDGES = 8


@dataclasses.dataclass(frozen=True)
class JudgesFit(Fit):
    """A :class:`~humanly.judging._ppi.Fit` of the combination (``lam`` is the sum of the judges'
    weights), with each judge's weight per column (E × J) and each judge's fit alone."""

    weights: np.ndarray
    alone: tuple[Fit, ...]


def _cube(a: Any, name: str) -> np.ndarray:
    """Scores as items × estimands × judges (n × J is one estimand)."""
    x = np.asarray(a, dtype=float)
    if x.ndim == 2:
        return x[:, None, :]
    if x.ndim != 3:
        raise InputError(
            f"{name}: an array of shape {x.shape}; give items × judges (one estimand) or items × "
            "estimands × judges"
        )
    return x


def box_weights(a: np.ndarray, b: np.ndarray, clip: bool = True) -> np.ndarray:
    """argmin ½λᵀAλ − bᵀλ, over [0, 1]^J when ``clip`` (every face tried), else A⁺b."""
    free = np.linalg.lstsq(a, b, rcond=None)[0] if np.any(a) else np.zeros(len(b))
    if not clip or ((free >= 0) & (free <= 1)).all():
        return free
    best, best_value = np.zeros(len(b)), 0.0
    for faces in itertools.product((2, 0, 1), repeat=len(b)):
        s = np.array(faces)
        lam = (s == 1).astype(float)
        f = s == 2
        if f.any():
            rhs = b[f] - a[np.ix_(f, s == 1)].sum(axis=1)
            lam[f] = np.linalg.lstsq(a[np.ix_(f, f)], rhs, rcond=None)[0]
            if ((lam[f] < -1e-12) | (lam[f] > 1 + 1e-12)).any():
                continue
            lam = np.clip(lam, 0.0, 1.0)
        value = 0.5 * lam @ a @ lam - b @ lam
        if value < best_value - 1e-15:
            best, best_value = lam, value
    return best


def _unlabelled_moments(fu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per column, the judges' mean (E × J) and covariance with divisor N (E × J × J) on the
    unlabelled items: one pass per pair of judges over all columns at once (only the E blocks of
    J × J are needed, not the whole EJ × EJ product of the N × EJ scores, E times the work)."""
    big_n, e, j = fu.shape
    mu = fu.mean(axis=0)
    blocks = np.empty((e, j, j))
    for a in range(j):
        for b in range(a, j):
            cross = np.einsum("ne,ne->e", fu[:, :, a], fu[:, :, b]) / big_n - mu[:, a] * mu[:, b]
            blocks[:, a, b] = blocks[:, b, a] = cross
    return mu, blocks


def fit_judges(y: Any, f: Any, f_unlabelled: Any, *, clip: bool = True) -> JudgesFit:
    """Multi-judge PPI++ column by column.

    Parameters: ``y`` n × E (or n), ``f`` n × E × J (or n × J), ``f_unlabelled`` N × E × J (or N × J).
    """
    y_ = columns(y)
    fl, fu = _cube(f, "f"), np.ascontiguousarray(_cube(f_unlabelled, "f_unlabelled"))
    n, e, j = fl.shape
    big_n = fu.shape[0]
    if j > MAX_JUDGES:
        raise InputError(f"f: {j} judges; combine at most {MAX_JUDGES} at once")
    my, mf = y_.mean(axis=0), fl.mean(axis=0)
    mu, s_unl = _unlabelled_moments(fu)
    yc, fc = y_ - my, fl - mf
    weights = np.zeros((e, j))
    se = np.zeros(e)
    rho = np.full(e, np.nan)
    for col in range(e):
        s_lab = fc[:, col, :].T @ fc[:, col, :] / n
        pooled = (n * mf[col] + big_n * mu[col]) / (n + big_n)
        dl, du = mf[col] - pooled, mu[col] - pooled
        ss = n * s_lab + big_n * s_unl[col] + n * np.outer(dl, dl) + big_n * np.outer(du, du)
        c = fc[:, col, :].T @ yc[:, col] / n
        lam = box_weights((1.0 + n / big_n) * ss / (n + big_n - 1), c, clip)
        weights[col] = lam
        rect = y_[:, col] - fl[:, col, :] @ lam
        se[col] = np.sqrt(max(lam @ s_unl[col] @ lam, 0.0) / big_n + rect.var() / n)
        combo = fc[:, col, :] @ lam
        den = np.sqrt(yc[:, col].var() * combo.var())
        rho[col] = combo @ yc[:, col] / n / den if den > 0 else np.nan
    point = my + np.einsum("ej,ej->e", weights, mu - mf)
    var_y = (yc**2).mean(axis=0)
    count = np.full(e, float(big_n))
    alone = tuple(
        fit(y_, fl[:, :, k], Moments(count, mu[:, k], np.maximum(s_unl[:, k, k], 0) / big_n, False))
        for k in range(j)
    )
    return JudgesFit(
        point=point,
        se=se,
        lam=weights.sum(axis=1),
        classical_point=my,
        classical_se=np.sqrt(var_y / n),
        sd=np.sqrt(var_y),
        rho=rho,
        n=np.full(e, float(n)),
        weights=weights,
        alone=alone,
    )


def fit_judges_weighted(
    y: Any, f: Any, f_unlabelled: Any, weights: Any, weights_unlabelled: Any, *, clip: bool = True
) -> JudgesFit:
    """Multi-judge PPI++ in the active (inverse-probability-weighted, self-normalised) form, column
    by column: ``weights`` 1/π on the labelled items, ``weights_unlabelled`` 1/(1 − π) on the others
    (as :func:`humanly.judging._ppi.fit` weighs one judge). With weights w_L, w_U the estimate is
    Hájek's mean(y) + λᵀ(mean_U(F̃) − mean_L(F)), its variance λᵀS_Uλ + var_L(y − Fλ) (both sums of
    squared weighted deviations over (Σw)²), minimised at (S_U + S_L)λ = c — with one judge exactly
    the weighted PPI++ λ of :func:`~humanly.judging._ppi.fit`."""
    y_ = columns(y)
    fl, fu = _cube(f, "f"), _cube(f_unlabelled, "f_unlabelled")
    _, e, j = fl.shape
    if j > MAX_JUDGES:
        raise InputError(f"f: {j} judges; combine at most {MAX_JUDGES} at once")
    v = np.asarray(weights, dtype=float).reshape(-1)
    w = np.asarray(weights_unlabelled, dtype=float).reshape(-1)
    tv, tw = v.sum(), w.sum()
    my = (v[:, None] * y_).sum(axis=0) / tv
    mf = np.einsum("i,iej->ej", v, fl) / tv
    mu = np.einsum("i,iej->ej", w, fu) / tw
    weights_out = np.zeros((e, j))
    se, rho = np.zeros(e), np.full(e, np.nan)
    var_y = (v[:, None] * (y_ - my) ** 2).sum(axis=0) / tv
    s_yy = ((v[:, None] * (y_ - my)) ** 2).sum(axis=0) / tv**2
    var_u = np.zeros((e, j))
    for col in range(e):
        fc = v[:, None] * (fl[:, col, :] - mf[col])
        yc = v * (y_[:, col] - my[col])
        uc = w[:, None] * (fu[:, col, :] - mu[col])
        s_l, s_u = fc.T @ fc / tv**2, uc.T @ uc / tw**2
        c = fc.T @ yc / tv**2
        lam = box_weights(s_l + s_u, c, clip)
        weights_out[col] = lam
        var_u[col] = np.diag(s_u)
        se[col] = np.sqrt(max(lam @ s_u @ lam + s_yy[col] - 2 * lam @ c + lam @ s_l @ lam, 0.0))
        combo = (fl[:, col, :] - mf[col]) @ lam
        yd = y_[:, col] - my[col]
        den = np.sqrt((v * yd**2).sum() / tv * (v * combo**2).sum() / tv)
        rho[col] = (v * yd * combo).sum() / tv / den if den > 0 else np.nan
    point = my + np.einsum("ej,ej->e", weights_out, mu - mf)
    count = np.full(e, float((w > 0).sum()))
    alone = tuple(
        fit(y_, fl[:, :, k], Moments(count, mu[:, k], var_u[:, k], True), weights=v[:, None])
        for k in range(j)
    )
    return JudgesFit(
        point=point,
        se=se,
        lam=weights_out.sum(axis=1),
        classical_point=my,
        classical_se=np.sqrt(s_yy),
        sd=np.sqrt(var_y),
        rho=rho,
        n=np.full(e, float((v > 0).sum())),
        weights=weights_out,
        alone=alone,
    )
