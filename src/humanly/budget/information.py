"""How tightly a pilot's likelihood pins its estimates down, without a bootstrap: Wald ranges from the
observed information.

A latent-class fit's log-likelihood can be nearly flat along some parameter (three labels from a crowd
right 60 % of the time leave the classifiers' accuracies almost free), and EM then stops wherever the
flat ridge ends — an interior point that looks like any other estimate. The bootstrap shows this as a
wide range; with ``bootstrap=0`` there was no signal at all. The information is one:

* the free parameters are mapped to an unconstrained scale (logits of each probability vector, of a
  class prior, of a label accuracy within [½, 1]), so the fit is an interior point;
* the score of every pattern of items (the gradient of its log-likelihood) is taken by central
  differences, and the information by the outer product of the scores, Σ_p n_p s_p s_pᵀ (the
  empirical information, equal to the observed information at the maximum in expectation, and
  positive semi-definite by construction);
* a reported parameter f(θ) gets the delta-method standard error √(∇f I⁻¹ ∇fᵀ) and the Wald range
  f ± z·se, clipped to [0, 1]. When the information is singular (a direction the data do not inform
  at all, relative eigenvalue below :data:`SINGULAR`) the parameters that load on that direction get
  an unbounded range (both ends ``None``).

A Wald range wider than ``identification.WIDE`` marks a parameter as weakly identified (reason
``"flat"``). Like every Wald range it is a local, symmetric approximation; it is a signal, not an
interval to report.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._core.normal import z_value
from .._core.result import Interval
from ._em import Patterns, paper_params, pattern_loglik

__all__ = ["SINGULAR", "correlated_wald", "wald_ranges"]

#: Eigenvalues of the information below this fraction of the largest count as zero.
SINGULAR = 1e-9
_STEP = 1e-5
_CLIP = 1e-7


def wald_ranges(
    loglik: Callable[[np.ndarray], np.ndarray],
    u: np.ndarray,
    freq: np.ndarray,
    summary: Callable[[np.ndarray], np.ndarray],
    level: float = 0.95,
) -> tuple[Interval, ...]:
    """Wald ranges of ``summary(u)`` from the empirical information at ``u``.

    Parameters
    ----------
    loglik : callable
        ``loglik(U)`` for a batch of unconstrained parameter rows ``U`` (B, D): each pattern's
        log-likelihood (B, P).
    u : numpy.ndarray
        The fit, on the unconstrained scale (D,).
    freq : numpy.ndarray
        Items per pattern (P,).
    summary : callable
        ``summary(U)``: the reported parameters (B, S) of each row.
    level : float
        The coverage the ranges are built for.

    Returns
    -------
    tuple of Interval
        One per reported parameter, clipped to [0, 1]; ``Interval(None, None)`` when the parameter
        loads on a direction the information does not inform.

    Examples
    --------
    >>> from scipy.special import expit
    >>> n = np.array([30.0, 70.0])  # 30 of 100 items positive: p = 0.3, se ≈ 0.046
    >>> ll = lambda U: np.stack([np.log(expit(U[:, 0])), np.log(expit(-U[:, 0]))], axis=1)
    >>> r = wald_ranges(ll, np.array([np.log(0.3 / 0.7)]), n, lambda U: expit(U))
    >>> round(r[0].low, 3), round(r[0].high, 3)
    (0.21, 0.39)
    """
    d = len(u)
    steps = np.eye(d) * _STEP
    rows = np.vstack([u + steps, u - steps, u[None]])
    ll = loglik(rows)
    scores = (ll[:d] - ll[d : 2 * d]).T / (2 * _STEP)  # (P, D)
    info = (scores * freq[:, None]).T @ scores
    sums = summary(rows)
    grad = (sums[:d] - sums[d : 2 * d]).T / (2 * _STEP)  # (S, D)
    value = sums[-1]
    vals, vecs = np.linalg.eigh(info)
    top = max(float(vals.max(initial=0.0)), 1e-300)
    good = vals > SINGULAR * top
    inv = (vecs[:, good] / vals[good]) @ vecs[:, good].T
    null = vecs[:, ~good]
    z = z_value(level)
    out = []
    for s in range(len(value)):
        g = grad[s]
        if null.size and np.abs(g @ null).max() > 1e-6 * max(1.0, float(np.abs(g).max())):
            out.append(Interval(None, None))
            continue
        se = float(np.sqrt(max(g @ inv @ g, 0.0)))
        low, high = float(value[s]) - z * se, float(value[s]) + z * se
        out.append(Interval(max(0.0, low), min(1.0, high)))
    return tuple(out)


# --------------------------------------------------------------------------- the correlated model
def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, _CLIP, 1.0 - _CLIP)
    return np.log(p / (1.0 - p))


def _expit(u: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-u))


def correlated_wald(
    pat: Patterns, rho: float, pi: np.ndarray, q: np.ndarray, slots: tuple[int, ...], level: float
) -> dict[str, Interval]:
    """Wald ranges of the paper's five parameters (q_b, q_w, p_w, p_b0, p_b1) of a fitted
    correlated error model (:mod:`humanly.budget.latent`): ``rho`` the class prior, ``pi`` the four
    state probabilities, ``q`` the eight label-accuracy slots (NaN: no item informs the slot) and
    ``slots`` the latent variant's map from slot to accuracy parameter."""
    slot = np.asarray(slots)
    informed = ~np.isnan(q)
    params = sorted({int(slot[i]) for i in range(8) if informed[i]})
    q_fixed = np.where(informed, q, 0.5)
    q_par = np.array([q[np.flatnonzero((slot == j) & informed)[0]] for j in params])
    pi_c = np.clip(pi, _CLIP, None)
    u0 = np.concatenate(
        [
            [_logit(np.array(rho))],
            np.log(pi_c[:3] / pi_c[3]),
            _logit(np.clip(2.0 * q_par - 1.0, _CLIP, 1.0 - _CLIP)),
        ]
    )

    def natural(U: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r = _expit(U[:, 0])
        e = np.exp(np.column_stack([U[:, 1:4], np.zeros(len(U))]))
        p = e / e.sum(axis=1, keepdims=True)
        qq = np.tile(q_fixed, (len(U), 1))
        acc = 0.5 + 0.5 * _expit(U[:, 4:])
        for j, par in enumerate(params):
            qq[:, (slot == par) & informed] = acc[:, j : j + 1]
        return r, p, qq

    def loglik(U: np.ndarray) -> np.ndarray:
        return pattern_loglik(pat, *natural(U))[0]

    names = ("q_b", "q_w", "p_w", "p_b0", "p_b1")

    def summary(U: np.ndarray) -> np.ndarray:
        par = paper_params(*natural(U))
        return np.column_stack([np.nan_to_num(par[k], nan=0.5) for k in names])

    ranges = wald_ranges(loglik, u0, pat.freq, summary, level)
    return dict(zip(names, ranges, strict=True))
